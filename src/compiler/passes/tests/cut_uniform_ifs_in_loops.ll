; PASSES: ferrocl-cut-uniform-ifs-in-loops
; After implicit barriers (Parboil's mri-q): the `if` on a uniform value in
; the loop's body ends the region, both of its edges through a block with
; an implicit barrier; the loop's exit test, which the plain pass would cut
; too, stays as it is.

; CHECK-LABEL: define spir_kernel void @mri(
; CHECK: br i1 %more, label %body, label %done
; CHECK: br i1 %active, label %__fcl.cut.{{[01]}}, label %__fcl.cut.{{[01]}}
; CHECK: __fcl.cut.0:
; CHECK-NEXT: call void @__ferrocl_implicit_barrier()
; CHECK: __fcl.cut.1:
; CHECK-NEXT: call void @__ferrocl_implicit_barrier()
; CHECK-NOT: __fcl.cut.2
define spir_kernel void @mri(i32 %numk, i32 %kglobal, ptr addrspace(1) %out) {
entry:
  %g = call i64 @_Z13get_global_idj(i32 0)
  br label %head
head:
  %k = phi i32 [ 0, %entry ], [ %k1, %latch ]
  %kg = phi i32 [ %kglobal, %entry ], [ %kg1, %latch ]
  %s = phi float [ 0.0, %entry ], [ %s2, %latch ]
  call void @__ferrocl_implicit_barrier()
  %more = icmp slt i32 %k, 1024
  br i1 %more, label %body, label %done
body:
  %active = icmp slt i32 %kg, %numk
  br i1 %active, label %add, label %latch
add:
  %x = sitofp i32 %k to float
  %s1 = fadd float %s, %x
  br label %latch
latch:
  %s2 = phi float [ %s1, %add ], [ %s, %body ]
  %k1 = add i32 %k, 1
  %kg1 = add i32 %kg, 1
  br label %head
done:
  call void @__ferrocl_implicit_barrier()
  %p = getelementptr inbounds float, ptr addrspace(1) %out, i64 %g
  store float %s, ptr addrspace(1) %p
  ret void
}

declare i64 @_Z13get_global_idj(i32)
declare void @__ferrocl_implicit_barrier()
