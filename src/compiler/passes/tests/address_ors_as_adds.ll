; PASSES: function(ferrocl-address-ors-as-adds)
; An `or disjoint` of a constant that indexes memory becomes `add nuw nsw`
; (Rodinia's lud_internal: peri_col[ty * 16 + i], unrolled). Ors that do not
; index memory, that are not disjoint, or whose other operand is not a
; constant stay.

; CHECK-LABEL: define float @row(
; CHECK: %i1 = add nuw nsw i64 %b, 1
; CHECK-NEXT: %p1 = getelementptr inbounds float, ptr addrspace(3) %v, i64 %i1
; CHECK-NEXT: %i2 = add nuw nsw i64 %b, 2
; CHECK-NEXT: %p2 = getelementptr inbounds float, ptr addrspace(3) %v, i64 %i2
; CHECK-NEXT: %plain = or i64 %b, 3
; CHECK-NEXT: %p3 = getelementptr inbounds float, ptr addrspace(3) %v, i64 %plain
; CHECK-NEXT: %both = or disjoint i64 %b, %k
; CHECK-NEXT: %p4 = getelementptr inbounds float, ptr addrspace(3) %v, i64 %both
; CHECK-NEXT: %value = or disjoint i64 %b, 5
; CHECK-NEXT: %x1 = load float, ptr addrspace(3) %p1
define float @row(ptr addrspace(3) %v, i64 %y, i64 %k, ptr %out) {
  %b = shl i64 %y, 4
  %i1 = or disjoint i64 %b, 1
  %p1 = getelementptr inbounds float, ptr addrspace(3) %v, i64 %i1
  %i2 = or disjoint i64 %b, 2
  %p2 = getelementptr inbounds float, ptr addrspace(3) %v, i64 %i2
  %plain = or i64 %b, 3
  %p3 = getelementptr inbounds float, ptr addrspace(3) %v, i64 %plain
  %both = or disjoint i64 %b, %k
  %p4 = getelementptr inbounds float, ptr addrspace(3) %v, i64 %both
  %value = or disjoint i64 %b, 5
  %x1 = load float, ptr addrspace(3) %p1
  %x2 = load float, ptr addrspace(3) %p2
  %x3 = load float, ptr addrspace(3) %p3
  %x4 = load float, ptr addrspace(3) %p4
  store i64 %value, ptr %out
  %s1 = fadd float %x1, %x2
  %s2 = fadd float %s1, %x3
  %s3 = fadd float %s2, %x4
  ret float %s3
}
