; PASSES: function(reg2mem),ferrocl-region-entries
; A struct passed by value that the kernel changes before a barrier and
; reads after it is a variable of the kernel's own, copied from the
; parameter on entry, so the region plan keeps it in the frame (each
; region's call otherwise passes the parameter's bytes as they came, and
; the change was lost). A struct only read stays the parameter.

; CHECK-LABEL: define internal void @__ferrocl_region.written.1(
; CHECK: getelementptr inbounds [8 x i8], ptr %__fcl.slot
; CHECK-LABEL: define void @__ferrocl_wg_written(
; CHECK-LABEL: define internal void @__ferrocl_region.read.0(
; CHECK-NOT: .own
; CHECK: load i32, ptr %p
; CHECK-LABEL: define void @__ferrocl_wg_read(
%params = type { i32, i32 }

define spir_kernel void @written(ptr addrspace(1) %out, ptr byval(%params) align 4 %p) {
entry:
  %g = call i64 @_Z13get_global_idj(i32 0)
  %g32 = trunc i64 %g to i32
  %base = load i32, ptr %p
  %changed = add i32 %base, %g32
  store i32 %changed, ptr %p
  br label %bar
bar:
  call void @_Z7barrierj(i32 1)
  br label %after
after:
  %v = load i32, ptr %p
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %g
  store i32 %v, ptr addrspace(1) %o
  ret void
}

define spir_kernel void @read(ptr addrspace(1) %out, ptr byval(%params) align 4 %p) {
entry:
  %g = call i64 @_Z13get_global_idj(i32 0)
  br label %bar
bar:
  call void @_Z7barrierj(i32 1)
  br label %after
after:
  %v = load i32, ptr %p
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %g
  store i32 %v, ptr addrspace(1) %o
  ret void
}

declare void @_Z7barrierj(i32)
declare i64 @_Z13get_global_idj(i32)
