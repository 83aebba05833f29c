; PASSES: ferrocl-spirv-module-as-host
; A module as llvm-spirv writes it (SPIR's triple and layout, builtins
; declared spir_func, -O0's noinline): the host's triple and layout,
; C's convention on functions and calls but kernels', every function
; convergent and inlinable.

; CHECK: target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
; CHECK: target triple = "x86_64-unknown-linux-gnu"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64-unknown-unknown"

; CHECK: define spir_kernel void @k(ptr addrspace(1) %o) [[KERNEL:#[0-9]+]]
; CHECK: call i64 @_Z13get_global_idj(i32 0)
; CHECK: call float @helper(float 1.000000e+00)
; CHECK: call void @llvm.memset
define spir_kernel void @k(ptr addrspace(1) %o) #0 {
  %i = call spir_func i64 @_Z13get_global_idj(i32 0) #1
  %v = call spir_func float @helper(float 1.0)
  %p = getelementptr float, ptr addrspace(1) %o, i64 %i
  store float %v, ptr addrspace(1) %p
  call void @llvm.memset.p1.i64(ptr addrspace(1) %o, i8 0, i64 4, i1 false)
  ret void
}

; CHECK: define float @helper(float %x) [[HELPER:#[0-9]+]]
define spir_func float @helper(float %x) #0 {
  call spir_func void @_Z7barrierj(i32 1)
  ret float %x
}

; printf's float, half and char arguments promoted; its vector not.
; CHECK-LABEL: define spir_kernel void @print(
; CHECK: %[[F:[0-9a-z]+]] = fpext float %f to double
; CHECK: %[[H:[0-9a-z]+]] = fpext half %h to double
; CHECK: %[[C:[0-9a-z]+]] = sext i8 %c to i32
; CHECK: call i32 (ptr addrspace(2), ...) @printf(ptr addrspace(2) @format, double %[[F]], double %[[H]], i32 %[[C]], i32 %i, <2 x float> %v)
@format = addrspace(2) constant [3 x i8] c"%f\00"
define spir_kernel void @print(float %f, half %h, i8 %c, i32 %i, <2 x float> %v) {
  %r = call spir_func i32 (ptr addrspace(2), ...) @printf(ptr addrspace(2) @format, float %f, half %h, i8 %c, i32 %i, <2 x float> %v)
  ret void
}
declare spir_func i32 @printf(ptr addrspace(2), ...)

; CHECK: declare i64 @_Z13get_global_idj(i32) [[PURE:#[0-9]+]]
declare spir_func i64 @_Z13get_global_idj(i32) #1
; CHECK: declare void @_Z7barrierj(i32) #
declare spir_func void @_Z7barrierj(i32) #2
declare void @llvm.memset.p1.i64(ptr addrspace(1), i8, i64, i1)

; CHECK-DAG: attributes [[KERNEL]] = { convergent nounwind }
; CHECK-DAG: attributes [[PURE]] = { convergent nounwind willreturn memory(none) }
; CHECK-NOT: noinline
attributes #0 = { noinline nounwind optnone }
attributes #1 = { nounwind willreturn memory(none) }
attributes #2 = { convergent nounwind }
