; PASSES: ferrocl-mark-loops-for-unrolling,ferrocl-implicit-barriers
; A loop every work-item runs the same number of times (its exit tests a
; uniform counter) carrying a float sum gets an implicit barrier at its
; header and after it, its counter is named uniform, and its latch asks to
; be unrolled twice. So does a loop multiplying a work-item's integer
; (clpeak's x = x*x + c); one only adding integers does not, nor does the
; loop whose exit tests the local id. In a kernel with barriers, the
; innermost loop over a __local tile between two barriers (n-body) gets them
; too (not one of 16 iterations known at compile time); the loop holding the
; barriers does not.

; CHECK-LABEL: define spir_kernel void @sum(
; CHECK: head:
; CHECK-NEXT: %__fcl.u.0 = phi i32
; CHECK-NEXT: %acc = phi float
; CHECK-NEXT: call void @__ferrocl_implicit_barrier()
; CHECK: br label %head, !llvm.loop [[LOOP:![0-9]+]]
; CHECK: done:
; CHECK-NEXT: call void @__ferrocl_implicit_barrier()
define spir_kernel void @sum(i32 %n, ptr addrspace(1) %a, ptr addrspace(1) %out) {
entry:
  %g = call i64 @_Z13get_global_idj(i32 0)
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i1, %body ]
  %acc = phi float [ 0.0, %entry ], [ %acc1, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %done
body:
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i32 %i
  %x = load float, ptr addrspace(1) %p
  %acc1 = fadd float %acc, %x
  %i1 = add i32 %i, 1
  br label %head
done:
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %g
  store float %acc, ptr addrspace(1) %o
  ret void
}

; CHECK-LABEL: define spir_kernel void @int_product(
; CHECK: head:
; CHECK-NEXT: %__fcl.u.0 = phi i32
; CHECK-NEXT: %x = phi i32
; CHECK-NEXT: call void @__ferrocl_implicit_barrier()
; CHECK: done:
; CHECK-NEXT: call void @__ferrocl_implicit_barrier()
define spir_kernel void @int_product(i32 %n, ptr addrspace(1) %out) {
entry:
  %g = call i64 @_Z13get_global_idj(i32 0)
  %c0 = trunc i64 %g to i32
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i1, %head ]
  %x = phi i32 [ 4, %entry ], [ %x2, %head ]
  %x1 = mul i32 %x, %x
  %x2 = add i32 %x1, %c0
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %head, label %done
done:
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %g
  store i32 %x2, ptr addrspace(1) %o
  ret void
}

; A loop taking a work-item's linear id apart into coordinates (`q = id /
; n; r = id - q * n; id = q`, SYCL's strided indexers, over the array's
; dimensions): the id it carries is multiplied, but divided first; no
; implicit barrier.
; CHECK-LABEL: define spir_kernel void @coordinates(
; CHECK-NOT: __ferrocl_implicit_barrier
; CHECK: ret void
define spir_kernel void @coordinates(i32 %nd, ptr addrspace(1) %shape, ptr addrspace(1) %out) {
entry:
  %g = call i64 @_Z13get_global_idj(i32 0)
  br label %head
head:
  %d = phi i32 [ 0, %entry ], [ %d1, %head ]
  %id = phi i64 [ %g, %entry ], [ %q, %head ]
  %off = phi i64 [ 0, %entry ], [ %off1, %head ]
  %dw = zext i32 %d to i64
  %sp = getelementptr inbounds i64, ptr addrspace(1) %shape, i64 %dw
  %n = load i64, ptr addrspace(1) %sp
  %q = udiv i64 %id, %n
  %qn = mul i64 %q, %n
  %r = sub i64 %id, %qn
  %off1 = add i64 %off, %r
  %d1 = add i32 %d, 1
  %c = icmp slt i32 %d1, %nd
  br i1 %c, label %head, label %done
done:
  %o = getelementptr inbounds i64, ptr addrspace(1) %out, i64 %g
  store i64 %off1, ptr addrspace(1) %o
  ret void
}

; CHECK-LABEL: define spir_kernel void @int_sum(
; CHECK-NOT: __ferrocl_implicit_barrier
; CHECK: ret void
define spir_kernel void @int_sum(i32 %n, ptr addrspace(1) %a, ptr addrspace(1) %out) {
entry:
  %g = call i64 @_Z13get_global_idj(i32 0)
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i1, %body ]
  %acc = phi i32 [ 0, %entry ], [ %acc1, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %done
body:
  %i64 = zext i32 %i to i64
  %k = add i64 %i64, %g
  %p = getelementptr inbounds i32, ptr addrspace(1) %a, i64 %k
  %x = load i32, ptr addrspace(1) %p
  %acc1 = add i32 %acc, %x
  %i1 = add i32 %i, 1
  br label %head
done:
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %g
  store i32 %acc, ptr addrspace(1) %o
  ret void
}

; CHECK-LABEL: define spir_kernel void @tiles(
; CHECK: tile:
; CHECK-NOT: __ferrocl_implicit_barrier
; CHECK: call void @_Z7barrierj(i32 1)
; CHECK: inner:
; CHECK-NEXT: %__fcl.u.{{[0-9]+}} = phi i32
; CHECK-NEXT: %acc = phi float
; CHECK-NEXT: call void @__ferrocl_implicit_barrier()
; CHECK: after:
; CHECK-NEXT: call void @__ferrocl_implicit_barrier()
; CHECK-NEXT: call void @_Z7barrierj(i32 1)
define spir_kernel void @tiles(i32 %tiles, i32 %n, ptr addrspace(1) %pos, ptr addrspace(3) %t, ptr addrspace(1) %out) {
entry:
  %l = call i64 @_Z12get_local_idj(i32 0)
  %g = call i64 @_Z13get_global_idj(i32 0)
  %pp = getelementptr inbounds float, ptr addrspace(1) %pos, i64 %g
  %me = load float, ptr addrspace(1) %pp
  br label %tile
tile:
  %i = phi i32 [ 0, %entry ], [ %i1, %after ]
  %sum = phi float [ 0.0, %entry ], [ %acc1, %after ]
  %tp = getelementptr inbounds float, ptr addrspace(3) %t, i64 %l
  store float %me, ptr addrspace(3) %tp
  call void @_Z7barrierj(i32 1)
  br label %inner
inner:
  %j = phi i32 [ 0, %tile ], [ %j1, %inner ]
  %acc = phi float [ %sum, %tile ], [ %acc1, %inner ]
  %jp = getelementptr inbounds float, ptr addrspace(3) %t, i32 %j
  %x = load float, ptr addrspace(3) %jp
  %d = fsub float %x, %me
  %acc1 = fadd float %acc, %d
  %j1 = add i32 %j, 1
  %jc = icmp slt i32 %j1, %n
  br i1 %jc, label %inner, label %after
after:
  call void @_Z7barrierj(i32 1)
  %i1 = add i32 %i, 1
  %ic = icmp slt i32 %i1, %tiles
  br i1 %ic, label %tile, label %done
done:
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %g
  store float %acc1, ptr addrspace(1) %o
  ret void
}

; A tile loop of 16 iterations known at compile time gets none.
; CHECK-LABEL: define spir_kernel void @short_tiles(
; CHECK-NOT: __ferrocl_implicit_barrier
; CHECK: ret void
define spir_kernel void @short_tiles(i32 %tiles, i32 %n, ptr addrspace(1) %pos, ptr addrspace(3) %t, ptr addrspace(1) %out) {
entry:
  %l = call i64 @_Z12get_local_idj(i32 0)
  %g = call i64 @_Z13get_global_idj(i32 0)
  %pp = getelementptr inbounds float, ptr addrspace(1) %pos, i64 %g
  %me = load float, ptr addrspace(1) %pp
  br label %tile
tile:
  %i = phi i32 [ 0, %entry ], [ %i1, %after ]
  %sum = phi float [ 0.0, %entry ], [ %acc1, %after ]
  %tp = getelementptr inbounds float, ptr addrspace(3) %t, i64 %l
  store float %me, ptr addrspace(3) %tp
  call void @_Z7barrierj(i32 1)
  br label %inner
inner:
  %j = phi i32 [ 0, %tile ], [ %j1, %inner ]
  %acc = phi float [ %sum, %tile ], [ %acc1, %inner ]
  %jp = getelementptr inbounds float, ptr addrspace(3) %t, i32 %j
  %x = load float, ptr addrspace(3) %jp
  %d = fsub float %x, %me
  %acc1 = fadd float %acc, %d
  %j1 = add i32 %j, 1
  %jc = icmp slt i32 %j1, 16
  br i1 %jc, label %inner, label %after
after:
  call void @_Z7barrierj(i32 1)
  %i1 = add i32 %i, 1
  %ic = icmp slt i32 %i1, %tiles
  br i1 %ic, label %tile, label %done
done:
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %g
  store float %acc1, ptr addrspace(1) %o
  ret void
}

; CHECK-LABEL: define spir_kernel void @varying(
; CHECK-NOT: __ferrocl_implicit_barrier
; CHECK-NOT: !llvm.loop
; CHECK: ret void
define spir_kernel void @varying(ptr addrspace(1) %a, ptr addrspace(1) %out) {
entry:
  %l = call i64 @_Z12get_local_idj(i32 0)
  %n = trunc i64 %l to i32
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i1, %head ]
  %acc = phi float [ 0.0, %entry ], [ %acc1, %head ]
  %acc1 = fadd float %acc, 1.0
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %head, label %done
done:
  store float %acc1, ptr addrspace(1) %out
  ret void
}

; A bound loaded from __constant memory at a uniform address, and a start
; computed from the group's id through float arithmetic and `floor`, are
; uniform (Parboil's cutcp), the start named so since it is used past its
; block; a bound loaded from __global memory is not uniform.
; CHECK-LABEL: define spir_kernel void @constant_bound(
; CHECK: %__fcl.u.base = fptosi float %fl to i32
; CHECK: head:
; CHECK: call void @__ferrocl_implicit_barrier()
; CHECK: done:
; CHECK-NEXT: call void @__ferrocl_implicit_barrier()
define spir_kernel void @constant_bound(ptr addrspace(2) %len, float %h, ptr addrspace(1) %out) {
entry:
  %grp = call i64 @_Z12get_group_idj(i32 0)
  %gf = uitofp i64 %grp to float
  %scaled = fmul float %gf, %h
  %fl = call float @_Z5floorf(float %scaled)
  %base = fptosi float %fl to i32
  br label %head
head:
  %i = phi i32 [ %base, %entry ], [ %i1, %head ]
  %acc = phi float [ 0.0, %entry ], [ %acc1, %head ]
  %acc1 = fadd float %acc, 1.0
  %i1 = add i32 %i, 1
  %n = load i32, ptr addrspace(2) %len
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %head, label %done
done:
  store float %acc1, ptr addrspace(1) %out
  store i32 %base, ptr addrspace(1) %out
  ret void
}

; CHECK-LABEL: define spir_kernel void @global_bound(
; CHECK-NOT: __ferrocl_implicit_barrier
; CHECK: ret void
define spir_kernel void @global_bound(ptr addrspace(1) %len, ptr addrspace(1) %out) {
entry:
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i1, %head ]
  %acc = phi float [ 0.0, %entry ], [ %acc1, %head ]
  %acc1 = fadd float %acc, 1.0
  %i1 = add i32 %i, 1
  %n = load i32, ptr addrspace(1) %len
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %head, label %done
done:
  store float %acc1, ptr addrspace(1) %out
  ret void
}

; CHECK: [[LOOP]] = distinct !{[[LOOP]], [[COUNT:![0-9]+]]}
; CHECK: [[COUNT]] = !{!"llvm.loop.unroll.count", i32 2}

declare i64 @_Z13get_global_idj(i32)
declare i64 @_Z12get_local_idj(i32)
declare void @_Z7barrierj(i32)
declare i64 @_Z12get_group_idj(i32)
declare float @_Z5floorf(float)
