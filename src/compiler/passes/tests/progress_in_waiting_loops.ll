; PASSES: ferrocl-progress-in-waiting-loops
; Loops whose exit depends on what an atomic or volatile read of shared
; memory returns (directly, through an alloca, or through a helper) call
; __ferrocl_progress at the top of each iteration; a compare-and-swap retry
; computing its new value from what it read, plain reads, and loops that
; only do atomics without testing them are left alone.

; A spin on an atomic load of __local memory (SSA form).
; CHECK-LABEL: define void @spin_load(
; CHECK: loop:
; CHECK-NEXT: call void @__ferrocl_progress()
; CHECK-NEXT: %v = load atomic i32
define void @spin_load(ptr addrspace(3) %p, i32 %want) {
entry:
  br label %loop
loop:
  %v = load atomic i32, ptr addrspace(3) %p seq_cst, align 4
  %done = icmp eq i32 %v, %want
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; The front end's form: the builtin's result goes through an alloca.
; CHECK-LABEL: define void @spin_builtin_via_alloca(
; CHECK: loop:
; CHECK-NEXT: call void @__ferrocl_progress()
define void @spin_builtin_via_alloca(ptr addrspace(1) %p) {
entry:
  %v.addr = alloca i32, align 4
  br label %loop
loop:
  %r = call i32 @_Z11atomic_loadPU3AS1VU7_Atomici(ptr addrspace(1) %p)
  store i32 %r, ptr %v.addr, align 4
  %v = load i32, ptr %v.addr, align 4
  %done = icmp ne i32 %v, 0
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; A test-and-set lock: the exchange's value is the same every iteration.
; CHECK-LABEL: define void @lock(
; CHECK: loop:
; CHECK-NEXT: call void @__ferrocl_progress()
define void @lock(ptr addrspace(1) %l) {
entry:
  br label %loop
loop:
  %old = atomicrmw xchg ptr addrspace(1) %l, i32 1 seq_cst, align 4
  %held = icmp ne i32 %old, 0
  br i1 %held, label %loop, label %exit
exit:
  ret void
}

; A helper that reads atomically, called in the condition.
; CHECK-LABEL: define void @spin_helper(
; CHECK: loop:
; CHECK-NEXT: call void @__ferrocl_progress()
define i32 @read_flag(ptr addrspace(1) %p) {
  %v = load volatile i32, ptr addrspace(1) %p, align 4
  ret i32 %v
}
define void @spin_helper(ptr addrspace(1) %p) {
entry:
  br label %loop
loop:
  %v = call i32 @read_flag(ptr addrspace(1) %p)
  %done = icmp ne i32 %v, 0
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; A compare-and-swap retry: its new value changes with what it read.
; CHECK-LABEL: define void @cas_retry(
; CHECK-NOT: __ferrocl_progress
; CHECK: ret void
define void @cas_retry(ptr addrspace(1) %p, i32 %add) {
entry:
  %first = load i32, ptr addrspace(1) %p, align 4
  br label %loop
loop:
  %old = phi i32 [ %first, %entry ], [ %seen, %loop ]
  %new = add i32 %old, %add
  %pair = cmpxchg ptr addrspace(1) %p, i32 %old, i32 %new seq_cst seq_cst, align 4
  %seen = extractvalue { i32, i1 } %pair, 0
  %ok = extractvalue { i32, i1 } %pair, 1
  br i1 %ok, label %exit, label %loop
exit:
  ret void
}

; The same retry reading atomically what it swaps, as the front end emits
; it (through allocas): still a retry.
; CHECK-LABEL: define void @cas_retry_atomic_read(
; CHECK-NOT: __ferrocl_progress
; CHECK: ret void
define void @cas_retry_atomic_read(ptr addrspace(1) %p, i32 %add) {
entry:
  %old.addr = alloca i32, align 4
  %new.addr = alloca i32, align 4
  br label %loop
loop:
  %r = call i32 @_Z11atomic_loadPU3AS1VU7_Atomici(ptr addrspace(1) %p)
  store i32 %r, ptr %old.addr, align 4
  %old = load i32, ptr %old.addr, align 4
  %new = add i32 %old, %add
  store i32 %new, ptr %new.addr, align 4
  %n = load i32, ptr %new.addr, align 4
  %o = load i32, ptr %old.addr, align 4
  %seen = call i32 @_Z14atomic_cmpxchgPU3AS1Vjjj(ptr addrspace(1) %p, i32 %o, i32 %n)
  %o2 = load i32, ptr %old.addr, align 4
  %again = icmp ne i32 %seen, %o2
  br i1 %again, label %loop, label %exit
exit:
  ret void
}

; A lock taken by compare-and-swap of constants waits.
; CHECK-LABEL: define void @cas_lock(
; CHECK: loop:
; CHECK-NEXT: call void @__ferrocl_progress()
define void @cas_lock(ptr addrspace(1) %l) {
entry:
  br label %loop
loop:
  %seen = call i32 @_Z14atomic_cmpxchgPU3AS1Vjjj(ptr addrspace(1) %l, i32 0, i32 1)
  %held = icmp ne i32 %seen, 0
  br i1 %held, label %loop, label %exit
exit:
  ret void
}

; Atomics in a counted loop whose exit does not test them (a histogram),
; and a loop polling plain memory (a data race, not a wait).
; CHECK-LABEL: define void @no_wait(
; CHECK-NOT: __ferrocl_progress
; CHECK: ret void
define void @no_wait(ptr addrspace(1) %bins, ptr addrspace(1) %flag, i32 %n) {
entry:
  br label %count
count:
  %i = phi i32 [ 0, %entry ], [ %next, %count ]
  %old = atomicrmw add ptr addrspace(1) %bins, i32 1 seq_cst, align 4
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %count, label %poll
poll:
  %v = load i32, ptr addrspace(1) %flag, align 4
  %done = icmp ne i32 %v, 0
  br i1 %done, label %exit, label %poll
exit:
  ret void
}

; CHECK: declare void @__ferrocl_progress() #[[ATTRS:[0-9]+]]
; CHECK: attributes #[[ATTRS]] = { convergent nounwind }
declare i32 @_Z11atomic_loadPU3AS1VU7_Atomici(ptr addrspace(1))
declare i32 @_Z14atomic_cmpxchgPU3AS1Vjjj(ptr addrspace(1), i32, i32)
