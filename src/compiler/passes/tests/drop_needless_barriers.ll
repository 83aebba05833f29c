; PASSES: ferrocl-drop-needless-barriers
; DPC++'s sub-group load (group_load into a private array between two
; sub-group barriers), then a computation and a store to global memory:
; the barriers around the loads order nothing (before them no work-item
; writes shared memory, the loads only read it) and go; the one between
; the loads and the store stays (another work-item's store may reach what
; a load read), and so does the one after the store followed by a load.
; CHECK-LABEL: define spir_kernel void @group_load(
; CHECK: entry:
; CHECK-NOT: sub_group_barrier
; CHECK: store float %x, ptr %v
; CHECK-NOT: sub_group_barrier
; CHECK: %sum = fadd float
; CHECK-NEXT: call void @_Z17sub_group_barrierj12memory_scope(i32 3, i32 4)
; CHECK-NEXT: %o = getelementptr
; CHECK-NEXT: store float %sum, ptr addrspace(1) %o
; CHECK-NEXT: call void @_Z7barrierj(i32 1)
; CHECK-NEXT: %again = load float, ptr addrspace(1) %p
define spir_kernel void @group_load(ptr addrspace(1) %in, ptr addrspace(1) %out) {
entry:
  %v = alloca [2 x float], align 4
  %g = call i64 @_Z13get_global_idj(i32 0)
  %gin = call ptr addrspace(1) @__to_global(ptr addrspace(4) null)
  call void @_Z17sub_group_barrierj12memory_scope(i32 3, i32 4)
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %g
  %x = load float, ptr addrspace(1) %p
  store float %x, ptr %v
  call void @_Z17sub_group_barrierj12memory_scope(i32 3, i32 4)
  %y = load float, ptr %v
  %e = call float @_Z3expf(float %y)
  %sum = fadd float %y, %e
  call void @_Z17sub_group_barrierj12memory_scope(i32 3, i32 4)
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %g
  store float %sum, ptr addrspace(1) %o
  call void @_Z7barrierj(i32 1)
  %again = load float, ptr addrspace(1) %p
  store float %again, ptr addrspace(1) %o
  ret void
}

; __local memory written before the barrier and read after it by another
; work-item: kept, in a loop too (the stretch after the barrier wraps to
; the loop's head and its store).
; CHECK-LABEL: define spir_kernel void @local_exchange(
; CHECK: call void @_Z7barrierj(i32 1)
; CHECK: call void @_Z7barrierj(i32 1)
@tile = internal addrspace(3) global [64 x float] undef
define spir_kernel void @local_exchange(ptr addrspace(1) %out, i32 %n) {
entry:
  %l = call i64 @_Z12get_local_idj(i32 0)
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i1, %head ]
  %at = getelementptr inbounds [64 x float], ptr addrspace(3) @tile, i64 0, i64 %l
  store float 1.0, ptr addrspace(3) %at
  call void @_Z7barrierj(i32 1)
  %r = sub i64 63, %l
  %from = getelementptr inbounds [64 x float], ptr addrspace(3) @tile, i64 0, i64 %r
  %x = load float, ptr addrspace(3) %from
  call void @_Z7barrierj(i32 1)
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %head, label %done
done:
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %l
  store float %x, ptr addrspace(1) %o
  ret void
}

; A barrier of the group after a loop whose iterations end at a sub-group
; barrier: other sub-groups may still be in the loop, storing, when one
; passes its sub-group barrier (the Khronos CTS's independent forward
; progress test), so the stretch before the group's barrier goes on past
; the sub-group's, finds the store, and the barrier stays; the sub-group
; barrier too (a store on both of its sides).
; CHECK-LABEL: define spir_kernel void @past_sub_group(
; CHECK: call void @_Z17sub_group_barrierj(i32 1)
; CHECK: done:
; CHECK-NEXT: call void @_Z7barrierj(i32 1)
define spir_kernel void @past_sub_group(ptr addrspace(1) %out, i32 %n) {
entry:
  %l = call i64 @_Z12get_local_idj(i32 0)
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i1, %head ]
  %at = getelementptr inbounds [64 x float], ptr addrspace(3) @tile, i64 0, i64 %l
  store float 1.0, ptr addrspace(3) %at
  call void @_Z17sub_group_barrierj(i32 1)
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %head, label %done
done:
  call void @_Z7barrierj(i32 1)
  %x = load float, ptr addrspace(3) @tile
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %l
  store float %x, ptr addrspace(1) %o
  ret void
}

; A call the pass does not know (a helper of the module that writes), and
; a fence, count as writes: both barriers stay.
; CHECK-LABEL: define spir_kernel void @unknown(
; CHECK: call void @_Z7barrierj(i32 2)
; CHECK: call void @_Z7barrierj(i32 2)
define spir_kernel void @unknown(ptr addrspace(1) %out) {
entry:
  call void @helper(ptr addrspace(1) %out)
  call void @_Z7barrierj(i32 2)
  %x = load float, ptr addrspace(1) %out
  call void @_Z9mem_fencej(i32 2)
  call void @_Z7barrierj(i32 2)
  %y = load float, ptr addrspace(1) %out
  ret void
}

define void @helper(ptr addrspace(1) %p) {
  store float 2.0, ptr addrspace(1) %p
  ret void
}

declare void @_Z17sub_group_barrierj12memory_scope(i32, i32)
declare void @_Z7barrierj(i32)
declare void @_Z17sub_group_barrierj(i32)
declare void @_Z9mem_fencej(i32)
declare i64 @_Z13get_global_idj(i32)
declare i64 @_Z12get_local_idj(i32)
declare float @_Z3expf(float)
declare ptr addrspace(1) @__to_global(ptr addrspace(4))
