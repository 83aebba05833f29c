; PASSES: ferrocl-host-vector-width
; Every definition prefers vectors as wide as the host's registers (256
; bits with AVX2, 512 with AVX-512, whatever LLVM's tuning for the CPU
; prefers); declarations are left alone.

; CHECK: define void @kernel() #[[K:[0-9]+]]
define void @kernel() {
  call void @helper()
  ret void
}

; CHECK: define internal void @helper() #[[H:[0-9]+]]
define internal void @helper() #0 {
  ret void
}

; CHECK: declare void @elsewhere(){{$}}
declare void @elsewhere()

attributes #0 = { nounwind "prefer-vector-width"="128" }

; CHECK: attributes #[[K]] = { "prefer-vector-width"="[[BITS:256|512]]" }
; CHECK: attributes #[[H]] = { nounwind "prefer-vector-width"="[[BITS]]" }
