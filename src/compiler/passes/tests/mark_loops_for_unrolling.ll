; PASSES: ferrocl-mark-loops-for-unrolling,function(loop-simplify,lcssa,loop-unroll<O3;no-partial;no-peeling;no-runtime;full-unroll-max=0>)
; A loop that tests its header 1025 times (`for (k = 0; k < 1024; k++)`,
; Parboil's mri-q) and calls a builtin, convergent as clang makes every
; OpenCL function, is unrolled twice as asked: the builtin is no longer
; convergent, so the unroller may keep an exit test in each copy. It had
; unrolled the loop 205 times (the largest divisor of 1025 under its pragma
; threshold). A loop of 5 header tests keeps its builtin convergent and is
; unrolled whole, as before. A kernel that waits has no marked loop.

; CHECK-LABEL: define spir_kernel void @twice(
; CHECK-COUNT-2: call float @_Z3cosf(
; CHECK-NOT: call float @_Z3cosf(
; CHECK-LABEL: define spir_kernel void @short(
; CHECK-NOT: !llvm.loop
; CHECK-LABEL: define spir_kernel void @waits(
; CHECK-NOT: llvm.loop.unroll
; CHECK: declare float @_Z3cosf(float) #[[COS:[0-9]+]]
; CHECK: declare float @_Z3sinf(float) #[[SIN:[0-9]+]]
; CHECK-NOT: attributes #[[COS]] = { convergent
; CHECK: attributes #[[SIN]] = { convergent
define spir_kernel void @twice(float %x, ptr addrspace(1) %out) {
entry:
  %g = call i64 @_Z13get_global_idj(i32 0)
  br label %head
head:
  %k = phi i32 [ 0, %entry ], [ %k1, %body ]
  %acc = phi float [ 0.0, %entry ], [ %acc1, %body ]
  %c = icmp slt i32 %k, 1024
  br i1 %c, label %body, label %done
body:
  %kf = sitofp i32 %k to float
  %arg = fmul float %kf, %x
  %v = call float @_Z3cosf(float %arg) #0
  %acc1 = fadd float %acc, %v
  %k1 = add nsw i32 %k, 1
  br label %head
done:
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %g
  store float %acc, ptr addrspace(1) %o
  ret void
}

define spir_kernel void @short(float %x, ptr addrspace(1) %out) {
entry:
  %g = call i64 @_Z13get_global_idj(i32 0)
  br label %head
head:
  %k = phi i32 [ 0, %entry ], [ %k1, %body ]
  %acc = phi float [ 0.0, %entry ], [ %acc1, %body ]
  %c = icmp slt i32 %k, 4
  br i1 %c, label %body, label %done
body:
  %kf = sitofp i32 %k to float
  %arg = fmul float %kf, %x
  %v = call float @_Z3sinf(float %arg) #0
  %acc1 = fadd float %acc, %v
  %k1 = add nsw i32 %k, 1
  br label %head
done:
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %g
  store float %acc, ptr addrspace(1) %o
  ret void
}

define spir_kernel void @waits(float %x, ptr addrspace(1) %out) {
entry:
  %g = call i64 @_Z13get_global_idj(i32 0)
  br label %head
head:
  %k = phi i32 [ 0, %entry ], [ %k1, %body ]
  %acc = phi float [ 0.0, %entry ], [ %acc1, %body ]
  %c = icmp slt i32 %k, 1024
  br i1 %c, label %body, label %done
body:
  %kf = sitofp i32 %k to float
  %arg = fmul float %kf, %x
  %v = call float @_Z3sinf(float %arg) #0
  %acc1 = fadd float %acc, %v
  call void @_Z7barrierj(i32 1) #0
  %k1 = add nsw i32 %k, 1
  br label %head
done:
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %g
  store float %acc, ptr addrspace(1) %o
  ret void
}

declare i64 @_Z13get_global_idj(i32)
declare float @_Z3cosf(float) #0
declare float @_Z3sinf(float) #0
declare void @_Z7barrierj(i32) #0

attributes #0 = { convergent nounwind }
