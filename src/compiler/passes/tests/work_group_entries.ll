; PASSES: ferrocl-work-group-entries
; A barrier-free kernel gets a work-group entry: its copy takes the local id
; as parameters and calls the work-item functions' twins on them, its
; global accesses join the parallel access group (private ones do not), and
; the entry runs it in z, y, x loops whose x loop is parallel, on a copy of
; the context the twins read (%ctx.invariant). A helper
; named like a work-group function is ordinary code; a kernel calling a real
; work-group function, or whose callee asks for a work-item id itself,
; gets no entry. The loops run the context's [items_begin, items_end) of
; local ids (within the group's size), and an entry whose work-items cannot
; tell is marked for running in pieces on several threads; one with a
; __local argument is not.

; CHECK-LABEL: define spir_kernel void @scale(
; CHECK: call i64 @_Z13get_global_idj(i32 0)

; CHECK-LABEL: define spir_kernel void @named(

; CHECK: define internal void @__ferrocl_wgbody.scale(ptr addrspace(1) %a, float %f, ptr nocapture readonly %__ferrocl.ctx, i64 %__ferrocl.lx, i64 %__ferrocl.ly, i64 %__ferrocl.lz) [[COPY:#[0-9]+]]
; CHECK: %g = call i64 @__ferrocl_loop_global_id(ptr %__ferrocl.ctx, i64 %__ferrocl.lx, i64 %__ferrocl.ly, i64 %__ferrocl.lz, i32 0)
; CHECK: load float, ptr addrspace(1) %p, align 4, !alias.scope [[MEMORY:![0-9]+]], !noalias [[OTHERS:![0-9]+]], !llvm.access.group [[GROUP:![0-9]+]]
; CHECK: store float %y, ptr %t, align 4{{$}}
; CHECK: store float %z, ptr addrspace(1) %p, align 4, !alias.scope [[MEMORY]], !noalias [[OTHERS]], !llvm.access.group [[GROUP]]

; CHECK-LABEL: define void @__ferrocl_wg_scale(ptr %args, ptr noalias readonly %ctx)
; CHECK-SAME: [[PIECES:#[0-9]+]]
; CHECK: store ptr %ctx, ptr @__ferrocl_ctx
; CHECK: %v1 = load float, ptr %a1, align 1
; CHECK: %ls0 = load i64, ptr %ls.p0, align 8, !range [[RANGE:![0-9]+]]
; CHECK: %ctx.invariant = alloca [152 x i8], align 8
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 8 %ctx.invariant, ptr align 8 %ctx, i64 152, i1 false)
; CHECK: %begin0 = load i64, ptr %begin.p0, align 8, !range [[RANGE]]
; CHECK: %end0 = load i64, ptr %end.p0, align 8, !range [[RANGE]]
; CHECK: br i1 %no.items, label %done, label %z
; CHECK: x:
; CHECK-NEXT: %lx = phi i64 [ %begin0, %y ], [ %lx.next, %x ]
; CHECK-NEXT: call void @__ferrocl_wgbody.scale(ptr addrspace(1) %v0, float %v1, ptr %ctx.invariant, i64 %lx, i64 %ly, i64 %lz)
; CHECK: %x.more = icmp ult i64 %lx.next, %end0
; CHECK: br i1 %x.more, label %x, label %y.latch, !llvm.loop [[LOOP:![0-9]+]]

; CHECK-LABEL: define void @__ferrocl_wg_scratch(ptr %args, ptr noalias readonly %ctx) {
; CHECK-LABEL: define internal void @__ferrocl_wgbody.named(
; CHECK-LABEL: define void @__ferrocl_wg_named(
; CHECK-SAME: [[PIECES]]
; CHECK-NOT: @__ferrocl_wg_reduce
; CHECK-NOT: @__ferrocl_wg_indirect

; CHECK: attributes [[COPY]] = { alwaysinline }
; CHECK: attributes [[PIECES]] = { "ferrocl-splittable" }
; CHECK: [[RANGE]] = !{i64 0, i64 1025}
; CHECK: [[LOOP]] = distinct !{[[LOOP]], [[PARALLEL:![0-9]+]], [[ONCE:![0-9]+]], [[NORUNTIME:![0-9]+]]}
; CHECK: [[PARALLEL]] = !{!"llvm.loop.parallel_accesses", [[GROUP]]}
; CHECK: [[ONCE]] = !{!"llvm.loop.interleave.count", i32 1}
; CHECK: [[NORUNTIME]] = !{!"llvm.loop.unroll.runtime.disable"}

define spir_kernel void @scale(ptr addrspace(1) noalias %a, float %f) memory(argmem: readwrite) {
entry:
  %t = alloca float, align 4
  %g = call i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %g
  %x = load float, ptr addrspace(1) %p, align 4
  %y = fmul float %x, %f
  store float %y, ptr %t, align 4
  %z = load float, ptr %t, align 4
  store float %z, ptr addrspace(1) %p, align 4
  ret void
}

define spir_kernel void @scratch(ptr addrspace(1) %out, ptr addrspace(3) %s) {
  %l = call i64 @_Z12get_local_idj(i32 0)
  %p = getelementptr inbounds i32, ptr addrspace(3) %s, i64 %l
  store i32 1, ptr addrspace(3) %p, align 4
  ret void
}

define spir_func i32 @_Z17my_work_group_sumii(i32 %a, i32 %b) {
  %s = add i32 %a, %b
  ret i32 %s
}

define spir_kernel void @named(ptr addrspace(1) %out) {
  %s = call spir_func i32 @_Z17my_work_group_sumii(i32 1, i32 2)
  store i32 %s, ptr addrspace(1) %out, align 4
  ret void
}

define spir_kernel void @reduce(ptr addrspace(1) %out) {
  %s = call spir_func i32 @_Z21work_group_reduce_addi(i32 1)
  store i32 %s, ptr addrspace(1) %out, align 4
  ret void
}

define spir_func i64 @helper() noinline {
  %l = call i64 @_Z12get_local_idj(i32 0)
  ret i64 %l
}

define spir_kernel void @indirect(ptr addrspace(1) %out) {
  %l = call spir_func i64 @helper()
  store i64 %l, ptr addrspace(1) %out, align 8
  ret void
}

declare i64 @_Z13get_global_idj(i32)
declare i64 @_Z12get_local_idj(i32)
declare spir_func i32 @_Z21work_group_reduce_addi(i32)
