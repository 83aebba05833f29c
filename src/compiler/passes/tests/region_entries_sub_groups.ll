; PASSES: function(reg2mem),ferrocl-region-entries
; A kernel run a sub-group at a time (its only waits are its sub-groups'):
; each region's x loop runs one sub-group's work-items, so a work-item's
; place in its sub-group (the local linear id's remainder by the size, as
; ferrocl-sub-group-ids-from-local-ids writes it) is its linear id less the
; sub-group's first, and the sub-group's index is that first's quotient:
; values the loop vectorizer sees as affine and invariant (DPC++'s
; sub-group loads, `p[sub_group_local_id + k * size]`, were gathers). The
; group entry passes each region the sub-group's first id.

; CHECK-LABEL: define internal void @__ferrocl_region.block_load.0(
; CHECK-SAME: i64 %__ferrocl.wi, {{.*}} i64 %__ferrocl.sg.first)
; CHECK: %lane = sub nuw i64 %__ferrocl.wi, %__ferrocl.sg.first
; CHECK: %sg = udiv i64 %__ferrocl.sg.first, 8
; CHECK-NOT: urem
; CHECK: ret void
; CHECK-LABEL: define void @__ferrocl_wg_block_load(
; CHECK: %sg.first = phi i64
; CHECK: call void @__ferrocl_region.block_load.0({{.*}}, i64 %sg.first)
define spir_kernel void @block_load(ptr addrspace(1) %in, ptr addrspace(1) %out) #0 {
entry:
  %id = call i64 @_Z19get_local_linear_idv()
  %lane = urem i64 %id, 8
  %id2 = call i64 @_Z19get_local_linear_idv()
  %sg = udiv i64 %id2, 8
  %base = mul i64 %sg, 32
  %at = add i64 %base, %lane
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %at
  %v = load float, ptr addrspace(1) %p
  br label %bar
bar:
  call void @_Z7barrierj(i32 1)
  br label %after
after:
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %at
  store float %v, ptr addrspace(1) %q
  ret void
}

; A remainder by another number, or of another value, stays.
; CHECK-LABEL: define internal void @__ferrocl_region.other.0(
; CHECK: urem i64 %id{{.*}}, 3
; CHECK-LABEL: define void @__ferrocl_wg_other(
define spir_kernel void @other(ptr addrspace(1) %out) #0 {
entry:
  %id = call i64 @_Z19get_local_linear_idv()
  %r = urem i64 %id, 3
  br label %bar
bar:
  call void @_Z7barrierj(i32 1)
  br label %after
after:
  %q = getelementptr inbounds i64, ptr addrspace(1) %out, i64 %id
  store i64 %r, ptr addrspace(1) %q
  ret void
}

declare void @_Z7barrierj(i32)
declare i64 @_Z19get_local_linear_idv()

attributes #0 = { "ferrocl-sub-group-regions" }
