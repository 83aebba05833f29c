; PASSES: ferrocl-work-group-entries,ferrocl-work-item-entries,ferrocl-block-kernel-entries,ferrocl-host-calling-convention
; Every kernel gets a work-item entry; one with a work-group entry (plain)
; only traps in it. The block kernel's address, passed to the enqueue, becomes
; its work-item entry's (the entry's own call stays). The module then
; calls in C's convention, the program's definitions are internal (not
; ferrocl's hidden ones, which the builtins call), and clang's target
; attributes are gone (string constants that read like IR stay as they are).

; CHECK: @text = internal constant [29 x i8] c"spir_kernel addrspace(3) %x\0A\00"
; CHECK-LABEL: define internal void @parent(
; CHECK: call i32 @__enqueue_kernel_basic(ptr addrspace(4) addrspacecast (ptr @__ferrocl_wi___parent_block_invoke_kernel to ptr addrspace(4)))
; CHECK-LABEL: define internal void @plain(
; CHECK-LABEL: define internal void @__parent_block_invoke_kernel(ptr addrspace(4) %block, ptr addrspace(3) %l)
; CHECK-LABEL: define internal i32 @helper(i32 %x) {
; CHECK-LABEL: define hidden zeroext i1 @__ferrocl_is_local_variable(
; CHECK-LABEL: define void @__ferrocl_wi_parent(ptr %args, ptr %ctx) {
; CHECK: call void @parent(
; CHECK-LABEL: define void @__ferrocl_wi_plain(ptr %args, ptr %ctx) {
; CHECK-NEXT: entry:
; CHECK-NEXT: call void @llvm.trap()
; CHECK-NEXT: unreachable
; CHECK-LABEL: define void @__ferrocl_wi___parent_block_invoke_kernel(ptr %args, ptr %ctx) {
; CHECK: store ptr %ctx, ptr @__ferrocl_ctx
; CHECK: call void @__parent_block_invoke_kernel(ptr addrspace(4) %v0, ptr addrspace(3) %v1)
; CHECK-NOT: spir_func
; CHECK-NOT: spir_kernel
; CHECK-NOT: target-cpu

@text = internal constant [29 x i8] c"spir_kernel addrspace(3) %x\0A\00"

define dso_local spir_kernel void @parent(ptr addrspace(1) %out) #0 {
  %r = call spir_func i32 @__enqueue_kernel_basic(ptr addrspace(4) addrspacecast (ptr @__parent_block_invoke_kernel to ptr addrspace(4)))
  %h = call spir_func i32 @helper(i32 %r)
  store i32 %h, ptr addrspace(1) %out, align 4
  ret void
}

define dso_local spir_kernel void @plain(ptr addrspace(1) %out) #0 {
  store i32 1, ptr addrspace(1) %out, align 4
  ret void
}

define internal spir_kernel void @__parent_block_invoke_kernel(ptr addrspace(4) %block, ptr addrspace(3) %l) #0 {
  %x = call spir_func i64 @_Z12get_local_idj(i32 0)
  %y = call spir_func i32 @_Z7barrierj(i32 1)
  ret void
}

define dso_local spir_func i32 @helper(i32 %x) #0 {
  ret i32 %x
}

define hidden zeroext i1 @__ferrocl_is_local_variable(ptr addrspace(4) %p) {
  ret i1 false
}

declare spir_func i32 @__enqueue_kernel_basic(ptr addrspace(4))
declare spir_func i64 @_Z12get_local_idj(i32)
declare spir_func i32 @_Z7barrierj(i32)

attributes #0 = { "target-cpu"="x86-64" "target-features"="+sse2" "tune-cpu"="generic" }
