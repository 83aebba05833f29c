; PASSES: function(ferrocl-active-rows-unguarded)
; An innermost work-item loop whose header skips a work-item on a flag it
; loads runs, when every work-item of the row has the flag on, in a copy
; (`.active`) without the test; the check is a loop over the same
; work-items before both, loading the same flags. A loop whose test reads
; no memory, or whose body may write the flags, stays as it is.

; CHECK-LABEL: define void @flags(
; CHECK: active.check:
; CHECK-NEXT: %active.id = phi i64 [ 0, %entry ], [ %[[NEXT:.*]], %active.check ]
; CHECK-NEXT: %active.all = phi i1 [ true, %entry ], [ %active.still, %active.check ]
; CHECK-NEXT: %[[AT:.*]] = getelementptr inbounds i8, ptr %frame, i64 %active.id
; CHECK-NEXT: %[[FLAG:.*]] = load i8, ptr %[[AT]], align 1
; CHECK-NEXT: %[[ON:.*]] = trunc i8 %[[FLAG]] to i1
; CHECK-NEXT: %active.still = and i1 %active.all, %[[ON]]
; CHECK-NEXT: %[[NEXT]] = add nuw nsw i64 %active.id, 1
; CHECK-NEXT: %[[DONE:.*]] = icmp eq i64 %[[NEXT]], %n
; CHECK-NEXT: br i1 %[[DONE]], label %active.decide, label %active.check
; CHECK: active.decide:
; CHECK-NEXT: br i1 %active.still, label %x.active, label %x
; CHECK: x:
; CHECK-NEXT: %x.i = phi i64 [ 0, %active.decide ], [ %x.next, %latch ]
; CHECK: br i1 %on, label %body, label %latch
; CHECK: x.active:
; CHECK-NEXT: %x.i.active = phi i64 [ 0, %active.decide ], [ %x.next.active, %latch.active ]
; CHECK-NOT: br i1 %on
; CHECK: br label %body.active
; CHECK: body.active:
; CHECK-NEXT: %p.active = getelementptr inbounds float, ptr addrspace(1) %a, i64 %x.i.active
; CHECK-NEXT: %y.active = load float, ptr addrspace(1) %u, align 4
define void @flags(ptr addrspace(1) %a, ptr addrspace(1) %u, ptr %frame, i64 %n) {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %latch ]
  %at = getelementptr inbounds i8, ptr %frame, i64 %x.i
  %flag = load i8, ptr %at, align 1, !alias.scope !10, !llvm.access.group !0
  %on = trunc i8 %flag to i1
  br i1 %on, label %body, label %latch

body:
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %x.i
  %y = load float, ptr addrspace(1) %u, align 4, !noalias !10, !llvm.access.group !0
  %v = load float, ptr addrspace(1) %p, align 4, !noalias !10, !llvm.access.group !0
  %w = fadd float %v, %y
  store float %w, ptr addrspace(1) %p, align 4, !noalias !10, !llvm.access.group !0
  br label %latch

latch:
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !4

exit:
  ret void
}

; A test of the index alone (bounds_checks_as_ranges' case).
; CHECK-LABEL: define void @index_test(
; CHECK-NOT: active
; CHECK: ret void
define void @index_test(ptr addrspace(1) %a, i64 %m, i64 %n) {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %latch ]
  %in = icmp slt i64 %x.i, %m
  br i1 %in, label %body, label %latch

body:
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %x.i
  store float 0.0, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  br label %latch

latch:
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !5

exit:
  ret void
}

; The body may write the flags: left alone.
; CHECK-LABEL: define void @writes_flags(
; CHECK-NOT: active
; CHECK: ret void
define void @writes_flags(ptr %frame, i64 %n) {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %latch ]
  %at = getelementptr inbounds i8, ptr %frame, i64 %x.i
  %flag = load i8, ptr %at, align 1, !llvm.access.group !0
  %on = trunc i8 %flag to i1
  br i1 %on, label %body, label %latch

body:
  %next.at = getelementptr inbounds i8, ptr %at, i64 1
  store i8 0, ptr %next.at, align 1, !llvm.access.group !0
  br label %latch

latch:
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !6

exit:
  ret void
}

!0 = distinct !{}
!3 = !{!"llvm.loop.parallel_accesses", !0}
!4 = distinct !{!4, !3}
!5 = distinct !{!5, !3}
!6 = distinct !{!6, !3}
!10 = !{!11}
!11 = distinct !{!11, !12, !"frame"}
!12 = distinct !{!12, !"frame scopes"}
