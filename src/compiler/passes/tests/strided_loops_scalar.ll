; PASSES: function(ferrocl-strided-loops-scalar)
; A kernel's own loop whose accesses all stride far (a carry added down a
; column of a __local array, 17 elements apart) or follow a loaded index,
; and that computes little on what it loads, is kept scalar. A loop with a
; contiguous access, one whose accesses may be interleaved groups (2
; elements apart), one that computes more than it moves, and a work-item
; loop keep their IDs.

; CHECK-LABEL: define void @column_carry(
; CHECK: br i1 %done, label %exit, label %k, !llvm.loop ![[$SCALAR:[0-9]+]]
define void @column_carry(ptr addrspace(3) %ldata, i64 %lid, i32 %sum) {
entry:
  br label %k

k:
  %k.i = phi i64 [ 0, %entry ], [ %k.next, %k ]
  %p = getelementptr inbounds [17 x i32], ptr addrspace(3) %ldata, i64 %k.i, i64 %lid
  %v = load i32, ptr addrspace(3) %p, align 4
  %w = add nsw i32 %v, %sum
  store i32 %w, ptr addrspace(3) %p, align 4
  %k.next = add nuw nsw i64 %k.i, 1
  %done = icmp eq i64 %k.next, 256
  br i1 %done, label %exit, label %k

exit:
  ret void
}

; CHECK-LABEL: define void @indexed(
; CHECK: br i1 %done, label %exit, label %k, !llvm.loop ![[$INDEXED:[0-9]+]]
define void @indexed(ptr %to, ptr %from, ptr %index, i64 %n) {
entry:
  br label %k

k:
  %k.i = phi i64 [ 0, %entry ], [ %k.next, %k ]
  %q = getelementptr inbounds [64 x i32], ptr %index, i64 %k.i
  %j = load i32, ptr %q, align 4
  %j.64 = sext i32 %j to i64
  %p = getelementptr inbounds float, ptr %from, i64 %j.64
  %v = load float, ptr %p, align 4
  %r = getelementptr inbounds [64 x float], ptr %to, i64 %k.i
  store float %v, ptr %r, align 4
  %k.next = add nuw nsw i64 %k.i, 1
  %done = icmp eq i64 %k.next, %n
  br i1 %done, label %exit, label %k, !llvm.loop !6

exit:
  ret void
}

; CHECK-LABEL: define void @contiguous(
; CHECK: br i1 %done, label %exit, label %k{{$}}
define void @contiguous(ptr %to, ptr %from, i64 %n) {
entry:
  br label %k

k:
  %k.i = phi i64 [ 0, %entry ], [ %k.next, %k ]
  %p = getelementptr inbounds [17 x i32], ptr %from, i64 %k.i
  %v = load i32, ptr %p, align 4
  %q = getelementptr inbounds i32, ptr %to, i64 %k.i
  store i32 %v, ptr %q, align 4
  %k.next = add nuw nsw i64 %k.i, 1
  %done = icmp eq i64 %k.next, %n
  br i1 %done, label %exit, label %k

exit:
  ret void
}

; CHECK-LABEL: define void @interleaved(
; CHECK: br i1 %done, label %exit, label %k{{$}}
define void @interleaved(ptr %to, ptr %from, i64 %n) {
entry:
  br label %k

k:
  %k.i = phi i64 [ 0, %entry ], [ %k.next, %k ]
  %p = getelementptr inbounds [2 x float], ptr %from, i64 %k.i
  %v = load float, ptr %p, align 4
  %q = getelementptr inbounds [17 x float], ptr %to, i64 %k.i
  store float %v, ptr %q, align 4
  %k.next = add nuw nsw i64 %k.i, 1
  %done = icmp eq i64 %k.next, %n
  br i1 %done, label %exit, label %k

exit:
  ret void
}

; CHECK-LABEL: define void @computes(
; CHECK: br i1 %done, label %exit, label %k{{$}}
define void @computes(ptr %to, ptr %from, i64 %n) {
entry:
  br label %k

k:
  %k.i = phi i64 [ 0, %entry ], [ %k.next, %k ]
  %p = getelementptr inbounds [17 x float], ptr %from, i64 %k.i
  %v = load float, ptr %p, align 4
  %a = fmul float %v, %v
  %b = fadd float %a, 1.0
  %c = fdiv float %v, %b
  %q = getelementptr inbounds [17 x float], ptr %to, i64 %k.i
  store float %c, ptr %q, align 4
  %k.next = add nuw nsw i64 %k.i, 1
  %done = icmp eq i64 %k.next, %n
  br i1 %done, label %exit, label %k

exit:
  ret void
}

; CHECK-LABEL: define void @work_items(
; CHECK: br i1 %done, label %exit, label %x, !llvm.loop ![[$ITEMS:[0-9]+]]
define void @work_items(ptr %to, ptr %from, i64 %n) {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %x ]
  %p = getelementptr inbounds [17 x i32], ptr %from, i64 %x.i
  %v = load i32, ptr %p, align 4, !llvm.access.group !0
  %q = getelementptr inbounds [17 x i32], ptr %to, i64 %x.i
  store i32 %v, ptr %q, align 4, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !1

exit:
  ret void
}

; CHECK: ![[$SCALAR]] = distinct !{![[$SCALAR]], ![[WIDTH1:[0-9]+]]}
; CHECK: ![[WIDTH1]] = !{!"llvm.loop.vectorize.width", i32 1}
; CHECK: ![[$INDEXED]] = distinct !{![[$INDEXED]], ![[UNROLL:[0-9]+]], ![[WIDTH1]]}
; CHECK: ![[$ITEMS]] = distinct !{![[$ITEMS]], ![[PARALLEL:[0-9]+]]}

!0 = distinct !{}
!1 = distinct !{!1, !5}
!5 = !{!"llvm.loop.parallel_accesses", !0}
!6 = distinct !{!6, !7}
!7 = !{!"llvm.loop.unroll.count", i32 2}
