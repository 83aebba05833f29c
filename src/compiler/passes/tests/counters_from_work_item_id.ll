; PASSES: function(ferrocl-counters-from-work-item-id)
; A work-item loop that carries a second counter beside its id (as LLVM's
; induction variable pass widens `j1 + 1`): the counter is computed from
; the id, start + (id - begin) * step, and its phi goes. A phi that is not
; such a counter (a running sum) stays, and so does a loop that is not a
; work-item loop.

; CHECK-LABEL: define void @counter(
; CHECK: x:
; CHECK-NEXT: %x.id = phi i64
; CHECK-NOT: phi
; CHECK-NEXT: %wi.k = sub i64 %x.id, %begin
; CHECK: %j.from.id = add i32 %{{.*}}, %{{.*}}
; CHECK: %j.next = add i32 %j.from.id, 3
; CHECK-LABEL: define void @sum(
; CHECK: %s = phi i32
; CHECK-NOT: from.id
; CHECK-LABEL: define void @plain(
; CHECK: %j = phi i32
; CHECK-NOT: from.id

define void @counter(ptr addrspace(1) %a, i64 %begin, i64 %n, i32 %s0) {
entry:
  %start = add i32 %s0, 7
  br label %x

x:
  %x.id = phi i64 [ %begin, %entry ], [ %next, %x ]
  %j = phi i32 [ %start, %entry ], [ %j.next, %x ]
  %j.next = add i32 %j, 3
  %at = getelementptr inbounds i32, ptr addrspace(1) %a, i64 %x.id
  store i32 %j.next, ptr addrspace(1) %at, align 4, !llvm.access.group !0
  %next = add nuw i64 %x.id, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !1

exit:
  ret void
}

define void @sum(ptr addrspace(1) %a, i64 %begin, i64 %n) {
entry:
  br label %x

x:
  %x.id = phi i64 [ %begin, %entry ], [ %next, %x ]
  %s = phi i32 [ 0, %entry ], [ %s.next, %x ]
  %at = getelementptr inbounds i32, ptr addrspace(1) %a, i64 %x.id
  %v = load i32, ptr addrspace(1) %at, align 4
  %s.next = add i32 %s, %v
  store i32 %s.next, ptr addrspace(1) %at, align 4, !llvm.access.group !0
  %next = add nuw i64 %x.id, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !3

exit:
  ret void
}

define void @plain(ptr addrspace(1) %a, i64 %begin, i64 %n) {
entry:
  br label %x

x:
  %x.id = phi i64 [ %begin, %entry ], [ %next, %x ]
  %j = phi i32 [ 0, %entry ], [ %j.next, %x ]
  %j.next = add i32 %j, 1
  %at = getelementptr inbounds i32, ptr addrspace(1) %a, i64 %x.id
  store i32 %j.next, ptr addrspace(1) %at, align 4
  %next = add nuw i64 %x.id, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %x

exit:
  ret void
}

!0 = distinct !{}
!1 = distinct !{!1, !2}
!2 = !{!"llvm.loop.parallel_accesses", !0}
!3 = distinct !{!3, !2}
