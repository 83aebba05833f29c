; PASSES: function(ferrocl-fallback-vector-variants)
; A call of a builtins library fallback names masked variants of 2, 4, 8
; and 16 lanes, declared and kept for the vectorizer; other calls name
; nothing.

; CHECK: @llvm.compiler.used = appending global {{.*}} @__ferrocl_fallback_sinf.m2, {{.*}} @__ferrocl_fallback_sinf.m16
; CHECK-LABEL: define void @calls(
; CHECK: call float @__ferrocl_fallback_sinf(float %x) #[[VARIANTS:[0-9]+]]
; CHECK: call float @sinf(float %x){{$}}
; CHECK: declare <16 x float> @__ferrocl_fallback_sinf.m16(<16 x float>, <16 x i1>) #[[DECL:[0-9]+]]
; CHECK: attributes #[[DECL]] = { nounwind memory(none) }
; CHECK: attributes #[[VARIANTS]] = { "vector-function-abi-variant"="_ZGV_LLVM_M2v___ferrocl_fallback_sinf(__ferrocl_fallback_sinf.m2),_ZGV_LLVM_M4v___ferrocl_fallback_sinf(__ferrocl_fallback_sinf.m4),_ZGV_LLVM_M8v___ferrocl_fallback_sinf(__ferrocl_fallback_sinf.m8),_ZGV_LLVM_M16v___ferrocl_fallback_sinf(__ferrocl_fallback_sinf.m16)" }

define void @calls(float %x, ptr %out) {
  %f = call float @__ferrocl_fallback_sinf(float %x)
  %s = call float @sinf(float %x)
  store float %f, ptr %out
  store float %s, ptr %out
  ret void
}

declare float @__ferrocl_fallback_sinf(float) nounwind memory(none)
declare float @sinf(float)
