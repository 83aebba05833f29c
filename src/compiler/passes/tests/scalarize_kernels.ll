; PASSES: function(ferrocl-scalarize-kernels)
; The region pipeline's scalarizer: a kernel on float4s is split into
; scalars, loads and stores included, for the work-item loops' vectorizer;
; one whose work is on float16s (as wide as any host's registers or wider)
; keeps its vectors, its horizontal sum at the end counting for little.

; CHECK-LABEL: define void @narrow(
; CHECK: load float, ptr
; CHECK: fmul float
; CHECK-NOT: load <4 x float>
; CHECK-NOT: fmul <4 x float>
; CHECK-NOT: store <4 x float>
; CHECK: ret void

define void @narrow(ptr %in, ptr %out, i64 %i) {
  %src = getelementptr inbounds <4 x float>, ptr %in, i64 %i
  %v = load <4 x float>, ptr %src, align 16
  %w = fmul <4 x float> %v, %v
  %dst = getelementptr inbounds <4 x float>, ptr %out, i64 %i
  store <4 x float> %w, ptr %dst, align 16
  ret void
}

; CHECK-LABEL: define void @wide(
; CHECK: load <16 x float>
; CHECK: fmul <16 x float>
; CHECK: fadd <16 x float>
; CHECK: store float

define void @wide(ptr %in, ptr %out, i64 %i) {
  %src = getelementptr inbounds <16 x float>, ptr %in, i64 %i
  %v = load <16 x float>, ptr %src, align 64
  %w = fmul <16 x float> %v, %v
  %x = fadd <16 x float> %w, %v
  %a = extractelement <16 x float> %x, i64 0
  %b = extractelement <16 x float> %x, i64 15
  %s = fadd float %a, %b
  %dst = getelementptr inbounds float, ptr %out, i64 %i
  store float %s, ptr %dst, align 4
  ret void
}

; Mostly scalar float work beside one float16 load: split.
; CHECK-LABEL: define void @mostly_scalar(
; CHECK-NOT: load <16 x float>
; CHECK-NOT: fsub <16 x float>
; CHECK: ret void

define void @mostly_scalar(ptr %in, ptr %out, float %x) {
  %v = load <16 x float>, ptr %in, align 64
  %a = extractelement <16 x float> %v, i64 0
  %s1 = fmul float %a, %x
  %s2 = fmul float %s1, %x
  %s3 = fmul float %s2, %x
  %s4 = fmul float %s3, %x
  %s5 = fadd float %s4, %x
  %s6 = fadd float %s5, %x
  %s7 = fadd float %s6, %x
  %s8 = fadd float %s7, %x
  %s9 = fmul float %s8, %s8
  %w = insertelement <16 x float> %v, float %s9, i64 1
  %y = fsub <16 x float> %w, %v
  %b = extractelement <16 x float> %y, i64 1
  store float %b, ptr %out, align 4
  ret void
}

; float8 loads summed (clpeak's global_bandwidth_v8): whole registers with
; AVX2, and on an AVX-512 host too, where split each load would be a
; deinterleaving of 16 work-items' vectors: kept.
; CHECK-LABEL: define void @moves_float8(
; CHECK: load <8 x float>
; CHECK: load <8 x float>
; CHECK: fadd <8 x float>
; CHECK: store float

define void @moves_float8(ptr %in, ptr %out, i64 %i) {
  %src = getelementptr inbounds <8 x float>, ptr %in, i64 %i
  %v = load <8 x float>, ptr %src, align 32
  %src2 = getelementptr inbounds <8 x float>, ptr %src, i64 64
  %u = load <8 x float>, ptr %src2, align 32
  %x = fadd <8 x float> %u, %v
  %a = extractelement <8 x float> %x, i64 0
  %b = extractelement <8 x float> %x, i64 7
  %s = fadd float %a, %b
  %dst = getelementptr inbounds float, ptr %out, i64 %i
  store float %s, ptr %dst, align 4
  ret void
}
