; PASSES: function(ferrocl-fold-tails-of-copies)
; Compiled for AVX-512, a work-item loop that only moves memory (a frame
; slot's bytes copied to another, one element a work-item) asks for its
; tail under a mask; one that computes, one whose addresses stride by more
; than an element, and any loop compiled without AVX-512 keep theirs.

; CHECK-LABEL: define void @copy(
; CHECK: br i1 %done, label %exit, label %x, !llvm.loop ![[$COPY:[0-9]+]]
define void @copy(ptr %from, ptr %to, i64 %n) #1 {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %x ]
  %p = getelementptr inbounds [1 x i8], ptr %from, i64 %x.i
  %v = load i8, ptr %p, align 1, !llvm.access.group !0
  %q = getelementptr inbounds [1 x i8], ptr %to, i64 %x.i
  store i8 %v, ptr %q, align 1, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !1

exit:
  ret void
}

; CHECK-LABEL: define void @computes(
; CHECK: br i1 %done, label %exit, label %x, !llvm.loop ![[$PLAIN:[0-9]+]]
define void @computes(ptr %from, ptr %to, i64 %n) #1 {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %x ]
  %p = getelementptr inbounds float, ptr %from, i64 %x.i
  %v = load float, ptr %p, align 4, !llvm.access.group !0
  %w = fmul float %v, 2.0
  %q = getelementptr inbounds float, ptr %to, i64 %x.i
  store float %w, ptr %q, align 4, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !2

exit:
  ret void
}

; CHECK-LABEL: define void @strided(
; CHECK: br i1 %done, label %exit, label %x, !llvm.loop ![[$STRIDED:[0-9]+]]
define void @strided(ptr %from, ptr %to, i64 %n) #1 {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %x ]
  %p = getelementptr inbounds <4 x float>, ptr %from, i64 %x.i
  %v = load float, ptr %p, align 4, !llvm.access.group !0
  %q = getelementptr inbounds float, ptr %to, i64 %x.i
  store float %v, ptr %q, align 4, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !3

exit:
  ret void
}

; CHECK-LABEL: define void @avx2(
; CHECK: br i1 %done, label %exit, label %x, !llvm.loop ![[$AVX2:[0-9]+]]
define void @avx2(ptr %from, ptr %to, i64 %n) #0 {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %x ]
  %p = getelementptr inbounds [1 x i8], ptr %from, i64 %x.i
  %v = load i8, ptr %p, align 1, !llvm.access.group !0
  %q = getelementptr inbounds [1 x i8], ptr %to, i64 %x.i
  store i8 %v, ptr %q, align 1, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !4

exit:
  ret void
}

; CHECK: ![[$COPY]] = distinct !{![[$COPY]], ![[PARALLEL:[0-9]+]], ![[PREDICATE:[0-9]+]]}
; CHECK: ![[PARALLEL]] = !{!"llvm.loop.parallel_accesses", !0}
; CHECK: ![[PREDICATE]] = !{!"llvm.loop.vectorize.predicate.enable", i1 true}
; CHECK: ![[$PLAIN]] = distinct !{![[$PLAIN]], ![[PARALLEL]]}
; CHECK: ![[$STRIDED]] = distinct !{![[$STRIDED]], ![[PARALLEL]]}
; CHECK: ![[$AVX2]] = distinct !{![[$AVX2]], ![[PARALLEL]]}

!0 = distinct !{}
!1 = distinct !{!1, !5}
!2 = distinct !{!2, !5}
!3 = distinct !{!3, !5}
!4 = distinct !{!4, !5}
!5 = !{!"llvm.loop.parallel_accesses", !0}

attributes #0 = { "target-features"="+avx2" }
attributes #1 = { "target-features"="+avx2,+avx512f" }
