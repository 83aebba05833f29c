; PASSES: ferrocl-drop-kernel-arg-names,ferrocl-flush-denormals
; Kernels lose their argument names and are marked to flush denormals;
; their other argument metadata, and other functions, stay as they are.

; CHECK: define spir_kernel void @k(ptr %o) !kernel_arg_addr_space [[AS:![0-9]+]] !kernel_arg_type {{![0-9]+}} !ferrocl.denorms_are_zero [[EMPTY:![0-9]+]] {
define spir_kernel void @k(ptr %o) !kernel_arg_addr_space !0 !kernel_arg_name !1 !kernel_arg_type !2 {
  store i32 1, ptr %o
  ret void
}

; CHECK: define void @helper(ptr %o) !kernel_arg_name {{![0-9]+}} {
define void @helper(ptr %o) !kernel_arg_name !1 {
  ret void
}

; CHECK: declare spir_kernel void @elsewhere(ptr)
; CHECK-NOT: ferrocl.denorms_are_zero
declare spir_kernel void @elsewhere(ptr)

; CHECK: [[EMPTY]] = !{}
!0 = !{i32 1}
!1 = !{!"o"}
!2 = !{!"int*"}
