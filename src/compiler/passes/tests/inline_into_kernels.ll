; PASSES: ferrocl-inline-into-kernels
; What reaches a barrier or a work-item function becomes alwaysinline, the
; kernels too when the module has barriers (it is marked for the region
; passes); a noinline function and one that reaches neither stay.

; CHECK: define spir_func void @waits() [[INLINE:#[0-9]+]]
define spir_func void @waits() {
  call void @_Z7barrierj(i32 1)
  ret void
}

; CHECK: define spir_func i64 @reads_id() [[INLINE]]
define spir_func i64 @reads_id() {
  %l = call i64 @_Z12get_local_idj(i32 0)
  ret i64 %l
}

; CHECK: define spir_func i64 @through() [[INLINE]]
define spir_func i64 @through() {
  %l = call spir_func i64 @reads_id()
  ret i64 %l
}

; CHECK: define spir_func i32 @plain(i32 %x) {
define spir_func i32 @plain(i32 %x) {
  ret i32 %x
}

; CHECK: define spir_func void @kept() [[NOINLINE:#[0-9]+]]
define spir_func void @kept() noinline {
  call void @_Z7barrierj(i32 1)
  ret void
}

; CHECK: define spir_kernel void @k(ptr %o) [[INLINE]]
define spir_kernel void @k(ptr %o) {
  call spir_func void @waits()
  %l = call spir_func i64 @through()
  %x = call spir_func i32 @plain(i32 1)
  call spir_func void @kept()
  store i64 %l, ptr %o
  ret void
}

; CHECK-DAG: attributes [[INLINE]] = { alwaysinline }
; CHECK-DAG: attributes [[NOINLINE]] = { noinline }
; CHECK: !ferrocl.regions = !{}

declare void @_Z7barrierj(i32)
declare i64 @_Z12get_local_idj(i32)
