//! printf from kernels (OpenCL C 6.15.14): the executor side.
//!
//! The builtin `printf` (builtins/workitem.c) fetches its variadic
//! arguments and calls ctx->printf_fn with them flat
//! (`PrintfArgs`). Each call is formatted here, whole, into the command's
//! buffer (CL_DEVICE_PRINTF_BUFFER_SIZE); the buffer goes to stdout, flushed,
//! when the command completes. The order of the calls of different
//! work-items is unspecified (they run on several threads), each call's
//! text stays in one piece.
//!
//! Formatting: each conversion (each element, for vectors) goes through
//! libc's snprintf with the conversion's own flags, width and precision, so
//! scalars print exactly as C's printf prints them. Vector elements are
//! separated by ','.

use crate::compiler::abi::{PrintfArgs, WorkGroupContext, PRINTF_MAX_SLOTS};
use std::cell::Cell;
use std::ffi::{c_char, c_int, c_void, CStr};
use std::io::Write;
use std::sync::Mutex;

/// CL_DEVICE_PRINTF_BUFFER_SIZE.
pub const PRINTF_BUFFER_SIZE: usize = 1 << 20;

/// The output of one command's printf calls.
pub struct PrintfBuffer {
    out: Mutex<Vec<u8>>,
    capacity: usize,
}

thread_local! {
    /// The buffer of the command this thread runs work-groups of.
    static SINK: Cell<*const PrintfBuffer> = const { Cell::new(std::ptr::null()) };
}

/// Restores the thread's previous buffer when dropped.
pub struct SinkGuard(*const PrintfBuffer);

impl Drop for SinkGuard {
    fn drop(&mut self) {
        SINK.with(|s| s.set(self.0));
    }
}

impl Default for PrintfBuffer {
    fn default() -> Self {
        PrintfBuffer::new(PRINTF_BUFFER_SIZE)
    }
}

impl PrintfBuffer {
    pub fn new(capacity: usize) -> PrintfBuffer {
        PrintfBuffer {
            out: Mutex::new(Vec::new()),
            capacity,
        }
    }

    /// Makes this the buffer printf_entry writes to on this thread, until
    /// the guard is dropped.
    pub fn enter(&self) -> SinkGuard {
        SinkGuard(SINK.with(|s| s.replace(self)))
    }

    /// Appends one call's text if it fits.
    fn append(&self, text: &[u8]) -> bool {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        if out.len() + text.len() > self.capacity {
            return false;
        }
        out.extend_from_slice(text);
        true
    }

    /// The text so far (tests).
    pub fn contents(&self) -> Vec<u8> {
        self.out.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Writes the buffered text to stdout and flushes it.
    pub fn flush(&self) {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        if out.is_empty() {
            return;
        }
        let mut stdout = std::io::stdout().lock();
        let _ = stdout.write_all(&out);
        let _ = stdout.flush();
        out.clear();
    }
}

/// ctx->printf_fn: formats one printf call into the current command's
/// buffer. 0 on success, -1 on a bad format or a full buffer.
///
/// # Safety
/// `format` is a NUL-terminated string and `args` a `PrintfArgs` whose
/// pointer slots (for %s) point to NUL-terminated strings, as the builtin
/// printf passes them.
pub unsafe extern "C" fn printf_entry(
    _ctx: *mut WorkGroupContext,
    format: *const c_char,
    args: *mut c_void,
) -> i32 {
    let sink = SINK.with(|s| s.get());
    if sink.is_null() || format.is_null() || args.is_null() {
        return -1;
    }
    // SAFETY: the caller's contract; the sink is alive while its guard is.
    let (format, args, sink) = unsafe {
        let a = &*(args as *const PrintfArgs);
        let n = (a.count as usize).min(PRINTF_MAX_SLOTS);
        (CStr::from_ptr(format).to_bytes(), &a.slots[..n], &*sink)
    };
    // SAFETY: as above.
    match unsafe { format_call(format, args) } {
        Some(text) if sink.append(&text) => 0,
        _ => -1,
    }
}

extern "C" {
    fn snprintf(buf: *mut c_char, size: usize, format: *const c_char, ...) -> c_int;
}

/// One value as snprintf takes it.
enum Value {
    Int(c_int),
    UInt(u32),
    Long(i64),
    ULong(u64),
    Double(f64),
    Ptr(*const c_void),
}

/// snprintf(spec, value), appended to `out`.
fn c_format(out: &mut Vec<u8>, spec: &[u8], v: Value) -> Option<()> {
    let mut spec = spec.to_vec();
    spec.push(0);
    let f = spec.as_ptr() as *const c_char;
    let mut buf = vec![0u8; 128];
    loop {
        let p = buf.as_mut_ptr() as *mut c_char;
        let n = buf.len();
        // SAFETY: `spec` is one C conversion (validated by the caller)
        // taking exactly the value's C type; buf holds n bytes.
        let r = unsafe {
            match v {
                Value::Int(x) => snprintf(p, n, f, x),
                Value::UInt(x) => snprintf(p, n, f, x),
                Value::Long(x) => snprintf(p, n, f, x),
                Value::ULong(x) => snprintf(p, n, f, x),
                Value::Double(x) => snprintf(p, n, f, x),
                Value::Ptr(x) => snprintf(p, n, f, x),
            }
        };
        let r = usize::try_from(r).ok()?;
        if r < n {
            out.extend_from_slice(&buf[..r]);
            return Some(());
        }
        buf.resize(r + 1, 0);
    }
}

/// IEEE half bits to double (exact).
fn half_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = (h >> 10) & 0x1f;
    let m = (h & 0x3ff) as f64;
    sign * match e {
        0 => m * 2f64.powi(-24),
        0x1f if m == 0.0 => f64::INFINITY,
        0x1f => f64::NAN,
        _ => (1.0 + m / 1024.0) * 2f64.powi(e as i32 - 15),
    }
}

/// Formats one printf call. None for a format OpenCL C rejects (or that
/// does not match the arguments).
///
/// # Safety
/// Slots consumed by %s hold pointers to NUL-terminated strings (or null).
pub unsafe fn format_call(format: &[u8], slots: &[u64]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut next = slots.iter().copied();
    let mut i = 0;
    let at = |i: usize| format.get(i).copied().unwrap_or(0);
    while i < format.len() {
        let c = format[i];
        i += 1;
        if c != b'%' {
            out.push(c);
            continue;
        }
        if at(i) == b'%' {
            out.push(b'%');
            i += 1;
            continue;
        }
        // The C conversion spec, minus length modifier and conversion.
        let mut spec = vec![b'%'];
        while matches!(at(i), b'-' | b'+' | b' ' | b'#' | b'0') {
            spec.push(at(i));
            i += 1;
        }
        if at(i) == b'*' {
            i += 1;
            let w = next.next()? as u32 as i32;
            spec.extend_from_slice(w.to_string().as_bytes());
        } else {
            while at(i).is_ascii_digit() {
                spec.push(at(i));
                i += 1;
            }
        }
        if at(i) == b'.' {
            i += 1;
            if at(i) == b'*' {
                i += 1;
                let p = next.next()? as u32 as i32;
                // A negative precision is taken as omitted.
                if p >= 0 {
                    spec.extend_from_slice(format!(".{p}").as_bytes());
                }
            } else {
                spec.push(b'.');
                while at(i).is_ascii_digit() {
                    spec.push(at(i));
                    i += 1;
                }
            }
        }
        let mut vec = 0usize;
        if at(i) == b'v' {
            i += 1;
            while at(i).is_ascii_digit() {
                vec = vec.checked_mul(10)? + (at(i) - b'0') as usize;
                i += 1;
            }
            if ![2, 3, 4, 8, 16].contains(&vec) {
                return None;
            }
        }
        // Length in bytes: 1 hh, 2 h, 4 hl, 8 l; 0 none.
        let len = match (at(i), at(i + 1)) {
            (b'h', b'h') => 1,
            (b'h', b'l') => 4,
            (b'h', _) => 2,
            (b'l', _) => 8,
            _ => 0,
        };
        i += match len {
            1 | 4 => 2,
            2 | 8 => 1,
            _ => 0,
        };
        // hl is for vectors only.
        if len == 4 && vec == 0 {
            return None;
        }
        let conv = at(i);
        i += 1;
        let count = vec.max(1);
        for e in 0..count {
            if e > 0 {
                out.push(b',');
            }
            let bits = next.next()?;
            let mut s = spec.clone();
            let v = match conv {
                b'd' | b'i' => {
                    s.extend_from_slice(if len == 8 { b"l" } else { b"" });
                    match len {
                        1 => Value::Int(bits as u8 as i8 as c_int),
                        2 => Value::Int(bits as u16 as i16 as c_int),
                        8 => Value::Long(bits as i64),
                        _ => Value::Int(bits as u32 as i32),
                    }
                }
                b'o' | b'u' | b'x' | b'X' => {
                    s.extend_from_slice(if len == 8 { b"l" } else { b"" });
                    match len {
                        1 => Value::UInt(bits as u8 as u32),
                        2 => Value::UInt(bits as u16 as u32),
                        8 => Value::ULong(bits),
                        _ => Value::UInt(bits as u32),
                    }
                }
                b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => {
                    if len == 1 {
                        return None;
                    }
                    Value::Double(match (vec, len) {
                        (0, _) => f64::from_bits(bits),
                        (_, 2) => half_to_f64(bits as u16),
                        (_, 4) => f32::from_bits(bits as u32) as f64,
                        _ => f64::from_bits(bits),
                    })
                }
                b'c' if vec == 0 && len == 0 => Value::Int(bits as u32 as i32),
                b's' if vec == 0 && len == 0 => {
                    let p = bits as usize as *const c_char;
                    if !p.is_null() {
                        // A string with a precision may lack its NUL only
                        // in C; here it is a literal, always terminated.
                        // SAFETY: the caller's contract.
                        let _ = unsafe { CStr::from_ptr(p) };
                    }
                    Value::Ptr(p as *const c_void)
                }
                b'p' if vec == 0 && len == 0 => Value::Ptr(bits as usize as *const c_void),
                _ => return None,
            };
            s.push(conv);
            c_format(&mut out, &s, v)?;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(f: &str, slots: &[u64]) -> Option<String> {
        // SAFETY: no %s in these formats unless a valid pointer is given.
        unsafe { format_call(f.as_bytes(), slots) }.map(|v| String::from_utf8(v).unwrap())
    }

    fn d(x: f64) -> u64 {
        x.to_bits()
    }

    #[test]
    fn scalars_match_c() {
        assert_eq!(fmt("a%db", &[42]).unwrap(), "a42b");
        assert_eq!(fmt("%d", &[(-7i32) as u32 as u64]).unwrap(), "-7");
        assert_eq!(
            fmt("%5d|%-5d|%05d", &[3, 3, 3]).unwrap(),
            "    3|3    |00003"
        );
        assert_eq!(
            fmt("%x %X %o %#x", &[255, 255, 8, 255]).unwrap(),
            "ff FF 10 0xff"
        );
        assert_eq!(fmt("%ld", &[(-1i64) as u64]).unwrap(), "-1");
        assert_eq!(fmt("%lu", &[u64::MAX]).unwrap(), "18446744073709551615");
        assert_eq!(fmt("%hhd %hhu", &[200, 0x1ff]).unwrap(), "-56 255");
        assert_eq!(fmt("%hd", &[0x18000]).unwrap(), "-32768");
        assert_eq!(fmt("%f", &[d(1.5)]).unwrap(), "1.500000");
        assert_eq!(
            fmt("%.2f|%8.3e|%g", &[d(2.5625), d(1234.5), d(0.0001)]).unwrap(),
            "2.56|1.234e+03|0.0001"
        );
        assert_eq!(fmt("%a", &[d(1.0)]).unwrap(), "0x1p+0");
        assert_eq!(
            fmt("%+.1f %F", &[d(2.0), d(f64::INFINITY)]).unwrap(),
            "+2.0 INF"
        );
        assert_eq!(fmt("%c%c", &[b'o' as u64, b'k' as u64]).unwrap(), "ok");
        assert_eq!(fmt("%*d|%.*f", &[6, 1, 2, d(1.0)]).unwrap(), "     1|1.00");
        assert_eq!(fmt("%-*d|", &[(-4i32) as u32 as u64, 7]).unwrap(), "7   |");
    }

    #[test]
    fn percent_and_strings() {
        assert_eq!(fmt("100%%", &[]).unwrap(), "100%");
        assert_eq!(fmt("%%d%d", &[1]).unwrap(), "%d1");
        let s = c"hello";
        let p = s.as_ptr() as u64;
        assert_eq!(fmt("<%s>", &[p]).unwrap(), "<hello>");
        assert_eq!(
            fmt("<%8s|%-7s|%.3s>", &[p, p, p]).unwrap(),
            "<   hello|hello  |hel>"
        );
        assert_eq!(fmt("%p", &[0x1234]).unwrap(), "0x1234");
    }

    #[test]
    fn vectors() {
        let f = |x: f32| x.to_bits() as u64;
        assert_eq!(
            fmt("%v4hlf", &[f(1.0), f(2.5), f(-3.0), f(4.0)]).unwrap(),
            "1.000000,2.500000,-3.000000,4.000000"
        );
        assert_eq!(fmt("%v2hld", &[5, (-6i32) as u32 as u64]).unwrap(), "5,-6");
        assert_eq!(fmt("%v3hhd", &[1, 0xff, 3]).unwrap(), "1,-1,3");
        assert_eq!(fmt("%#v2hx", &[0xabc, 0xffff]).unwrap(), "0xabc,0xffff");
        assert_eq!(
            fmt("%v2ld", &[(-1i64) as u64, 1 << 40]).unwrap(),
            "-1,1099511627776"
        );
        assert_eq!(
            fmt("%v2lf", &[d(0.5), d(1.25)]).unwrap(),
            "0.500000,1.250000"
        );
        assert_eq!(
            fmt("%5.1v2hlf|", &[f(1.0), f(2.0)]).unwrap(),
            "  1.0,  2.0|"
        );
        // half 1.0 = 0x3c00, -2.0 = 0xc000, 65504 = 0x7bff.
        assert_eq!(
            fmt("%v3hf", &[0x3c00, 0xc000, 0x7bff]).unwrap(),
            "1.000000,-2.000000,65504.000000"
        );
        assert_eq!(
            fmt("%v16hhu", &(0..16).collect::<Vec<u64>>()).unwrap(),
            "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"
        );
    }

    #[test]
    fn rejected() {
        assert!(fmt("%n", &[0]).is_none());
        assert!(fmt("%v5d", &[0; 5]).is_none());
        assert!(fmt("%v4s", &[0; 4]).is_none());
        assert!(fmt("%hld", &[0]).is_none());
        assert!(fmt("%d %d", &[1]).is_none());
        assert!(fmt("%q", &[1]).is_none());
    }

    #[test]
    fn buffer_capacity() {
        let b = PrintfBuffer::new(8);
        assert!(b.append(b"12345"));
        assert!(!b.append(b"6789"));
        assert!(b.append(b"678"));
        assert_eq!(b.contents(), b"12345678");
    }
}
