; PASSES: function(reg2mem),ferrocl-region-entries
; A variable of the entry block after other instructions (the scalarizer
; puts a vector variable's element addresses right after it, before the
; next variable: dpnp's sub-group loads into sycl::vec) still lets the
; kernel run as regions: it moves to the top of the entry block. Addresses
; into the variables are kept across the barrier (in reg2mem's slots), so
; the variables themselves live in the frame, not in a region's own stack
; where the next region's pointers would dangle.

; CHECK-LABEL: define internal void @__ferrocl_region.late.1(
; CHECK-NOT: alloca <4 x float>
; CHECK: getelementptr inbounds [16 x i8], ptr %__fcl.slot
; CHECK: getelementptr inbounds [16 x i8], ptr %__fcl.slot
; CHECK-NOT: alloca <4 x float>
; CHECK: ret void
; CHECK-LABEL: define void @__ferrocl_wg_late(
define spir_kernel void @late(ptr addrspace(1) %out) {
entry:
  %a = alloca <4 x float>, align 16
  %a1 = getelementptr float, ptr %a, i32 1
  %b = alloca <4 x float>, align 16
  %b1 = getelementptr float, ptr %b, i32 1
  %g = call i64 @_Z13get_global_idj(i32 0)
  %x = uitofp i64 %g to float
  store float %x, ptr %a1
  store float %x, ptr %b1
  br label %bar
bar:
  call void @_Z7barrierj(i32 1)
  br label %after
after:
  %y = load float, ptr %a1
  %z = load float, ptr %b1
  %s = fadd float %y, %z
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %g
  store float %s, ptr addrspace(1) %o
  ret void
}

declare void @_Z7barrierj(i32)
declare i64 @_Z13get_global_idj(i32)
