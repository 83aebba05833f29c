//! What every entry point shares: the results' C forms (entry_points.rs
//! makes the `extern "C"` functions), the info-query writer, and checked
//! reads of the application's C arrays and strings.

use crate::cl::*;
use std::ffi::{c_char, c_void, CStr};

type Caught<T> = std::thread::Result<Result<T, cl_int>>;

pub fn status(result: Caught<()>) -> cl_int {
    match result {
        Ok(Ok(())) => CL_SUCCESS,
        Ok(Err(code)) => code,
        Err(_) => CL_OUT_OF_HOST_MEMORY,
    }
}

pub fn object_or_null<T>(result: Caught<*mut T>, errcode_ret: *mut cl_int) -> *mut T {
    let (value, code) = match result {
        Ok(Ok(v)) => (v, CL_SUCCESS),
        Ok(Err(code)) => (std::ptr::null_mut(), code),
        Err(_) => (std::ptr::null_mut(), CL_OUT_OF_HOST_MEMORY),
    };
    write_out(errcode_ret, code);
    value
}

/// Writes `value` to an optional out-parameter (NULL means "not wanted").
pub fn write_out<T>(ptr: *mut T, value: T) {
    if !ptr.is_null() {
        // SAFETY: the application passes either NULL or a pointer to a T.
        unsafe { ptr.write_unaligned(value) };
    }
}

/// The spec's protocol for every clGet*Info: "param_value_size ... must be >=
/// the size of the return type"; a NULL param_value is ignored; the actual
/// size goes to param_value_size_ret when that is not NULL.
pub fn write_info(
    bytes: &[u8],
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> Result<(), cl_int> {
    if !param_value.is_null() {
        if param_value_size < bytes.len() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: the application guarantees param_value holds
        // param_value_size bytes, and we checked bytes fits.
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), param_value as *mut u8, bytes.len())
        };
    }
    write_out(param_value_size_ret, bytes.len());
    Ok(())
}

/// A value as the bytes an info query returns.
pub trait InfoValue {
    fn info_bytes(&self) -> Vec<u8>;
}

macro_rules! plain_info {
    ($($t:ty),*) => {$(
        impl InfoValue for $t {
            fn info_bytes(&self) -> Vec<u8> {
                self.to_ne_bytes().to_vec()
            }
        }
    )*};
}
plain_info!(u8, u32, i32, u64, i64, usize, isize);

impl InfoValue for bool {
    fn info_bytes(&self) -> Vec<u8> {
        (*self as cl_bool).info_bytes()
    }
}

impl InfoValue for str {
    /// Strings are returned NUL-terminated.
    fn info_bytes(&self) -> Vec<u8> {
        let mut v = self.as_bytes().to_vec();
        v.push(0);
        v
    }
}

impl InfoValue for String {
    fn info_bytes(&self) -> Vec<u8> {
        self.as_str().info_bytes()
    }
}

impl<T> InfoValue for *mut T {
    fn info_bytes(&self) -> Vec<u8> {
        (*self as usize).info_bytes()
    }
}

impl<T> InfoValue for *const T {
    fn info_bytes(&self) -> Vec<u8> {
        (*self as usize).info_bytes()
    }
}

impl<T: InfoValue> InfoValue for [T] {
    fn info_bytes(&self) -> Vec<u8> {
        self.iter().flat_map(|v| v.info_bytes()).collect()
    }
}

impl<T: InfoValue> InfoValue for Vec<T> {
    fn info_bytes(&self) -> Vec<u8> {
        self.as_slice().info_bytes()
    }
}

impl<T: InfoValue, const N: usize> InfoValue for [T; N] {
    fn info_bytes(&self) -> Vec<u8> {
        self.as_slice().info_bytes()
    }
}

impl InfoValue for cl_name_version {
    fn info_bytes(&self) -> Vec<u8> {
        let mut v = self.version.info_bytes();
        v.extend(self.name.iter().map(|&c| c as u8));
        v
    }
}

/// Shorthand for an info answer.
pub fn info<T: InfoValue + ?Sized>(v: &T) -> Result<Vec<u8>, cl_int> {
    Ok(v.info_bytes())
}

/// An application array of `count` elements; NULL with count 0 is empty.
/// NULL with a non-zero count, or a non-NULL pointer with count 0, is the
/// caller's `err`, the code the spec gives for that entry point.
pub fn c_array<'a, T>(ptr: *const T, count: usize, err: cl_int) -> Result<&'a [T], cl_int> {
    match (ptr.is_null(), count) {
        (true, 0) => Ok(&[]),
        (true, _) | (false, 0) => Err(err),
        // SAFETY: the application guarantees ptr points to count elements.
        (false, n) => Ok(unsafe { std::slice::from_raw_parts(ptr, n) }),
    }
}

/// A zero-terminated property list (cl_context_properties and friends) as
/// (name, value) pairs; NULL is an empty list.
pub fn property_pairs<T: Copy + Default + PartialEq>(list: *const T) -> Vec<(T, T)> {
    let mut pairs = Vec::new();
    if list.is_null() {
        return pairs;
    }
    let mut i = 0;
    loop {
        // SAFETY: the application guarantees a zero-terminated list of
        // name/value pairs.
        let name = unsafe { *list.add(i) };
        if name == T::default() {
            break;
        }
        // SAFETY: as above: every name is followed by its value.
        let value = unsafe { *list.add(i + 1) };
        pairs.push((name, value));
        i += 2;
    }
    pairs
}

/// The property list as given, terminator included (for *_PROPERTIES
/// queries, which return what the application passed); empty for NULL.
pub fn property_list<T: Copy + Default + PartialEq>(list: *const T) -> Vec<T> {
    let pairs = property_pairs(list);
    if list.is_null() {
        return Vec::new();
    }
    let mut v: Vec<T> = pairs.iter().flat_map(|&(n, val)| [n, val]).collect();
    v.push(T::default());
    v
}

/// A C string's bytes from the application, or `err` for NULL.
pub fn c_bytes<'a>(ptr: *const c_char, err: cl_int) -> Result<&'a [u8], cl_int> {
    if ptr.is_null() {
        return Err(err);
    }
    // SAFETY: the application passes a NUL-terminated string.
    Ok(unsafe { CStr::from_ptr(ptr) }.to_bytes())
}

/// A C string from the application, or `err` for NULL or bytes that are
/// not UTF-8.
pub fn c_str<'a>(ptr: *const c_char, err: cl_int) -> Result<&'a str, cl_int> {
    std::str::from_utf8(c_bytes(ptr, err)?).map_err(|_| err)
}

/// Writes a handle list to an application array (clGetDeviceIDs and the
/// like): `num_entries` must be > 0 when `out` is not NULL, and at most
/// `num_entries` handles are written.
pub fn write_list<T: Copy>(
    items: &[T],
    num_entries: cl_uint,
    out: *mut T,
    num_out: *mut cl_uint,
) -> Result<(), cl_int> {
    if out.is_null() && num_out.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    if !out.is_null() {
        if num_entries == 0 {
            return Err(CL_INVALID_VALUE);
        }
        for (i, item) in items.iter().take(num_entries as usize).enumerate() {
            // SAFETY: the application guarantees room for num_entries handles.
            unsafe { out.add(i).write(*item) };
        }
    }
    write_out(num_out, items.len() as cl_uint);
    Ok(())
}
