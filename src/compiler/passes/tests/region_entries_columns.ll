; PASSES: ferrocl-region-entries
; A kernel whose memory is contiguous along y (local id 1 moves its
; addresses by one element, local id 0 by a row of %w), with a value kept
; across its barrier: each region's work-group entry first asks whether the
; group is one work-item wide, and if so runs a y loop innermost, marked
; parallel like the x loop (lx 0, the work-item's linear id lz * ly + ly);
; otherwise the z, y, x nest as for any kernel, kept scalar (along x its
; accesses are gathers and scatters). SHOC's Stencil2D runs
; groups of 1x256. The entry says y is the inner dimension, so groups the
; runtime sizes itself take that shape.

; CHECK: define void @__ferrocl_wg_columns({{.*}}) [[ENTRY:#[0-9]+]]
; CHECK: run0:
; CHECK: %r0.one.wide = icmp eq i64 %{{.*}}, 1
; CHECK-NEXT: br i1 %r0.one.wide, label %r0.cz, label %r0.rows
; CHECK: r0.cy:
; CHECK-NEXT: %r0.cly = phi i64 [ 0, %r0.cz ], [ %r0.cly.next, %r0.cy ]
; CHECK-NEXT: %r0.cwi = add i64 %r0.plane, %r0.cly
; CHECK-NEXT: call void @__ferrocl_region.columns.0({{.*}}, i64 0, i64 %r0.cly, i64 %r0.clz, i64 %r0.cwi,
; CHECK: br i1 %r0.cy.more, label %r0.cy, label %r0.czlatch, !llvm.loop [[CY:![0-9]+]]
; CHECK: r0.rows:
; CHECK-NEXT: br label %r0.z
; CHECK: %r0.lz = phi i64 [ 0, %r0.rows ], [ %r0.lz.next, %r0.ylatch ]
; CHECK: br i1 %r0.x.more, label %r0.x, label %r0.x.done, !llvm.loop [[X:![0-9]+]]
; CHECK: r1.cy:
; CHECK: attributes [[ENTRY]] = { "ferrocl-frame-size"="{{[0-9]+}}" "ferrocl-inner-dimension"="1" }
; CHECK: [[CY]] = distinct !{[[CY]], [[PARALLEL:![0-9]+]],
; CHECK: [[PARALLEL]] = !{!"llvm.loop.parallel_accesses",
; CHECK-NOT: llvm.loop.vectorize.width
; CHECK: [[X]] = distinct !{[[X]], [[PARALLEL]], {{.*}}, [[SCALAR:![0-9]+]]}
; CHECK: [[SCALAR]] = !{!"llvm.loop.vectorize.width", i32 1}

define spir_kernel void @columns(ptr addrspace(1) %out, ptr addrspace(1) %in, i64 %w) {
entry:
  %v.reg2mem = alloca float, align 4
  %"reg2mem alloca point" = bitcast i32 0 to i32
  %x = call i64 @_Z12get_local_idj(i32 0)
  %y = call i64 @_Z12get_local_idj(i32 1)
  %row = mul i64 %x, %w
  %at = add i64 %row, %y
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %at
  %v = load float, ptr addrspace(1) %p, align 4
  store float %v, ptr %v.reg2mem, align 4
  br label %bar
bar:
  call void @_Z7barrierj(i32 2)
  br label %after
after:
  %x2 = call i64 @_Z12get_local_idj(i32 0)
  %y2 = call i64 @_Z12get_local_idj(i32 1)
  %row2 = mul i64 %x2, %w
  %at2 = add i64 %row2, %y2
  %v2 = load float, ptr %v.reg2mem, align 4
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %at2
  store float %v2, ptr addrspace(1) %q, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)
declare void @_Z7barrierj(i32)
