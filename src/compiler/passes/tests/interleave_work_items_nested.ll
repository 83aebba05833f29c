; PASSES: function(ferrocl-interleave-work-items)
; PolyBench's correlation: each work-item x loops over j from x + 1 to m
; (a trip count of its own) around an inner loop that sums into c[x][j].
; Eight work-items at a time when eight remain and all pass the bounds
; check and the middle loop's guard: their middle loops jammed into one
; that goes on while all eight go on, the eight inner loops jammed inside
; it (one header with all eight sums, each lane in an alias scope of its
; own), then each work-item's own middle loop for the iterations left to
; it, and the latch steps by eight.

; CHECK-LABEL: define void @correlation(
; CHECK: br i1 %wi.room, label %wi.tests, label %wi.one
; CHECK: wi.tests:
; CHECK-COUNT-8: icmp slt i64
; CHECK: br i1 %wi.all{{[0-9]*}}, label %wi.lanes, label %wi.one
; CHECK: latch:
; CHECK-NEXT: %wi.step = phi i64 {{.*}}[ 4, %wi.jammed.done ]
; CHECK: inner.wi:
; CHECK-NEXT: %i.wi = phi i64
; CHECK-COUNT-4: %sum{{[.a-z0-9]*}} = phi float
; CHECK-NOT: %i.wi{{[0-9]+}} = phi
; CHECK: %wi.all.go.on{{[0-9]*}} = and i1

define void @correlation(ptr addrspace(1) %c, ptr addrspace(1) %a, i64 %n, i64 %m, i64 %k) {
entry:
  br label %x

x:
  %x.id = phi i64 [ 0, %entry ], [ %next, %latch ]
  %in = icmp slt i64 %x.id, %m
  br i1 %in, label %fore, label %latch

fore:
  %diag = mul i64 %x.id, %m
  %diag.at = add i64 %diag, %x.id
  %diag.p = getelementptr inbounds float, ptr addrspace(1) %c, i64 %diag.at
  store float 1.0, ptr addrspace(1) %diag.p, align 4, !llvm.access.group !0
  %j0 = add nsw i64 %x.id, 1
  %any = icmp slt i64 %j0, %m
  br i1 %any, label %pre, label %latch

pre:
  %row = getelementptr float, ptr addrspace(1) %c, i64 %diag
  br label %middle

middle:
  %j = phi i64 [ %j0, %pre ], [ %j.next, %after ]
  %dst = getelementptr float, ptr addrspace(1) %row, i64 %j
  %init = load float, ptr addrspace(1) %dst, align 4
  br label %inner

inner:
  %i = phi i64 [ 0, %middle ], [ %i.next, %inner ]
  %sum = phi float [ %init, %middle ], [ %sum.next, %inner ]
  %im = mul i64 %i, %m
  %p = add i64 %im, %x.id
  %q = add i64 %im, %j
  %pp = getelementptr inbounds float, ptr addrspace(1) %a, i64 %p
  %qp = getelementptr inbounds float, ptr addrspace(1) %a, i64 %q
  %u = load float, ptr addrspace(1) %pp, align 4, !llvm.access.group !0
  %v = load float, ptr addrspace(1) %qp, align 4, !llvm.access.group !0
  %sum.next = call float @llvm.fmuladd.f32(float %u, float %v, float %sum)
  store float %sum.next, ptr addrspace(1) %dst, align 4, !llvm.access.group !0
  %i.next = add nuw i64 %i, 1
  %i.done = icmp eq i64 %i.next, %k
  br i1 %i.done, label %after, label %inner

after:
  %sum.out = phi float [ %sum.next, %inner ]
  %jm = mul i64 %j, %m
  %t = add i64 %jm, %x.id
  %tp = getelementptr inbounds float, ptr addrspace(1) %c, i64 %t
  store float %sum.out, ptr addrspace(1) %tp, align 4, !llvm.access.group !0
  %j.next = add nsw i64 %j, 1
  %j.more = icmp slt i64 %j.next, %m
  br i1 %j.more, label %middle, label %middle.exit

middle.exit:
  br label %latch

latch:
  %next = add nuw i64 %x.id, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !1

exit:
  ret void
}

declare float @llvm.fmuladd.f32(float, float, float)

!0 = distinct !{}
!1 = distinct !{!1, !2}
!2 = !{!"llvm.loop.parallel_accesses", !0}
