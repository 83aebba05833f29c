; PASSES: function(ferrocl-small-copies-as-scalars)
; In a work-item loop (parallel accesses), a memcpy, memmove or memset of a
; constant length up to 64 bytes becomes scalar loads and stores, as wide
; as the length and alignments allow, all loads before the stores, with the
; call's access group. Outside work-item loops, longer, volatile or
; variable-length ones stay calls.

; The frame's copy of a private float4 (16 bytes, aligned to 16 on both
; sides): four i32.
; CHECK-LABEL: define void @frame_copy(
; CHECK: loop:
; CHECK: [[A:%.*]] = load i32, ptr %src, align 16, !llvm.access.group !0
; CHECK: [[B:%.*]] = load i32, ptr %{{.*}}, align 4, !llvm.access.group !0
; CHECK: [[C2:%.*]] = load i32, ptr %{{.*}}, align 8, !llvm.access.group !0
; CHECK: [[D2:%.*]] = load i32, ptr %{{.*}}, align 4, !llvm.access.group !0
; CHECK: store i32 [[A]], ptr %dst, align 16, !llvm.access.group !0
; CHECK: store i32 [[B]], ptr %{{.*}}, align 4, !llvm.access.group !0
; CHECK: store i32 [[C2]], ptr %{{.*}}, align 8, !llvm.access.group !0
; CHECK: store i32 [[D2]], ptr %{{.*}}, align 4, !llvm.access.group !0
; A memmove of 6 bytes aligned to 2: three i16, loads first.
; CHECK: [[C:%.*]] = load i16, ptr %src, align 2
; CHECK: [[D:%.*]] = load i16
; CHECK: [[E:%.*]] = load i16
; CHECK: store i16 [[C]], ptr %dst, align 2
; CHECK: store i16 [[D]]
; CHECK: store i16 [[E]]
; A memset of 8 bytes of %byte aligned to 4: two i32 of the byte repeated.
; CHECK: [[W:%.*]] = zext i8 %byte to i32
; CHECK: [[R:%.*]] = mul i32 [[W]], 16843009
; CHECK: store i32 [[R]], ptr %dst, align 4, !llvm.access.group !0
; CHECK: store i32 [[R]], ptr %{{.*}}, align 4, !llvm.access.group !0
; CHECK-NOT: call void @llvm.mem
; CHECK: done:
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 16 %dst, ptr align 16 %src, i64 16, i1 false)
define void @frame_copy(ptr %frame_in, ptr %frame_out, i64 %n, i8 %byte) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %src = getelementptr inbounds [16 x i8], ptr %frame_in, i64 %i
  %dst = getelementptr inbounds [16 x i8], ptr %frame_out, i64 %i
  call void @llvm.memcpy.p0.p0.i64(ptr align 16 %dst, ptr align 16 %src, i64 16, i1 false), !llvm.access.group !0
  call void @llvm.memmove.p0.p0.i64(ptr align 2 %dst, ptr align 2 %src, i64 6, i1 false), !llvm.access.group !0
  call void @llvm.memset.p0.i64(ptr align 4 %dst, i8 %byte, i64 8, i1 false), !llvm.access.group !0
  %next = add nuw i64 %i, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %done, !llvm.loop !1

done:
  call void @llvm.memcpy.p0.p0.i64(ptr align 16 %dst, ptr align 16 %src, i64 16, i1 false)
  ret void
}

; What stays a call: more than 64 bytes, a variable length, volatile.
; CHECK-LABEL: define void @kept(
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 4 %dst, ptr align 4 %src, i64 128, i1 false)
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 4 %dst, ptr align 4 %src, i64 %len, i1 false)
; CHECK: call void @llvm.memset.p0.i64(ptr align 4 %dst, i8 0, i64 4, i1 true)
define void @kept(ptr %frame_in, ptr %frame_out, i64 %n, i64 %len) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %src = getelementptr inbounds [128 x i8], ptr %frame_in, i64 %i
  %dst = getelementptr inbounds [128 x i8], ptr %frame_out, i64 %i
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %dst, ptr align 4 %src, i64 128, i1 false), !llvm.access.group !2
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %dst, ptr align 4 %src, i64 %len, i1 false), !llvm.access.group !2
  call void @llvm.memset.p0.i64(ptr align 4 %dst, i8 0, i64 4, i1 true), !llvm.access.group !2
  %next = add nuw i64 %i, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %done, !llvm.loop !3

done:
  ret void
}

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

!0 = distinct !{}
!1 = distinct !{!1, !4}
!4 = !{!"llvm.loop.parallel_accesses", !0}
!2 = distinct !{}
!3 = distinct !{!3, !5}
!5 = !{!"llvm.loop.parallel_accesses", !2}
