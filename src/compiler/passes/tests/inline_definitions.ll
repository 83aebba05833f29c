; PASSES: ferrocl-inline-definitions
; C99 inline definitions (available_externally) become linkonce_odr; other
; linkages and declarations stay as they are.

; CHECK: define linkonce_odr i32 @plain_inline(i32 %x)
define available_externally i32 @plain_inline(i32 %x) {
  %r = mul i32 %x, %x
  ret i32 %r
}

; CHECK: define dso_local i32 @extern_inline(i32 %x)
define dso_local i32 @extern_inline(i32 %x) {
  ret i32 %x
}

; CHECK: define internal i32 @static_inline(i32 %x)
define internal i32 @static_inline(i32 %x) {
  ret i32 %x
}

; CHECK: declare i32 @elsewhere(i32)
declare i32 @elsewhere(i32)

; CHECK: define dso_local spir_kernel void @k(ptr %o)
define dso_local spir_kernel void @k(ptr %o) {
  %a = call i32 @plain_inline(i32 3)
  %b = call i32 @extern_inline(i32 %a)
  %c = call i32 @static_inline(i32 %b)
  %d = call i32 @elsewhere(i32 %c)
  store i32 %d, ptr %o
  ret void
}
