; PASSES: ferrocl-inline-into-kernels
; A kernel without barriers, floating-point values or products whose loop
; steps by one (not by a size): nothing for the region passes, the module
; stays unmarked.

; CHECK-NOT: !ferrocl.regions
define spir_kernel void @count(ptr addrspace(1) %out, i32 %n) {
entry:
  %i.addr = alloca i32
  store i32 0, ptr %i.addr
  br label %head
head:
  %i = load i32, ptr %i.addr
  %more = icmp ult i32 %i, %n
  br i1 %more, label %body, label %done
body:
  %r = call i32 @_Z10atomic_addPU8CLglobalVjj(ptr addrspace(1) %out, i32 %i)
  %i.next = add i32 %i, 1
  store i32 %i.next, ptr %i.addr
  br label %head
done:
  ret void
}

declare i32 @_Z10atomic_addPU8CLglobalVjj(ptr addrspace(1), i32)
