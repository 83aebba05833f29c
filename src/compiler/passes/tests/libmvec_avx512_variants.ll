; PASSES: function(ferrocl-libmvec-avx512-variants-any-host)
; Float sin (intrinsic), cosf (libm) and pow name glibc's 16-lane versions
; beside what they named; float log, double sin and nobuiltin calls (the
; ones ferrocl-scalar-libm keeps scalar) name nothing. The 16-lane
; functions are declared and kept for the vectorizer.

; CHECK: @llvm.compiler.used = appending global {{.*}} @_ZGVeN16v_sinf, {{.*}} @_ZGVeN16v_cosf, {{.*}} @_ZGVeN16vv_powf
; CHECK-LABEL: define void @calls(
; CHECK: call float @llvm.sin.f32(float %x) #[[SIN:[0-9]+]]
; CHECK: call float @cosf(float %x) #[[COS:[0-9]+]]
; CHECK: call float @llvm.pow.f32(float %x, float %x) #[[POW:[0-9]+]]
; CHECK: call float @llvm.log.f32(float %x){{$}}
; CHECK: call double @llvm.sin.f64(double %d){{$}}
; CHECK: call float @llvm.exp.f32(float %x) #[[NOBUILTIN:[0-9]+]]
; CHECK: declare <16 x float> @_ZGVeN16v_sinf(<16 x float>)
; CHECK: attributes #[[SIN]] = { "vector-function-abi-variant"="_ZGV_LLVM_N8v_llvm.sin.f32(_ZGVdN8v_sinf),_ZGV_LLVM_N16v_llvm.sin.f32(_ZGVeN16v_sinf)" }
; CHECK: attributes #[[COS]] = { "vector-function-abi-variant"="_ZGV_LLVM_N16v_cosf(_ZGVeN16v_cosf)" }
; CHECK: attributes #[[POW]] = { "vector-function-abi-variant"="_ZGV_LLVM_N16vv_llvm.pow.f32(_ZGVeN16vv_powf)" }
; CHECK: attributes #[[NOBUILTIN]] = { nobuiltin }

define void @calls(float %x, double %d, ptr %out) {
  %s = call float @llvm.sin.f32(float %x) #0
  %c = call float @cosf(float %x)
  %p = call float @llvm.pow.f32(float %x, float %x)
  %l = call float @llvm.log.f32(float %x)
  %ds = call double @llvm.sin.f64(double %d)
  %e = call float @llvm.exp.f32(float %x) #1
  store float %s, ptr %out
  store float %c, ptr %out
  store float %p, ptr %out
  store float %l, ptr %out
  store double %ds, ptr %out
  store float %e, ptr %out
  ret void
}

declare float @llvm.sin.f32(float)
declare float @cosf(float)
declare float @llvm.pow.f32(float, float)
declare float @llvm.log.f32(float)
declare double @llvm.sin.f64(double)
declare float @llvm.exp.f32(float)
declare <8 x float> @_ZGVdN8v_sinf(<8 x float>)

attributes #0 = { "vector-function-abi-variant"="_ZGV_LLVM_N8v_llvm.sin.f32(_ZGVdN8v_sinf)" }
attributes #1 = { nobuiltin }
