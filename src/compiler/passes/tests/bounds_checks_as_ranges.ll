; PASSES: function(ferrocl-bounds-checks-as-ranges)
; An innermost work-item loop whose header checks its own index against a
; bound runs over the work-items that pass, in at most two intervals (the
; index may wrap around its type once), the check gone; a branch of the
; body on the index equal to a bound runs in a copy of the loop, for the
; one work-item it may take. A check joined to
; tests the loop does not change runs the loop over nothing when those
; fail. Loops whose check reads something else, whose skipped part has
; effects, or that are not work-item loops stay as they are.

; The check `trunc(base + x) < m` (Rodinia's gaussian Fan2): the intervals
; are computed in i64 before the loop, the check is gone from them. They run
; when every work-item passes or the row is 256 long; else the loop as it
; was (`.unchanged`) runs the row.
; CHECK-LABEL: define void @below(
; CHECK: %[[FIRST:.*]] = trunc i64 %base to i32
; CHECK: freeze i32 %[[FIRST]]
; CHECK: freeze i32 %m
; CHECK: pieces:
; CHECK-NEXT: %piece = phi i32 [ 0, %entry ], [ %piece.next, %pieces.next ]
; CHECK-NEXT: %[[SECOND:.*]] = icmp eq i32 %piece, 1
; CHECK-NEXT: %piece.lo = select i1 %[[SECOND]]
; CHECK-NEXT: %piece.hi = select i1 %[[SECOND]]
; CHECK: br i1 %{{.*}}, label %pieces.enter, label %pieces.next
; CHECK: x:
; CHECK-NEXT: %x.i = phi i64 [ %piece.lo, %pieces.enter ], [ %x.next, %latch ]
; CHECK-NEXT: %gid64 = add i64 %base, %x.i
; CHECK-NEXT: br label %body
; CHECK: latch:
; CHECK: %done = icmp eq i64 %x.next, %piece.hi
; CHECK-NEXT: br i1 %done, label %pieces.next, label %x, !llvm.loop !1
; CHECK: pieces.next:
; CHECK-NEXT: %piece.next = add i32 %piece, 1
; CHECK-NEXT: %[[LAST:.*]] = icmp eq i32 %piece.next, 2
; CHECK-NEXT: br i1 %[[LAST]], label %unchanged, label %pieces, !llvm.loop ![[$PIECES:[0-9]+]]
; CHECK: unchanged:
; CHECK-NEXT: %from = add i64 0, %[[FROM:.*]]
; CHECK-NEXT: %to = add i64 0, %[[TO:.*]]
; CHECK-NEXT: %[[ANY:.*]] = icmp ult i64 %from, %to
; CHECK-NEXT: br i1 %[[ANY]], label %x.unchanged, label %exit
; CHECK: x.unchanged:
; CHECK-NEXT: %x.i.unchanged = phi i64 [ %from, %unchanged ], [ %x.next.unchanged, %latch.unchanged ]
; CHECK: %in.unchanged = icmp slt i32 %gid.unchanged, %m
; CHECK: latch.unchanged:
; CHECK: %done.unchanged = icmp eq i64 %x.next.unchanged, %to
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
; CHECK: zext i64 %{{.*}} to i128
; CHECK: %[[STOP:.*]] = freeze i1 %stop
; CHECK: xor i1 %[[STOP]], true
; CHECK: pieces:
; CHECK: x:
; CHECK-NEXT: %x.i = phi i64 [ %piece.lo, %pieces.enter ], [ %x.next, %latch ]
; CHECK-NEXT: %gid = add i64 %base, %x.i
; CHECK-NEXT: br label %body
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
; CHECK: entry:
; CHECK-NEXT: br i1 %some, label %[[BEFORE:.*]], label %exit
; CHECK: unchanged:
; CHECK: br i1 %{{.*}}, label %x.unchanged, label %[[AFTER:.*]]
; CHECK: [[AFTER]]:
; CHECK-NEXT: br label %exit
; CHECK: exit:
; CHECK-NEXT: %r = phi i32 [ 0, %entry ], [ 1, %[[AFTER]] ]
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
; CHECK: x:
; CHECK-NEXT: %x.i = phi i64 [ %piece.lo, %pieces.enter ], [ %x.next, %latch ]
; CHECK-NEXT: %gid64 = add i64 %base, %x.i
; CHECK-NEXT: br label %body
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
; CHECK: %[[AT:.*]] = sub i32 %{{.*}}, %{{.*}}
; CHECK: %[[ATW:.*]] = zext i32 %[[AT]] to i64
; CHECK: pieces:
; CHECK-NEXT: %piece = phi i32 [ 0, %entry ], [ %piece.next, %pieces.next ]
; CHECK: x:
; CHECK: body:
; CHECK-NOT: icmp eq i32
; CHECK: br label %latch
; CHECK: pieces.next:
; CHECK-NEXT: %piece.next = add i32 %piece, 1
; CHECK-NEXT: %[[LAST:.*]] = icmp eq i32 %piece.next, 4
; CHECK-NEXT: br i1 %[[LAST]], label %unchanged, label %pieces
; CHECK: unchanged:
; CHECK: br i1 %{{.*}}, label %x.unchanged, label %exit
; CHECK: body.unchanged:
; CHECK: %at.unchanged = icmp eq i32 %gid.unchanged, %q
; CHECK-NEXT: br i1 %at.unchanged, label %first.unchanged, label %latch.unchanged
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
; CHECK-NOT: pieces
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
; CHECK-NOT: pieces
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
; CHECK-NOT: pieces
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
