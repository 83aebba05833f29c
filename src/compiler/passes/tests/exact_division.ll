; PASSES: ferrocl-exact-division
; A relaxed divide by a run-time value loses arcp (and only arcp); by a
; constant, or without arcp, it stays as it is.

define <2 x float> @by_value(<2 x float> %x, <2 x float> %y) {
; CHECK-LABEL: @by_value
; CHECK: fdiv reassoc nnan ninf nsz afn <2 x float> %x, %y, !fpmath
  %q = fdiv reassoc nnan ninf nsz arcp afn <2 x float> %x, %y, !fpmath !0
  ret <2 x float> %q
}

define float @fast(float %x) {
; CHECK-LABEL: @fast
; CHECK: fdiv reassoc nnan ninf nsz contract afn float 1.000000e+00, %x
  %q = fdiv fast float 1.0, %x
  ret float %q
}

define <2 x float> @by_constant(<2 x float> %x, float %s) {
; CHECK-LABEL: @by_constant
; CHECK: fdiv arcp <2 x float> %x, <float 3.000000e+00, float 3.000000e+00>
; CHECK: fdiv arcp float %s, 3.000000e+00
; CHECK: fdiv float %s, %s
; CHECK: fdiv nnan float %s, %s
  %q = fdiv arcp <2 x float> %x, <float 3.0, float 3.0>
  %r = fdiv arcp float %s, 3.0
  %t = fdiv float %s, %s
  %u = fdiv nnan float %s, %s
  ret <2 x float> %q
}

!0 = !{float 2.5}
