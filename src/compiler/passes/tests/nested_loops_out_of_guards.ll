; PASSES: ferrocl-loops-out-of-guards,ferrocl-implicit-barriers,ferrocl-loops-out-of-guards,ferrocl-implicit-barriers
; A loop behind a check inside a loop behind the bounds check (Rodinia's
; kmeans has this shape; here the inner check also changes with the outer
; loop's iteration, `i % m >= j`). The first round moves the outer loop out
; of the bounds check and gives it implicit barriers; the second moves the
; inner loop out of its check, which then only sets a flag, cleared again
; where all work-items pass in each outer iteration, and gives the inner
; loop implicit barriers too. `j + 1`, computed from the outer counter
; where all work-items go together and used inside the inner loop, is named
; as uniform: the region transform keeps it once per group.

; CHECK-LABEL: define spir_kernel void @below(
; CHECK: guard.join:
; CHECK-NEXT: [[OUTER:%__fcl.guard.active.*]] = phi i1 [ true, %start ], [ false, %entry ]
; CHECK: outer:
; CHECK: %__fcl.u.0 = phi i32 [ 0, %guard.join ], [ %j.next, %outer.latch ]
; CHECK-NEXT: call void @__ferrocl_implicit_barrier()
; CHECK: %__fcl.u.j1 = add nuw nsw i32 %__fcl.u.0, 1
; CHECK: guard.body:
; CHECK-NEXT: br i1 [[OUTER]], label %check, label %[[JOIN:guard.join[0-9]+]]
; CHECK: br i1 %below, label %[[JOIN]], label %enter
; CHECK: [[JOIN]]:
; CHECK-NEXT: [[INNER:%__fcl.guard.active.*]] = phi i1 [ false, %check ], [ true, %enter ], [ false, %guard.body ]
; CHECK-NEXT: br label %inner
; CHECK: inner:
; CHECK-NEXT: %t = phi float
; CHECK-NEXT: %__fcl.u.{{[0-9]+}} = phi i32
; CHECK-NEXT: call void @__ferrocl_implicit_barrier()
; CHECK: br i1 [[INNER]], label %inner.body, label %inner.latch
; CHECK: inner.body:
; CHECK: %w = uitofp i32 %__fcl.u.j1 to float
; CHECK: inner.latch:
; CHECK-NEXT: %t.latch = phi float [ %t.next, %inner.body ], [ %t, %guard.body{{[0-9]+}} ]
; CHECK: call void @__ferrocl_implicit_barrier()
; CHECK-NEXT: br i1 [[INNER]], label %inner.done, label %outer.latch
; CHECK: outer.latch:
; CHECK-NEXT: %s.next{{.*}} = phi float [ %s.add, %add ], [ %s, %guard.exit{{[0-9]+}} ]
define spir_kernel void @below(ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %n, i32 %m) {
entry:
  %g = call i64 @_Z13get_global_idj(i32 0)
  %i = trunc i64 %g to i32
  %in = icmp slt i32 %i, %n
  br i1 %in, label %start, label %exit
start:
  br label %outer
outer:
  %s = phi float [ 0.0, %start ], [ %s.next, %outer.latch ]
  %j = phi i32 [ 0, %start ], [ %j.next, %outer.latch ]
  %more = icmp slt i32 %j, %m
  %j1 = add nuw nsw i32 %j, 1
  br i1 %more, label %check, label %store
check:
  %r = srem i32 %i, %m
  %below = icmp slt i32 %r, %j
  br i1 %below, label %outer.latch, label %enter
enter:
  br label %inner
inner:
  %t = phi float [ 0.0, %enter ], [ %t.next, %inner.latch ]
  %k = phi i32 [ 0, %enter ], [ %k.next, %inner.latch ]
  %more.k = icmp slt i32 %k, %m
  br i1 %more.k, label %inner.body, label %inner.done
inner.body:
  %kn = mul nsw i32 %k, %n
  %at = add nsw i32 %kn, %i
  %at64 = sext i32 %at to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %at64
  %x = load float, ptr addrspace(1) %p
  %w = uitofp i32 %j1 to float
  %t.next = call float @llvm.fmuladd.f32(float %x, float %w, float %t)
  br label %inner.latch
inner.latch:
  %k.next = add nuw nsw i32 %k, 1
  br label %inner
inner.done:
  br label %add
add:
  %s.add = fadd float %s, %t
  br label %outer.latch
outer.latch:
  %s.next = phi float [ %s.add, %add ], [ %s, %check ]
  %j.next = add nuw nsw i32 %j, 1
  br label %outer
store:
  %i64 = sext i32 %i to i64
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %i64
  store float %s, ptr addrspace(1) %o
  br label %exit
exit:
  ret void
}

declare i64 @_Z13get_global_idj(i32)
declare float @llvm.fmuladd.f32(float, float, float)
