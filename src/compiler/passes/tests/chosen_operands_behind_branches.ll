; PASSES: function(ferrocl-chosen-operands-behind-branches)
; A select of vectors on a scalar condition whose true operand is work
; nothing else uses (a square root and a division here) computes it
; behind a branch on the condition; work that something else uses, and
; too little work, stay.

; CHECK-LABEL: define <8 x float> @atom(
; CHECK: %d = fsub <8 x float> %x, %a
; CHECK-NEXT: %used = fmul <8 x float> %d, %d
; CHECK-NEXT: store <8 x float> %used, ptr %out
; CHECK-NEXT: br i1 %present, label %chosen, label %chosen.join
; CHECK: chosen:
; CHECK-NEXT: %r2 = fadd <8 x float> %used, %x
; CHECK-NEXT: %s = call <8 x float> @llvm.sqrt.v8f32(<8 x float> %r2)
; CHECK-NEXT: %inv = fdiv <8 x float> <float 1.000000e+00,{{.*}}>, %s
; CHECK-NEXT: %t = fadd <8 x float> %e, %inv
; CHECK-NEXT: br label %chosen.join
; CHECK: chosen.join:
; CHECK-NEXT: %e2 = phi <8 x float> [ %t, %chosen ], [ %e, %entry ]
; CHECK-NEXT: %small = fmul <8 x float> %e2, %x
; CHECK-NEXT: %cheap = select i1 %present, <8 x float> %small, <8 x float> %e2
; CHECK-NEXT: ret <8 x float> %cheap
define <8 x float> @atom(<8 x float> %x, <8 x float> %a, <8 x float> %e, i1 %present, ptr %out) {
entry:
  %d = fsub <8 x float> %x, %a
  %used = fmul <8 x float> %d, %d
  %r2 = fadd <8 x float> %used, %x
  %s = call <8 x float> @llvm.sqrt.v8f32(<8 x float> %r2)
  store <8 x float> %used, ptr %out
  %inv = fdiv <8 x float> <float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0>, %s
  %t = fadd <8 x float> %e, %inv
  %e2 = select i1 %present, <8 x float> %t, <8 x float> %e
  %small = fmul <8 x float> %e2, %x
  %cheap = select i1 %present, <8 x float> %small, <8 x float> %e2
  ret <8 x float> %cheap
}

; The chosen value is used after the select too: it stays.

; CHECK-LABEL: define <8 x float> @shared(
; CHECK-NOT: chosen
; CHECK: ret <8 x float>
define <8 x float> @shared(<8 x float> %x, <8 x float> %e, i1 %present) {
entry:
  %s = call <8 x float> @llvm.sqrt.v8f32(<8 x float> %x)
  %inv = fdiv <8 x float> <float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0>, %s
  %e2 = select i1 %present, <8 x float> %inv, <8 x float> %e
  %r = fadd <8 x float> %e2, %inv
  ret <8 x float> %r
}

declare <8 x float> @llvm.sqrt.v8f32(<8 x float>)

; On a mask of lanes: unchanged.

; CHECK-LABEL: define <8 x float> @lanes(
; CHECK-NOT: chosen
; CHECK: ret <8 x float> %e2
define <8 x float> @lanes(<8 x float> %x, <8 x float> %e) {
entry:
  %near = fcmp olt <8 x float> %x, <float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0>
  %s = call <8 x float> @llvm.sqrt.v8f32(<8 x float> %x)
  %t = fadd <8 x float> %e, %s
  %e2 = select <8 x i1> %near, <8 x float> %t, <8 x float> %e
  ret <8 x float> %e2
}

; A convergent call among the work, even one without memory effects,
; stays where every work-item calls it; the rest of the work moves.

; CHECK-LABEL: define <8 x float> @convergent(
; CHECK: entry:
; CHECK-NEXT: %b = call <8 x float> @broadcast(<8 x float> %x)
; CHECK-NEXT: br i1 %present, label %chosen, label %chosen.join
; CHECK: chosen:
; CHECK-NEXT: %s = call <8 x float> @llvm.sqrt.v8f32(<8 x float> %b)
define <8 x float> @convergent(<8 x float> %x, <8 x float> %e, i1 %present) {
entry:
  %b = call <8 x float> @broadcast(<8 x float> %x)
  %s = call <8 x float> @llvm.sqrt.v8f32(<8 x float> %b)
  %inv = fdiv <8 x float> <float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0>, %s
  %t = fadd <8 x float> %e, %inv
  %e2 = select i1 %present, <8 x float> %t, <8 x float> %e
  ret <8 x float> %e2
}

declare <8 x float> @broadcast(<8 x float>) convergent nounwind willreturn memory(none)
