; PASSES: ferrocl-cut-uniform-branches
; A uniform branch of a loop with a barrier ends the region: both edges get
; a block with an implicit barrier, and the exit's phi names it. A test of
; the local id, and a uniform test inside a loop without barriers, stay.

; CHECK-LABEL: define spir_kernel void @a(
; CHECK: br i1 %c, label %__fcl.cut.0, label %__fcl.cut.1
; CHECK: %r = phi i32 [ %i, %__fcl.cut.1 ]
; CHECK: __fcl.cut.0:
; CHECK-NEXT: call void @__ferrocl_implicit_barrier()
; CHECK-NEXT: br label %body
; CHECK: __fcl.cut.1:
; CHECK-NEXT: call void @__ferrocl_implicit_barrier()
; CHECK-NEXT: br label %done
define spir_kernel void @a(i32 %n, ptr addrspace(1) %out) {
entry:
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i1, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %done
body:
  %i1 = add i32 %i, 1
  call void @_Z7barrierj(i32 1)
  br label %head
done:
  %r = phi i32 [ %i, %head ]
  store i32 %r, ptr addrspace(1) %out
  ret void
}

; CHECK-LABEL: define spir_kernel void @b(
; CHECK-NOT: __fcl.cut
; CHECK: ret void
define spir_kernel void @b(i32 %n, ptr addrspace(1) %out) {
entry:
  %l = call i64 @_Z12get_local_idj(i32 0)
  br label %inner
inner:
  %j = phi i32 [ 0, %entry ], [ %j1, %inner ]
  %j1 = add i32 %j, 1
  %more = icmp slt i32 %j1, %n
  br i1 %more, label %inner, label %after
after:
  %d = icmp ult i64 %l, 4
  br i1 %d, label %one, label %two
one:
  br label %two
two:
  call void @_Z7barrierj(i32 1)
  ret void
}

; A switch on a per-work-item value decides nothing together: the uniform
; branch after it is not cut (issue 12, item 2).
; CHECK-LABEL: define spir_kernel void @c(
; CHECK-NOT: __fcl.cut
; CHECK: ret void
define spir_kernel void @c(i32 %n, ptr addrspace(1) %out) {
entry:
  call void @_Z7barrierj(i32 1)
  %l = call i64 @_Z12get_local_idj(i32 0)
  %k = trunc i64 %l to i32
  %s = and i32 %k, 3
  switch i32 %s, label %other [
    i32 0, label %zero
    i32 1, label %one
  ]
zero:
  %u = icmp slt i32 %n, 4
  br i1 %u, label %one, label %other
one:
  br label %other
other:
  call void @_Z7barrierj(i32 1)
  ret void
}

declare void @_Z7barrierj(i32)
declare i64 @_Z12get_local_idj(i32)
