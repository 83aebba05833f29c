; PASSES: ferrocl-sub-group-ids-from-local-ids
; Each sub-group query computed from the local linear id and the group's
; sizes (sub-groups of 8 consecutive local linear ids, the last smaller).
; A kernel requiring sub-groups of 32 (intel_reqd_sub_group_size) computes
; with 32, and so does a helper only it calls; a helper kernels of two
; sizes call keeps its query, which reads the launch's size.

; CHECK-LABEL: define spir_kernel void @k(
; CHECK: %[[L0:[0-9]+]] = call spir_func i64 @_Z19get_local_linear_idv()
; CHECK-NEXT: %[[LID:[0-9]+]] = urem i64 %[[L0]], 8
; CHECK-NEXT: trunc i64 %[[LID]] to i32
; CHECK: %[[L1:[0-9]+]] = call spir_func i64 @_Z19get_local_linear_idv()
; CHECK-NEXT: %[[ID:[0-9]+]] = udiv i64 %[[L1]], 8
; CHECK-NEXT: trunc i64 %[[ID]] to i32
; CHECK: call spir_func i64 @_Z14get_local_sizej(i32 0)
; CHECK-NEXT: call spir_func i64 @_Z14get_local_sizej(i32 1)
; CHECK: call spir_func i64 @_Z14get_local_sizej(i32 2)
; CHECK: sub i64
; CHECK: call i64 @llvm.umin.i64(i64 %{{[0-9]+}}, i64 8)
; CHECK: call spir_func i64 @_Z23get_enqueued_local_sizej(i32 2)
; CHECK: call i64 @llvm.umin.i64(i64 %{{[0-9]+}}, i64 8)
; CHECK: add i64 %{{[0-9]+}}, 7
; CHECK-NEXT: udiv i64 %{{[0-9]+}}, 8
; CHECK-NOT: get_sub_group
; CHECK: ret void
define spir_kernel void @k(ptr addrspace(1) %out) {
  %lid = call spir_func i32 @_Z22get_sub_group_local_idv()
  %id = call spir_func i32 @_Z16get_sub_group_idv()
  %size = call spir_func i32 @_Z18get_sub_group_sizev()
  %max = call spir_func i32 @_Z22get_max_sub_group_sizev()
  %count = call spir_func i32 @_Z18get_num_sub_groupsv()
  %a = add i32 %lid, %id
  %b = add i32 %size, %max
  %c = add i32 %a, %b
  %d = add i32 %c, %count
  store i32 %d, ptr addrspace(1) %out
  ret void
}

; CHECK-LABEL: define spir_func i32 @only_wide(
; CHECK: urem i64 %{{[0-9]+}}, 32
; CHECK-NOT: get_sub_group
; CHECK: ret i32
define spir_func i32 @only_wide() {
  %lid = call spir_func i32 @_Z22get_sub_group_local_idv()
  ret i32 %lid
}

; CHECK-LABEL: define spir_func i32 @shared(
; CHECK-NEXT: call spir_func i32 @_Z22get_sub_group_local_idv()
define spir_func i32 @shared() {
  %lid = call spir_func i32 @_Z22get_sub_group_local_idv()
  ret i32 %lid
}

; CHECK-LABEL: define spir_kernel void @wide(
; CHECK: udiv i64 %{{[0-9]+}}, 32
; CHECK: call spir_func i32 @only_wide()
; CHECK: call spir_func i32 @shared()
define spir_kernel void @wide(ptr addrspace(1) %out) !intel_reqd_sub_group_size !0 {
  %id = call spir_func i32 @_Z16get_sub_group_idv()
  %a = call spir_func i32 @only_wide()
  %b = call spir_func i32 @shared()
  %c = add i32 %id, %a
  %d = add i32 %c, %b
  store i32 %d, ptr addrspace(1) %out
  ret void
}

; CHECK-LABEL: define spir_kernel void @narrow(
define spir_kernel void @narrow(ptr addrspace(1) %out) {
  %b = call spir_func i32 @shared()
  store i32 %b, ptr addrspace(1) %out
  ret void
}

!0 = !{i32 32}

declare spir_func i32 @_Z22get_sub_group_local_idv()
declare spir_func i32 @_Z16get_sub_group_idv()
declare spir_func i32 @_Z18get_sub_group_sizev()
declare spir_func i32 @_Z22get_max_sub_group_sizev()
declare spir_func i32 @_Z18get_num_sub_groupsv()
