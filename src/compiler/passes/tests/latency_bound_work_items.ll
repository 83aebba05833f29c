; PASSES: function(ferrocl-latency-bound-work-items)
; An innermost work-item loop of one block on vectors of its own, whose
; work is one chain of dependent multiply-adds, runs 8 work-items at a time
; where 8 remain (two floating-point pipes of 4 cycles), their instructions
; interleaved one by one, each work-item's accesses in a scope of its own;
; one work-item at a time in the rest. Two chains of two registers each
; (a float16 on AVX2) and a value kept live beside them fit 3 work-items in
; 16 registers. Left alone: scalar code (the vectorizer's to widen), work
; that is not one chain, a chain too short to matter (the out-of-order core
; overlaps it with the next work-items'), private memory written in the
; loop, a call with side effects, and an id used after the loop.

target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define void @chain(
; CHECK: x:
; CHECK-NEXT: %x.i = phi i64 [ 0, %entry ], [ %x.next, %wi.latch ]
; CHECK-NEXT: %[[LEFT:.*]] = sub i64 %n, %x.i
; CHECK-NEXT: %wi.room = icmp uge i64 %[[LEFT]], 8
; CHECK-NEXT: br i1 %wi.room, label %wi.interleaved, label %wi.one
; CHECK: wi.one:
; CHECK-NEXT: %p = getelementptr inbounds <8 x float>, ptr addrspace(1) %a, i64 %x.i
; CHECK-NEXT: %v = load <8 x float>, ptr addrspace(1) %p, align 32, !llvm.access.group !0{{$}}
; CHECK: store <8 x float> %m6, ptr addrspace(1) %p, align 32, !llvm.access.group !0{{$}}
; CHECK-NEXT: br label %wi.latch
; CHECK: wi.interleaved:
; CHECK-NEXT: %wi.id = add nuw nsw i64 %x.i, 1
; CHECK-COUNT-6: %wi.id{{[0-9]+}} = add nuw nsw i64 %x.i,
; CHECK-NEXT: %p.wi = getelementptr inbounds <8 x float>, ptr addrspace(1) %a, i64 %x.i
; CHECK-COUNT-7: %p.wi{{[0-9]+}} = getelementptr inbounds <8 x float>, ptr addrspace(1) %a, i64 %wi.id
; CHECK-NEXT: %v.wi = load <8 x float>, ptr addrspace(1) %p.wi, align 32, !alias.scope ![[S0:[0-9]+]], !noalias ![[O0:[0-9]+]], !llvm.access.group !0
; CHECK-NEXT: %v.wi{{[0-9]+}} = load <8 x float>, ptr addrspace(1) %p.wi{{[0-9]+}}, align 32, !alias.scope ![[S1:[0-9]+]], !noalias ![[O1:[0-9]+]], !llvm.access.group !0
; CHECK-COUNT-6: %v.wi{{[0-9]+}} = load <8 x float>
; CHECK-NEXT: %m1.wi = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %v.wi, <8 x float> %v.wi, <8 x float> %c)
; CHECK-COUNT-7: %m1.wi{{[0-9]+}} = call <8 x float> @llvm.fmuladd.v8f32(
; CHECK-COUNT-8: %m2.wi{{[0-9]*}} = call <8 x float> @llvm.fmuladd.v8f32(
; CHECK-COUNT-8: %m3.wi{{[0-9]*}} = call <8 x float> @llvm.fmuladd.v8f32(
; CHECK-COUNT-8: %m4.wi{{[0-9]*}} = call <8 x float> @llvm.fmuladd.v8f32(
; CHECK-COUNT-8: %m5.wi{{[0-9]*}} = call <8 x float> @llvm.fmuladd.v8f32(
; CHECK-COUNT-8: %m6.wi{{[0-9]*}} = call <8 x float> @llvm.fmuladd.v8f32(
; CHECK-NEXT: store <8 x float> %m6.wi, ptr addrspace(1) %p.wi, align 32, !alias.scope ![[S0]], !noalias ![[O0]], !llvm.access.group !0
; CHECK-COUNT-7: store <8 x float> %m6.wi{{[0-9]+}}, ptr addrspace(1) %p.wi{{[0-9]+}}
; CHECK-NEXT: br label %wi.latch
; CHECK: wi.latch:
; CHECK-NEXT: %wi.step = phi i64 [ 1, %wi.one ], [ 8, %wi.interleaved ]
; CHECK-NEXT: %x.next = add nuw nsw i64 %x.i, %wi.step
; CHECK-NEXT: %done = icmp eq i64 %x.next, %n
; CHECK-NEXT: br i1 %done, label %exit, label %x, !llvm.loop
define void @chain(ptr addrspace(1) %a, <8 x float> %c, i64 %n) #0 {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %x ]
  %p = getelementptr inbounds <8 x float>, ptr addrspace(1) %a, i64 %x.i
  %v = load <8 x float>, ptr addrspace(1) %p, align 32, !llvm.access.group !0
  %m1 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %v, <8 x float> %v, <8 x float> %c)
  %m2 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %m1, <8 x float> %m1, <8 x float> %c)
  %m3 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %m2, <8 x float> %m2, <8 x float> %c)
  %m4 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %m3, <8 x float> %m3, <8 x float> %c)
  %m5 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %m4, <8 x float> %m4, <8 x float> %c)
  %m6 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %m5, <8 x float> %m5, <8 x float> %c)
  store <8 x float> %m6, ptr addrspace(1) %p, align 32, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !1

exit:
  ret void
}

; Integer multiplies count as steps too (clpeak's int8 and int16 chains,
; `x = x * x + c`): the same 8 work-items side by side.
; CHECK-LABEL: define void @int_chain(
; CHECK: %wi.room = icmp uge i64 %{{.*}}, 8
; CHECK: wi.interleaved:
; CHECK-COUNT-8: %s1.wi{{[0-9]*}} = mul <8 x i32>
; CHECK-COUNT-8: %t1.wi{{[0-9]*}} = add <8 x i32>
; CHECK-COUNT-8: %s2.wi{{[0-9]*}} = mul <8 x i32>
; CHECK: wi.latch:
; CHECK-NEXT: %wi.step = phi i64 [ 1, %wi.one ], [ 8, %wi.interleaved ]
define void @int_chain(ptr addrspace(1) %a, <8 x i32> %c, i64 %n) #0 {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %x ]
  %p = getelementptr inbounds <8 x i32>, ptr addrspace(1) %a, i64 %x.i
  %v = load <8 x i32>, ptr addrspace(1) %p, align 32, !llvm.access.group !0
  %s1 = mul <8 x i32> %v, %v
  %t1 = add <8 x i32> %s1, %c
  %s2 = mul <8 x i32> %t1, %t1
  %t2 = add <8 x i32> %s2, %c
  %s3 = mul <8 x i32> %t2, %t2
  %t3 = add <8 x i32> %s3, %c
  %s4 = mul <8 x i32> %t3, %t3
  %t4 = add <8 x i32> %s4, %c
  %s5 = mul <8 x i32> %t4, %t4
  %t5 = add <8 x i32> %s5, %c
  %s6 = mul <8 x i32> %t5, %t5
  %t6 = add <8 x i32> %s6, %c
  store <8 x i32> %t6, ptr addrspace(1) %p, align 32, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !1

exit:
  ret void
}

; CHECK-LABEL: define void @wide(
; CHECK: %wi.room = icmp uge i64 %{{.*}}, 3
; CHECK: wi.latch:
; CHECK-NEXT: %wi.step = phi i64 [ 1, %wi.one ], [ 3, %wi.interleaved ]
define void @wide(ptr addrspace(1) %a, ptr addrspace(1) %b, i64 %n) #0 {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %x ]
  %p = getelementptr inbounds <16 x float>, ptr addrspace(1) %a, i64 %x.i
  %q = getelementptr inbounds <16 x float>, ptr addrspace(1) %b, i64 %x.i
  %v = load <16 x float>, ptr addrspace(1) %p, align 64, !llvm.access.group !0
  %c = load <16 x float>, ptr addrspace(1) %q, align 64, !llvm.access.group !0
  %m1 = call <16 x float> @llvm.fmuladd.v16f32(<16 x float> %v, <16 x float> %v, <16 x float> %c)
  %m2 = call <16 x float> @llvm.fmuladd.v16f32(<16 x float> %m1, <16 x float> %m1, <16 x float> %c)
  %m3 = call <16 x float> @llvm.fmuladd.v16f32(<16 x float> %m2, <16 x float> %m2, <16 x float> %c)
  %m4 = call <16 x float> @llvm.fmuladd.v16f32(<16 x float> %m3, <16 x float> %m3, <16 x float> %c)
  %m5 = call <16 x float> @llvm.fmuladd.v16f32(<16 x float> %m4, <16 x float> %m4, <16 x float> %c)
  %m6 = call <16 x float> @llvm.fmuladd.v16f32(<16 x float> %m5, <16 x float> %m5, <16 x float> %c)
  store <16 x float> %m6, ptr addrspace(1) %p, align 64, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !1

exit:
  ret void
}

; CHECK-LABEL: define void @scalar(
; CHECK-NOT: wi.room
; CHECK: ret void
define void @scalar(ptr addrspace(1) %a, float %c, i64 %n) #0 {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %x ]
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %x.i
  %v = load float, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  %m1 = call float @llvm.fmuladd.f32(float %v, float %v, float %c)
  %m2 = call float @llvm.fmuladd.f32(float %m1, float %m1, float %c)
  %m3 = call float @llvm.fmuladd.f32(float %m2, float %m2, float %c)
  %m4 = call float @llvm.fmuladd.f32(float %m3, float %m3, float %c)
  store float %m4, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !1

exit:
  ret void
}

; Four independent products: the pipes, not a chain, bound the loop.
; CHECK-LABEL: define void @no_chain(
; CHECK-NOT: wi.room
; CHECK: ret void
define void @no_chain(ptr addrspace(1) %a, <8 x float> %c, i64 %n) #0 {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %x ]
  %p = getelementptr inbounds <8 x float>, ptr addrspace(1) %a, i64 %x.i
  %v = load <8 x float>, ptr addrspace(1) %p, align 32, !llvm.access.group !0
  %m1 = fmul <8 x float> %v, %c
  %m2 = fmul <8 x float> %v, %v
  %m3 = fadd <8 x float> %v, %c
  %m4 = fsub <8 x float> %v, %c
  %s1 = shufflevector <8 x float> %m1, <8 x float> %m2, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 8, i32 9, i32 10, i32 11>
  %s2 = shufflevector <8 x float> %m3, <8 x float> %m4, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 8, i32 9, i32 10, i32 11>
  %s = shufflevector <8 x float> %s1, <8 x float> %s2, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 8, i32 9, i32 10, i32 11>
  store <8 x float> %s, ptr addrspace(1) %p, align 32, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !1

exit:
  ret void
}

; Four steps: short enough for the core to overlap.
; CHECK-LABEL: define void @short_chain(
; CHECK-NOT: wi.room
; CHECK: ret void
define void @short_chain(ptr addrspace(1) %a, <8 x float> %c, i64 %n) #0 {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %x ]
  %p = getelementptr inbounds <8 x float>, ptr addrspace(1) %a, i64 %x.i
  %v = load <8 x float>, ptr addrspace(1) %p, align 32, !llvm.access.group !0
  %m1 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %v, <8 x float> %v, <8 x float> %c)
  %m2 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %m1, <8 x float> %m1, <8 x float> %c)
  %m3 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %m2, <8 x float> %m2, <8 x float> %c)
  %m4 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %m3, <8 x float> %m3, <8 x float> %c)
  store <8 x float> %m4, ptr addrspace(1) %p, align 32, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !1

exit:
  ret void
}

; The id used after the loop: after K work-items it would be the first's.
; CHECK-LABEL: define void @id_after(
; CHECK-NOT: wi.room
; CHECK: ret void
define void @id_after(ptr addrspace(1) %a, ptr addrspace(1) %last, <8 x float> %c, i64 %n) #0 {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %x ]
  %p = getelementptr inbounds <8 x float>, ptr addrspace(1) %a, i64 %x.i
  %v = load <8 x float>, ptr addrspace(1) %p, align 32, !llvm.access.group !0
  %m1 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %v, <8 x float> %v, <8 x float> %c)
  %m2 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %m1, <8 x float> %m1, <8 x float> %c)
  %m3 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %m2, <8 x float> %m2, <8 x float> %c)
  %m4 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %m3, <8 x float> %m3, <8 x float> %c)
  %m5 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %m4, <8 x float> %m4, <8 x float> %c)
  %m6 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %m5, <8 x float> %m5, <8 x float> %c)
  store <8 x float> %m6, ptr addrspace(1) %p, align 32, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !1

exit:
  %x.last = phi i64 [ %x.i, %x ]
  store i64 %x.last, ptr addrspace(1) %last, align 8
  ret void
}

; A store to private memory, which the loop's work-items share.
; CHECK-LABEL: define void @private_store(
; CHECK-NOT: wi.room
; CHECK: ret void
define void @private_store(ptr addrspace(1) %a, <8 x float> %c, i64 %n) #0 {
entry:
  %tmp = alloca <8 x float>, align 32
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %x ]
  %p = getelementptr inbounds <8 x float>, ptr addrspace(1) %a, i64 %x.i
  %v = load <8 x float>, ptr addrspace(1) %p, align 32, !llvm.access.group !0
  %m1 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %v, <8 x float> %v, <8 x float> %c)
  %m2 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %m1, <8 x float> %m1, <8 x float> %c)
  store <8 x float> %m2, ptr %tmp, align 32
  %r = load <8 x float>, ptr %tmp, align 32
  %m3 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %r, <8 x float> %r, <8 x float> %c)
  %m4 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %m3, <8 x float> %m3, <8 x float> %c)
  store <8 x float> %m4, ptr addrspace(1) %p, align 32, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !1

exit:
  ret void
}

; A call that writes memory.
; CHECK-LABEL: define void @side_effect(
; CHECK-NOT: wi.room
; CHECK: ret void
define void @side_effect(ptr addrspace(1) %a, <8 x float> %c, i64 %n) #0 {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %x ]
  %p = getelementptr inbounds <8 x float>, ptr addrspace(1) %a, i64 %x.i
  %v = load <8 x float>, ptr addrspace(1) %p, align 32, !llvm.access.group !0
  %m1 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %v, <8 x float> %v, <8 x float> %c)
  %m2 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %m1, <8 x float> %m1, <8 x float> %c)
  %m3 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %m2, <8 x float> %m2, <8 x float> %c)
  %m4 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %m3, <8 x float> %m3, <8 x float> %c)
  call void @log(<8 x float> %m4)
  store <8 x float> %m4, ptr addrspace(1) %p, align 32, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !1

exit:
  ret void
}

declare void @log(<8 x float>)
declare float @llvm.fmuladd.f32(float, float, float)
declare <8 x float> @llvm.fmuladd.v8f32(<8 x float>, <8 x float>, <8 x float>)
declare <16 x float> @llvm.fmuladd.v16f32(<16 x float>, <16 x float>, <16 x float>)

attributes #0 = { "target-cpu"="znver3" }

!0 = distinct !{}
!1 = distinct !{!1, !2}
!2 = !{!"llvm.loop.parallel_accesses", !0}
