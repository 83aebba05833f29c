; PASSES: ferrocl-non-uniform-calls-together
; A non-uniform sub-group function (its body waits with
; __ferrocl_non_uniform_wait) called where every work-item runs: its twin,
; inlined, waits with the sub-group's collective wait and takes every lane
; as active (the mask all ones). The call behind a branch on the local id
; stays, and so does the function. A function that exchanges no values
; through memory (an election) waits for nothing. The module is marked for
; the region passes.

; CHECK-LABEL: define spir_kernel void @k(
; CHECK-NOT: call spir_func i32 @elect(
; CHECK-NOT: __ferrocl_collective_wait
; CHECK: icmp eq i64 %lid.i, 0
; CHECK-NOT: call spir_func i64 @ballot(
; CHECK: store i32 %x, ptr addrspace(1) @slot
; CHECK: call spir_func void @__ferrocl_collective_wait(i32 1)
; CHECK-NEXT: %[[BIT:.+]] = zext i32 %x to i64
; CHECK: call spir_func void @__ferrocl_collective_wait(i32 1)
; CHECK-NEXT: store i64 %[[BIT]], ptr addrspace(1) %out
; CHECK: some:
; CHECK-NEXT: call spir_func i64 @ballot(i32 %x)
; CHECK: ret void
define spir_kernel void @k(ptr addrspace(1) %out, i32 %x) {
entry:
  %first = call spir_func i32 @elect()
  store i32 %first, ptr addrspace(1) %out
  %all = call spir_func i64 @ballot(i32 %x)
  store i64 %all, ptr addrspace(1) %out
  %lid = call spir_func i64 @_Z12get_local_idj(i32 0)
  %odd = trunc i64 %lid to i1
  br i1 %odd, label %some, label %done
some:
  %part = call spir_func i64 @ballot(i32 %x)
  store i64 %part, ptr addrspace(1) %out
  br label %done
done:
  ret void
}

; CHECK-LABEL: define spir_func i64 @ballot(
; CHECK: call spir_func i64 @__ferrocl_non_uniform_wait(
; CHECK-NOT: ballot.together
; CHECK: !ferrocl.regions
@slot = internal addrspace(1) global i32 0

define spir_func i64 @ballot(i32 %p) noinline {
  store i32 %p, ptr addrspace(1) @slot
  %site = call ptr @llvm.returnaddress(i32 0)
  %s = ptrtoint ptr %site to i64
  %mask = call spir_func i64 @__ferrocl_non_uniform_wait(i64 %s)
  %bit = zext i32 %p to i64
  %r = and i64 %mask, %bit
  %s1 = or i64 %s, 1
  %leave = call spir_func i64 @__ferrocl_non_uniform_wait(i64 %s1)
  ret i64 %r
}

define spir_func i32 @elect() noinline {
  %site = call ptr @llvm.returnaddress(i32 0)
  %s = ptrtoint ptr %site to i64
  %mask = call spir_func i64 @__ferrocl_non_uniform_wait(i64 %s)
  %lid = call spir_func i64 @_Z19get_local_linear_idv()
  %low = call i64 @llvm.cttz.i64(i64 %mask, i1 false)
  %is = icmp eq i64 %lid, %low
  %r = zext i1 %is to i32
  ret i32 %r
}

declare spir_func i64 @__ferrocl_non_uniform_wait(i64) convergent
declare spir_func i64 @_Z19get_local_linear_idv()
declare i64 @llvm.cttz.i64(i64, i1)
declare spir_func i64 @_Z12get_local_idj(i32)
declare ptr @llvm.returnaddress(i32)
