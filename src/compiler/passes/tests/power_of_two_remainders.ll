; PASSES: function(ferrocl-power-of-two-remainders)
; `x % p == 0` and `!= 0` with p a power of two (a loop doubling it, a
; shift of one) become tests of x's low bits; a remainder by what may not
; be a power of two, or not compared with zero, stays.

; CHECK-LABEL: define void @doubling(
; CHECK: %[[M:.*]] = sub i32 %i, 1
; CHECK-NEXT: %r.low = and i32 %ty, %[[M]]
; CHECK-NEXT: %z = icmp eq i32 %r.low, 0

define void @doubling(i32 %ty, ptr %out) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 1, %entry ], [ %i2, %loop ]
  %r = srem i32 %ty, %i
  %z = icmp eq i32 %r, 0
  %v = zext i1 %z to i32
  %p = getelementptr i32, ptr %out, i32 %i
  store i32 %v, ptr %p
  %i2 = mul nsw i32 %i, 2
  %cmp = icmp sle i32 %i2, 16
  br i1 %cmp, label %loop, label %exit
exit:
  ret void
}

; CHECK-LABEL: define i1 @shifted(
; CHECK: %r.low = and i32 %x, 
; CHECK: icmp ne i32 %r.low, 0
define i1 @shifted(i32 %x, i32 %s) {
  %s7 = and i32 %s, 7
  %p = shl nuw i32 1, %s7
  %r = urem i32 %x, %p
  %nz = icmp ne i32 %r, 0
  ret i1 %nz
}

; CHECK-LABEL: define i1 @any_divisor(
; CHECK: srem i32 %x, %d
define i1 @any_divisor(i32 %x, i32 %d) {
  %r = srem i32 %x, %d
  %z = icmp eq i32 %r, 0
  ret i1 %z
}

; CHECK-LABEL: define i32 @remainder_used(
; CHECK: srem i32 %x, %p
define i32 @remainder_used(i32 %x, i32 %s) {
  %s7 = and i32 %s, 7
  %p = shl nuw i32 1, %s7
  %r = srem i32 %x, %p
  ret i32 %r
}

; guard_division.cpp's guards, which a power of two never trips.
; CHECK-LABEL: define void @guarded(
; CHECK: %[[M:.*]] = sub i32 %i, 1
; CHECK-NEXT: %r.low = and i32 %ty, %[[M]]
; CHECK-NEXT: %z = icmp eq i32 %r.low, 0
define void @guarded(i32 %ty, ptr %out) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 1, %entry ], [ %i2, %loop ]
  %zero = icmp eq i32 %i, 0
  %m1 = icmp eq i32 %i, -1
  %bad = or i1 %zero, %m1
  %d = select i1 %bad, i32 1, i32 %i
  %r = srem i32 %ty, %d
  %g = select i1 %m1, i32 0, i32 %r
  %z = icmp eq i32 %g, 0
  %v = zext i1 %z to i32
  %p = getelementptr i32, ptr %out, i32 %i
  store i32 %v, ptr %p
  %i2 = mul nsw i32 %i, 2
  %cmp = icmp sle i32 %i2, 16
  br i1 %cmp, label %loop, label %exit
exit:
  ret void
}

; A select whose test is not the guard's stays.
; CHECK-LABEL: define i1 @other_select(
; CHECK: %z = icmp eq i32 %g, 0
define i1 @other_select(i32 %x, i32 %s, i1 %c) {
  %s7 = and i32 %s, 7
  %p = shl nuw i32 1, %s7
  %d = select i1 %c, i32 1, i32 %p
  %r = srem i32 %x, %d
  %g = select i1 %c, i32 0, i32 %r
  %z = icmp eq i32 %g, 0
  ret i1 %z
}
