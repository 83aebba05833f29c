; PASSES: ferrocl-region-entries
; A tree reduction, as the region pipeline leaves it (barriers alone in
; their blocks, values across blocks in allocas): cut into three regions,
; each a copy of the kernel entered at its start, leaving through one exit
; that notes the next region and copies the frame slots back. The regions
; read the work-item functions' fields from the group's copy of them
; (%ctx.invariant); each slot's array starts skewed by cache lines (the
; uniform area after the 4,096 bytes of skew). %v lives
; across the barriers (a slot per work-item), the stride %__fcl.u.s once per
; group (a uniform slot, written through its staging copy). Regions 1 and 2
; start with `l < s`, whose work-items beyond s change nothing: a bound
; function computes s, and the work-group entry runs only those below it.
; A kernel whose private array is aligned more than a frame slot can be
; is left to the fibers, and the module says why.

; CHECK-LABEL: define internal void @__ferrocl_region.tree.0(ptr addrspace(1) %out, ptr addrspace(3) %t, ptr nocapture readonly %__ferrocl.ctx, i64 %__ferrocl.lx, i64 %__ferrocl.ly, i64 %__ferrocl.lz, i64 %__ferrocl.wi, i64 %__ferrocl.nwi, ptr nocapture %__ferrocl.frame, ptr nocapture %__ferrocl.uniform, i64 %__ferrocl.sg.first)
; CHECK: %__fcl.next = getelementptr inbounds i8, ptr %__ferrocl.uniform, i64 16
; CHECK: [[OFF:%[0-9]+]] = mul i64 %__ferrocl.nwi, 0
; CHECK-NEXT: %__fcl.off = add i64 [[OFF]], 0
; CHECK: %__fcl.at{{.*}} = getelementptr inbounds [4 x i8], ptr %__fcl.slot, i64 %__ferrocl.wi
; CHECK: br label %__fcl.start
; CHECK: __fcl.start:
; CHECK: call i64 @__ferrocl_loop_local_id(ptr %__ferrocl.ctx
; CHECK: store i32 1, ptr %__fcl.next.id
; CHECK: __fcl.exit:
; CHECK: store i64 {{.*}}, !alias.scope [[STAGING:![0-9]+]], !noalias {{.*}}, !llvm.access.group
; CHECK: store i32 {{.*}}, !alias.scope [[FRAME:![0-9]+]], !noalias {{.*}}, !llvm.access.group
; CHECK: store i32 %__fcl.next.value, ptr %__fcl.next, align 4, !alias.scope [[STAGING]]
; CHECK-NEXT: ret void

; CHECK-LABEL: define internal i64 @__ferrocl_bound.tree.1(
; CHECK: %s = load i64, ptr
; CHECK-NEXT: ret i64 %s

; CHECK-LABEL: define internal void @__ferrocl_region.tree.1(
; CHECK: br label %head
; CHECK-NOT: call void @_Z7barrierj
; CHECK: store i32 0, ptr %__fcl.next.id
; CHECK-LABEL: define internal void @__ferrocl_region.tree.2(

; CHECK: define void @__ferrocl_wg_tree(ptr %args, ptr noalias readonly %ctx) [[ENTRY:#[0-9]+]]
; CHECK: %ctx.invariant = alloca [152 x i8], align 8
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 8 %ctx.invariant, ptr align 8 %ctx, i64 152, i1 false)
; CHECK: %frame = load ptr, ptr %frame.p, align 8
; CHECK: [[UOFF:%[0-9]+]] = mul i64 %nwi, 64
; CHECK-NEXT: %uniform.off = add i64 [[UOFF]], 4096
; CHECK: run1:
; CHECK-NEXT: %r1.bound = call i64 @__ferrocl_bound.tree.1(
; CHECK: %r1.x.end = select i1 %r1.none, i64 1, i64 %r1.below
; CHECK: call void @__ferrocl_region.tree.1({{.*}}, ptr %ctx.invariant, 
; CHECK: %r1.x.more = icmp ult i64 %r1.lx.next, %r1.x.end
; CHECK: dispatch:
; CHECK: %staged = load i64, ptr %stage
; CHECK: switch i32 %next, label %done [
; CHECK-NEXT: i32 1, label %run1
; CHECK-NEXT: i32 2, label %run2

; CHECK-NOT: @__ferrocl_wg_aligned
; CHECK: attributes [[ENTRY]] = { "ferrocl-frame-size"="88" }
; CHECK: !ferrocl.fibers = !{[[WHY:![0-9]+]]}
; CHECK: [[WHY]] = !{!"aligned", !"a variable aligned more than a frame slot can be lives across a barrier"}

define spir_kernel void @tree(ptr addrspace(1) %out, ptr addrspace(3) %t) {
entry:
  %v.reg2mem = alloca i32, align 4
  %__fcl.u.s.reg2mem = alloca i64, align 8
  %"reg2mem alloca point" = bitcast i32 0 to i32
  %l = call i64 @_Z12get_local_idj(i32 0)
  %p = getelementptr inbounds i32, ptr addrspace(3) %t, i64 %l
  %l32 = trunc i64 %l to i32
  store i32 %l32, ptr addrspace(3) %p, align 4
  store i32 %l32, ptr %v.reg2mem, align 4
  %n = call i64 @_Z14get_local_sizej(i32 0)
  %half = lshr i64 %n, 1
  store i64 %half, ptr %__fcl.u.s.reg2mem, align 8
  br label %bar0
bar0:
  call void @_Z7barrierj(i32 1)
  br label %head
head:
  %l1 = call i64 @_Z12get_local_idj(i32 0)
  %s = load i64, ptr %__fcl.u.s.reg2mem, align 8
  %c = icmp ult i64 %l1, %s
  br i1 %c, label %add, label %latch
add:
  %l3 = call i64 @_Z12get_local_idj(i32 0)
  %s3 = load i64, ptr %__fcl.u.s.reg2mem, align 8
  %o = add i64 %l3, %s3
  %po = getelementptr inbounds i32, ptr addrspace(3) %t, i64 %o
  %pl = getelementptr inbounds i32, ptr addrspace(3) %t, i64 %l3
  %a = load i32, ptr addrspace(3) %po, align 4
  %b = load i32, ptr addrspace(3) %pl, align 4
  %sum = add i32 %a, %b
  store i32 %sum, ptr addrspace(3) %pl, align 4
  br label %latch
latch:
  %s2 = load i64, ptr %__fcl.u.s.reg2mem, align 8
  %next = lshr i64 %s2, 1
  store i64 %next, ptr %__fcl.u.s.reg2mem, align 8
  %more = icmp ugt i64 %s2, 1
  br i1 %more, label %bar1, label %done
bar1:
  call void @_Z7barrierj(i32 1)
  br label %head
done:
  %l2 = call i64 @_Z12get_local_idj(i32 0)
  %first = icmp eq i64 %l2, 0
  br i1 %first, label %write, label %exit
write:
  %v = load i32, ptr %v.reg2mem, align 4
  %r = load i32, ptr addrspace(3) %t, align 4
  %vr = add i32 %v, %r
  store i32 %vr, ptr addrspace(1) %out, align 4
  br label %exit
exit:
  ret void
}

define spir_kernel void @aligned(ptr addrspace(1) %out) {
entry:
  %a = alloca [4 x i32], align 128
  %"reg2mem alloca point" = bitcast i32 0 to i32
  store i32 1, ptr %a, align 128
  br label %bar
bar:
  call void @_Z7barrierj(i32 1)
  br label %after
after:
  %v = load i32, ptr %a, align 128
  store i32 %v, ptr addrspace(1) %out, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)
declare i64 @_Z14get_local_sizej(i32)
declare void @_Z7barrierj(i32)

; A work-item's slot is an array of its own: its accesses carry the slot's
; scope of the frame slots' domain beside the frame's.
; CHECK-DAG: [[FRAME]] = !{![[FRAME_SCOPE:[0-9]+]], ![[SLOT:[0-9]+]]}
; CHECK-DAG: ![[SLOT]] = distinct !{![[SLOT]], ![[SLOTS:[0-9]+]]}
; CHECK-DAG: ![[SLOTS]] = distinct !{![[SLOTS]], !"ferrocl.frame-slots"}
