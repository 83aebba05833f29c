; PASSES: ferrocl-calls-as-defined
; Calls as the SPIR-V translator writes them (OpenCL's vector types, SPIR's
; ABI) of definitions compiled for the host's C ABI: a vector wider than 16
; bytes in memory (byval), a char2 as an i16, a float2 as a double (also as
; the result), a result through sret. A call of the definition's own type,
; and one that no ABI rewrite explains, are left alone.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define void @k(
; CHECK: [[BYVAL:%[0-9a-z.]+]] = alloca <4 x double>, align 32
; CHECK: store <4 x double> %d, ptr [[BYVAL]]
; CHECK: call <4 x i64> @isinf4(ptr byval(<4 x double>) align 32 [[BYVAL]])
; CHECK: [[C:%[0-9a-z.]+]] = bitcast <2 x i8> %c to i16
; CHECK: [[A:%[0-9a-z.]+]] = call i16 @abs2(i16 signext [[C]])
; CHECK: bitcast i16 [[A]] to <2 x i8>
; CHECK: [[F:%[0-9a-z.]+]] = bitcast <2 x float> %f to double
; CHECK: [[R:%[0-9a-z.]+]] = call double @radians2(double [[F]])
; CHECK: bitcast double [[R]] to <2 x float>
; CHECK: call void @big(ptr sret(<16 x double>) align 128 [[SRET:%[0-9a-z.]+]], i32 1)
; CHECK: load <16 x double>, ptr [[SRET]]
; CHECK: call <3 x float> @same(<3 x float> %v)
; CHECK: call <2 x float> @other(<2 x float> %f, i32 2)
define void @k(<4 x double> %d, <2 x i8> %c, <2 x float> %f, <3 x float> %v, ptr %o) {
  %inf = call <4 x i64> @isinf4(<4 x double> %d)
  store <4 x i64> %inf, ptr %o
  %abs = call <2 x i8> @abs2(<2 x i8> %c)
  store <2 x i8> %abs, ptr %o
  %rad = call <2 x float> @radians2(<2 x float> %f)
  store <2 x float> %rad, ptr %o
  %big = call <16 x double> @big(i32 1)
  store <16 x double> %big, ptr %o
  %same = call <3 x float> @same(<3 x float> %v)
  store <3 x float> %same, ptr %o
  %other = call <2 x float> @other(<2 x float> %f, i32 2)
  store <2 x float> %other, ptr %o
  ret void
}

define <4 x i64> @isinf4(ptr byval(<4 x double>) align 32 %x) {
  %v = load <4 x double>, ptr %x
  %c = fcmp oeq <4 x double> %v, <double 0x7FF0000000000000, double 0x7FF0000000000000, double 0x7FF0000000000000, double 0x7FF0000000000000>
  %r = sext <4 x i1> %c to <4 x i64>
  ret <4 x i64> %r
}

define i16 @abs2(i16 signext %x) {
  ret i16 %x
}

define double @radians2(double %x) {
  ret double %x
}

define void @big(ptr sret(<16 x double>) align 128 %r, i32 %n) {
  store <16 x double> zeroinitializer, ptr %r
  ret void
}

define <3 x float> @same(<3 x float> %x) {
  ret <3 x float> %x
}

define double @other(double %x) {
  ret double %x
}
