; PASSES: ferrocl-non-uniform-calls-apart
; Calls of the non-uniform sub-group functions are marked nomerge (each
; call site is its own set of work-items); other calls are left alone.

; CHECK-LABEL: define void @k(
; CHECK: %a = call i32 @_Z32sub_group_non_uniform_reduce_addi(i32 %x) #[[APART:[0-9]+]]
; CHECK: %b = call i32 @_Z32sub_group_non_uniform_reduce_addi(i32 %x) #[[APART]]
; CHECK: %e = call i32 @_Z15sub_group_electv() #[[APART]]
; CHECK: %u = call i32 @_Z20sub_group_reduce_addi(i32 %x){{$}}
; CHECK: attributes #[[APART]] = { nomerge }
define void @k(i1 %c, i32 %x, ptr %out) {
  br i1 %c, label %then, label %else
then:
  %a = call i32 @_Z32sub_group_non_uniform_reduce_addi(i32 %x)
  store i32 %a, ptr %out
  br label %end
else:
  %b = call i32 @_Z32sub_group_non_uniform_reduce_addi(i32 %x)
  store i32 %b, ptr %out
  br label %end
end:
  %e = call i32 @_Z15sub_group_electv()
  %u = call i32 @_Z20sub_group_reduce_addi(i32 %x)
  ret void
}

declare i32 @_Z32sub_group_non_uniform_reduce_addi(i32)
declare i32 @_Z15sub_group_electv()
declare i32 @_Z20sub_group_reduce_addi(i32)
