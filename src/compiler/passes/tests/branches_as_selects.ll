; PASSES: function(ferrocl-branches-as-selects)
; `c ? x : y` as the front end writes it without optimization (a branch,
; short ways, a phi) becomes a select, with the ways' arithmetic before
; it: diamonds, triangles either way, several phis, a branch with no phi,
; and choices nested in a way. A way that reads memory, divides by what
; may be zero, calls, or computes more than 8 instructions, a join with a
; third way in, and a loop's header stay.

; CHECK-LABEL: define i32 @diamond(
; CHECK-NEXT: entry:
; CHECK-NEXT: %c = icmp sgt i32 %e, %max
; CHECK-NEXT: %r = select i1 %c, i32 %max, i32 %e
; CHECK-NEXT: ret i32 %r
define i32 @diamond(i32 %e, i32 %max) {
entry:
  %c = icmp sgt i32 %e, %max
  br i1 %c, label %then, label %else
then:
  br label %join
else:
  br label %join
join:
  %r = phi i32 [ %max, %then ], [ %e, %else ]
  ret i32 %r
}

; Rodinia hotspot's `validYmin = (blkY < 0) ? -blkY : 0` and
; `validYmax = (blkYmax > rows - 1) ? 15 - (blkYmax - rows + 1) : 15`: the
; true way computes, the false way is the branch's block itself; then a
; false way first in the phi.
; CHECK-LABEL: define i32 @triangles(
; CHECK-NEXT: entry:
; CHECK-NEXT: %c = icmp slt i32 %y, 0
; CHECK-NEXT: %neg = sub nsw i32 0, %y
; CHECK-NEXT: %min = select i1 %c, i32 %neg, i32 0
; CHECK-NEXT: %d = icmp sgt i32 %ymax, %last
; CHECK-NEXT: %over = sub nsw i32 %ymax, %rows
; CHECK-NEXT: %over1 = add nsw i32 %over, 1
; CHECK-NEXT: %lim = sub nsw i32 15, %over1
; CHECK-NEXT: %max = select i1 %d, i32 %lim, i32 15
; CHECK-NEXT: %sum = add i32 %min, %max
; CHECK-NEXT: ret i32 %sum
define i32 @triangles(i32 %y, i32 %ymax, i32 %rows, i32 %last) {
entry:
  %c = icmp slt i32 %y, 0
  br i1 %c, label %neg.way, label %join
neg.way:
  %neg = sub nsw i32 0, %y
  br label %join
join:
  %min = phi i32 [ %neg, %neg.way ], [ 0, %entry ]
  %d = icmp sgt i32 %ymax, %last
  br i1 %d, label %lim.way, label %join2
lim.way:
  %over = sub nsw i32 %ymax, %rows
  %over1 = add nsw i32 %over, 1
  %lim = sub nsw i32 15, %over1
  br label %join2
join2:
  %max = phi i32 [ 15, %join ], [ %lim, %lim.way ]
  %sum = add i32 %min, %max
  ret i32 %sum
}

; Two phis, and a branch with none.
; CHECK-LABEL: define void @two_phis(
; CHECK: %p = select i1 %c, i32 %x, i32 %y
; CHECK-NEXT: %q = select i1 %c, float 1.000000e+00, float %f
; CHECK-NOT: br
; CHECK: ret void
define void @two_phis(i1 %c, i1 %d, i32 %x, i32 %y, float %f, ptr %out) {
entry:
  br i1 %c, label %t, label %e
t:
  br label %j
e:
  br label %j
j:
  %p = phi i32 [ %x, %t ], [ %y, %e ]
  %q = phi float [ 1.0, %t ], [ %f, %e ]
  store i32 %p, ptr %out
  store float %q, ptr %out
  br i1 %d, label %t2, label %j2
t2:
  br label %j2
j2:
  ret void
}

; `c ? (d ? x + 1 : y) : z`: the inner choice first, then the outer.
; CHECK-LABEL: define i32 @nested(
; CHECK-NEXT: entry:
; CHECK-NEXT: %x1 = add i32 %x, 1
; CHECK-NEXT: %in = select i1 %d, i32 %x1, i32 %y
; CHECK-NEXT: %out = select i1 %c, i32 %in, i32 %z
; CHECK-NEXT: ret i32 %out
define i32 @nested(i1 %c, i1 %d, i32 %x, i32 %y, i32 %z) {
entry:
  br i1 %c, label %outer.t, label %outer.f
outer.t:
  br i1 %d, label %inner.t, label %inner.f
inner.t:
  %x1 = add i32 %x, 1
  br label %inner.join
inner.f:
  br label %inner.join
inner.join:
  %in = phi i32 [ %x1, %inner.t ], [ %y, %inner.f ]
  br label %outer.join
outer.f:
  br label %outer.join
outer.join:
  %out = phi i32 [ %in, %inner.join ], [ %z, %outer.f ]
  ret i32 %out
}

; CHECK-LABEL: define i32 @way_loads(
; CHECK: br i1 %c, label %then, label %join
; CHECK: phi i32
define i32 @way_loads(ptr %p, i32 %x, i1 %c) {
entry:
  br i1 %c, label %then, label %join
then:
  %y = load i32, ptr %p
  br label %join
join:
  %r = phi i32 [ %y, %then ], [ %x, %entry ]
  ret i32 %r
}

; CHECK-LABEL: define i32 @way_divides(
; CHECK: br i1 %c, label %then, label %join
; CHECK: phi i32
define i32 @way_divides(i32 %x, i32 %d) {
entry:
  %c = icmp ne i32 %d, 0
  br i1 %c, label %then, label %join
then:
  %q = sdiv i32 %x, %d
  br label %join
join:
  %r = phi i32 [ %q, %then ], [ 0, %entry ]
  ret i32 %r
}

declare i64 @_Z12get_local_idj(i32)

; CHECK-LABEL: define i64 @way_calls(
; CHECK: br i1 %c, label %then, label %join
define i64 @way_calls(i1 %c) {
entry:
  br i1 %c, label %then, label %join
then:
  %l = call i64 @_Z12get_local_idj(i32 0)
  br label %join
join:
  %r = phi i64 [ %l, %then ], [ 0, %entry ]
  ret i64 %r
}

; Nine instructions: more than a way may compute.
; CHECK-LABEL: define i32 @way_too_long(
; CHECK: br i1 %c, label %then, label %join
define i32 @way_too_long(i32 %x, i1 %c) {
entry:
  br i1 %c, label %then, label %join
then:
  %a1 = add i32 %x, 1
  %a2 = add i32 %a1, 2
  %a3 = add i32 %a2, 3
  %a4 = add i32 %a3, 4
  %a5 = add i32 %a4, 5
  %a6 = add i32 %a5, 6
  %a7 = add i32 %a6, 7
  %a8 = add i32 %a7, 8
  %a9 = add i32 %a8, 9
  br label %join
join:
  %r = phi i32 [ %a9, %then ], [ %x, %entry ]
  ret i32 %r
}

; CHECK-LABEL: define i32 @three_ways(
; CHECK: phi i32 [ 1, %a ], [ 2, %b ], [ 3, %c ]
define i32 @three_ways(i32 %s) {
entry:
  switch i32 %s, label %a [ i32 1, label %b
                            i32 2, label %c ]
a:
  br label %join
b:
  br label %join
c:
  br label %join
join:
  %r = phi i32 [ 1, %a ], [ 2, %b ], [ 3, %c ]
  ret i32 %r
}

; The header's two ways in come from different blocks: it stays a loop.
; CHECK-LABEL: define i32 @loop(
; CHECK: header:
; CHECK-NEXT: %i = phi i32
define i32 @loop(i32 %n) {
entry:
  br label %pre
pre:
  br label %header
header:
  %i = phi i32 [ 0, %pre ], [ %i1, %latch ]
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %latch, label %exit
latch:
  br label %header
exit:
  ret i32 %i
}
