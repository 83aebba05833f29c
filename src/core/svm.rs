//! Shared virtual memory allocations.
//!
//! On a CPU the host's memory is the device's, so an SVM allocation is an
//! aligned block of host memory; coarse- and fine-grained buffers differ only
//! in what the application may assume, not in how we store them. What this
//! module owns is the bookkeeping: a registry of the live allocations keyed
//! by base address, which validates clSVMFree (unknown or already freed
//! pointers are ignored, never handed to the allocator), and finds the
//! allocation that contains a pointer (kernels taking SVM arguments,
//! clEnqueueSVMMigrateMem).
//!
//! Allocations are not freed when their context goes away: "the application
//! must free the SVM buffer" (clSVMFree / clEnqueueSVMFree). The registry
//! holds only a weak reference to the context, so a leaked allocation does
//! not keep its context alive either.

use crate::cl::*;
use crate::context::Context;
use crate::device::Device;
use crate::host_memory;
use crate::sched::host::HOST;
use std::alloc::Layout;
use std::collections::BTreeMap;
use std::ffi::c_void;
use std::sync::{Arc, LazyLock, RwLock, Weak};

/// The alignment an alignment argument of 0 stands for: "the default
/// alignment will be used", the size of the largest OpenCL C type
/// (long16, 128 bytes).
pub const DEFAULT_ALIGNMENT: usize = 128;

/// The largest alignment clSVMAlloc accepts; beyond it the implementation
/// "cannot support the specified alignment".
pub const MAX_ALIGNMENT: usize = 1 << 20;

/// The flags clSVMAlloc knows.
const KNOWN_FLAGS: cl_svm_mem_flags = (CL_MEM_READ_WRITE
    | CL_MEM_WRITE_ONLY
    | CL_MEM_READ_ONLY
    | CL_MEM_SVM_FINE_GRAIN_BUFFER
    | CL_MEM_SVM_ATOMICS) as cl_svm_mem_flags;

/// One live allocation.
struct Allocation {
    layout: Layout,
    flags: cl_svm_mem_flags,
    /// The context it was allocated in: clSVMFree must name the same one.
    context: Weak<Context>,
    /// What a unified shared memory allocation is; None for SVM.
    usm: Option<Usm>,
}

/// A unified shared memory allocation (cl_intel_unified_shared_memory):
/// on a CPU host, device and shared allocations are one memory, the
/// registry's blocks like SVM's; the type, device and flags are what
/// clGetMemAllocInfoINTEL reports.
#[derive(Clone)]
pub struct Usm {
    /// CL_MEM_TYPE_{HOST,DEVICE,SHARED}_INTEL.
    pub kind: cl_unified_shared_memory_type_intel,
    /// The device of a device or shared allocation (a shared one may have
    /// none).
    pub device: Option<Arc<Device>>,
    /// CL_MEM_ALLOC_FLAGS_INTEL as given.
    pub flags: cl_mem_alloc_flags_intel,
}

/// A live allocation as clGetMemAllocInfoINTEL describes it.
pub struct Found {
    pub base: usize,
    pub size: usize,
    pub usm: Option<Usm>,
}

static ALLOCATIONS: LazyLock<RwLock<BTreeMap<usize, Allocation>>> =
    LazyLock::new(|| RwLock::new(BTreeMap::new()));

fn read() -> std::sync::RwLockReadGuard<'static, BTreeMap<usize, Allocation>> {
    ALLOCATIONS.read().unwrap_or_else(|p| p.into_inner())
}

fn write() -> std::sync::RwLockWriteGuard<'static, BTreeMap<usize, Allocation>> {
    ALLOCATIONS.write().unwrap_or_else(|p| p.into_inner())
}

fn same_context(a: &Weak<Context>, b: &Context) -> bool {
    std::ptr::eq(a.as_ptr(), b)
}

/// Checks clSVMAlloc's flags; the code says which rule failed (the entry
/// point itself can only return NULL).
pub fn check_flags(flags: cl_svm_mem_flags) -> Result<(), cl_int> {
    // "The values specified in flags are not valid, i.e. don't match those
    // defined in the Memory Flags table."
    if flags & !KNOWN_FLAGS != 0 {
        return Err(CL_INVALID_VALUE);
    }
    // CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY and CL_MEM_READ_ONLY are mutually
    // exclusive.
    let access = flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY) as u64;
    if access.count_ones() > 1 {
        return Err(CL_INVALID_VALUE);
    }
    // "CL_MEM_SVM_ATOMICS ... can only be used together with
    // CL_MEM_SVM_FINE_GRAIN_BUFFER."
    if flags & CL_MEM_SVM_ATOMICS as u64 != 0 && flags & CL_MEM_SVM_FINE_GRAIN_BUFFER as u64 == 0 {
        return Err(CL_INVALID_VALUE);
    }
    Ok(())
}

/// clSVMAlloc: a block of `size` bytes aligned to `alignment` (0: the
/// default), registered in `context`. Its contents are not initialised.
pub fn alloc(
    context: &Arc<Context>,
    flags: cl_svm_mem_flags,
    size: usize,
    alignment: cl_uint,
) -> Result<*mut c_void, cl_int> {
    check_flags(flags)?;
    // "size is 0 or > CL_DEVICE_MAX_MEM_ALLOC_SIZE value for any device in
    // context."
    if size == 0 || size as u64 > HOST.max_mem_alloc() {
        return Err(CL_INVALID_VALUE);
    }
    register(context, flags, size, alignment, None)
}

/// clHostMemAllocINTEL, clDeviceMemAllocINTEL, clSharedMemAllocINTEL: a
/// block of `size` bytes aligned to `alignment` (0: the default),
/// registered in `context` as the allocation `usm`.
pub fn alloc_usm(
    context: &Arc<Context>,
    usm: Usm,
    size: usize,
    alignment: cl_uint,
) -> Result<*mut c_void, cl_int> {
    // "CL_INVALID_BUFFER_SIZE if size is zero or greater than
    // CL_DEVICE_MAX_MEM_ALLOC_SIZE."
    if size == 0 || size as u64 > HOST.max_mem_alloc() {
        return Err(CL_INVALID_BUFFER_SIZE);
    }
    let flags = CL_MEM_READ_WRITE as cl_svm_mem_flags;
    register(context, flags, size, alignment, Some(usm))
}

/// Allocates and registers a block (alloc, alloc_usm).
fn register(
    context: &Arc<Context>,
    flags: cl_svm_mem_flags,
    size: usize,
    alignment: cl_uint,
    usm: Option<Usm>,
) -> Result<*mut c_void, cl_int> {
    // "alignment is not a power of two or the OpenCL implementation cannot
    // support the specified alignment for at least one device in context."
    let align = match alignment as usize {
        0 => DEFAULT_ALIGNMENT,
        a if a.is_power_of_two() && a <= MAX_ALIGNMENT => a.max(DEFAULT_ALIGNMENT),
        _ => return Err(CL_INVALID_VALUE),
    };
    let layout = host_memory::layout(size, align).ok_or(CL_INVALID_VALUE)?;
    let ptr = host_memory::alloc(layout);
    if ptr.is_null() {
        return Err(CL_OUT_OF_HOST_MEMORY);
    }
    write().insert(
        ptr as usize,
        Allocation {
            layout,
            flags,
            context: Arc::downgrade(context),
            usm,
        },
    );
    Ok(ptr as *mut c_void)
}

/// Whether `ptr` is the start of a unified shared memory allocation that
/// `context` made.
pub fn starts_usm_allocation(context: &Context, ptr: *const c_void) -> bool {
    read()
        .get(&(ptr as usize))
        .is_some_and(|a| a.usm.is_some() && same_context(&a.context, context))
}

/// clMemFreeINTEL: releases the unified shared memory allocation that
/// starts at `ptr` if `context` made it; whether it did.
pub fn free_usm(context: &Context, ptr: *mut c_void) -> bool {
    starts_usm_allocation(context, ptr) && free(context, ptr)
}

/// The live allocation of `context` containing `ptr`, with what kind of
/// allocation it is.
pub fn describe(context: &Context, ptr: *const c_void) -> Option<Found> {
    let addr = ptr as usize;
    let map = read();
    let (&base, a) = map.range(..=addr).next_back()?;
    (addr - base < a.layout.size() && same_context(&a.context, context)).then(|| Found {
        base,
        size: a.layout.size(),
        usm: a.usm.clone(),
    })
}

/// clSVMFree: releases the allocation that starts at `ptr` if `context`
/// made it. Returns whether something was freed; NULL, a pointer we did not
/// allocate (or already freed), a pointer inside an allocation, or another
/// context's allocation are left alone.
pub fn free(context: &Context, ptr: *mut c_void) -> bool {
    let removed = {
        let mut map = write();
        match map.get(&(ptr as usize)) {
            Some(a) if same_context(&a.context, context) => map.remove(&(ptr as usize)),
            _ => None,
        }
    };
    match removed {
        Some(a) => {
            // SAFETY: the registry held this exact pointer, returned by
            // host_memory::alloc with this layout, and removing it from the
            // registry under the lock makes this the only deallocation.
            unsafe { host_memory::dealloc(ptr as *mut u8, a.layout) };
            true
        }
        None => false,
    }
}

/// The allocation containing `ptr`: (base address, size, flags).
pub fn find(ptr: *const c_void) -> Option<(usize, usize, cl_svm_mem_flags)> {
    let addr = ptr as usize;
    let map = read();
    let (&base, a) = map.range(..=addr).next_back()?;
    (addr - base < a.layout.size()).then_some((base, a.layout.size(), a.flags))
}

/// Whether `[ptr, ptr + len)` lies inside one allocation of `context`
/// (len 0: `ptr` itself does).
pub fn contains(context: &Context, ptr: *const c_void, len: usize) -> bool {
    let addr = ptr as usize;
    let map = read();
    let Some((&base, a)) = map.range(..=addr).next_back() else {
        return false;
    };
    let offset = addr - base;
    same_context(&a.context, context) && offset < a.layout.size() && len <= a.layout.size() - offset
}

/// How many allocations `context` has not freed yet.
pub fn live_count(context: &Context) -> usize {
    read()
        .values()
        .filter(|a| same_context(&a.context, context))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn context() -> Arc<Context> {
        Context::new(Vec::new(), Vec::new(), None)
    }

    const RW: cl_svm_mem_flags = CL_MEM_READ_WRITE as cl_svm_mem_flags;
    const FINE: cl_svm_mem_flags = CL_MEM_SVM_FINE_GRAIN_BUFFER as cl_svm_mem_flags;
    const ATOMICS: cl_svm_mem_flags = CL_MEM_SVM_ATOMICS as cl_svm_mem_flags;

    #[test]
    fn alloc_find_free() {
        let ctx = context();
        let p = alloc(&ctx, RW | FINE, 1000, 0).unwrap();
        assert_eq!(p as usize % DEFAULT_ALIGNMENT, 0);
        assert_eq!(live_count(&ctx), 1);
        let base = p as usize;
        assert_eq!(find(p), Some((base, 1000, RW | FINE)));
        assert_eq!(
            find((base + 999) as *const c_void),
            Some((base, 1000, RW | FINE))
        );
        assert_eq!(find((base + 1000) as *const c_void), None);
        assert!(contains(&ctx, p, 1000));
        assert!(contains(&ctx, (base + 10) as *const c_void, 990));
        assert!(!contains(&ctx, (base + 10) as *const c_void, 991));
        assert!(!contains(&context(), p, 1));
        // Only the base pointer frees.
        assert!(!free(&ctx, (base + 8) as *mut c_void));
        assert!(free(&ctx, p));
        assert_eq!(find(p), None);
        assert_eq!(live_count(&ctx), 0);
        // A second free is ignored.
        assert!(!free(&ctx, p));
    }

    #[test]
    fn usm_allocations_describe_themselves() {
        let ctx = context();
        let usm = Usm {
            kind: CL_MEM_TYPE_SHARED_INTEL,
            device: None,
            flags: 0,
        };
        assert_eq!(
            alloc_usm(&ctx, usm.clone(), 0, 0),
            Err(CL_INVALID_BUFFER_SIZE)
        );
        assert_eq!(alloc_usm(&ctx, usm.clone(), 8, 3), Err(CL_INVALID_VALUE));
        let p = alloc_usm(&ctx, usm, 100, 4096).unwrap();
        assert_eq!(p as usize % 4096, 0);
        let inside = describe(&ctx, (p as usize + 99) as *const c_void).unwrap();
        assert_eq!((inside.base, inside.size), (p as usize, 100));
        assert_eq!(inside.usm.map(|u| u.kind), Some(CL_MEM_TYPE_SHARED_INTEL));
        assert!(describe(&context(), p).is_none());
        // SVM blocks are not USM's to free.
        let svm = alloc(&ctx, 0, 8, 0).unwrap();
        assert!(describe(&ctx, svm).unwrap().usm.is_none());
        assert!(!free_usm(&ctx, svm));
        assert!(free(&ctx, svm));
        assert!(!free_usm(&ctx, (p as usize + 8) as *mut c_void));
        assert!(free_usm(&ctx, p));
        assert!(describe(&ctx, p).is_none());
    }

    #[test]
    fn free_needs_the_allocating_context() {
        let ctx = context();
        let other = context();
        let p = alloc(&ctx, 0, 64, 0).unwrap();
        assert!(!free(&other, p));
        assert!(free(&ctx, p));
    }

    #[test]
    fn ignores_null_and_unknown() {
        let ctx = context();
        assert!(!free(&ctx, std::ptr::null_mut()));
        let mut local = 0u64;
        assert!(!free(&ctx, &mut local as *mut u64 as *mut c_void));
        assert_eq!(find(std::ptr::null()), None);
        assert_eq!(find(&local as *const u64 as *const c_void), None);
    }

    #[test]
    fn alignment() {
        let ctx = context();
        for shift in 0..=20 {
            let a = 1u32 << shift;
            let p = alloc(&ctx, 0, 10, a).unwrap();
            assert_eq!(p as usize % a as usize, 0);
            assert!(free(&ctx, p));
        }
        assert_eq!(alloc(&ctx, 0, 10, 3), Err(CL_INVALID_VALUE));
        assert_eq!(alloc(&ctx, 0, 10, 1 << 21), Err(CL_INVALID_VALUE));
    }

    #[test]
    fn bad_arguments() {
        let ctx = context();
        assert_eq!(alloc(&ctx, 0, 0, 0), Err(CL_INVALID_VALUE));
        let too_big = HOST.max_mem_alloc() as usize + 1;
        assert_eq!(alloc(&ctx, 0, too_big, 0), Err(CL_INVALID_VALUE));
        let ro = CL_MEM_READ_ONLY as cl_svm_mem_flags;
        let wo = CL_MEM_WRITE_ONLY as cl_svm_mem_flags;
        assert_eq!(alloc(&ctx, RW | ro, 8, 0), Err(CL_INVALID_VALUE));
        assert_eq!(alloc(&ctx, wo | ro, 8, 0), Err(CL_INVALID_VALUE));
        assert_eq!(alloc(&ctx, ATOMICS, 8, 0), Err(CL_INVALID_VALUE));
        assert_eq!(alloc(&ctx, 1 << 40, 8, 0), Err(CL_INVALID_VALUE));
        assert_eq!(
            alloc(&ctx, CL_MEM_USE_HOST_PTR as u64, 8, 0),
            Err(CL_INVALID_VALUE)
        );
        assert_eq!(live_count(&ctx), 0);
        for flags in [0, RW, ro, wo, FINE, FINE | ATOMICS, ro | FINE | ATOMICS] {
            let p = alloc(&ctx, flags, 8, 0).unwrap();
            assert_eq!(find(p).map(|f| f.2), Some(flags));
            assert!(free(&ctx, p));
        }
    }

    #[test]
    fn neighbours_stay_apart() {
        let ctx = context();
        let ptrs: Vec<_> = (1..50).map(|n| alloc(&ctx, 0, n, 0).unwrap()).collect();
        for (i, &p) in ptrs.iter().enumerate() {
            let size = i + 1;
            assert_eq!(find(p).unwrap().1, size);
            let last = (p as usize + size - 1) as *const c_void;
            assert_eq!(find(last).unwrap().0, p as usize);
        }
        assert_eq!(live_count(&ctx), 49);
        for p in ptrs {
            assert!(free(&ctx, p));
        }
        assert_eq!(live_count(&ctx), 0);
    }
}
