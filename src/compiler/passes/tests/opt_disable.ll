; PASSES: ferrocl-opt-disable
; Every defined function becomes optnone noinline (its inline hint gone),
; except those that must be inlined; declarations keep their attributes.

; CHECK: define i32 @helper(i32 %x) [[HELPER:#[0-9]+]]
define i32 @helper(i32 %x) #0 {
  ret i32 %x
}

; CHECK: define i32 @forced(i32 %x) [[FORCED:#[0-9]+]]
define i32 @forced(i32 %x) #1 {
  ret i32 %x
}

; CHECK: define spir_kernel void @k(ptr %o) [[KERNEL:#[0-9]+]]
define spir_kernel void @k(ptr %o) #2 {
  %a = call i32 @helper(i32 1)
  %b = call i32 @forced(i32 %a)
  %c = call i32 @external(i32 %b)
  store i32 %c, ptr %o
  ret void
}

; CHECK: declare i32 @external(i32) [[EXTERNAL:#[0-9]+]]
declare i32 @external(i32) #3

attributes #0 = { inlinehint nounwind }
attributes #1 = { alwaysinline nounwind }
attributes #2 = { convergent nounwind }
attributes #3 = { nounwind readnone }

; CHECK: attributes [[HELPER]] = { noinline nounwind optnone }
; CHECK: attributes [[FORCED]] = { alwaysinline nounwind }
; CHECK: attributes [[KERNEL]] = { convergent noinline nounwind optnone }
; CHECK: attributes [[EXTERNAL]] = { nounwind memory(none) }
