; PASSES: function(ferrocl-scalarize-work-item-loops)
; A function with a work-item loop (parallel accesses) has its float4
; arithmetic, loads and stores split into scalars for the loop vectorizer;
; a function without one keeps its vectors.

; CHECK-LABEL: define void @entry(
; CHECK: load float, ptr
; CHECK: fmul float
; CHECK-NOT: load <4 x float>
; CHECK-NOT: fmul <4 x float>
; CHECK-NOT: store <4 x float>
; CHECK-LABEL: define <4 x float> @plain(
; CHECK: fmul <4 x float>

define void @entry(ptr noalias %in, ptr noalias %out, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %src = getelementptr inbounds <4 x float>, ptr %in, i64 %i
  %v = load <4 x float>, ptr %src, align 16, !llvm.access.group !0
  %w = fmul <4 x float> %v, %v
  %dst = getelementptr inbounds <4 x float>, ptr %out, i64 %i
  store <4 x float> %w, ptr %dst, align 16, !llvm.access.group !0
  %next = add nuw i64 %i, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %done, !llvm.loop !1

done:
  ret void
}

define <4 x float> @plain(<4 x float> %v) {
  %w = fmul <4 x float> %v, %v
  ret <4 x float> %w
}

!0 = distinct !{}
!1 = distinct !{!1, !2}
!2 = !{!"llvm.loop.parallel_accesses", !0}

; A uchar4 pixel is loaded and stored as one i32, its bytes shifted out
; and in; its scopes and access group stay.
; CHECK-LABEL: define void @pixels(
; CHECK: %v.word = load i32, ptr %src, align 4, !llvm.access.group !0
; CHECK: lshr i32 %v.word, 8
; CHECK: trunc i32 %{{.*}} to i8
; CHECK: store i32 %{{.*}}, ptr %dst, align 4, !llvm.access.group !0
; CHECK-NOT: <4 x i8>
; CHECK: ret void

define void @pixels(ptr noalias %in, ptr noalias %out, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %src = getelementptr inbounds i32, ptr %in, i64 %i
  %v = load <4 x i8>, ptr %src, align 4, !llvm.access.group !0
  %w = add <4 x i8> %v, %v
  %dst = getelementptr inbounds i32, ptr %out, i64 %i
  store <4 x i8> %w, ptr %dst, align 4, !llvm.access.group !0
  %next = add nuw i64 %i, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %done, !llvm.loop !3

done:
  ret void
}

!3 = distinct !{!3, !2}

; A vector stored whole with a lane left poison (`.hi` of a char3: its
; second lane is past the end) is frozen before it is packed: packed as
; it is, the word would be poison and its store deleted.
; CHECK-LABEL: define void @hi_of_three(
; CHECK: %[[X:.*]] = freeze i8 %v.i2
; CHECK: %[[Y:.*]] = freeze i8 poison
; CHECK: zext i8 %[[X]] to i16
; CHECK: zext i8 %[[Y]] to i16
; CHECK: store i16 %{{.*}}, ptr %dst, align 2, !llvm.access.group !0
; CHECK: ret void

define void @hi_of_three(ptr noalias %in, ptr noalias %out, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %src = getelementptr inbounds <3 x i8>, ptr %in, i64 %i
  %v = load <3 x i8>, ptr %src, align 4, !llvm.access.group !0
  %h = shufflevector <3 x i8> %v, <3 x i8> poison, <2 x i32> <i32 2, i32 3>
  %dst = getelementptr inbounds <2 x i8>, ptr %out, i64 %i
  store <2 x i8> %h, ptr %dst, align 2, !llvm.access.group !0
  %next = add nuw i64 %i, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %done, !llvm.loop !5

done:
  ret void
}

!5 = distinct !{!5, !2}

; Wide vector code (wide_vector_code.h) keeps its vectors: a work-item
; loop summing float16s, wider than any host's registers or as wide.
; CHECK-LABEL: define void @wide(
; CHECK: load <16 x float>
; CHECK: fadd <16 x float>
; CHECK: store <16 x float>

define void @wide(ptr noalias %in, ptr noalias %out, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %src = getelementptr inbounds <16 x float>, ptr %in, i64 %i
  %v = load <16 x float>, ptr %src, align 64, !llvm.access.group !6
  %w = fadd <16 x float> %v, %v
  %dst = getelementptr inbounds <16 x float>, ptr %out, i64 %i
  store <16 x float> %w, ptr %dst, align 64, !llvm.access.group !6
  %next = add nuw i64 %i, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %done, !llvm.loop !7

done:
  ret void
}

!6 = distinct !{}
!7 = distinct !{!7, !8}
!8 = !{!"llvm.loop.parallel_accesses", !6}

; A float4 passed to a builtin's float2 halves as doubles (the x86-64
; calling convention), whose bodies read the bits of its floats: the casts
; through the double become casts of the float4's elements, which split.
; CHECK-LABEL: define void @halves(
; CHECK-NOT: double
; CHECK-NOT: <2 x i32>
; CHECK: bitcast float %{{.*}} to i32
; CHECK: ret void

define void @halves(ptr noalias %in, ptr noalias %out, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %src = getelementptr inbounds <4 x float>, ptr %in, i64 %i
  %v = load <4 x float>, ptr %src, align 16, !llvm.access.group !9
  %d = bitcast <4 x float> %v to <2 x double>
  %hi = extractelement <2 x double> %d, i64 1
  %bits = bitcast double %hi to <2 x i32>
  %a = extractelement <2 x i32> %bits, i64 0
  %b = extractelement <2 x i32> %bits, i64 1
  %s = add i32 %a, %b
  %dst = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %s, ptr %dst, align 4, !llvm.access.group !9
  %next = add nuw i64 %i, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %done, !llvm.loop !10

done:
  ret void
}

!9 = distinct !{}
!10 = distinct !{!10, !11}
!11 = !{!"llvm.loop.parallel_accesses", !9}
