; PASSES: ferrocl-guard-division
; Integer divisions whose divisor may be 0 (or -1, signed) divide by 1 in
; those cases; the quotient by -1 is the negated dividend, the remainder 0.

define i32 @sdiv(i32 %a, i32 %b) {
; CHECK-LABEL: @sdiv
; CHECK: [[Z:%.*]] = icmp eq i32 %b, 0
; CHECK: [[M:%.*]] = icmp eq i32 %b, -1
; CHECK: [[BAD:%.*]] = or i1 [[Z]], [[M]]
; CHECK: [[D:%.*]] = select i1 [[BAD]], i32 1, i32 %b
; CHECK: [[Q:%.*]] = sdiv i32 %a, [[D]]
; CHECK: [[NEG:%.*]] = sub i32 0, %a
; CHECK: %q = select i1 [[M]], i32 [[NEG]], i32 [[Q]]
; CHECK: ret i32 %q
  %q = sdiv exact i32 %a, %b
  ret i32 %q
}

define <2 x i32> @srem(<2 x i32> %a, <2 x i32> %b) {
; CHECK-LABEL: @srem
; CHECK: [[Z:%.*]] = icmp eq <2 x i32> %b, zeroinitializer
; CHECK: [[M:%.*]] = icmp eq <2 x i32> %b, <i32 -1, i32 -1>
; CHECK: [[BAD:%.*]] = or <2 x i1> [[Z]], [[M]]
; CHECK: [[D:%.*]] = select <2 x i1> [[BAD]], <2 x i32> <i32 1, i32 1>, <2 x i32> %b
; CHECK: [[R:%.*]] = srem <2 x i32> %a, [[D]]
; CHECK: %r = select <2 x i1> [[M]], <2 x i32> zeroinitializer, <2 x i32> [[R]]
  %r = srem <2 x i32> %a, %b
  ret <2 x i32> %r
}

define i64 @unsigned(i64 %a, i64 %b) {
; CHECK-LABEL: @unsigned
; CHECK: [[Z:%.*]] = icmp eq i64 %b, 0
; CHECK-NOT: -1
; CHECK: [[D:%.*]] = select i1 [[Z]], i64 1, i64 %b
; CHECK: %q = udiv i64 %a, [[D]]
; CHECK: [[Z2:%.*]] = icmp eq i64 %b, 0
; CHECK: [[D2:%.*]] = select i1 [[Z2]], i64 1, i64 %b
; CHECK: %r = urem i64 %a, [[D2]]
  %q = udiv i64 %a, %b
  %r = urem i64 %a, %b
  %s = add i64 %q, %r
  ret i64 %s
}

; Constants safe in every lane stay; 0, -1 (signed) or undefined lanes are
; guarded (the guard folds to a constant divisor of 1 in those lanes).
define i32 @constants(i32 %a, <2 x i32> %v) {
; CHECK-LABEL: @constants
; CHECK: %c1 = sdiv i32 %a, 7
; CHECK: %c2 = udiv i32 %a, -1
; CHECK: %c3 = srem <2 x i32> %v, <i32 3, i32 5>
; CHECK: %g1 = udiv i32 %a, 1
; CHECK: %g2.fcl = sdiv i32 %a, 1
; CHECK: %g2 = select i1 true, i32 {{%.*}}, i32 %g2.fcl
; CHECK: %g3.fcl = sdiv <2 x i32> %v, <i32 3, i32 1>
  %c1 = sdiv i32 %a, 7
  %c2 = udiv i32 %a, -1
  %c3 = srem <2 x i32> %v, <i32 3, i32 5>
  %g1 = udiv i32 %a, 0
  %g2 = sdiv i32 %a, -1
  %g3 = sdiv <2 x i32> %v, <i32 3, i32 undef>
  %s1 = add i32 %c1, %c2
  %s2 = add i32 %g1, %g2
  %s3 = add i32 %s1, %s2
  ret i32 %s3
}
