; PASSES: ferrocl-local-variable-test,ferrocl-global-variables-size
; The test of __local variables covers the thread-local addrspace(3)
; variables (not one with a real initializer); the size counts the
; program's __global variables, not declarations or constants.

@x = internal thread_local unnamed_addr addrspace(3) global [16 x i32] undef, align 4
@"y z" = internal thread_local addrspace(3) global { i32, float } poison, align 8
@data = internal thread_local addrspace(3) global i32 7, align 4
@a = dso_local addrspace(1) global i32 5, align 4
@p = dso_local addrspace(1) global ptr addrspace(1) @a, align 8
@arr = internal addrspace(1) global [4 x float] [float 1.0, float 2.0, float 3.0, float 4.0], align 16
@e = external addrspace(1) global i32, align 4
@c = dso_local addrspace(2) constant i32 1, align 4

; CHECK: @__ferrocl_global_variables_size = constant i64 ptrtoint (ptr getelementptr ({ i32, ptr addrspace(1), [4 x float] }, ptr null, i32 1) to i64)
; CHECK-LABEL: define hidden zeroext i1 @__ferrocl_is_local_variable(ptr addrspace(4) %0)
; CHECK: icmp uge i64 %p, ptrtoint (ptr addrspace(3) @x to i64)
; CHECK: icmp ult i64 %p, ptrtoint (ptr addrspace(3) getelementptr ([16 x i32], ptr addrspace(3) @x, i64 1) to i64)
; CHECK: icmp uge i64 %p, ptrtoint (ptr addrspace(3) @"y z" to i64)
; CHECK: icmp ult i64 %p, ptrtoint (ptr addrspace(3) getelementptr ({ i32, float }, ptr addrspace(3) @"y z", i64 1) to i64)
; CHECK-NOT: @data
; CHECK: ret i1
