//! Device-side enqueue: the block kernels clang makes for `enqueue_kernel`.
//!
//! For each block a kernel enqueues, clang-19 emits a kernel of its own,
//! `__<parent>_block_invoke[_N]_kernel(ptr addrspace(4) block, ptr
//! addrspace(3) local...)`: the block literal (`<{ i32 size, i32 align, ptr
//! invoke, captures... }>`) and one __local pointer per local-size argument
//! of the enqueue. The enqueue itself is a call to `__enqueue_kernel_basic`
//! (or `_basic_events`, `_varargs`, `_events_varargs`) with the block
//! kernel's address.
//!
//! These kernels get work-item (and work-group) entries like any other, but
//! the application never sees them (they are not in the program's kernel
//! list), and every reference to one becomes a reference to its work-item
//! entry: the runtime receives that entry from `__enqueue_kernel_*` and
//! finds the kernel by it (`Executable::kernel_of_entry`;
//! passes/block_kernel_entries.cpp).

/// Whether a kernel is one clang made for a block (`__X_block_invoke_kernel`,
/// `__X_block_invoke_N_kernel`): names starting with two underscores are
/// reserved, so no application kernel is named like this.
pub fn is_block_kernel(name: &str) -> bool {
    name.starts_with("__") && name.contains("_block_invoke") && name.ends_with("_kernel")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(is_block_kernel("__parent_block_invoke_kernel"));
        assert!(is_block_kernel("__parent_block_invoke_12_kernel"));
        assert!(!is_block_kernel("parent_block_invoke_kernel"));
        assert!(!is_block_kernel("__parent_block_invoke"));
    }
}
