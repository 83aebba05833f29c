; PASSES: function(ferrocl-register-keepers-without-vzeroupper)
; A definition that keeps every register for its callers
; (no_caller_saved_registers) is compiled for the host less vzeroupper;
; other definitions and declarations keep their attributes.

; CHECK: define float @keeper(float %x) #[[KEEPER:[0-9]+]]
; CHECK: define float @plain(float %x) #[[PLAIN:[0-9]+]]
; CHECK: declare float @declared(float) #[[KEEPER_DECL:[0-9]+]]
; CHECK-DAG: attributes #[[KEEPER]] = { noinline "no_caller_saved_registers" "target-cpu"="{{[^"]+}}" "target-features"="{{[^"]*}}-vzeroupper{{[^"]*}}" }
; CHECK-DAG: attributes #[[PLAIN]] = { noinline }
; CHECK-DAG: attributes #[[KEEPER_DECL]] = { "no_caller_saved_registers" }

define float @keeper(float %x) #0 {
  %s = call float @sinf(float %x)
  ret float %s
}

define float @plain(float %x) #1 {
  %r = call float @declared(float %x)
  ret float %r
}

declare float @sinf(float)
declare float @declared(float) #2

attributes #0 = { noinline "no_caller_saved_registers" }
attributes #1 = { noinline }
attributes #2 = { "no_caller_saved_registers" }
