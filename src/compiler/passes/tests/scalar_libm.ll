; PASSES: ferrocl-scalar-libm
; Float log and double exp (scalar or vector) become glibc's scalar logf
; and exp on `nobuiltin` call sites, which the vectorizer cannot map to
; libmvec; float exp and double log stay intrinsics.

; CHECK-LABEL: define float @logf_scalar(
; CHECK: %r = call float @logf(float %x) #[[ATTRS:[0-9]+]]
define float @logf_scalar(float %x) {
  %r = call float @llvm.log.f32(float %x)
  ret float %r
}

; CHECK-LABEL: define <2 x double> @exp_vector(
; CHECK: call double @exp(double %{{.*}}) #[[ATTRS]]
; CHECK: call double @exp(double %{{.*}}) #[[ATTRS]]
; CHECK-NOT: llvm.exp.v2f64
define <2 x double> @exp_vector(<2 x double> %x) {
  %r = call <2 x double> @llvm.exp.v2f64(<2 x double> %x)
  ret <2 x double> %r
}

; CHECK-LABEL: define float @expf_stays(
; CHECK: call float @llvm.exp.f32(float %x)
; CHECK: call double @llvm.log.f64(double %y)
define float @expf_stays(float %x, double %y) {
  %r = call float @llvm.exp.f32(float %x)
  %s = call double @llvm.log.f64(double %y)
  %t = fptrunc double %s to float
  %u = fadd float %r, %t
  ret float %u
}

; CHECK: attributes #[[ATTRS]] = { nobuiltin nounwind willreturn memory(none) }
declare float @llvm.log.f32(float)
declare <2 x double> @llvm.exp.v2f64(<2 x double>)
declare float @llvm.exp.f32(float)
declare double @llvm.log.f64(double)
