; PASSES: ferrocl-grid-stride-loops,ferrocl-loops-out-of-guards,ferrocl-implicit-barriers,ferrocl-isolate-barriers,function(reg2mem),ferrocl-region-entries
; A private array a grid-stride loop counts into by the data (Hetero-Mark's
; histogram), kept in the frame across the loop's implicit barrier: the
; regions use the work-item's own slot in place, and the loads and stores
; through it are the frame's, in the work-item loop's access group (no
; other work-item reaches a work-item's private memory), so the loop
; vectorizes.

; CHECK-LABEL: define internal void @__ferrocl_region.hist.1(
; CHECK: %__fcl.at = getelementptr inbounds [64 x i8], ptr %__fcl.slot, i64 %__ferrocl.wi
; CHECK: %c = load i32, ptr addrspace(1) %pin, align 4, !alias.scope [[MEMORY:![0-9]+]], !noalias {{![0-9]+}}, !llvm.access.group [[GROUP:![0-9]+]]
; CHECK: %slot = getelementptr inbounds [16 x i32], ptr %__fcl.at, i64 0, i64 %wb
; CHECK-NEXT: %old = load i32, ptr %slot, align 4, !alias.scope [[FRAME:![0-9]+]], !noalias {{![0-9]+}}, !llvm.access.group [[GROUP]]
; CHECK-NEXT: %new = add i32 %old, 1
; CHECK-NEXT: store i32 %new, ptr %slot, align 4, !alias.scope [[FRAME]], !noalias {{![0-9]+}}, !llvm.access.group [[GROUP]]
; CHECK-LABEL: define internal void @__ferrocl_region.hist.2(
; CHECK: %first = load i32, ptr %__fcl.at, align 4, !alias.scope [[FRAME]], !noalias {{![0-9]+}}, !llvm.access.group [[GROUP]]
define spir_kernel void @hist(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) {
entry:
  %own = alloca [16 x i32], align 16
  %g = call i64 @_Z13get_global_idj(i32 0)
  %id = trunc i64 %g to i32
  %gs = call i64 @_Z15get_global_sizej(i32 0)
  %step = trunc i64 %gs to i32
  %past = icmp uge i32 %id, %n
  br i1 %past, label %skip, label %zero
zero:
  call void @llvm.memset.p0.i64(ptr %own, i8 0, i64 64, i1 false)
  br label %head
head:
  %i = phi i32 [ %id, %zero ], [ %i.next, %latch ]
  %more = icmp ult i32 %i, %n
  br i1 %more, label %body, label %copy
body:
  %w = zext i32 %i to i64
  %pin = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %w
  %c = load i32, ptr addrspace(1) %pin
  %bin = and i32 %c, 15
  %wb = zext i32 %bin to i64
  %slot = getelementptr inbounds [16 x i32], ptr %own, i64 0, i64 %wb
  %old = load i32, ptr %slot
  %new = add i32 %old, 1
  store i32 %new, ptr %slot
  br label %latch
latch:
  %i.next = add i32 %i, %step
  br label %head
copy:
  %first = load i32, ptr %own
  %r = call i32 @_Z10atomic_addPU8CLglobalVjj(ptr addrspace(1) %out, i32 %first)
  br label %skip
skip:
  ret void
}

declare i64 @_Z13get_global_idj(i32)
declare i64 @_Z15get_global_sizej(i32)
declare i32 @_Z10atomic_addPU8CLglobalVjj(ptr addrspace(1), i32)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
