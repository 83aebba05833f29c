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

/// Where a clGet*Info answer goes: the application's param_value (of
/// param_value_size bytes, or NULL) and param_value_size_ret (or NULL).
/// The answer is written straight there, with no copy in between.
pub struct InfoOut {
    capacity: usize,
    value: *mut c_void,
    size_ret: *mut usize,
}

impl InfoOut {
    pub fn new(param_value_size: usize, param_value: *mut c_void, size_ret: *mut usize) -> Self {
        InfoOut {
            capacity: param_value_size,
            value: param_value,
            size_ret,
        }
    }

    /// param_value_size: the bytes the application's buffer holds (an
    /// answer whose shape depends on it, clGetKernelSubGroupInfo's local
    /// size, reads it here).
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The spec's protocol for every clGet*Info: "param_value_size ...
    /// must be >= the size of the return type"; a NULL param_value is
    /// ignored; the actual size goes to param_value_size_ret when that is
    /// not NULL. Nothing is written when the answer does not fit.
    pub fn write<T: InfoValue + ?Sized>(&self, answer: &T) -> Result<(), cl_int> {
        let len = answer.info_len();
        if !self.value.is_null() {
            if self.capacity < len {
                return Err(CL_INVALID_VALUE);
            }
            // SAFETY: the application guarantees param_value holds
            // param_value_size bytes, and the answer fits.
            let out = unsafe { std::slice::from_raw_parts_mut(self.value as *mut u8, len) };
            answer.write_info(out);
        }
        write_out(self.size_ret, len);
        Ok(())
    }
}

/// A value as an info query returns it: its size in bytes, and those
/// bytes written into a slice of exactly that size.
pub trait InfoValue {
    fn info_len(&self) -> usize;
    fn write_info(&self, out: &mut [u8]);
}

macro_rules! plain_info {
    ($($t:ty),*) => {$(
        impl InfoValue for $t {
            fn info_len(&self) -> usize {
                std::mem::size_of::<$t>()
            }
            fn write_info(&self, out: &mut [u8]) {
                out.copy_from_slice(&self.to_ne_bytes());
            }
        }
    )*};
}
plain_info!(u8, u32, i32, u64, i64, usize, isize);

impl InfoValue for bool {
    fn info_len(&self) -> usize {
        std::mem::size_of::<cl_bool>()
    }
    fn write_info(&self, out: &mut [u8]) {
        (*self as cl_bool).write_info(out)
    }
}

impl InfoValue for str {
    /// Strings are returned NUL-terminated.
    fn info_len(&self) -> usize {
        self.len() + 1
    }
    fn write_info(&self, out: &mut [u8]) {
        let (text, nul) = out.split_at_mut(self.len());
        text.copy_from_slice(self.as_bytes());
        nul[0] = 0;
    }
}

impl InfoValue for String {
    fn info_len(&self) -> usize {
        self.as_str().info_len()
    }
    fn write_info(&self, out: &mut [u8]) {
        self.as_str().write_info(out)
    }
}

impl<T> InfoValue for *mut T {
    fn info_len(&self) -> usize {
        std::mem::size_of::<usize>()
    }
    fn write_info(&self, out: &mut [u8]) {
        (*self as usize).write_info(out)
    }
}

impl<T> InfoValue for *const T {
    fn info_len(&self) -> usize {
        std::mem::size_of::<usize>()
    }
    fn write_info(&self, out: &mut [u8]) {
        (*self as usize).write_info(out)
    }
}

impl<T: InfoValue> InfoValue for [T] {
    fn info_len(&self) -> usize {
        self.iter().map(InfoValue::info_len).sum()
    }
    fn write_info(&self, mut out: &mut [u8]) {
        for v in self {
            let (this, rest) = out.split_at_mut(v.info_len());
            v.write_info(this);
            out = rest;
        }
    }
}

impl<T: InfoValue> InfoValue for Vec<T> {
    fn info_len(&self) -> usize {
        self.as_slice().info_len()
    }
    fn write_info(&self, out: &mut [u8]) {
        self.as_slice().write_info(out)
    }
}

impl<T: InfoValue, const N: usize> InfoValue for [T; N] {
    fn info_len(&self) -> usize {
        self.as_slice().info_len()
    }
    fn write_info(&self, out: &mut [u8]) {
        self.as_slice().write_info(out)
    }
}

impl InfoValue for cl_name_version {
    fn info_len(&self) -> usize {
        std::mem::size_of::<cl_name_version>()
    }
    fn write_info(&self, out: &mut [u8]) {
        let (version, name) = out.split_at_mut(std::mem::size_of::<cl_version>());
        self.version.write_info(version);
        for (o, &c) in name.iter_mut().zip(&self.name) {
            *o = c as u8;
        }
    }
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

/// Whether `flags` are only cl_mem_migration_flags' own: "CL_INVALID_VALUE
/// if flags is not 0 or is not any of the values described in the table"
/// (clEnqueueMigrateMemObjects, clEnqueueSVMMigrateMem,
/// clEnqueueMigrateMemINTEL).
pub fn migration_flags_known(flags: cl_mem_migration_flags) -> bool {
    let known = (CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)
        as cl_mem_migration_flags;
    flags & !known == 0
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Asks `answer` into a buffer of `capacity` bytes (NULL when None).
    fn ask<T: InfoValue + ?Sized>(answer: &T, capacity: Option<usize>) -> (cl_int, Vec<u8>, usize) {
        let mut buf = vec![0xaau8; capacity.unwrap_or(0)];
        let value = capacity.map_or(std::ptr::null_mut(), |_| buf.as_mut_ptr() as *mut c_void);
        let mut size = usize::MAX;
        let out = InfoOut::new(capacity.unwrap_or(0), value, &mut size);
        let code = out.write(answer).err().unwrap_or(CL_SUCCESS);
        (code, buf, size)
    }

    #[test]
    fn answers_are_written_straight_to_the_application_by_the_spec_rules() {
        // A string comes NUL-terminated; the size says so.
        assert_eq!(ask("ab", Some(3)), (CL_SUCCESS, b"ab\0".to_vec(), 3));
        // NULL param_value: only the size.
        assert_eq!(ask("ab", None), (CL_SUCCESS, vec![], 3));
        // Too small: CL_INVALID_VALUE and nothing written, not even the size.
        assert_eq!(
            ask("ab", Some(2)),
            (CL_INVALID_VALUE, vec![0xaa; 2], usize::MAX)
        );
        // Arrays of numbers in native order, one after the other.
        let (code, buf, size) = ask(&[1u32, 2], Some(8));
        assert_eq!((code, size), (CL_SUCCESS, 8));
        assert_eq!(buf, [1u32.to_ne_bytes(), 2u32.to_ne_bytes()].concat());
        // A larger buffer keeps its tail.
        assert_eq!(
            ask(&true, Some(6)).1,
            [1u32.to_ne_bytes().as_slice(), &[0xaa; 2]].concat()
        );
        // cl_name_version: the version, then the 64-byte name.
        let mut nv = cl_name_version {
            version: 7,
            name: [0; 64],
        };
        nv.name[0] = b'x' as _;
        let (code, buf, size) = ask(&[nv], Some(68));
        assert_eq!((code, size), (CL_SUCCESS, 68));
        assert_eq!(&buf[..5], [7u32.to_ne_bytes().as_slice(), b"x"].concat());
    }
}
