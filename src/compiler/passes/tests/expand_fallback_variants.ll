; PASSES: ferrocl-expand-fallback-variants
; A call of a fallback's masked variant becomes a test of its mask and the
; scalar fallback called for each lane when some lane is active (a branch
; marked unlikely); the variant's declaration and its place in
; llvm.compiler.used go. Calls of one block with one mask (sin and cos of
; one x) share the test; a call with another mask has its own.

; CHECK-NOT: @llvm.compiler.used
; CHECK-LABEL: define <4 x float> @masked(
; CHECK: %[[ANY:.*]] = call i1 @llvm.vector.reduce.or.v4i1(<4 x i1> %mask)
; CHECK-NEXT: br i1 %[[ANY]], label %[[SLOW:[^,]+]], label %[[JOIN:[^,]+]], !prof ![[UNLIKELY:[0-9]+]]
; CHECK: [[SLOW]]:
; CHECK-NEXT: %[[X0:.*]] = extractelement <4 x float> %x, i64 0
; CHECK-NEXT: %[[R0:.*]] = call float @__ferrocl_fallback_sinf(float %[[X0]])
; CHECK-NEXT: %[[V0:.*]] = insertelement <4 x float> poison, float %[[R0]], i64 0
; CHECK: call float @__ferrocl_fallback_sinf
; CHECK: call float @__ferrocl_fallback_sinf
; CHECK: %[[R3:.*]] = call float @__ferrocl_fallback_sinf
; CHECK-NEXT: %[[V3:.*]] = insertelement <4 x float> %{{.*}}, float %[[R3]], i64 3
; CHECK-NEXT: br label %[[JOIN]]
; CHECK: [[JOIN]]:
; CHECK-NEXT: %big = phi <4 x float> [ %[[V3]], %[[SLOW]] ], [ poison, %entry ]
; CHECK-NEXT: %r = select <4 x i1> %mask, <4 x float> %big, <4 x float> %fast
; CHECK-LABEL: define <4 x float> @pair(
; CHECK: %[[ANY:.*]] = call i1 @llvm.vector.reduce.or.v4i1(<4 x i1> %mask)
; CHECK-NEXT: br i1 %[[ANY]], label %[[SLOW:[^,]+]], label %[[JOIN:[^,]+]], !prof
; CHECK: [[SLOW]]:
; CHECK-COUNT-4: call float @__ferrocl_fallback_sinf
; CHECK-COUNT-4: call float @__ferrocl_fallback_cosf
; CHECK-NEXT: insertelement
; CHECK-NEXT: br label %[[JOIN]]
; CHECK: [[JOIN]]:
; CHECK-NEXT: %s = phi <4 x float>
; CHECK-NEXT: %c = phi <4 x float>
; CHECK: %[[ANY2:.*]] = call i1 @llvm.vector.reduce.or.v4i1(<4 x i1> %other)
; CHECK-NEXT: br i1 %[[ANY2]]
; CHECK-COUNT-4: call float @__ferrocl_fallback_sinf
; CHECK: %t = phi <4 x float>
; CHECK-NOT: reduce.or
; CHECK: ret <4 x float>
; CHECK-NOT: .m4
; CHECK: ![[UNLIKELY]] = !{!"branch_weights", i32 1, i32 {{[0-9]+}}}

@llvm.compiler.used = appending global [1 x ptr] [ptr @__ferrocl_fallback_sinf.m4], section "llvm.metadata"

define <4 x float> @masked(<4 x float> %x, <4 x i1> %mask, <4 x float> %fast) {
entry:
  %big = call <4 x float> @__ferrocl_fallback_sinf.m4(<4 x float> %x, <4 x i1> %mask)
  %r = select <4 x i1> %mask, <4 x float> %big, <4 x float> %fast
  ret <4 x float> %r
}

define <4 x float> @pair(<4 x float> %x, <4 x i1> %mask, <4 x i1> %other) {
entry:
  %s = call <4 x float> @__ferrocl_fallback_sinf.m4(<4 x float> %x, <4 x i1> %mask)
  %y = fadd <4 x float> %x, %x
  %c = call <4 x float> @__ferrocl_fallback_cosf.m4(<4 x float> %x, <4 x i1> %mask)
  %t = call <4 x float> @__ferrocl_fallback_sinf.m4(<4 x float> %y, <4 x i1> %other)
  %sc = fadd <4 x float> %s, %c
  %r = fadd <4 x float> %sc, %t
  ret <4 x float> %r
}

define float @__ferrocl_fallback_cosf(float %x) noinline nounwind memory(none) {
  %c = call float @cosf(float %x)
  ret float %c
}

define float @__ferrocl_fallback_sinf(float %x) noinline nounwind memory(none) {
  %s = call float @sinf(float %x)
  ret float %s
}

declare <4 x float> @__ferrocl_fallback_sinf.m4(<4 x float>, <4 x i1>) nounwind memory(none)
declare <4 x float> @__ferrocl_fallback_cosf.m4(<4 x float>, <4 x i1>) nounwind memory(none)
declare float @sinf(float)
declare float @cosf(float)
