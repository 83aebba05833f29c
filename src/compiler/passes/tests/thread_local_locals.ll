; PASSES: ferrocl-thread-local-locals
; __local (addrspace(3)) variables become thread_local, whatever their
; name or initializer says; others stay as they are.

; CHECK: @k.tile = internal thread_local unnamed_addr addrspace(3) global [16 x float] undef
; CHECK: @"k.odd name" = internal thread_local addrspace(3) global i32 poison
; CHECK: @already = internal thread_local addrspace(3) global i32 undef
; CHECK: @text = private unnamed_addr addrspace(2) constant [25 x i8] c"addrspace(3) global i32 \00"
; CHECK: @g = addrspace(1) global i32 0
@k.tile = internal unnamed_addr addrspace(3) global [16 x float] undef
@"k.odd name" = internal addrspace(3) global i32 poison
@already = internal thread_local addrspace(3) global i32 undef
@text = private unnamed_addr addrspace(2) constant [25 x i8] c"addrspace(3) global i32 \00"
@g = addrspace(1) global i32 0
