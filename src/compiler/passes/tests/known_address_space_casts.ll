; PASSES: ferrocl-known-address-space-casts
; to_global, to_local and to_private of a generic pointer that visibly
; comes from a named address space: the pointer itself when the spaces
; match, null when they differ. A pointer from anywhere the pass cannot see
; (an argument, a load, private memory that is not a variable of the
; function) or from two spaces keeps the call.

; DPC++'s shape: a global pointer made generic, offset, and cast back.
; CHECK-LABEL: define void @global_back(
; CHECK-NOT: call
; CHECK: %back = addrspacecast ptr addrspace(4) %at to ptr addrspace(1)
; CHECK: store float 1.000000e+00, ptr addrspace(1) %back
; CHECK: store ptr addrspace(3) null, ptr %l_out
; CHECK: store ptr null, ptr %p_out
define void @global_back(ptr addrspace(1) %g, i64 %i, ptr %l_out, ptr %p_out) {
  %generic = addrspacecast ptr addrspace(1) %g to ptr addrspace(4)
  %at = getelementptr inbounds float, ptr addrspace(4) %generic, i64 %i
  %back = call ptr addrspace(1) @__to_global(ptr addrspace(4) %at)
  store float 1.0, ptr addrspace(1) %back
  %l = call ptr addrspace(3) @__to_local(ptr addrspace(4) %at)
  store ptr addrspace(3) %l, ptr %l_out
  %p = call ptr @__to_private(ptr addrspace(4) %at)
  store ptr %p, ptr %p_out
  ret void
}

; A function's own variable is private; a select of two local pointers is
; local, and so is a phi whose ways all are (its loop's way back too).
; CHECK-LABEL: define void @private_and_local(
; CHECK-NOT: call
; CHECK: %p = addrspacecast ptr addrspace(4) %generic to ptr
; CHECK: store ptr addrspace(1) null, ptr %g_out
; CHECK: %l = addrspacecast ptr addrspace(4) %either to ptr addrspace(3)
; CHECK: %walked = addrspacecast ptr addrspace(4) %cursor to ptr addrspace(3)
define void @private_and_local(ptr addrspace(3) %a, ptr addrspace(3) %b, i1 %c, ptr %p_out, ptr %g_out, ptr %l_out, i64 %n) {
entry:
  %v = alloca [4 x float], align 4
  %elem = getelementptr inbounds [4 x float], ptr %v, i64 0, i64 2
  %generic = addrspacecast ptr %elem to ptr addrspace(4)
  %p = call ptr @__to_private(ptr addrspace(4) %generic)
  store ptr %p, ptr %p_out
  %g = call ptr addrspace(1) @__to_global(ptr addrspace(4) %generic)
  store ptr addrspace(1) %g, ptr %g_out
  %ga = addrspacecast ptr addrspace(3) %a to ptr addrspace(4)
  %gb = addrspacecast ptr addrspace(3) %b to ptr addrspace(4)
  %either = select i1 %c, ptr addrspace(4) %ga, ptr addrspace(4) %gb
  %l = call ptr addrspace(3) @__to_local(ptr addrspace(4) %either)
  store ptr addrspace(3) %l, ptr %l_out
  br label %loop

loop:
  %cursor = phi ptr addrspace(4) [ %ga, %entry ], [ %next, %loop ]
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %walked = call ptr addrspace(3) @__to_local(ptr addrspace(4) %cursor)
  store ptr addrspace(3) %walked, ptr %l_out
  %next = getelementptr inbounds i8, ptr addrspace(4) %cursor, i64 4
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done

done:
  ret void
}

; What the pass cannot see keeps the library's test: a generic argument, a
; pointer loaded from memory, private memory that is not one of the
; function's variables, a select of a global and a local pointer.
; CHECK-LABEL: define void @unknown(
; CHECK: call ptr addrspace(1) @__to_global(ptr addrspace(4) %arg)
; CHECK: call ptr addrspace(1) @__to_global(ptr addrspace(4) %loaded)
; CHECK: call ptr @__to_private(ptr addrspace(4) %from_host)
; CHECK: call ptr addrspace(1) @__to_global(ptr addrspace(4) %mixed)
define void @unknown(ptr addrspace(4) %arg, ptr %slot, ptr %host, ptr addrspace(1) %g, ptr addrspace(3) %l, i1 %c, ptr %out) {
  %a = call ptr addrspace(1) @__to_global(ptr addrspace(4) %arg)
  store ptr addrspace(1) %a, ptr %out
  %loaded = load ptr addrspace(4), ptr %slot
  %b = call ptr addrspace(1) @__to_global(ptr addrspace(4) %loaded)
  store ptr addrspace(1) %b, ptr %out
  %from_host = addrspacecast ptr %host to ptr addrspace(4)
  %p = call ptr @__to_private(ptr addrspace(4) %from_host)
  store ptr %p, ptr %out
  %gg = addrspacecast ptr addrspace(1) %g to ptr addrspace(4)
  %gl = addrspacecast ptr addrspace(3) %l to ptr addrspace(4)
  %mixed = select i1 %c, ptr addrspace(4) %gg, ptr addrspace(4) %gl
  %m = call ptr addrspace(1) @__to_global(ptr addrspace(4) %mixed)
  store ptr addrspace(1) %m, ptr %out
  ret void
}

declare ptr addrspace(1) @__to_global(ptr addrspace(4))
declare ptr addrspace(3) @__to_local(ptr addrspace(4))
declare ptr @__to_private(ptr addrspace(4))
