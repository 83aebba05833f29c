; PASSES: function(ferrocl-bounds-checks-as-ranges)
; An innermost work-item loop whose header checks its own index against a
; bound runs over the work-items that pass, in at most two intervals (the
; index may wrap around its type once), the check gone, in a copy of the
; function's body (`.long`) that its entry takes when the loop's row is 256
; work-items or more; a branch of the
; body on the index equal to a bound runs in a copy of the loop, for the
; one work-item it may take. A check joined to
; tests the loop does not change runs the loop over nothing when those
; fail. Loops whose check reads something else, whose skipped part has
; effects, or that are not work-item loops stay as they are.

; The check `trunc(base + x) < m` (Rodinia's gaussian Fan2): the entry
; takes the body as it was for rows shorter than 256; in the copy, the
; intervals are computed in i64 before the loop, the check is gone from
; them.
; CHECK-LABEL: define void @below(
; CHECK: entry:
; CHECK-NEXT: %[[COUNT:.*]] = sub i64 %n, 0
; CHECK-NEXT: %long.rows = icmp uge i64 %[[COUNT]], 256
; CHECK-NEXT: br i1 %long.rows, label %rows.long, label %rows
; CHECK: rows:
; CHECK-NEXT: br label %x
; CHECK: x:
; CHECK: %in = icmp slt i32 %gid, %m
; CHECK: rows.long:
; CHECK: %[[FIRST:.*]] = trunc i64 %base to i32
; CHECK: freeze i32 %[[FIRST]]
; CHECK: freeze i32 %m
; CHECK: pieces:
; CHECK-NEXT: %piece = phi i32 [ 0, %rows.long ], [ %piece.next, %pieces.next ]
; CHECK-NEXT: %[[SECOND:.*]] = icmp eq i32 %piece, 1
; CHECK-NEXT: %piece.lo = select i1 %[[SECOND]]
; CHECK-NEXT: %piece.hi = select i1 %[[SECOND]]
; CHECK: br i1 %{{.*}}, label %pieces.enter, label %pieces.next
; CHECK: x.long:
; CHECK-NEXT: %x.i.long = phi i64 [ %piece.lo, %pieces.enter ], [ %x.next.long, %latch.long ]
; CHECK-NEXT: %gid64.long = add i64 %base, %x.i.long
; CHECK-NEXT: br label %body.long
; CHECK: latch.long:
; CHECK: %done.long = icmp eq i64 %x.next.long, %piece.hi
; CHECK-NEXT: br i1 %done.long, label %pieces.next, label %x.long, !llvm.loop !1
; CHECK: pieces.next:
; CHECK-NEXT: %piece.next = add i32 %piece, 1
; CHECK-NEXT: %[[LAST:.*]] = icmp eq i32 %piece.next, 2
; CHECK-NEXT: br i1 %[[LAST]], label %exit.long, label %pieces, !llvm.loop ![[$PIECES:[0-9]+]]
; CHECK-NOT: unchanged
; CHECK: exit.long:
; CHECK-NEXT: ret void
define void @below(ptr addrspace(1) %a, i64 %base, i32 %m, i64 %n) {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %latch ]
  %gid64 = add i64 %base, %x.i
  %gid = trunc i64 %gid64 to i32
  %in = icmp slt i32 %gid, %m
  %in.fr = freeze i1 %in
  br i1 %in.fr, label %body, label %latch

body:
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %gid64
  %v = load float, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  %w = fadd float %v, 1.0
  store float %w, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  br label %latch

latch:
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !1

exit:
  ret void
}

; `if (x >= lo) return;` with a test the loop does not change beside it
; (`!(x >= lo || stop)`): the body on the false edge, an unsigned 64-bit
; index (i128 bounds), the invariant test negated into the bounds.
; CHECK-LABEL: define void @above_or_stop(
; CHECK: rows.long:
; CHECK: zext i64 %{{.*}} to i128
; CHECK: %[[STOP:.*]] = freeze i1 %stop
; CHECK: xor i1 %[[STOP]], true
; CHECK: pieces:
; CHECK: x.long:
; CHECK-NEXT: %x.i.long = phi i64 [ %piece.lo, %pieces.enter ], [ %x.next.long, %latch.long ]
; CHECK-NEXT: %gid.long = add i64 %base, %x.i.long
; CHECK-NEXT: br label %body.long
define void @above_or_stop(ptr addrspace(1) %a, i64 %base, i64 %lo, i1 %stop, i64 %n) {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %latch ]
  %gid = add i64 %base, %x.i
  %out = icmp uge i64 %gid, %lo
  %skip = select i1 %out, i1 true, i1 %stop
  br i1 %skip, label %latch, label %body

body:
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %gid
  store float 1.0, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  br label %latch

latch:
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !2

exit:
  ret void
}

; No block of the loop's own before or after it (the exit's phi gets
; the new one's name).
; CHECK-LABEL: define i32 @shared_blocks(
; CHECK: rows.long:
; CHECK-NEXT: br i1 %some, label %[[BEFORE:.*]], label %exit.long
; CHECK: pieces.next:
; CHECK: br i1 %{{.*}}, label %[[AFTER:.*]], label %pieces
; CHECK: [[AFTER]]:
; CHECK-NEXT: br label %exit.long
; CHECK: exit.long:
; CHECK-NEXT: %r.long = phi i32 [ 0, %rows.long ], [ 1, %[[AFTER]] ]
define i32 @shared_blocks(ptr addrspace(1) %a, i64 %base, i32 %m, i64 %n, i1 %some) {
entry:
  br i1 %some, label %x, label %exit

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %latch ]
  %gid64 = add i64 %base, %x.i
  %gid = trunc i64 %gid64 to i32
  %in = icmp slt i32 %gid, %m
  br i1 %in, label %body, label %latch

body:
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %gid64
  store float 1.0, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  br label %latch

latch:
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !6

exit:
  %r = phi i32 [ 0, %entry ], [ 1, %latch ]
  ret i32 %r
}

; Two tests of the index (PolyBench's 2dconv, `j > 0 && j < nj - 1`):
; each test's two intervals intersected with the other's, four pieces.
; CHECK-LABEL: define void @between(
; CHECK: pieces:
; CHECK: icmp eq i32 %piece, 3
; CHECK: x.long:
; CHECK-NEXT: %x.i.long = phi i64 [ %piece.lo, %pieces.enter ], [ %x.next.long, %latch.long ]
; CHECK-NEXT: %gid64.long = add i64 %base, %x.i.long
; CHECK-NEXT: br label %body.long
; CHECK: pieces.next:
; CHECK: icmp eq i32 %piece.next, 4
define void @between(ptr addrspace(1) %a, i64 %base, i32 %m, i64 %n) {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %latch ]
  %gid64 = add i64 %base, %x.i
  %gid = trunc i64 %gid64 to i32
  %low = icmp sgt i32 %gid, 0
  %high = icmp slt i32 %gid, %m
  %in = select i1 %low, i1 %high, i1 false
  br i1 %in, label %body, label %latch

body:
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %gid64
  store float 1.0, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  br label %latch

latch:
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !8

exit:
  ret void
}

; A branch of the body on `index == q` (gaussian Fan2's `if (y == 0)`):
; the intervals leave out the one work-item at the point, whose branch goes
; the other way in them; the loop as it was runs that work-item afterwards,
; if the loop has it.
; CHECK-LABEL: define void @point(
; CHECK: rows.long:
; CHECK: %[[AT:.*]] = sub i32 %{{.*}}, %{{.*}}
; CHECK: %[[ATW:.*]] = zext i32 %[[AT]] to i64
; CHECK: pieces:
; CHECK-NEXT: %piece = phi i32 [ 0, %rows.long ], [ %piece.next, %pieces.next ]
; CHECK: x.long:
; CHECK: body.long:
; CHECK-NOT: icmp eq i32
; CHECK: br label %latch.long
; CHECK: pieces.next:
; CHECK-NEXT: %piece.next = add i32 %piece, 1
; CHECK-NEXT: %[[LAST:.*]] = icmp eq i32 %piece.next, 4
; CHECK-NEXT: br i1 %[[LAST]], label %unchanged, label %pieces
; CHECK: unchanged:
; CHECK-NEXT: %[[FROM:at[0-9]*]] = add i64 0, %[[ATW]]
; CHECK-NEXT: %[[TO:at.next]] = add i64 %[[FROM]], 1
; CHECK-NEXT: %[[HAS:.*]] = icmp ult i64 %[[ATW]], %{{.*}}
; CHECK-NEXT: br i1 %[[HAS]], label %x.long.unchanged, label %exit.long
; CHECK: x.long.unchanged:
; CHECK-NEXT: %x.i.long.unchanged = phi i64 [ %[[FROM]], %unchanged ]
; CHECK: body.long.unchanged:
; CHECK: %at.long.unchanged = icmp eq i32 %gid.long.unchanged, %q
; CHECK-NEXT: br i1 %at.long.unchanged, label %first.long.unchanged, label %latch.long.unchanged
; CHECK: latch.long.unchanged:
; CHECK: %done.long.unchanged = icmp eq i64 %x.next.long.unchanged, %[[TO]]
define void @point(ptr addrspace(1) %a, i64 %base, i32 %m, i32 %q, i64 %n) {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %latch ]
  %gid64 = add i64 %base, %x.i
  %gid = trunc i64 %gid64 to i32
  %in = icmp slt i32 %gid, %m
  br i1 %in, label %body, label %latch

body:
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %gid64
  store float 1.0, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  %at = icmp eq i32 %gid, %q
  br i1 %at, label %first, label %latch

first:
  store float 2.0, ptr addrspace(1) %a, align 4, !llvm.access.group !0
  br label %latch

latch:
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !7

exit:
  ret void
}

; The header stores: the work-items the check skips have an effect.
; CHECK-LABEL: define void @header_stores(
; CHECK-NOT: long
; CHECK: br i1 %in, label %body, label %latch
define void @header_stores(ptr addrspace(1) %a, i64 %base, i32 %m, i64 %n) {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %latch ]
  %gid64 = add i64 %base, %x.i
  %gid = trunc i64 %gid64 to i32
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %gid64
  store float 0.0, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  %in = icmp slt i32 %gid, %m
  br i1 %in, label %body, label %latch

body:
  store float 1.0, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  br label %latch

latch:
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !3

exit:
  ret void
}

; The check reads a loaded value, not the loop's index.
; CHECK-LABEL: define void @data_check(
; CHECK-NOT: long
; CHECK: br i1 %in, label %body, label %latch
define void @data_check(ptr addrspace(1) %a, i64 %base, i32 %m, i64 %n) {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %latch ]
  %gid64 = add i64 %base, %x.i
  %p = getelementptr inbounds i32, ptr addrspace(1) %a, i64 %gid64
  %v = load i32, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  %in = icmp slt i32 %v, %m
  br i1 %in, label %body, label %latch

body:
  store i32 0, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  br label %latch

latch:
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !4

exit:
  ret void
}

; Not a work-item loop (no parallel accesses): an ordinary loop whose
; iterations may depend on each other is left to LLVM.
; CHECK-LABEL: define void @ordinary(
; CHECK-NOT: long
; CHECK: br i1 %in, label %body, label %latch
define void @ordinary(ptr addrspace(1) %a, i64 %base, i32 %m, i64 %n) {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %latch ]
  %gid64 = add i64 %base, %x.i
  %gid = trunc i64 %gid64 to i32
  %in = icmp slt i32 %gid, %m
  br i1 %in, label %body, label %latch

body:
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %gid64
  store float 1.0, ptr addrspace(1) %p, align 4
  br label %latch

latch:
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x

exit:
  ret void
}

; Two loop nests (a kernel with a barrier between its regions): its groups
; are sized for its local memory, and copying every region doubles the
; back end's work; left as it is.
; CHECK-LABEL: define void @two_regions(
; CHECK-NOT: long
; CHECK: br i1 %in, label %body, label %latch
; CHECK: br i1 %in2, label %body2, label %latch2
define void @two_regions(ptr addrspace(1) %a, i64 %base, i32 %m, i64 %n) {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %latch ]
  %gid64 = add i64 %base, %x.i
  %gid = trunc i64 %gid64 to i32
  %in = icmp slt i32 %gid, %m
  br i1 %in, label %body, label %latch

body:
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %gid64
  store float 1.0, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  br label %latch

latch:
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %x2, label %x, !llvm.loop !9

x2:
  %x2.i = phi i64 [ 0, %latch ], [ %x2.next, %latch2 ]
  %gid64.2 = add i64 %base, %x2.i
  %gid2 = trunc i64 %gid64.2 to i32
  %in2 = icmp slt i32 %gid2, %m
  br i1 %in2, label %body2, label %latch2

body2:
  %p2 = getelementptr inbounds float, ptr addrspace(1) %a, i64 %gid64.2
  store float 2.0, ptr addrspace(1) %p2, align 4, !llvm.access.group !0
  br label %latch2

latch2:
  %x2.next = add nuw nsw i64 %x2.i, 1
  %done2 = icmp eq i64 %x2.next, %n
  br i1 %done2, label %exit, label %x2, !llvm.loop !10

exit:
  ret void
}

; CHECK: ![[$PIECES]] = distinct !{![[$PIECES]], ![[NOUNROLL:[0-9]+]]}
; CHECK: ![[NOUNROLL]] = !{!"llvm.loop.unroll.disable"}

!0 = distinct !{}
!1 = distinct !{!1, !5}
!2 = distinct !{!2, !5}
!3 = distinct !{!3, !5}
!4 = distinct !{!4, !5}
!5 = !{!"llvm.loop.parallel_accesses", !0}
!6 = distinct !{!6, !5}
!7 = distinct !{!7, !5}
!8 = distinct !{!8, !5}
!9 = distinct !{!9, !5}
!10 = distinct !{!10, !5}
