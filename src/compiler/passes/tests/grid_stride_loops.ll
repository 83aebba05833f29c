; PASSES: ferrocl-grid-stride-loops,ferrocl-implicit-barriers
; PyOpenCL's elementwise kernel, `for (i = local_size * group_id + lid;
; i < n; i += global_size)`: the loop gets one counter for the group (its
; first work-item's index), leaves when that one's test fails, and each
; work-item's own test guards the body; then the loop gets its implicit
; barriers. A loop starting at get_global_id(0) splits into
; get_group_id(0) * get_enqueued_local_size(0) + get_global_offset(0) and
; the local id. Not changed: a loop whose step may be negative, one whose
; index is used after it, and one summing in a phi.

; CHECK-LABEL: define spir_kernel void @lin_comb(
; CHECK: %lid = sext i32 %lid32 to i64
; CHECK-NEXT: %group.start = sext i32 %wgs to i64
; CHECK: head:
; CHECK-NEXT: %__fcl.u.0 = phi i64 [ %group.start, %entry ], [ %i.next, %latch ]
; CHECK-NEXT: call void @__ferrocl_implicit_barrier()
; CHECK-NEXT: %i.item = add i64 %__fcl.u.0, %lid
; CHECK-NEXT: %more = icmp slt i64 %i.item, %n
; CHECK-NEXT: %group.more = icmp slt i64 %__fcl.u.0, %n
; CHECK-NEXT: br i1 %group.more, label %stride.own, label %done
; CHECK: stride.own:
; CHECK-NEXT: br i1 %more, label %body, label %latch
; CHECK: latch:
; CHECK-NEXT: %step = sext i32 %gsize to i64
; CHECK-NEXT: %i.next = add nsw i64 %__fcl.u.0, %step
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
; CHECK-NOT: stride.own
; CHECK: ret void
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

declare i64 @_Z12get_local_idj(i32)
declare i64 @_Z13get_global_idj(i32)
declare i64 @_Z15get_global_sizej(i32)
declare i64 @_Z14get_local_sizej(i32)
declare i64 @_Z12get_group_idj(i32)
