; PASSES: function(ferrocl-full-masked-stores-as-stores)
; On a CPU whose masked stores are microcoded (AMD before Zen 4, without
; AVX-512), a masked store in a loop stores plainly when every lane of its
; mask is on (with the masked store's metadata), and keeps the masked store
; otherwise. A constant mask, a store outside loops, and CPUs with fast
; masked stores (Zen 4 with AVX-512, Intel) keep their code.

; CHECK-LABEL: define void @zen3(
; CHECK: loop:
; CHECK: %[[FULL:.*]] = call i1 @llvm.vector.reduce.and.v8i1(<8 x i1> %bounds)
; CHECK-NEXT: br i1 %[[FULL]], label %[[PLAIN:.*]], label %[[MASKED:.*]]
; CHECK: [[PLAIN]]:
; CHECK-NEXT: store <8 x float> %w, ptr addrspace(1) %p, align 4, !alias.scope ![[SCOPE:[0-9]+]]
; CHECK-NEXT: br label %[[JOIN:.*]]
; CHECK: [[MASKED]]:
; CHECK-NEXT: call void @llvm.masked.store.v8f32.p1(<8 x float> %w, ptr addrspace(1) %p, i32 4, <8 x i1> %bounds), !alias.scope ![[SCOPE]]
; CHECK-NEXT: br label %[[JOIN]]
; CHECK: [[JOIN]]:
; CHECK-NEXT: call void @llvm.masked.store.v8f32.p1(<8 x float> %w, ptr addrspace(1) %p, i32 4, <8 x i1> <i1 true
; CHECK: exit:
; CHECK-NEXT: call void @llvm.masked.store.v8f32.p1(<8 x float> %w, ptr addrspace(1) %base, i32 4, <8 x i1> %bounds)
; CHECK-NEXT: ret void
define void @zen3(ptr addrspace(1) %base, <8 x i32> %ids, <8 x float> %w) #0 {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %p = getelementptr inbounds float, ptr addrspace(1) %base, i64 %i
  %bounds = icmp ult <8 x i32> %ids, <i32 100, i32 100, i32 100, i32 100, i32 100, i32 100, i32 100, i32 100>
  call void @llvm.masked.store.v8f32.p1(<8 x float> %w, ptr addrspace(1) %p, i32 4, <8 x i1> %bounds), !alias.scope !0
  call void @llvm.masked.store.v8f32.p1(<8 x float> %w, ptr addrspace(1) %p, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>)
  %next = add i64 %i, 8
  %done = icmp eq i64 %next, 1024
  br i1 %done, label %exit, label %loop

exit:
  call void @llvm.masked.store.v8f32.p1(<8 x float> %w, ptr addrspace(1) %base, i32 4, <8 x i1> %bounds)
  ret void
}

; CHECK-LABEL: define void @zen4(
; CHECK-NOT: reduce.and
; CHECK: call void @llvm.masked.store.v8f32.p1(<8 x float> %w, ptr addrspace(1) %p, i32 4, <8 x i1> %bounds)
; CHECK-NEXT: %next
define void @zen4(ptr addrspace(1) %base, <8 x i32> %ids, <8 x float> %w) #1 {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %p = getelementptr inbounds float, ptr addrspace(1) %base, i64 %i
  %bounds = icmp ult <8 x i32> %ids, <i32 100, i32 100, i32 100, i32 100, i32 100, i32 100, i32 100, i32 100>
  call void @llvm.masked.store.v8f32.p1(<8 x float> %w, ptr addrspace(1) %p, i32 4, <8 x i1> %bounds)
  %next = add i64 %i, 8
  %done = icmp eq i64 %next, 1024
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; CHECK-LABEL: define void @skylake(
; CHECK-NOT: reduce.and
; CHECK: call void @llvm.masked.store.v8f32.p1(<8 x float> %w, ptr addrspace(1) %p, i32 4, <8 x i1> %bounds)
; CHECK-NEXT: %next
define void @skylake(ptr addrspace(1) %base, <8 x i32> %ids, <8 x float> %w) #2 {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %p = getelementptr inbounds float, ptr addrspace(1) %base, i64 %i
  %bounds = icmp ult <8 x i32> %ids, <i32 100, i32 100, i32 100, i32 100, i32 100, i32 100, i32 100, i32 100>
  call void @llvm.masked.store.v8f32.p1(<8 x float> %w, ptr addrspace(1) %p, i32 4, <8 x i1> %bounds)
  %next = add i64 %i, 8
  %done = icmp eq i64 %next, 1024
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

declare void @llvm.masked.store.v8f32.p1(<8 x float>, ptr addrspace(1), i32 immarg, <8 x i1>)

attributes #0 = { "target-cpu"="znver3" "target-features"="+avx,+avx2,+fma" }
attributes #1 = { "target-cpu"="znver4" "target-features"="+avx,+avx2,+fma,+avx512f,+avx512vl" }
attributes #2 = { "target-cpu"="skylake" "target-features"="+avx,+avx2,+fma" }

!0 = !{!1}
!1 = distinct !{!1, !2, !"frame"}
!2 = distinct !{!2, !"frame scopes"}
