; PASSES: ferrocl-rematerialize
; A local id and the address built from it, used after the barrier, are
; computed again there; a loaded value is not.

; CHECK-LABEL: define spir_kernel void @k(
; CHECK: after:
; CHECK-NEXT: %__fcl.rm.0 = call i64 @_Z12get_local_idj(i32 0)
; CHECK-NEXT: %__fcl.rm.1 = getelementptr inbounds float, ptr addrspace(1) %out, i64 %__fcl.rm.0
; CHECK-NEXT: store float %x, ptr addrspace(1) %__fcl.rm.1
define spir_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %out) {
entry:
  %l = call i64 @_Z12get_local_idj(i32 0)
  %p = getelementptr inbounds float, ptr addrspace(1) %out, i64 %l
  %q = getelementptr inbounds float, ptr addrspace(1) %in, i64 %l
  %x = load float, ptr addrspace(1) %q
  br label %bar
bar:
  call void @_Z7barrierj(i32 1)
  br label %after
after:
  store float %x, ptr addrspace(1) %p
  ret void
}

declare void @_Z7barrierj(i32)
declare i64 @_Z12get_local_idj(i32)
