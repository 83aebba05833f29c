; PASSES: function(ferrocl-skip-idle-masked-accesses)
; A masked load, store, gather or scatter in a loop whose mask tests
; equality (alone or in a conjunction) is made only when some lane of its
; mask is active; a load skipped gives its pass-through. An access outside
; loops, with a constant mask, or with a mask of order comparisons (a
; bounds check, nearly always full) stays as it is.

; CHECK-LABEL: define void @row(
; CHECK: loop:
; CHECK: %[[ANY:.*]] = call i1 @llvm.vector.reduce.or.v16i1(<16 x i1> %mask)
; CHECK-NEXT: br i1 %[[ANY]], label %[[LOAD:.*]], label %[[JOIN:.*]]
; CHECK: [[LOAD]]:
; CHECK-NEXT: %v = call <16 x float> @llvm.masked.load.v16f32.p1(ptr addrspace(1) %p, i32 4, <16 x i1> %mask, <16 x float> %old)
; CHECK-NEXT: br label %[[JOIN]]
; CHECK: [[JOIN]]:
; CHECK-NEXT: %v.when.active = phi <16 x float> [ %v, %[[LOAD]] ], [ %old, %loop ]
; CHECK: %[[ANY2:.*]] = call i1 @llvm.vector.reduce.or.v16i1(<16 x i1> %mask)
; CHECK-NEXT: br i1 %[[ANY2]], label %[[STORE:.*]], label %[[JOIN2:.*]]
; CHECK: [[STORE]]:
; CHECK-NEXT: call void @llvm.masked.store.v16f32.p1(<16 x float> %w, ptr addrspace(1) %p, i32 4, <16 x i1> %mask)
; CHECK: [[JOIN2]]:
; CHECK: call <16 x float> @llvm.masked.gather
; CHECK: call void @llvm.masked.scatter
; CHECK: %[[ANY3:.*]] = call i1 @llvm.vector.reduce.or.v16i1(<16 x i1> %both)
; CHECK-NEXT: br i1 %[[ANY3]]
; CHECK: call void @llvm.masked.store.v16f32.p1(<16 x float> %w, ptr addrspace(1) %p, i32 4, <16 x i1> %both)
; CHECK: %[[ANY4:.*]] = call i1 @llvm.vector.reduce.or.v16i1(<16 x i1> %guarded)
; CHECK-NEXT: br i1 %[[ANY4]]
; CHECK: call void @llvm.masked.store.v16f32.p1(<16 x float> %w, ptr addrspace(1) %p, i32 4, <16 x i1> %guarded)
; CHECK-NOT: reduce.or
; CHECK: call void @llvm.masked.store.v16f32.p1(<16 x float> %w, ptr addrspace(1) %p, i32 4, <16 x i1> %bounds)
; CHECK-NEXT: call void @llvm.masked.store.v16f32.p1(<16 x float> %w, ptr addrspace(1) %p, i32 4, <16 x i1> <i1 true
define void @row(ptr addrspace(1) %base, <16 x i32> %ids, <16 x float> %old, <16 x ptr addrspace(1)> %ps) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %p = getelementptr inbounds float, ptr addrspace(1) %base, i64 %i
  %mask = icmp eq <16 x i32> %ids, zeroinitializer
  %v = call <16 x float> @llvm.masked.load.v16f32.p1(ptr addrspace(1) %p, i32 4, <16 x i1> %mask, <16 x float> %old)
  %w = fadd <16 x float> %v, %v
  call void @llvm.masked.store.v16f32.p1(<16 x float> %w, ptr addrspace(1) %p, i32 4, <16 x i1> %mask)
  %g = call <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)> %ps, i32 4, <16 x i1> %mask, <16 x float> %old)
  call void @llvm.masked.scatter.v16f32.v16p1(<16 x float> %g, <16 x ptr addrspace(1)> %ps, i32 4, <16 x i1> %mask)
  %bounds = icmp ult <16 x i32> %ids, <i32 100, i32 100, i32 100, i32 100, i32 100, i32 100, i32 100, i32 100, i32 100, i32 100, i32 100, i32 100, i32 100, i32 100, i32 100, i32 100>
  %both = and <16 x i1> %bounds, %mask
  call void @llvm.masked.store.v16f32.p1(<16 x float> %w, ptr addrspace(1) %p, i32 4, <16 x i1> %both)
  %guarded = select <16 x i1> %bounds, <16 x i1> %mask, <16 x i1> zeroinitializer
  call void @llvm.masked.store.v16f32.p1(<16 x float> %w, ptr addrspace(1) %p, i32 4, <16 x i1> %guarded)
  call void @llvm.masked.store.v16f32.p1(<16 x float> %w, ptr addrspace(1) %p, i32 4, <16 x i1> %bounds)
  call void @llvm.masked.store.v16f32.p1(<16 x float> %w, ptr addrspace(1) %p, i32 4, <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>)
  %next = add i64 %i, 16
  %done = icmp eq i64 %next, 1024
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; CHECK-LABEL: define <16 x float> @outside_loops(
; CHECK-NOT: br
; CHECK: call <16 x float> @llvm.masked.load
define <16 x float> @outside_loops(ptr addrspace(1) %p, <16 x i1> %mask) {
entry:
  %v = call <16 x float> @llvm.masked.load.v16f32.p1(ptr addrspace(1) %p, i32 4, <16 x i1> %mask, <16 x float> zeroinitializer)
  ret <16 x float> %v
}

declare <16 x float> @llvm.masked.load.v16f32.p1(ptr addrspace(1), i32, <16 x i1>, <16 x float>)
declare void @llvm.masked.store.v16f32.p1(<16 x float>, ptr addrspace(1), i32, <16 x i1>)
declare <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)>, i32, <16 x i1>, <16 x float>)
declare void @llvm.masked.scatter.v16f32.v16p1(<16 x float>, <16 x ptr addrspace(1)>, i32, <16 x i1>)
