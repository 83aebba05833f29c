; PASSES: ferrocl-grid-stride-loops,ferrocl-implicit-barriers
; PyOpenCL's elementwise kernel, `for (i = local_size * group_id + lid;
; i < n; i += global_size)`: the loop gets one counter for the group (its
; first work-item's index), leaves when that one's test fails, and each
; work-item's own test guards the body; then the loop gets its implicit
; barriers. A loop starting at get_global_id(0) splits into
; get_group_id(0) * get_enqueued_local_size(0) + get_global_offset(0) and
; the local id. A sum in a phi keeps its value where a work-item skips the
; body. In a kernel with barriers, a loop before them is rewritten too (a
; start truncated from size_t splits into truncated parts), and one with a
; barrier inside is not. Not changed: a loop whose step may be negative,
; and one whose index is used after it.

; CHECK-LABEL: define spir_kernel void @lin_comb(
; CHECK: %lid = sext i32 %lid32 to i64
; CHECK-NEXT: %group.start = sext i32 %wgs to i64
; CHECK: head:
; CHECK-NEXT: %__fcl.u.0 = phi i64 [ %group.start, %entry ], [ %i.next, %head.step ]
; CHECK-NEXT: call void @__ferrocl_implicit_barrier()
; CHECK-NEXT: %i.item = add i64 %__fcl.u.0, %lid
; CHECK-NEXT: %more = icmp slt i64 %i.item, %n
; CHECK-NEXT: %group.more = icmp slt i64 %__fcl.u.0, %n
; CHECK-NEXT: br i1 %group.more, label %stride.own, label %done
; CHECK: stride.own:
; CHECK-NEXT: br i1 %more, label %body, label %head.step
; CHECK: head.step:
; CHECK-NEXT: %gs1 = call i64 @_Z15get_global_sizej(i32 0)
; CHECK-NEXT: %[[T:.*]] = trunc i64 %gs1 to i32
; CHECK-NEXT: %[[S:.*]] = sext i32 %[[T]] to i64
; CHECK-NEXT: %i.next = add i64 %__fcl.u.0, %[[S]]
define spir_kernel void @lin_comb(float %a, ptr addrspace(1) %x, ptr addrspace(1) %z, i64 %n) {
entry:
  %l = call i64 @_Z12get_local_idj(i32 0)
  %lid32 = trunc i64 %l to i32
  %gs = call i64 @_Z15get_global_sizej(i32 0)
  %gsize = trunc i64 %gs to i32
  %ls = call i64 @_Z14get_local_sizej(i32 0)
  %gr = call i64 @_Z12get_group_idj(i32 0)
  %wgs64 = mul i64 %ls, %gr
  %wgs = trunc i64 %wgs64 to i32
  %first = add nsw i32 %wgs, %lid32
  %start = sext i32 %first to i64
  br label %head
head:
  %i = phi i64 [ %start, %entry ], [ %i.next, %latch ]
  %more = icmp slt i64 %i, %n
  br i1 %more, label %body, label %done
body:
  %px = getelementptr inbounds float, ptr addrspace(1) %x, i64 %i
  %vx = load float, ptr addrspace(1) %px
  %v = fmul float %a, %vx
  %pz = getelementptr inbounds float, ptr addrspace(1) %z, i64 %i
  store float %v, ptr addrspace(1) %pz
  br label %latch
latch:
  %step = sext i32 %gsize to i64
  %i.next = add nsw i64 %i, %step
  br label %head
done:
  ret void
}

; CHECK-LABEL: define spir_kernel void @from_global_id(
; CHECK: %group = call i64 @_Z12get_group_idj(i32 0)
; CHECK-NEXT: %enqueued = call i64 @_Z23get_enqueued_local_sizej(i32 0)
; CHECK-NEXT: %[[G:.*]] = mul i64 %group, %enqueued
; CHECK-NEXT: %offset = call i64 @_Z17get_global_offsetj(i32 0)
; CHECK-NEXT: %group.start = add i64 %[[G]], %offset
; CHECK-NEXT: %lid = call i64 @_Z12get_local_idj(i32 0)
; CHECK: %__fcl.u.0 = phi i64 [ %group.start, %entry ]
; CHECK-NEXT: call void @__ferrocl_implicit_barrier()
define spir_kernel void @from_global_id(ptr addrspace(1) %z, i64 %n) {
entry:
  %g = call i64 @_Z13get_global_idj(i32 0)
  %gs = call i64 @_Z15get_global_sizej(i32 0)
  br label %head
head:
  %i = phi i64 [ %g, %entry ], [ %i.next, %latch ]
  %more = icmp ult i64 %i, %n
  br i1 %more, label %body, label %done
body:
  %pz = getelementptr inbounds float, ptr addrspace(1) %z, i64 %i
  %v = load float, ptr addrspace(1) %pz
  %w = fmul float %v, 2.0
  store float %w, ptr addrspace(1) %pz
  br label %latch
latch:
  %i.next = add i64 %i, %gs
  br label %head
done:
  ret void
}

; CHECK-LABEL: define spir_kernel void @any_step(
; CHECK-NOT: __fcl.
; CHECK-NOT: stride.own
; CHECK: ret void
define spir_kernel void @any_step(ptr addrspace(1) %z, i64 %n, i64 %s) {
entry:
  %g = call i64 @_Z13get_global_idj(i32 0)
  br label %head
head:
  %i = phi i64 [ %g, %entry ], [ %i.next, %latch ]
  %more = icmp slt i64 %i, %n
  br i1 %more, label %body, label %done
body:
  %pz = getelementptr inbounds float, ptr addrspace(1) %z, i64 %i
  store float 1.0, ptr addrspace(1) %pz
  br label %latch
latch:
  %i.next = add i64 %i, %s
  br label %head
done:
  ret void
}

; CHECK-LABEL: define spir_kernel void @used_after(
; CHECK-NOT: stride.own
; CHECK: ret void
define spir_kernel void @used_after(ptr addrspace(1) %z, i64 %n) {
entry:
  %g = call i64 @_Z13get_global_idj(i32 0)
  %gs = call i64 @_Z15get_global_sizej(i32 0)
  br label %head
head:
  %i = phi i64 [ %g, %entry ], [ %i.next, %latch ]
  %more = icmp slt i64 %i, %n
  br i1 %more, label %body, label %done
body:
  %pz = getelementptr inbounds float, ptr addrspace(1) %z, i64 %i
  store float 1.0, ptr addrspace(1) %pz
  br label %latch
latch:
  %i.next = add i64 %i, %gs
  br label %head
done:
  %pl = getelementptr inbounds float, ptr addrspace(1) %z, i64 %i
  store float 2.0, ptr addrspace(1) %pl
  ret void
}

; CHECK-LABEL: define spir_kernel void @sum_in_phi(
; CHECK: head:
; CHECK-NEXT: %__fcl.u.0 = phi i64
; CHECK-NEXT: %acc = phi float [ 0.000000e+00, %entry ], [ %acc.latch, %head.step ]
; CHECK: stride.own:
; CHECK-NEXT: br i1 %more, label %body, label %head.step
; CHECK: head.step:
; CHECK-NEXT: %acc.latch = phi float [ %acc1, %latch ], [ %acc, %stride.own ]
; CHECK: done:
; CHECK-NEXT: call void @__ferrocl_implicit_barrier()
; CHECK-NEXT: %po = getelementptr inbounds float, ptr addrspace(1) %z, i64 %g
; CHECK-NEXT: store float %acc, ptr addrspace(1) %po
define spir_kernel void @sum_in_phi(ptr addrspace(1) %z, i64 %n) {
entry:
  %g = call i64 @_Z13get_global_idj(i32 0)
  %gs = call i64 @_Z15get_global_sizej(i32 0)
  br label %head
head:
  %i = phi i64 [ %g, %entry ], [ %i.next, %latch ]
  %acc = phi float [ 0.0, %entry ], [ %acc1, %latch ]
  %more = icmp slt i64 %i, %n
  br i1 %more, label %body, label %done
body:
  %pz = getelementptr inbounds float, ptr addrspace(1) %z, i64 %i
  %v = load float, ptr addrspace(1) %pz
  %acc1 = fadd float %acc, %v
  br label %latch
latch:
  %i.next = add i64 %i, %gs
  br label %head
done:
  %po = getelementptr inbounds float, ptr addrspace(1) %z, i64 %g
  store float %acc, ptr addrspace(1) %po
  ret void
}

; SHOC's reduce: `uint i = group * (size * 2) + tid` in size_t, truncated;
; `while (i < n) { sdata[tid] += ...; i += gridSize; }` before the
; barriers. The loop after the barrier has one inside: left alone.
; CHECK-LABEL: define spir_kernel void @block_sum(
; CHECK: %lid = trunc i64 %{{.*}} to i32
; CHECK-NEXT: %group.start = trunc i64 %start.group to i32
; CHECK: head:
; CHECK-NEXT: %__fcl.u.0 = phi i32 [ %group.start, %entry ], [ %i.next, %head.step ]
; CHECK-NEXT: call void @__ferrocl_implicit_barrier()
; CHECK: stride.own:
; CHECK: tree:
; CHECK-NOT: stride.own
; CHECK: ret void
define spir_kernel void @block_sum(ptr addrspace(1) %in, ptr addrspace(3) %sdata, i32 %n) {
entry:
  %lid64 = call i64 @_Z12get_local_idj(i32 0)
  %tid = trunc i64 %lid64 to i32
  %grp = call i64 @_Z12get_group_idj(i32 0)
  %ls = call i64 @_Z14get_local_sizej(i32 0)
  %ls2 = mul i64 %ls, 2
  %start.group = mul i64 %grp, %ls2
  %tid64 = zext i32 %tid to i64
  %start.wide = add i64 %start.group, %tid64
  %start = trunc i64 %start.wide to i32
  %ng = call i64 @_Z14get_num_groupsj(i32 0)
  %gs.wide = mul i64 %ls2, %ng
  %gs = trunc i64 %gs.wide to i32
  %slot = getelementptr inbounds float, ptr addrspace(3) %sdata, i64 %tid64
  store float 0.0, ptr addrspace(3) %slot
  br label %head
head:
  %i = phi i32 [ %start, %entry ], [ %i.next, %latch ]
  %more = icmp ult i32 %i, %n
  br i1 %more, label %body, label %tree
body:
  %i64 = zext i32 %i to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %i64
  %v = load float, ptr addrspace(1) %p
  %old = load float, ptr addrspace(3) %slot
  %new = fadd float %old, %v
  store float %new, ptr addrspace(3) %slot
  br label %latch
latch:
  %i.next = add i32 %i, %gs
  br label %head
tree:
  call void @_Z7barrierj(i32 1)
  br label %thead
thead:
  %s = phi i32 [ 1, %tree ], [ %s.next, %tlatch ]
  %tmore = icmp ult i32 %s, 8
  br i1 %tmore, label %tbody, label %out
tbody:
  call void @_Z7barrierj(i32 1)
  br label %tlatch
tlatch:
  %s.next = add i32 %s, %tid
  br label %thead
out:
  ret void
}

declare void @_Z7barrierj(i32)
declare i64 @_Z14get_num_groupsj(i32)
declare i64 @_Z12get_local_idj(i32)
declare i64 @_Z13get_global_idj(i32)
declare i64 @_Z15get_global_sizej(i32)
declare i64 @_Z14get_local_sizej(i32)
declare i64 @_Z12get_group_idj(i32)
