//! Application callbacks: a C function pointer and the user data it gets.

use std::ffi::c_void;

/// A callback as the application registered it.
#[derive(Clone, Copy)]
pub struct Callback<F: Copy> {
    pub func: F,
    pub user_data: *mut c_void,
}

// SAFETY: the spec lets the implementation call callbacks from any thread;
// the application's user data is opaque to us and only handed back.
unsafe impl<F: Copy> Send for Callback<F> {}
// SAFETY: as above.
unsafe impl<F: Copy> Sync for Callback<F> {}
