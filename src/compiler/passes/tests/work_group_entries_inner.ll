; PASSES: ferrocl-work-group-entries
; Rodinia's gaussian Fan2: a[size * x + y] with x = get_global_id(0) and
; y = get_global_id(1) is contiguous along y, so the work-group entry runs
; the y loop innermost (parallel), inside x inside z, and says so
; ("ferrocl-inner-dimension"="1"). A kernel contiguous along x keeps x
; innermost and says nothing; one whose only y-contiguous access stands
; beside more x-contiguous ones does too.

; CHECK-LABEL: define void @__ferrocl_wg_fan2(
; CHECK-SAME: [[FAN2:#[0-9]+]]
; CHECK: br i1 %no.items, label %done, label %z
; CHECK: z:
; CHECK-NEXT: %lz = phi i64 [ %begin2, %entry ], [ %lz.next, %z.latch ]
; CHECK: x:
; CHECK-NEXT: %lx = phi i64 [ %begin0, %z ], [ %lx.next, %x.latch ]
; CHECK: y:
; CHECK-NEXT: %ly = phi i64 [ %begin1, %x ], [ %ly.next, %y ]
; CHECK: %y.more = icmp ult i64 %ly.next, %end1
; CHECK-NEXT: br i1 %y.more, label %y, label %x.latch, !llvm.loop
; CHECK: x.latch:
; CHECK: %x.more = icmp ult i64 %lx.next, %end0
; CHECK-NEXT: br i1 %x.more, label %x, label %z.latch

; CHECK-LABEL: define void @__ferrocl_wg_rows(
; CHECK-NOT: ferrocl-inner-dimension
; CHECK: x:
; CHECK-NEXT: %lx = phi i64 [ %begin0, %y ], [ %lx.next, %x ]

; CHECK: attributes [[FAN2]] = { "ferrocl-inner-dimension"="1" "ferrocl-splittable" }
define spir_kernel void @fan2(ptr addrspace(1) %m, ptr addrspace(1) %a, i32 %size, i32 %t) {
entry:
  %gx = call i64 @_Z13get_global_idj(i32 0)
  %x = trunc i64 %gx to i32
  %gy = call i64 @_Z13get_global_idj(i32 1)
  %y = trunc i64 %gy to i32
  %x1 = add i32 %x, 1
  %row = mul i32 %size, %x1
  %ay = add i32 %row, %y
  %ay64 = sext i32 %ay to i64
  %pa = getelementptr inbounds float, ptr addrspace(1) %a, i64 %ay64
  %va = load float, ptr addrspace(1) %pa
  %mt = add i32 %row, %t
  %mt64 = sext i32 %mt to i64
  %pm = getelementptr inbounds float, ptr addrspace(1) %m, i64 %mt64
  %vm = load float, ptr addrspace(1) %pm
  %top = mul i32 %size, %t
  %ty = add i32 %top, %y
  %ty64 = sext i32 %ty to i64
  %pt = getelementptr inbounds float, ptr addrspace(1) %a, i64 %ty64
  %vt = load float, ptr addrspace(1) %pt
  %d = fmul float %vm, %vt
  %r = fsub float %va, %d
  store float %r, ptr addrspace(1) %pa
  ret void
}

define spir_kernel void @rows(ptr addrspace(1) %a, i32 %n) {
entry:
  %gx = call i64 @_Z13get_global_idj(i32 0)
  %gy = call i64 @_Z13get_global_idj(i32 1)
  %n64 = sext i32 %n to i64
  %row = mul i64 %gy, %n64
  %i = add i64 %row, %gx
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %i
  %v = load float, ptr addrspace(1) %p
  %w = fadd float %v, 1.0
  store float %w, ptr addrspace(1) %p
  %q = getelementptr inbounds float, ptr addrspace(1) %a, i64 %gy
  store float %w, ptr addrspace(1) %q
  ret void
}

declare i64 @_Z13get_global_idj(i32)
