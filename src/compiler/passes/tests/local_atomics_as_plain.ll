; PASSES: function(ferrocl-local-atomics-as-plain)
; Atomics on __local memory (address space 3), which only the thread running
; the work-group reaches, become plain loads, operations and stores; atomic
; loads and stores of it plain ones. Atomics on __global memory and through
; generic pointers stay atomic.

; CHECK-LABEL: define i32 @local(
; CHECK-NEXT: %[[OLD:.*]] = load i32, ptr addrspace(3) %p, align 4
; CHECK-NEXT: %[[NEW:.*]] = add i32 %[[OLD]], 1
; CHECK-NEXT: store i32 %[[NEW]], ptr addrspace(3) %p, align 4
; CHECK-NEXT: %[[CUR:.*]] = load i32, ptr addrspace(3) %q, align 4
; CHECK-NEXT: %[[SAME:.*]] = icmp eq i32 %[[CUR]], 5
; CHECK-NEXT: %[[PUT:.*]] = select i1 %[[SAME]], i32 7, i32 %[[CUR]]
; CHECK-NEXT: store i32 %[[PUT]], ptr addrspace(3) %q, align 4
; CHECK: %l = load i32, ptr addrspace(3) %p, align 4
; CHECK-NEXT: store i32 %l, ptr addrspace(3) %q, align 4
; CHECK-NEXT: %g = atomicrmw add ptr addrspace(1) %global, i32 1 seq_cst
; CHECK-NEXT: %h = atomicrmw add ptr addrspace(4) %generic, i32 1 seq_cst
; CHECK-NEXT: %gl = load atomic i32, ptr addrspace(1) %global seq_cst, align 4
define i32 @local(ptr addrspace(3) %p, ptr addrspace(3) %q, ptr addrspace(1) %global, ptr addrspace(4) %generic) {
  %old = atomicrmw volatile add ptr addrspace(3) %p, i32 1 seq_cst
  %pair = cmpxchg ptr addrspace(3) %q, i32 5, i32 7 seq_cst seq_cst
  %l = load atomic i32, ptr addrspace(3) %p seq_cst, align 4
  store atomic i32 %l, ptr addrspace(3) %q seq_cst, align 4
  %g = atomicrmw add ptr addrspace(1) %global, i32 1 seq_cst
  %h = atomicrmw add ptr addrspace(4) %generic, i32 1 seq_cst
  %gl = load atomic i32, ptr addrspace(1) %global seq_cst, align 4
  %c = extractvalue { i32, i1 } %pair, 0
  %s1 = add i32 %old, %c
  %s2 = add i32 %s1, %g
  %s3 = add i32 %s2, %h
  %s4 = add i32 %s3, %gl
  ret i32 %s4
}
