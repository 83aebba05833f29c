; PASSES: ferrocl-loops-out-of-guards,ferrocl-implicit-barriers
; PolyBench's gemm: a loop accumulating c[i][j] in memory behind the bounds
; check `if (i < ni && j < nj)`. The loop moves out of the check, which
; now only sets a flag; every work-item runs the loop's control (its
; header's test and its latch's increment), the body only where the flag is
; set, what followed the loop likewise; the loop then gets its implicit
; barriers.
; Not moved: a loop behind `if (id == 0)` (one work-item's serial loop; nor
; does it get barriers, although its predecessor is the entry block: the
; entry may skip it), and a loop that only adds integers.

; CHECK-LABEL: define spir_kernel void @gemm(
; CHECK: entry:
; CHECK: br i1 %in.i, label %check.j, label %guard.join
; CHECK: check.j:
; CHECK-NEXT: %in.j = icmp slt i32 %j, %nj
; CHECK-NEXT: br i1 %in.j, label %scale, label %guard.join
; CHECK: guard.join:
; CHECK: [[ACTIVE:%.*]] = phi i1 {{.*}}[ true, %scale ]
; CHECK: head:
; CHECK-NEXT: %__fcl.u.0 = phi i32 [ 0, %guard.join ], [ %k1, %latch ]
; CHECK-NEXT: call void @__ferrocl_implicit_barrier()
; CHECK: br i1 %more, label %guard.body, label %guard.exit
; CHECK: guard.body:
; CHECK-NEXT: br i1 [[ACTIVE]], label %body, label %latch
; CHECK: guard.exit:
; CHECK-NEXT: call void @__ferrocl_implicit_barrier()
; CHECK-NEXT: br i1 [[ACTIVE]], label %done, label %out
define spir_kernel void @gemm(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, float %beta, i32 %ni, i32 %nj, i32 %nk) {
entry:
  %gx = call i64 @_Z13get_global_idj(i32 0)
  %j = trunc i64 %gx to i32
  %gy = call i64 @_Z13get_global_idj(i32 1)
  %i = trunc i64 %gy to i32
  %in.i = icmp slt i32 %i, %ni
  br i1 %in.i, label %check.j, label %out
check.j:
  %in.j = icmp slt i32 %j, %nj
  br i1 %in.j, label %scale, label %out
scale:
  %row = mul i32 %i, %nj
  %ij = add i32 %row, %j
  %ij64 = sext i32 %ij to i64
  %pc = getelementptr inbounds float, ptr addrspace(1) %c, i64 %ij64
  %c0 = load float, ptr addrspace(1) %pc
  %c1 = fmul float %c0, %beta
  store float %c1, ptr addrspace(1) %pc
  br label %head
head:
  %k = phi i32 [ 0, %scale ], [ %k1, %latch ]
  %more = icmp slt i32 %k, %nk
  br i1 %more, label %body, label %done
body:
  %ik = mul i32 %i, %nk
  %ik1 = add i32 %ik, %k
  %ik64 = sext i32 %ik1 to i64
  %pa = getelementptr inbounds float, ptr addrspace(1) %a, i64 %ik64
  %va = load float, ptr addrspace(1) %pa
  %kj = mul i32 %k, %nj
  %kj1 = add i32 %kj, %j
  %kj64 = sext i32 %kj1 to i64
  %pb = getelementptr inbounds float, ptr addrspace(1) %b, i64 %kj64
  %vb = load float, ptr addrspace(1) %pb
  %row2 = mul i32 %i, %nj
  %ij2 = add i32 %row2, %j
  %ij264 = sext i32 %ij2 to i64
  %pc2 = getelementptr inbounds float, ptr addrspace(1) %c, i64 %ij264
  %vc = load float, ptr addrspace(1) %pc2
  %s = call float @llvm.fmuladd.f32(float %va, float %vb, float %vc)
  store float %s, ptr addrspace(1) %pc2
  br label %latch
latch:
  %k1 = add i32 %k, 1
  br label %head
done:
  store float 0.0, ptr addrspace(1) %pc
  br label %out
out:
  ret void
}

; CHECK-LABEL: define spir_kernel void @first_only(
; CHECK-NOT: guard.
; CHECK-NOT: __ferrocl_implicit_barrier
; CHECK: ret void
define spir_kernel void @first_only(ptr addrspace(1) %a, i32 %n) {
entry:
  %g = call i64 @_Z13get_global_idj(i32 0)
  %first = icmp eq i64 %g, 0
  br i1 %first, label %head, label %out
head:
  %k = phi i32 [ 0, %entry ], [ %k1, %body ]
  %acc = phi float [ 0.0, %entry ], [ %acc1, %body ]
  %more = icmp slt i32 %k, %n
  br i1 %more, label %body, label %done
body:
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i32 %k
  %x = load float, ptr addrspace(1) %p
  %acc1 = fadd float %acc, %x
  %k1 = add i32 %k, 1
  br label %head
done:
  store float %acc, ptr addrspace(1) %a
  br label %out
out:
  ret void
}

; CHECK-LABEL: define spir_kernel void @int_sum(
; CHECK-NOT: guard.
; CHECK: ret void
define spir_kernel void @int_sum(ptr addrspace(1) %a, i32 %n) {
entry:
  %g = call i64 @_Z13get_global_idj(i32 0)
  %g32 = trunc i64 %g to i32
  %in = icmp slt i32 %g32, %n
  br i1 %in, label %head, label %out
head:
  %k = phi i32 [ 0, %entry ], [ %k1, %body ]
  %acc = phi i32 [ 0, %entry ], [ %acc1, %body ]
  %more = icmp slt i32 %k, %n
  br i1 %more, label %body, label %done
body:
  %p = getelementptr inbounds i32, ptr addrspace(1) %a, i32 %k
  %x = load i32, ptr addrspace(1) %p
  %acc1 = add i32 %acc, %x
  %k1 = add i32 %k, 1
  br label %head
done:
  %o = getelementptr inbounds i32, ptr addrspace(1) %a, i64 %g
  store i32 %acc, ptr addrspace(1) %o
  br label %out
out:
  ret void
}

; PolyBench's atax_kernel1, `tmp[i] += A[i * ny + j] * x[j]`: the loop
; walks the work-item's row, contiguous along j and strided across
; work-items; it stays inside the work-item loop, untouched.
; CHECK-LABEL: define spir_kernel void @row_walk(
; CHECK-NOT: guard.
; CHECK-NOT: __ferrocl_implicit_barrier
; CHECK: ret void
define spir_kernel void @row_walk(ptr addrspace(1) %a, ptr addrspace(1) %x, ptr addrspace(1) %tmp, i32 %nx, i32 %ny) {
entry:
  %g = call i64 @_Z13get_global_idj(i32 0)
  %i = trunc i64 %g to i32
  %in = icmp slt i32 %i, %nx
  br i1 %in, label %pre, label %out
pre:
  br label %head
head:
  %j = phi i32 [ 0, %pre ], [ %j1, %latch ]
  %more = icmp slt i32 %j, %ny
  br i1 %more, label %body, label %done
body:
  %row = mul nsw i32 %i, %ny
  %ij = add nsw i32 %row, %j
  %ij64 = sext i32 %ij to i64
  %pa = getelementptr inbounds float, ptr addrspace(1) %a, i64 %ij64
  %va = load float, ptr addrspace(1) %pa
  %j64 = sext i32 %j to i64
  %px = getelementptr inbounds float, ptr addrspace(1) %x, i64 %j64
  %vx = load float, ptr addrspace(1) %px
  %i64 = sext i32 %i to i64
  %pt = getelementptr inbounds float, ptr addrspace(1) %tmp, i64 %i64
  %vt = load float, ptr addrspace(1) %pt
  %s = call float @llvm.fmuladd.f32(float %va, float %vx, float %vt)
  store float %s, ptr addrspace(1) %pt
  br label %latch
latch:
  %j1 = add nsw i32 %j, 1
  br label %head
done:
  br label %out
out:
  ret void
}

; A guarded loop summing in a phi (Rodinia's kmeans): past a skipped body
; the sum stays what it was.
; CHECK-LABEL: define spir_kernel void @guarded_sum(
; CHECK: guard.body:
; CHECK-NEXT: br i1 %{{.*}}, label %body, label %latch
; CHECK: latch:
; CHECK-NEXT: %acc.latch = phi float [ %acc1, %body ], [ %acc, %guard.body ]
define spir_kernel void @guarded_sum(ptr addrspace(1) %a, i32 %n) {
entry:
  %g = call i64 @_Z13get_global_idj(i32 0)
  %g32 = trunc i64 %g to i32
  %in = icmp slt i32 %g32, %n
  br i1 %in, label %pre, label %out
pre:
  br label %head
head:
  %k = phi i32 [ 0, %pre ], [ %k1, %latch ]
  %acc = phi float [ 0.0, %pre ], [ %acc1, %latch ]
  %more = icmp slt i32 %k, %n
  br i1 %more, label %body, label %done
body:
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i32 %k
  %x = load float, ptr addrspace(1) %p
  %acc1 = fadd float %acc, %x
  br label %latch
latch:
  %k1 = add i32 %k, 1
  br label %head
done:
  %o = getelementptr inbounds float, ptr addrspace(1) %a, i64 %g
  store float %acc, ptr addrspace(1) %o
  br label %out
out:
  ret void
}

declare i64 @_Z13get_global_idj(i32)
declare float @llvm.fmuladd.f32(float, float, float)
