//! Host memory for buffers and SVM allocations: large ones aligned to a
//! transparent huge page and backed by huge pages where the kernel has them.
//!
//! Why: kernels stream buffers of many megabytes, and with 4 KiB pages each
//! 4 KiB costs a TLB miss and a page walk. Debian's kernels give huge pages
//! only to memory that asks for them (transparent_hugepage=madvise). Rodinia's
//! Fan2 updated a 16 MiB matrix 3-5x more slowly than Intel's runtime, whose
//! allocator asks; PolyBench and clpeak's bandwidth kernels likewise.
//!
//! They come from the system allocator, not the runtime's global one
//! (mimalloc, for small objects): glibc maps large blocks on their own and
//! unmaps them when freed, so a released buffer's memory goes back to the
//! system at once and advice given to it applies to it alone.

use std::alloc::{GlobalAlloc, Layout, System};

/// A transparent huge page on x86-64 (and on aarch64 with 4 KiB pages).
pub const HUGE_PAGE: usize = 2 << 20;

/// The layout of `size` bytes, at least `align`-aligned (a power of two):
/// aligned to a huge page when at least one long, so that the allocation
/// is whole huge pages.
pub fn layout(size: usize, align: usize) -> Option<Layout> {
    let align = if size >= HUGE_PAGE {
        align.max(HUGE_PAGE)
    } else {
        align
    };
    Layout::from_size_align(size, align).ok()
}

/// Allocates `layout` (of non-zero size; from [`layout`]), null when the
/// allocator refuses. Huge-page-aligned memory is advised to be backed by
/// huge pages before any of it is touched: its first writes then fault in
/// huge pages.
pub fn alloc(layout: Layout) -> *mut u8 {
    // SAFETY: layouts from `layout` of buffers and SVM allocations have a
    // non-zero size (both check it first).
    let ptr = unsafe { System.alloc(layout) };
    if !ptr.is_null() && layout.align() >= HUGE_PAGE {
        // SAFETY: madvise only changes how the kernel backs the range, which
        // is ours and page-aligned; when it fails the memory stays as it is.
        unsafe { libc::madvise(ptr.cast(), layout.size(), libc::MADV_HUGEPAGE) };
    }
    ptr
}

/// Frees what [`alloc`] returned for `layout`.
///
/// # Safety
/// `ptr` came from [`alloc`] with this `layout` and is not used again.
pub unsafe fn dealloc(ptr: *mut u8, layout: Layout) {
    // SAFETY: the caller's contract.
    unsafe { System.dealloc(ptr, layout) };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_allocations_are_huge_page_aligned() {
        let small = layout(4096, 128).unwrap();
        assert_eq!(small.align(), 128);
        let large = layout(HUGE_PAGE + 1, 128).unwrap();
        assert_eq!(large.align(), HUGE_PAGE);
        let p = alloc(large);
        assert!(!p.is_null());
        assert_eq!(p as usize % HUGE_PAGE, 0);
        // Written through: the memory is ordinary memory.
        // SAFETY: p is large.size() bytes long and ours.
        unsafe {
            std::ptr::write_bytes(p, 7, large.size());
            assert_eq!(*p.add(large.size() - 1), 7);
            dealloc(p, large);
        }
    }
}
