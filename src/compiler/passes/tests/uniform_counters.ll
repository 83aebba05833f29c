; PASSES: ferrocl-uniform-counters
; A tree reduction's stride (a loop with a barrier exited on a uniform
; test) is named uniform; the loop's other, varying phi is not.

; CHECK-LABEL: define spir_kernel void @reduce(
; CHECK: %__fcl.u.0 = phi i32 [ %half, %entry ], [ %s1, %body ]
; CHECK-NEXT: %v = phi i32
define spir_kernel void @reduce(i32 %n, ptr addrspace(3) %t) {
entry:
  %l = call i64 @_Z12get_local_idj(i32 0)
  %l32 = trunc i64 %l to i32
  %half = lshr i32 %n, 1
  br label %head
head:
  %s = phi i32 [ %half, %entry ], [ %s1, %body ]
  %v = phi i32 [ %l32, %entry ], [ %v1, %body ]
  %more = icmp ugt i32 %s, 0
  br i1 %more, label %body, label %done
body:
  call void @_Z7barrierj(i32 1)
  %v1 = add i32 %v, %s
  %s1 = lshr i32 %s, 1
  br label %head
done:
  ret void
}

declare void @_Z7barrierj(i32)
declare i64 @_Z12get_local_idj(i32)
