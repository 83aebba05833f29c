; PASSES: ferrocl-collective-waits-as-barriers
; A work-group function's wait becomes a barrier wherever it is; a
; sub-group function's wait and a sub_group_barrier only where the whole
; group runs them together: in the kernel's entry and in a loop whose count
; is an argument, but not behind a branch on the sub-group's id, nor in a
; function other than a kernel (@k, which also waits for its whole group:
; its sub-group waits elsewhere stay, and it runs on fibers). A kernel whose
; only waits are its sub-groups' (@sg) has them all as barriers flagged
; FERROCL_SUB_GROUP_BARRIER (0x80000000), and runs its regions a sub-group
; at a time. The whole group runs together after a loop each work-item
; runs its own number of times, once all have left it, and behind a branch
; on a field of a struct argument passed by value that nothing writes
; (@window, dpnp's sliding window).

; CHECK-LABEL: define spir_kernel void @k(
; CHECK: entry:
; CHECK-NEXT: call {{.*}}void @_Z7barrierj(i32 3)
; CHECK-NEXT: call {{.*}}void @_Z7barrierj(i32 3)
; CHECK-NEXT: call {{.*}}void @_Z7barrierj(i32 1)
; CHECK: loop:
; CHECK-NEXT: %i = phi i32
; CHECK-NEXT: call {{.*}}void @_Z7barrierj(i32 3)
; CHECK: first:
; CHECK-NEXT: call void @__ferrocl_collective_wait(i32 1)
; CHECK-NEXT: call spir_func void @_Z17sub_group_barrierj(i32 2)
; CHECK-NEXT: call {{.*}}void @_Z7barrierj(i32 3)
; CHECK: done:
; CHECK-NEXT: call {{.*}}void @_Z7barrierj(i32 3)
define spir_kernel void @k(i32 %n, ptr addrspace(1) %out) {
entry:
  call void @__ferrocl_collective_wait(i32 0)
  call void @__ferrocl_collective_wait(i32 1)
  call spir_func void @_Z17sub_group_barrierj(i32 1)
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  call void @__ferrocl_collective_wait(i32 1)
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %branch
branch:
  %lli = call spir_func i64 @_Z19get_local_linear_idv()
  %sg = udiv i64 %lli, 8
  %is0 = icmp eq i64 %sg, 0
  br i1 %is0, label %first, label %done
first:
  call void @__ferrocl_collective_wait(i32 1)
  call spir_func void @_Z17sub_group_barrierj(i32 2)
  call void @__ferrocl_collective_wait(i32 0)
  br label %done
done:
  call void @__ferrocl_collective_wait(i32 1)
  store i32 0, ptr addrspace(1) %out
  ret void
}

; CHECK-LABEL: define spir_kernel void @sg(
; CHECK-SAME: #[[SG:[0-9]+]]
; CHECK: entry:
; CHECK-NEXT: call {{.*}}void @_Z7barrierj(i32 -2147483645)
; CHECK: first:
; CHECK-NEXT: call {{.*}}void @_Z7barrierj(i32 -2147483645)
; CHECK-NEXT: call {{.*}}void @_Z7barrierj(i32 -2147483646)
; CHECK-NEXT: call {{.*}}void @_Z7barrierj(i32 -2147483647)
define spir_kernel void @sg(ptr addrspace(1) %out) {
entry:
  call void @__ferrocl_collective_wait(i32 1)
  %lli = call spir_func i64 @_Z19get_local_linear_idv()
  %sg = udiv i64 %lli, 8
  %is0 = icmp eq i64 %sg, 0
  br i1 %is0, label %first, label %done
first:
  call void @__ferrocl_collective_wait(i32 1)
  call spir_func void @_Z17sub_group_barrierj(i32 2)
  call spir_func void @_Z17sub_group_barrierj12memory_scope(i32 1, i32 3)
  br label %done
done:
  store i32 0, ptr addrspace(1) %out
  ret void
}

%span = type { i32, i32 }

; CHECK-LABEL: define spir_kernel void @window(
; CHECK: after:
; CHECK-NEXT: call {{.*}}void @_Z7barrierj(i32 3)
; CHECK: flagged:
; CHECK-NEXT: call {{.*}}void @_Z7barrierj(i32 3)
define spir_kernel void @window(ptr byval(%span) align 4 %s, ptr addrspace(1) %out) {
entry:
  %np = getelementptr inbounds %span, ptr %s, i32 0, i32 1
  %n = load i32, ptr %np
  %lid = call spir_func i64 @_Z19get_local_linear_idv()
  %mine = trunc i64 %lid to i32
  br label %outer
outer:
  %i = phi i32 [ 0, %entry ], [ %inext, %after ]
  br label %own
own:
  %j = phi i32 [ 0, %outer ], [ %jnext, %own ]
  %jnext = add i32 %j, 1
  %more = icmp slt i32 %jnext, %mine
  br i1 %more, label %own, label %after
after:
  call void @__ferrocl_collective_wait(i32 1)
  %inext = add i32 %i, 1
  %again = icmp slt i32 %inext, %n
  br i1 %again, label %outer, label %test
test:
  %flag = load i32, ptr %s
  %on = icmp ne i32 %flag, 0
  br i1 %on, label %flagged, label %done
flagged:
  call void @__ferrocl_collective_wait(i32 1)
  br label %done
done:
  store i32 0, ptr addrspace(1) %out
  ret void
}

; CHECK-LABEL: define spir_func void @helper(
; CHECK-NEXT: call void @__ferrocl_collective_wait(i32 1)
; CHECK-NEXT: call {{.*}}void @_Z7barrierj(i32 3)
define spir_func void @helper() {
  call void @__ferrocl_collective_wait(i32 1)
  call void @__ferrocl_collective_wait(i32 0)
  ret void
}

declare spir_func i64 @_Z19get_local_linear_idv()
declare spir_func void @_Z17sub_group_barrierj(i32)
declare spir_func void @_Z17sub_group_barrierj12memory_scope(i32, i32)
; CHECK: attributes #[[SG]] = { "ferrocl-sub-group-regions" }
declare void @__ferrocl_collective_wait(i32)
