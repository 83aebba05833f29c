; PASSES: ferrocl-grid-stride-loops,ferrocl-loops-out-of-guards,ferrocl-implicit-barriers
; Hetero-Mark's histogram: `uint i = get_global_id(0)` (an id truncated to
; 32 bits) walks the input in steps of the global size behind an early
; return, counting into a private array. The loop gets one counter for the
; group; its start's parts (the group's start and the local id, truncated
; alike) are computed in the entry block, where every work-item has them,
; so the loop then moves out of the check and gets its implicit barrier.
; Behind a guard that is no bounds check (`lid == 7`), where it stays, a
; loop stepping by 1 is left as it was (its work-item would run 7 empty
; iterations), one stepping by the global size is rewritten.

; CHECK-LABEL: define spir_kernel void @hist(
; CHECK: entry:
; CHECK: %group = call i64 @_Z12get_group_idj(i32 0)
; CHECK: %group.start = add i64
; CHECK-NEXT: %lid = call i64 @_Z12get_local_idj(i32 0)
; CHECK-NEXT: %[[LID:.*]] = trunc i64 %lid to i32
; CHECK-NEXT: %[[START:.*]] = trunc i64 %group.start to i32
; CHECK-NEXT: br i1 %past, label %guard.join, label %zero
; CHECK: guard.join:
; CHECK-NEXT: %[[ACTIVE:.*]] = phi i1 [ false, %entry ], [ true, %zero ]
; CHECK: head:
; CHECK-NEXT: %[[BASE:.*]] = phi i32 [ %[[START]], %guard.join ]
; CHECK-NEXT: call void @__ferrocl_implicit_barrier()
; CHECK-NEXT: %i.item = add i32 %[[BASE]], %[[LID]]
; CHECK-NEXT: %more = icmp ult i32 %i.item, %n
; CHECK-NEXT: %group.more = icmp ult i32 %[[BASE]], %n
; CHECK: br i1 %[[ACTIVE]], label %stride.own
; CHECK: stride.own:
; CHECK-NEXT: br i1 %more, label %body
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

; CHECK-LABEL: define spir_kernel void @one_item_by_one(
; CHECK: %i = phi i64 [ %g, %first ], [ %i.next, %latch ]
; CHECK-NOT: __fcl.
; CHECK: ret void
define spir_kernel void @one_item_by_one(ptr addrspace(1) %z, i64 %n) {
entry:
  %g = call i64 @_Z13get_global_idj(i32 0)
  %l = call i64 @_Z12get_local_idj(i32 0)
  %seven = icmp eq i64 %l, 7
  br i1 %seven, label %first, label %done
first:
  br label %head
head:
  %i = phi i64 [ %g, %first ], [ %i.next, %latch ]
  %more = icmp ult i64 %i, %n
  br i1 %more, label %body, label %done
body:
  %p = getelementptr inbounds i32, ptr addrspace(1) %z, i64 %i
  store i32 1, ptr addrspace(1) %p
  br label %latch
latch:
  %i.next = add i64 %i, 1
  br label %head
done:
  ret void
}

; CHECK-LABEL: define spir_kernel void @one_item_by_size(
; CHECK: %__fcl.grid.0 = phi i64
; CHECK: ret void
define spir_kernel void @one_item_by_size(ptr addrspace(1) %z, i64 %n) {
entry:
  %g = call i64 @_Z13get_global_idj(i32 0)
  %gs = call i64 @_Z15get_global_sizej(i32 0)
  %l = call i64 @_Z12get_local_idj(i32 0)
  %seven = icmp eq i64 %l, 7
  br i1 %seven, label %first, label %done
first:
  br label %head
head:
  %i = phi i64 [ %g, %first ], [ %i.next, %latch ]
  %more = icmp ult i64 %i, %n
  br i1 %more, label %body, label %done
body:
  %p = getelementptr inbounds i32, ptr addrspace(1) %z, i64 %i
  store i32 1, ptr addrspace(1) %p
  br label %latch
latch:
  %i.next = add i64 %i, %gs
  br label %head
done:
  ret void
}

declare i64 @_Z12get_local_idj(i32)
declare i64 @_Z13get_global_idj(i32)
declare i64 @_Z15get_global_sizej(i32)
declare i32 @_Z10atomic_addPU8CLglobalVjj(ptr addrspace(1), i32)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
