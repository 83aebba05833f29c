; PASSES: ferrocl-host-calling-convention
; A work-group entry written by the passes (no attributes) gets the
; "no-builtin-printf" clang gave the program's functions, so that LLVM's
; inliner may inline them into it; C99 `inline` definitions (linkonce_odr)
; become internal like the program's external ones, not exported and
; called through the PLT. ferrocl's hidden definitions stay as they are.

; CHECK: define internal i32 @index(i32 %row, i32 %col) #[[HELPER:[0-9]+]] {
; CHECK: define internal i32 @plain(i32 %x) #[[HELPER]] {
; CHECK: define hidden i32 @__ferrocl_hidden(i32 %x) #[[HELPER]] {
; CHECK: define void @__ferrocl_wg_k(ptr %args, ptr %ctx) #[[ENTRY:[0-9]+]] {
; CHECK-DAG: attributes #[[HELPER]] = { convergent "no-builtin-printf" }
; CHECK-DAG: attributes #[[ENTRY]] = { "ferrocl-frame-size"="8" "no-builtin-printf" }

define linkonce_odr dso_local i32 @index(i32 %row, i32 %col) #0 {
  %r = mul nsw i32 %row, 18
  %i = add nsw i32 %r, %col
  ret i32 %i
}

define dso_local i32 @plain(i32 %x) #0 {
  ret i32 %x
}

define hidden i32 @__ferrocl_hidden(i32 %x) #0 {
  ret i32 %x
}

define void @__ferrocl_wg_k(ptr %args, ptr %ctx) #1 {
  %i = call i32 @index(i32 1, i32 2)
  %j = call i32 @plain(i32 %i)
  %k = call i32 @__ferrocl_hidden(i32 %j)
  ret void
}

attributes #0 = { convergent "no-builtin-printf" }
attributes #1 = { "ferrocl-frame-size"="8" }
