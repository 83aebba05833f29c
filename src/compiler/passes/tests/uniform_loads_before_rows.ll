; PASSES: function(ferrocl-uniform-loads-before-rows)
; In an innermost work-item loop, a load of an address the loop does not
; change, in a block the loop runs in every iteration or in none (behind a
; branch on a value the loop does not change), is made before the loop
; under the same condition. Loads behind a work-item's own test, and loads
; of memory the loop may write, stay.

; CHECK-LABEL: define void @atoms(
; CHECK: entry:
; CHECK-NEXT: br i1 %present, label %uniform.load, label %[[JOIN:.*]]
; CHECK: uniform.load:
; CHECK-NEXT: %ax = load float, ptr addrspace(1) %atom, align 4, !alias.scope !{{[0-9]+}}{{$}}
; CHECK-NEXT: br label %[[JOIN]]
; CHECK: [[JOIN]]:
; CHECK-NEXT: %ax.before = phi float [ %ax, %uniform.load ], [ poison, %entry ]
; CHECK: x:
; CHECK: near:
; CHECK-NEXT: %ay = load float, ptr addrspace(1) %atom.y, align 4
; CHECK: hit:
; CHECK-NEXT: %d = fsub float %ax.before, %v
; CHECK-NEXT: %o = load float, ptr addrspace(1) %out, align 4
define void @atoms(ptr addrspace(1) %a, ptr addrspace(1) %atom, ptr addrspace(1) %atom.y, ptr addrspace(1) %out, i1 %present, i64 %n) {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %latch ]
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %x.i
  %v = load float, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  %close = fcmp olt float %v, 1.0
  br i1 %close, label %near, label %test

near:
  %ay = load float, ptr addrspace(1) %atom.y, align 4, !llvm.access.group !0
  store float %ay, ptr addrspace(1) %p, align 4, !noalias !20, !llvm.access.group !0
  br label %test

test:
  br i1 %present, label %hit, label %latch

hit:
  %ax = load float, ptr addrspace(1) %atom, align 4, !alias.scope !20, !llvm.access.group !0
  %d = fsub float %ax, %v
  %o = load float, ptr addrspace(1) %out, align 4, !llvm.access.group !0
  %s = fadd float %d, %o
  br label %written

written:
  store float %s, ptr addrspace(1) %out, align 4, !noalias !20, !llvm.access.group !0
  br label %latch

latch:
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !4

exit:
  ret void
}


; Around the row, the group's y loop: a load whose address and condition
; the y loop keeps too moves before it; one whose address moves with y
; stays before the row.

; CHECK-LABEL: define void @rows(
; CHECK: entry:
; CHECK-NEXT: br i1 %present, label %uniform.load, label %[[JOIN2:.*]]
; CHECK: uniform.load:
; CHECK-NEXT: %ax = load float, ptr addrspace(1) %atom, align 4, !alias.scope !{{[0-9]+}}{{$}}
; CHECK: [[JOIN2]]:
; CHECK-NEXT: %ax.before = phi float
; CHECK: y:
; CHECK: br i1 %present, label %uniform.load{{[0-9]+}}, label
; CHECK: uniform.load{{[0-9]+}}:
; CHECK-NEXT: %ay = load float, ptr addrspace(1) %atom.row, align 4, !alias.scope !{{[0-9]+}}{{$}}
; CHECK: x:
; CHECK: hit:
; CHECK-NEXT: %d = fsub float %ax.before, %v
define void @rows(ptr addrspace(1) %a, ptr addrspace(1) %atom, ptr addrspace(1) %atoms, i1 %present, i64 %n, i64 %m) {
entry:
  br label %y

y:
  %y.i = phi i64 [ 0, %entry ], [ %y.next, %y.latch ]
  %atom.row = getelementptr inbounds float, ptr addrspace(1) %atoms, i64 %y.i
  %row = mul i64 %y.i, %n
  br label %x

x:
  %x.i = phi i64 [ 0, %y ], [ %x.next, %latch ]
  %wi = add i64 %x.i, %row
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %wi
  %v = load float, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  br i1 %present, label %hit, label %latch

hit:
  %ax = load float, ptr addrspace(1) %atom, align 4, !alias.scope !20, !llvm.access.group !0
  %ay = load float, ptr addrspace(1) %atom.row, align 4, !alias.scope !20, !llvm.access.group !0
  %d = fsub float %ax, %v
  %e = fadd float %d, %ay
  store float %e, ptr addrspace(1) %p, align 4, !noalias !20, !llvm.access.group !0
  br label %latch

latch:
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %y.latch, label %x, !llvm.loop !5

y.latch:
  %y.next = add nuw nsw i64 %y.i, 1
  %y.done = icmp eq i64 %y.next, %m
  br i1 %y.done, label %exit, label %y

exit:
  ret void
}


!0 = distinct !{}
!3 = !{!"llvm.loop.parallel_accesses", !0}
!4 = distinct !{!4, !3}
!5 = distinct !{!5, !3}
!20 = !{!21}
!21 = distinct !{!21, !22, !"atoms"}
!22 = distinct !{!22, !"scopes"}
