; PASSES: function(ferrocl-uniform-ifs-as-selects)
; In an innermost work-item loop, an `if` on a condition the loop does not
; change, around code that may run when it need not, runs its body in
; every iteration; the value it chose is a select on the condition, and
; the branches inside the body test a freeze of their conditions. Bodies
; with a store, and loops the vectorizer leaves scalar, keep their `if`.

; CHECK-LABEL: define void @atom(
; CHECK: x:
; CHECK: %v = load float
; CHECK-NEXT: br label %body
; CHECK: body:
; CHECK: %lt.fr = freeze i1 %lt
; CHECK-NEXT: br i1 %lt.fr, label %near, label %join
; CHECK: join:
; CHECK-NEXT: %e = phi float [ %v, %body ], [ %sum, %near ]
; CHECK-NEXT: %e.if = select i1 %present, float %e, float %v
; CHECK-NEXT: store float %e.if, ptr addrspace(1) %p
define void @atom(ptr addrspace(1) %a, float %ax.before, i1 %present, i64 %n) {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %join ]
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %x.i
  %v = load float, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  br i1 %present, label %body, label %join

body:
  %d = fsub float %ax.before, %v
  %r2 = fmul float %d, %d
  %lt = fcmp olt float %r2, 1.0
  br i1 %lt, label %near, label %join

near:
  %s = call float @llvm.sqrt.f32(float %r2)
  %sum = fadd float %v, %s
  br label %join

join:
  %e = phi float [ %v, %x ], [ %v, %body ], [ %sum, %near ]
  store float %e, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !4

exit:
  ret void
}

; The `if` taken when the condition is false, its join reached from
; another path too: the selects go in a block of the branch's and the
; body's own.

; CHECK-LABEL: define void @skip_when_true(
; CHECK: test:
; CHECK-NEXT: br label %body
; CHECK: join.uniform.if:
; CHECK-NEXT: %e.ph = phi float [ %w, %body ]
; CHECK-NEXT: %e.ph.if = select i1 %absent, float %v, float %e.ph
; CHECK: join:
; CHECK-NEXT: %e = phi float [ 0.000000e+00, %x ], [ %e.ph.if, %join.uniform.if ]
define void @skip_when_true(ptr addrspace(1) %a, i1 %absent, i64 %n) {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %join ]
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %x.i
  %v = load float, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  %neg = fcmp olt float %v, 0.0
  br i1 %neg, label %join, label %test

test:
  br i1 %absent, label %join, label %body

body:
  %w = fmul float %v, 3.0
  br label %join

join:
  %e = phi float [ 0.0, %x ], [ %v, %test ], [ %w, %body ]
  store float %e, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !5

exit:
  ret void
}

; A body that stores, and a loop with vectorization off: unchanged.

; CHECK-LABEL: define void @stays(
; CHECK: br i1 %present, label %body, label %join
; CHECK: br i1 %present, label %body2, label %join2
define void @stays(ptr addrspace(1) %a, ptr addrspace(1) %out, i1 %present, i64 %n) {
entry:
  br label %x

x:
  %x.i = phi i64 [ 0, %entry ], [ %x.next, %join ]
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %x.i
  %v = load float, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  br i1 %present, label %body, label %join

body:
  store float %v, ptr addrspace(1) %out, align 4, !llvm.access.group !0
  br label %join

join:
  %x.next = add nuw nsw i64 %x.i, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %y, label %x, !llvm.loop !6

y:
  %y.i = phi i64 [ 0, %join ], [ %y.next, %join2 ]
  %q = getelementptr inbounds float, ptr addrspace(1) %a, i64 %y.i
  %u = load float, ptr addrspace(1) %q, align 4, !llvm.access.group !0
  br i1 %present, label %body2, label %join2

body2:
  %u2 = fmul float %u, 2.0
  br label %join2

join2:
  %f = phi float [ %u, %y ], [ %u2, %body2 ]
  store float %f, ptr addrspace(1) %q, align 4, !llvm.access.group !0
  %y.next = add nuw nsw i64 %y.i, 1
  %done2 = icmp eq i64 %y.next, %n
  br i1 %done2, label %exit, label %y, !llvm.loop !7

exit:
  ret void
}

declare float @llvm.sqrt.f32(float)

!0 = distinct !{}
!3 = !{!"llvm.loop.parallel_accesses", !0}
!4 = distinct !{!4, !3}
!5 = distinct !{!5, !3}
!6 = distinct !{!6, !3}
!7 = distinct !{!7, !3, !8}
!8 = !{!"llvm.loop.vectorize.width", i32 1}
