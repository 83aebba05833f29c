; PASSES: function(ferrocl-interleave-work-items)
; A work-item loop (its accesses parallel) around an inner loop that sums
; into a float, behind a bounds check: eight work-items at a time when
; eight remain and all pass the check (their checks computed first), the
; eight inner loops jammed into one whose header holds all eight sums, and
; each lane's accesses in an alias scope of its own; the others one at a
; time, as before. The jammed loop is versioned on the overlap of the
; sums' addresses with the rows read.
; A loop that writes private memory (an alloca every work-item shares) is
; left alone.

; CHECK-LABEL: define void @rows(
; CHECK: %wi.room = icmp uge i64
; CHECK: br i1 %wi.room, label %wi.tests, label %wi.one
; CHECK: wi.tests:
; CHECK-COUNT-8: icmp slt i64 %{{.*}}, %rows
; CHECK: br i1 %wi.all{{[0-9]*}}, label %wi.lanes, label %wi.one
; CHECK: br label %inner.wi.lver.check
; CHECK: latch:
; CHECK-NEXT: %wi.step = phi i64 [ 1, %inner ], [ 1, %wi.one ], [ 8, %wi.jammed.exit ]
; CHECK-NEXT: %next = add nuw i64 %x.id, %wi.step
; CHECK: inner.wi:
; CHECK-COUNT-8: %sum.wi{{[0-9]*}} = phi float
; CHECK-NOT: phi float
; CHECK: load float, {{.*}} !alias.scope
; CHECK: store float %sum.next.wi, {{.*}} !alias.scope
; CHECK-NOT: br i1 %j.done.wi,
; CHECK: inner.wi19:
; CHECK-LABEL: define void @private(
; CHECK-NOT: wi.room

define void @rows(ptr addrspace(1) %a, ptr addrspace(1) %c, i64 %n, i64 %rows, i64 %k) {
entry:
  br label %x

x:
  %x.id = phi i64 [ 0, %entry ], [ %next, %latch ]
  %in = icmp slt i64 %x.id, %rows
  br i1 %in, label %pre, label %latch

pre:
  %row = mul i64 %x.id, %k
  %dst = getelementptr inbounds float, ptr addrspace(1) %c, i64 %x.id
  %init = load float, ptr addrspace(1) %dst, align 4, !llvm.access.group !0
  br label %inner

inner:
  %j = phi i64 [ 0, %pre ], [ %j.next, %inner ]
  %sum = phi float [ %init, %pre ], [ %sum.next, %inner ]
  %at = add i64 %row, %j
  %src = getelementptr inbounds float, ptr addrspace(1) %a, i64 %at
  %v = load float, ptr addrspace(1) %src, align 4, !llvm.access.group !0
  %sum.next = call float @llvm.fmuladd.f32(float %v, float %v, float %sum)
  store float %sum.next, ptr addrspace(1) %dst, align 4, !llvm.access.group !0
  %j.next = add nuw i64 %j, 1
  %j.done = icmp eq i64 %j.next, %k
  br i1 %j.done, label %latch, label %inner

latch:
  %next = add nuw i64 %x.id, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !1

exit:
  ret void
}

define void @private(ptr addrspace(1) %a, i64 %n, i64 %k) {
entry:
  %tmp = alloca float, align 4
  br label %x

x:
  %x.id = phi i64 [ 0, %entry ], [ %next, %latch ]
  store float 0.0, ptr %tmp, align 4
  br label %pre

pre:
  %row = mul i64 %x.id, %k
  br label %inner

inner:
  %j = phi i64 [ 0, %pre ], [ %j.next, %inner ]
  %sum = phi float [ 0.0, %pre ], [ %sum.next, %inner ]
  %at = add i64 %row, %j
  %src = getelementptr inbounds float, ptr addrspace(1) %a, i64 %at
  %v = load float, ptr addrspace(1) %src, align 4, !llvm.access.group !0
  %sum.next = fadd float %v, %sum
  %j.next = add nuw i64 %j, 1
  %j.done = icmp eq i64 %j.next, %k
  br i1 %j.done, label %latch, label %inner

latch:
  %next = add nuw i64 %x.id, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !3

exit:
  ret void
}

declare float @llvm.fmuladd.f32(float, float, float)

!0 = distinct !{}
!1 = distinct !{!1, !2}
!2 = !{!"llvm.loop.parallel_accesses", !0}
!3 = distinct !{!3, !2}
