; PASSES: function(ferrocl-index-choices-as-ranges)
; An innermost work-item loop whose addresses choose between values by a
; test of its own index runs in five pieces: the two intervals where every
; test chooses the index (computed before the loop, in twice the index's
; width; none for rows shorter than 16) in a copy of the loop
; (`.chosen`) without the choices, the rest in the loop as it was. Compiled
; for AVX-512, a second copy (`.chosen.short`) runs the chosen pieces shorter
; than two vectors, with its tail under a mask (@around_avx512).

; A neighbour around the group, `(lid + 1) % lsize` (clpeak's
; local_bandwidth): in the copy the remainder is the index.
; CHECK-LABEL: define void @around(
; CHECK: entry:
; CHECK-NEXT: %[[COUNT:.*]] = sub i64 %n, 0
; CHECK-NEXT: %[[LONG:.*]] = icmp uge i64 %[[COUNT]], 16
; CHECK: freeze i32 %lsize
; CHECK: br label %pieces
; CHECK: pieces:
; CHECK-NEXT: %piece = phi i32 [ 0, %entry ], [ %piece.next, %pieces.next ]
; CHECK: %piece.lo = select
; CHECK-NEXT: %piece.hi = select
; CHECK-NEXT: %[[ANY:.*]] = icmp ult i64 %piece.lo, %piece.hi
; CHECK-NEXT: br i1 %[[ANY]], label %pieces.enter, label %pieces.next
; CHECK: pieces.enter:
; CHECK-NEXT: %piece.chosen = trunc i32 %piece to i1
; CHECK-NEXT: br i1 %piece.chosen, label %x.chosen, label %x
; CHECK: x:
; CHECK-NEXT: %x.i = phi i64 [ %piece.lo, %pieces.enter ], [ %x.next, %x ]
; CHECK: %next = urem i32 %lid1, %lsize
; CHECK: %done = icmp eq i64 %x.next, %piece.hi
; CHECK-NEXT: br i1 %done, label %pieces.next, label %x
; CHECK: pieces.next:
; CHECK-NEXT: %piece.next = add i32 %piece, 1
; CHECK-NEXT: %[[LAST:.*]] = icmp eq i32 %piece.next, 5
; CHECK-NEXT: br i1 %[[LAST]], label %exit, label %pieces, !llvm.loop ![[$PIECES:[0-9]+]]
; CHECK: x.chosen:
; CHECK-NEXT: %x.i.chosen = phi i64 [ %piece.lo, %pieces.enter ], [ %x.next.chosen, %x.chosen ]
; CHECK-NEXT: %lid.chosen = trunc i64 %x.i.chosen to i32
; CHECK-NEXT: %lid1.chosen = add i32 %lid.chosen, 1
; CHECK-NEXT: %wide.chosen = zext i32 %lid1.chosen to i64
; CHECK-NOT: urem
; CHECK: %done.chosen = icmp eq i64 %x.next.chosen, %piece.hi
; CHECK-NEXT: br i1 %done.chosen, label %pieces.next, label %x.chosen
define void @around(ptr addrspace(3) %a, ptr addrspace(1) %out, i64 %n, i32 %lsize) #0 {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %x ]
  %lid = trunc i64 %x.i to i32
  %lid1 = add i32 %lid, 1
  %next = urem i32 %lid1, %lsize
  %wide = zext i32 %next to i64
  %p = getelementptr inbounds float, ptr addrspace(3) %a, i64 %wide
  %v = load float, ptr addrspace(3) %p, align 4, !llvm.access.group !0
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %x.i
  store float %v, ptr addrspace(1) %q, align 4, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !1

exit:
  ret void
}

; `clamp(x - 1, 0, w - 1)` (a max inside a min: the min tests the max's
; index) and `min(x + 1, w - 1)`, signed: in the copy all three are the
; indices; a signed remainder also needs its divisor above 0.
; CHECK-LABEL: define void @clamped(
; CHECK: icmp sgt i32 %{{.*}}, 0
; CHECK: x.chosen:
; CHECK-NOT: smax
; CHECK-NOT: smin
; CHECK-NOT: srem
; CHECK: br i1 %done.chosen
define void @clamped(ptr addrspace(1) %a, ptr addrspace(1) %out, i64 %base, i32 %w, i32 %d, i64 %n) #0 {
entry:
  %last = add i32 %w, -1
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %x ]
  %gid64 = add i64 %base, %x.i
  %gid = trunc i64 %gid64 to i32
  %left = add nsw i32 %gid, -1
  %lo = call i32 @llvm.smax.i32(i32 %left, i32 0)
  %lclamp = call i32 @llvm.smin.i32(i32 %lo, i32 %last)
  %right = add nsw i32 %gid, 1
  %rclamp = call i32 @llvm.smin.i32(i32 %right, i32 %last)
  %wrap = srem i32 %gid, %d
  %li = sext i32 %lclamp to i64
  %ri = sext i32 %rclamp to i64
  %wi = sext i32 %wrap to i64
  %pl = getelementptr inbounds float, ptr addrspace(1) %a, i64 %li
  %pr = getelementptr inbounds float, ptr addrspace(1) %a, i64 %ri
  %pw = getelementptr inbounds float, ptr addrspace(1) %a, i64 %wi
  %vl = load float, ptr addrspace(1) %pl, align 4, !llvm.access.group !0
  %vr = load float, ptr addrspace(1) %pr, align 4, !llvm.access.group !0
  %vw = load float, ptr addrspace(1) %pw, align 4, !llvm.access.group !0
  %s1 = fadd float %vl, %vr
  %s2 = fadd float %s1, %vw
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %gid64
  store float %s2, ptr addrspace(1) %q, align 4, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !2

exit:
  ret void
}

; A select on the index whose false arm is the index (`x < 0 ? x + w : x`
; wraps a negative neighbour): the copy keeps the false arm.
; CHECK-LABEL: define void @wrap_negative(
; CHECK: x.chosen:
; CHECK-NOT: select
; CHECK: %i.chosen = sext i32 %left.chosen to i64
define void @wrap_negative(ptr addrspace(1) %a, ptr addrspace(1) %out, i64 %base, i32 %w, i64 %n) #0 {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %x ]
  %gid64 = add i64 %base, %x.i
  %gid = trunc i64 %gid64 to i32
  %left = add nsw i32 %gid, -1
  %neg = icmp slt i32 %left, 0
  %around = add i32 %left, %w
  %pick = select i1 %neg, i32 %around, i32 %left
  %i = sext i32 %pick to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %i
  %v = load float, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %gid64
  store float %v, ptr addrspace(1) %q, align 4, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !3

exit:
  ret void
}

; Left alone: a choice whose value is stored, not an address; a loop that
; is not a work-item loop.
; CHECK-LABEL: define void @not_an_address(
; CHECK-NOT: pieces
; CHECK: ret void
define void @not_an_address(ptr addrspace(1) %out, i32 %w, i64 %n) #0 {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %x ]
  %gid = trunc i64 %x.i to i32
  %c = call i32 @llvm.smin.i32(i32 %gid, i32 %w)
  %q = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %x.i
  store i32 %c, ptr addrspace(1) %q, align 4, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !4

exit:
  ret void
}

; CHECK-LABEL: define void @not_work_items(
; CHECK-NOT: pieces
; CHECK: ret void
define void @not_work_items(ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %w, i64 %n) #0 {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %x ]
  %gid = trunc i64 %x.i to i32
  %c = call i32 @llvm.smin.i32(i32 %gid, i32 %w)
  %ci = sext i32 %c to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %ci
  %v = load float, ptr addrspace(1) %p, align 4
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %x.i
  store float %v, ptr addrspace(1) %q, align 4
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x

exit:
  ret void
}

; For AVX-512: pieces shorter than two vectors of 16 floats run in a copy
; whose loop asks the vectorizer for its tail under a mask; longer ones in
; the plain copy.
; CHECK-LABEL: define void @around_avx512(
; CHECK: pieces.enter:
; CHECK-NEXT: %piece.chosen = trunc i32 %piece to i1
; CHECK-NEXT: br i1 %piece.chosen, label %pieces.chosen, label %x
; CHECK: x:
; CHECK-NEXT: %x.i = phi i64 [ %piece.lo, %pieces.enter ], [ %x.next, %x ]
; CHECK: br i1 %done, label %pieces.next, label %x, !llvm.loop ![[$PLAIN:[0-9]+]]
; CHECK: pieces.chosen:
; CHECK-NEXT: %[[LENGTH:.*]] = sub i64 %piece.hi, %piece.lo
; CHECK-NEXT: %piece.short = icmp ult i64 %[[LENGTH]], 32
; CHECK-NEXT: br i1 %piece.short, label %x.chosen.short, label %x.chosen
; CHECK: x.chosen:
; CHECK-NEXT: %x.i.chosen = phi i64 [ %piece.lo, %pieces.chosen ], [ %x.next.chosen, %x.chosen ]
; CHECK-NOT: urem
; CHECK: br i1 %done.chosen, label %pieces.next, label %x.chosen, !llvm.loop ![[$PLAIN]]
; CHECK: x.chosen.short:
; CHECK-NEXT: %x.i.chosen.short = phi i64 [ %piece.lo, %pieces.chosen ], [ %x.next.chosen.short, %x.chosen.short ]
; CHECK-NOT: urem
; CHECK: br i1 %done.chosen.short, label %pieces.next, label %x.chosen.short, !llvm.loop ![[$MASKED:[0-9]+]]
define void @around_avx512(ptr addrspace(3) %a, ptr addrspace(1) %out, i64 %n, i32 %lsize) #1 {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %x ]
  %lid = trunc i64 %x.i to i32
  %lid1 = add i32 %lid, 1
  %next = urem i32 %lid1, %lsize
  %wide = zext i32 %next to i64
  %p = getelementptr inbounds float, ptr addrspace(3) %a, i64 %wide
  %v = load float, ptr addrspace(3) %p, align 4, !llvm.access.group !0
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %x.i
  store float %v, ptr addrspace(1) %q, align 4, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !6

exit:
  ret void
}

declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.smin.i32(i32, i32)

; CHECK: ![[$PIECES]] = distinct !{![[$PIECES]], ![[NOUNROLL:[0-9]+]]}
; CHECK: ![[NOUNROLL]] = !{!"llvm.loop.unroll.disable"}
; CHECK: ![[$PLAIN]] = distinct !{![[$PLAIN]], ![[PARALLEL:[0-9]+]]}
; CHECK: ![[$MASKED]] = distinct !{![[$MASKED]], ![[PARALLEL]], ![[PREDICATE:[0-9]+]]}
; CHECK: ![[PREDICATE]] = !{!"llvm.loop.vectorize.predicate.enable", i1 true}

!0 = distinct !{}
!1 = distinct !{!1, !5}
!2 = distinct !{!2, !5}
!3 = distinct !{!3, !5}
!4 = distinct !{!4, !5}
!5 = !{!"llvm.loop.parallel_accesses", !0}
!6 = distinct !{!6, !5}

attributes #0 = { "target-features"="+avx2" }
attributes #1 = { "target-features"="+avx2,+avx512f" }
