; PASSES: ferrocl-local-volatiles-as-plain
; Volatile loads and stores of __local memory become plain; volatile
; accesses of global and generic memory, and atomic ones, stay as they are.

; CHECK-LABEL: define void @reduce(
; CHECK: %a = load float, ptr addrspace(3) %p, align 4
; CHECK: %b = load float, ptr addrspace(3) %q, align 4
; CHECK: store float %s, ptr addrspace(3) %p, align 4
; CHECK: store volatile float %s, ptr addrspace(1) %g, align 4
; CHECK: %c = load volatile float, ptr addrspace(4) %generic, align 4
; CHECK: %d = load atomic volatile i32, ptr addrspace(3) %flag monotonic, align 4
define void @reduce(ptr addrspace(3) %p, ptr addrspace(3) %q, ptr addrspace(1) %g, ptr addrspace(4) %generic, ptr addrspace(3) %flag) {
  %a = load volatile float, ptr addrspace(3) %p, align 4
  %b = load volatile float, ptr addrspace(3) %q, align 4
  %s = fadd float %a, %b
  store volatile float %s, ptr addrspace(3) %p, align 4
  store volatile float %s, ptr addrspace(1) %g, align 4
  %c = load volatile float, ptr addrspace(4) %generic, align 4
  %d = load atomic volatile i32, ptr addrspace(3) %flag monotonic, align 4
  ret void
}
