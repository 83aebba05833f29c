; PASSES: ferrocl-rematerialize
; A local id and the address built from it, used after the barrier, are
; computed again there; a loaded value is not. A value built on a copy
; made for another block is copied whole, the copy's own computation
; included.

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

; `m = l - 1; v = m < 0 ? 0 : m` between two barriers, `v` used after the
; second: `l` is copied into the middle for `m`, and `v`'s copy after the
; second barrier copies `l` again, not the middle's copy.
; CHECK-LABEL: define spir_kernel void @copy_of_copy(
; CHECK: middle:
; CHECK-NEXT: %__fcl.rm.[[L1:[0-9]+]] = call i64 @_Z12get_local_idj(i32 0)
; CHECK-NEXT: %__fcl.rm.[[T1:[0-9]+]] = trunc i64 %__fcl.rm.[[L1]] to i32
; CHECK-NEXT: %m = sub i32 %__fcl.rm.[[T1]], 1
; CHECK: last:
; CHECK-NEXT: %__fcl.rm.[[L2:[0-9]+]] = call i64 @_Z12get_local_idj(i32 0)
; CHECK-NEXT: %__fcl.rm.[[T2:[0-9]+]] = trunc i64 %__fcl.rm.[[L2]] to i32
; CHECK-NEXT: %__fcl.rm.[[M2:[0-9]+]] = sub i32 %__fcl.rm.[[T2]], 1
; CHECK-NEXT: %__fcl.rm.[[C2:[0-9]+]] = icmp slt i32 %__fcl.rm.[[M2]], 0
; CHECK-NEXT: %__fcl.rm.[[V2:[0-9]+]] = select i1 %__fcl.rm.[[C2]], i32 0, i32 %__fcl.rm.[[M2]]
; CHECK-NEXT: store i32 %__fcl.rm.[[V2]], ptr addrspace(1) %out
define spir_kernel void @copy_of_copy(ptr addrspace(1) %out) {
entry:
  %l = call i64 @_Z12get_local_idj(i32 0)
  %t = trunc i64 %l to i32
  br label %bar
bar:
  call void @_Z7barrierj(i32 1)
  br label %middle
middle:
  %m = sub i32 %t, 1
  %c = icmp slt i32 %m, 0
  %v = select i1 %c, i32 0, i32 %m
  br label %bar2
bar2:
  call void @_Z7barrierj(i32 1)
  br label %last
last:
  store i32 %v, ptr addrspace(1) %out
  ret void
}

; A call of a helper that is arithmetic on its arguments alone (SHOC
; Stencil2D's ToGlobalCol, `gid * lsz + lid`) is copied like the arithmetic;
; one that reads memory is not.
; CHECK-LABEL: define spir_kernel void @helper(
; CHECK: after:
; CHECK-NEXT: %__fcl.rm.[[L:[0-9]+]] = call i64 @_Z12get_local_idj(i32 0)
; CHECK-NEXT: %__fcl.rm.[[T:[0-9]+]] = trunc i64 %__fcl.rm.[[L]] to i32
; CHECK-NEXT: %__fcl.rm.[[C:[0-9]+]] = call i32 @to_global(i32 %g, i32 16, i32 %__fcl.rm.[[T]])
; CHECK-NEXT: %__fcl.rm.[[W:[0-9]+]] = sext i32 %__fcl.rm.[[C]] to i64
; CHECK-NEXT: %__fcl.rm.[[P:[0-9]+]] = getelementptr inbounds float, ptr addrspace(1) %out, i64 %__fcl.rm.[[W]]
; CHECK-NEXT: store float 1.000000e+00, ptr addrspace(1) %__fcl.rm.[[P]]
; CHECK-NEXT: store i32 %r, ptr addrspace(1) %out
define spir_kernel void @helper(ptr addrspace(1) %out, i32 %g) {
entry:
  %l = call i64 @_Z12get_local_idj(i32 0)
  %t = trunc i64 %l to i32
  %col = call i32 @to_global(i32 %g, i32 16, i32 %t)
  %wide = sext i32 %col to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %out, i64 %wide
  %r = call i32 @reads(ptr addrspace(1) %out, i32 %t)
  br label %bar
bar:
  call void @_Z7barrierj(i32 1)
  br label %after
after:
  store float 1.0, ptr addrspace(1) %p
  store i32 %r, ptr addrspace(1) %out
  ret void
}

define i32 @to_global(i32 %group, i32 %size, i32 %id) {
  %base = mul nsw i32 %group, %size
  %at = add nsw i32 %base, %id
  ret i32 %at
}

define i32 @reads(ptr addrspace(1) %p, i32 %i) {
  %v = load i32, ptr addrspace(1) %p
  %s = add i32 %v, %i
  ret i32 %s
}

declare void @_Z7barrierj(i32)
declare i64 @_Z12get_local_idj(i32)

; dpnp's reduction: each work-item's first element `lid + (group / n) *
; size` in an input whose offset is in a by-value argument, used after a
; barrier. The group's quotient and the loaded offset are named uniform
; (kept once per group), and the address is computed again after the
; barrier from them, not read from the frame; a work-item's own loaded
; value is not.
; CHECK-LABEL: define spir_kernel void @group_quotient(
; CHECK: %__fcl.u.r[[O:[0-9]+]] = load i64, ptr %s
; CHECK: %__fcl.u.r[[Q:[0-9]+]] = udiv i64 %g, %n
; CHECK: %x = load float
; CHECK: after:
; CHECK-NEXT: %__fcl.rm.[[P:[0-9]+]] = getelementptr inbounds float, ptr addrspace(1) %in, i64 %__fcl.u.r[[O]]
; CHECK-NEXT: %__fcl.rm.[[L:[0-9]+]] = call i64 @_Z12get_local_idj(i32 0)
; CHECK-NEXT: %__fcl.rm.[[S:[0-9]+]] = call i64 @_Z14get_local_sizej(i32 0)
; CHECK-NEXT: %__fcl.rm.[[B:[0-9]+]] = mul i64 %__fcl.u.r[[Q]], %__fcl.rm.[[S]]
; CHECK-NEXT: %__fcl.rm.[[I:[0-9]+]] = add i64 %__fcl.rm.[[L]], %__fcl.rm.[[B]]
; CHECK-NEXT: %at = getelementptr inbounds float, ptr addrspace(1) %__fcl.rm.[[P]], i64 %__fcl.rm.[[I]]
; CHECK-NEXT: store float %x, ptr addrspace(1) %at
%struct.span = type { i64, i64 }
define spir_kernel void @group_quotient(ptr addrspace(1) %in, ptr byval(%struct.span) %s, i64 %n) {
entry:
  %off = load i64, ptr %s
  %base = getelementptr inbounds float, ptr addrspace(1) %in, i64 %off
  %l = call i64 @_Z12get_local_idj(i32 0)
  %size = call i64 @_Z14get_local_sizej(i32 0)
  %g = call i64 @_Z12get_group_idj(i32 0)
  %q = udiv i64 %g, %n
  %b = mul i64 %q, %size
  %i = add i64 %l, %b
  %own = getelementptr inbounds float, ptr addrspace(1) %in, i64 %l
  %x = load float, ptr addrspace(1) %own
  br label %bar
bar:
  call void @_Z7barrierj(i32 1)
  br label %after
after:
  %at = getelementptr inbounds float, ptr addrspace(1) %base, i64 %i
  store float %x, ptr addrspace(1) %at
  ret void
}

declare i64 @_Z14get_local_sizej(i32)
declare i64 @_Z12get_group_idj(i32)
