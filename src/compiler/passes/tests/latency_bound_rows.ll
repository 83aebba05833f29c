; PASSES: function(ferrocl-latency-bound-rows)
; An innermost work-item loop of scalar code whose work is one chain of 10
; dependent multiply-adds is versioned on its row's length: the loop
; itself, interleaved twice, where the length is a multiple of 16 (two
; 8-lane vectors on AVX2), a copy interleaved once for every other row;
; both keep the loop's other properties and are marked as versioned. Left
; alone: a short chain (the out-of-order core overlaps it), work that is
; many short chains side by side, a chain of one add a load (memory's
; pace, not the chain's), and a loop whose values are used after it.

target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define void @chain(
; CHECK: entry:
; CHECK-NEXT: %rows.length = sub i64 %n, 0
; CHECK-NEXT: %[[LOW:.*]] = and i64 %rows.length, 15
; CHECK-NEXT: %rows.whole = icmp eq i64 %[[LOW]], 0
; CHECK-NEXT: br i1 %rows.whole, label %rows.ph, label %rows.ph.rows1
; CHECK: x.rows1:
; CHECK: br i1 %done.rows1, label %exit.loopexit{{[0-9]*}}, label %x.rows1, !llvm.loop ![[ONCE:[0-9]+]]
; CHECK: x:
; CHECK: br i1 %done, label %exit.loopexit{{[0-9]*}}, label %x, !llvm.loop ![[TWICE:[0-9]+]]
; CHECK-LABEL: define void @short(
; CHECK-NOT: rows
; CHECK-LABEL: define void @parallel_chains(
; CHECK-NOT: rows
; CHECK-LABEL: define void @sum_of_loads(
; CHECK-NOT: rows
; CHECK-LABEL: define float @used_after(
; CHECK-NOT: rows
; CHECK-DAG: ![[TWICE]] = distinct !{![[TWICE]], ![[PARALLEL:[0-9]+]], ![[IC2:[0-9]+]], ![[MARK:[0-9]+]]}
; CHECK-DAG: ![[PARALLEL]] = !{!"llvm.loop.parallel_accesses", !0}
; CHECK-DAG: ![[IC2]] = !{!"llvm.loop.interleave.count", i32 2}
; CHECK-DAG: ![[MARK]] = !{!"ferrocl.rows.versioned"}
; CHECK-DAG: ![[ONCE]] = distinct !{![[ONCE]], ![[PARALLEL]], ![[IC1:[0-9]+]], ![[MARK]]}
; CHECK-DAG: ![[IC1]] = !{!"llvm.loop.interleave.count", i32 1}

define void @chain(ptr addrspace(1) %a, float %c, i64 %n) #0 {
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
  %m5 = call float @llvm.fmuladd.f32(float %m4, float %m4, float %c)
  %m6 = call float @llvm.fmuladd.f32(float %m5, float %m5, float %c)
  %m7 = call float @llvm.fmuladd.f32(float %m6, float %m6, float %c)
  %m8 = call float @llvm.fmuladd.f32(float %m7, float %m7, float %c)
  %m9 = call float @llvm.fmuladd.f32(float %m8, float %m8, float %c)
  %m10 = call float @llvm.fmuladd.f32(float %m9, float %m9, float %c)
  store float %m10, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !1

exit:
  ret void
}

define void @short(ptr addrspace(1) %a, float %c, i64 %n) #0 {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %x ]
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %x.i
  %v = load float, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  %m1 = call float @llvm.fmuladd.f32(float %v, float %v, float %c)
  %m2 = call float @llvm.fmuladd.f32(float %m1, float %m1, float %c)
  store float %m2, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !1

exit:
  ret void
}

; Ten multiplies, of which no more than two wait on each other.
define void @parallel_chains(ptr addrspace(1) %a, float %c, i64 %n) #0 {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %x ]
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %x.i
  %v = load float, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  %m1 = fmul float %v, %c
  %m2 = fmul float %v, %m1
  %m3 = fmul float %v, 3.0
  %m4 = fmul float %v, %m3
  %m5 = fmul float %v, 5.0
  %m6 = fmul float %v, %m5
  %m7 = fmul float %v, 7.0
  %m8 = fmul float %v, %m7
  %m9 = fmul float %v, 9.0
  %m10 = fmul float %v, %m9
  store float %m2, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  store float %m4, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  store float %m6, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  store float %m8, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  store float %m10, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !1

exit:
  ret void
}

define void @sum_of_loads(ptr addrspace(1) %a, i64 %n) #0 {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %x ]
  %p0 = getelementptr inbounds float, ptr addrspace(1) %a, i64 %x.i
  %v0 = load float, ptr addrspace(1) %p0, align 4, !llvm.access.group !0
  %p1 = getelementptr inbounds float, ptr addrspace(1) %p0, i64 256
  %v1 = load float, ptr addrspace(1) %p1, align 4, !llvm.access.group !0
  %s1 = fadd float %v0, %v1
  %p2 = getelementptr inbounds float, ptr addrspace(1) %p1, i64 256
  %v2 = load float, ptr addrspace(1) %p2, align 4, !llvm.access.group !0
  %s2 = fadd float %s1, %v2
  %p3 = getelementptr inbounds float, ptr addrspace(1) %p2, i64 256
  %v3 = load float, ptr addrspace(1) %p3, align 4, !llvm.access.group !0
  %s3 = fadd float %s2, %v3
  %p4 = getelementptr inbounds float, ptr addrspace(1) %p3, i64 256
  %v4 = load float, ptr addrspace(1) %p4, align 4, !llvm.access.group !0
  %s4 = fadd float %s3, %v4
  %p5 = getelementptr inbounds float, ptr addrspace(1) %p4, i64 256
  %v5 = load float, ptr addrspace(1) %p5, align 4, !llvm.access.group !0
  %s5 = fadd float %s4, %v5
  %p6 = getelementptr inbounds float, ptr addrspace(1) %p5, i64 256
  %v6 = load float, ptr addrspace(1) %p6, align 4, !llvm.access.group !0
  %s6 = fadd float %s5, %v6
  %p7 = getelementptr inbounds float, ptr addrspace(1) %p6, i64 256
  %v7 = load float, ptr addrspace(1) %p7, align 4, !llvm.access.group !0
  %s7 = fadd float %s6, %v7
  %p8 = getelementptr inbounds float, ptr addrspace(1) %p7, i64 256
  %v8 = load float, ptr addrspace(1) %p8, align 4, !llvm.access.group !0
  %s8 = fadd float %s7, %v8
  %p9 = getelementptr inbounds float, ptr addrspace(1) %p8, i64 256
  %v9 = load float, ptr addrspace(1) %p9, align 4, !llvm.access.group !0
  %s9 = fadd float %s8, %v9
  store float %s9, ptr addrspace(1) %p0, align 4, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !1

exit:
  ret void
}

define float @used_after(ptr addrspace(1) %a, float %c, i64 %n) #0 {
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
  %m5 = call float @llvm.fmuladd.f32(float %m4, float %m4, float %c)
  %m6 = call float @llvm.fmuladd.f32(float %m5, float %m5, float %c)
  %m7 = call float @llvm.fmuladd.f32(float %m6, float %m6, float %c)
  %m8 = call float @llvm.fmuladd.f32(float %m7, float %m7, float %c)
  %m9 = call float @llvm.fmuladd.f32(float %m8, float %m8, float %c)
  %m10 = call float @llvm.fmuladd.f32(float %m9, float %m9, float %c)
  store float %m10, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !1

exit:
  %last = phi float [ %m10, %x ]
  ret float %last
}

declare float @llvm.fmuladd.f32(float, float, float)

attributes #0 = { "target-cpu"="znver3" }

!0 = distinct !{}
!1 = distinct !{!1, !2, !3}
!2 = !{!"llvm.loop.parallel_accesses", !0}
!3 = !{!"llvm.loop.interleave.count", i32 1}
