; PASSES: ferrocl-inline-into-kernels
; A kernel without barriers, floating-point values or products whose loop
; steps by a size, as clang leaves it before mem2reg (the global size
; stored to a variable, loaded and added): it may be a grid-stride loop
; (grid_stride_loops.cpp), so the module is marked for the region passes.

; CHECK: !ferrocl.regions = !{}
define spir_kernel void @count(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) {
entry:
  %step.addr = alloca i32
  %i.addr = alloca i32
  %gs = call i64 @_Z15get_global_sizej(i32 0)
  %step = trunc i64 %gs to i32
  store i32 %step, ptr %step.addr
  %g = call i64 @_Z13get_global_idj(i32 0)
  %id = trunc i64 %g to i32
  store i32 %id, ptr %i.addr
  br label %head
head:
  %i = load i32, ptr %i.addr
  %more = icmp ult i32 %i, %n
  br i1 %more, label %body, label %done
body:
  %w = zext i32 %i to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %w
  %v = load i32, ptr addrspace(1) %p
  %r = call i32 @_Z10atomic_addPU8CLglobalVjj(ptr addrspace(1) %out, i32 %v)
  %s = load i32, ptr %step.addr
  %i.next = add i32 %i, %s
  store i32 %i.next, ptr %i.addr
  br label %head
done:
  ret void
}

declare i64 @_Z13get_global_idj(i32)
declare i64 @_Z15get_global_sizej(i32)
declare i32 @_Z10atomic_addPU8CLglobalVjj(ptr addrspace(1), i32)
