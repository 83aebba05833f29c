; PASSES: ferrocl-collective-waits-as-barriers,ferrocl-isolate-barriers
; Each barrier alone in a block; a work-group function's wait (argument 0)
; becomes a barrier, and so does a sub-group one (argument 1) that the whole
; group runs (a branch on an argument); the phi that named the split block
; names its last piece.

; CHECK-LABEL: define spir_kernel void @k(
; CHECK: br label %__fcl.bar.0
; CHECK: __fcl.bar.0:
; CHECK-NEXT: call spir_func void @_Z7barrierj(i32 1)
; CHECK-NEXT: br label %__fcl.post.0
; CHECK: __fcl.post.0:
; CHECK-NEXT: %v = load i32
; CHECK: __fcl.bar.1:
; CHECK-NEXT: call spir_func void @_Z7barrierj(i32 3)
; CHECK-NEXT: br label %__fcl.post.1
; CHECK: __fcl.bar.2:
; CHECK-NEXT: call spir_func void @_Z7barrierj(i32 3)
; CHECK-NEXT: br label %__fcl.post.2
; CHECK-NOT: __ferrocl_collective_wait(
; CHECK: %r = phi i32 [ %v, %__fcl.post.2 ], [ 0, %entry ]
define spir_kernel void @k(i1 %c, ptr addrspace(3) %t, ptr addrspace(1) %out) {
entry:
  br i1 %c, label %work, label %join
work:
  store i32 1, ptr addrspace(3) %t
  call spir_func void @_Z7barrierj(i32 1)
  %v = load i32, ptr addrspace(3) %t
  call void @__ferrocl_collective_wait(i32 0)
  call void @__ferrocl_collective_wait(i32 1)
  br label %join
join:
  %r = phi i32 [ %v, %work ], [ 0, %entry ]
  store i32 %r, ptr addrspace(1) %out
  ret void
}

declare spir_func void @_Z7barrierj(i32)
declare void @__ferrocl_collective_wait(i32)
