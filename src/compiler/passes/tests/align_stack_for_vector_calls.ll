; PASSES: function(ferrocl-align-stack-for-vector-calls)
; A function that calls a function on vectors (libmvec's, after the loop
; vectorizer) aligns its stack to a cache line; one that calls only on
; scalars or only vector intrinsics, or calls nothing, does not.

; CHECK: define void @vector_call(ptr %p) [[ALIGNED:#[0-9]+]] {
define void @vector_call(ptr %p) {
  %x = load <16 x float>, ptr %p, align 4
  %s = call <16 x float> @_ZGVeN16v_sinf(<16 x float> %x)
  store <16 x float> %s, ptr %p, align 4
  ret void
}

; CHECK: define void @vector_argument(ptr %p, <8 x float> %v) [[ALIGNED]] {
define void @vector_argument(ptr %p, <8 x float> %v) {
  call void @sink(<8 x float> %v)
  ret void
}

; CHECK: define void @scalar_call(ptr %p) {
define void @scalar_call(ptr %p) {
  %x = load float, ptr %p, align 4
  %s = call float @sinf(float %x)
  store float %s, ptr %p, align 4
  ret void
}

; CHECK: define void @vector_intrinsic(ptr %p) {
define void @vector_intrinsic(ptr %p) {
  %x = load <16 x float>, ptr %p, align 4
  %s = call <16 x float> @llvm.sqrt.v16f32(<16 x float> %x)
  store <16 x float> %s, ptr %p, align 4
  ret void
}

; CHECK: attributes [[ALIGNED]] = { alignstack=64 }

declare <16 x float> @_ZGVeN16v_sinf(<16 x float>)
declare void @sink(<8 x float>)
declare float @sinf(float)
declare <16 x float> @llvm.sqrt.v16f32(<16 x float>)
