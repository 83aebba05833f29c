//! The program binary (CL_PROGRAM_BINARIES): a small header with the kernel
//! metadata in front of the shared object, so that clCreateProgramWithBinary
//! and the cache recover both.
//!
//! Layout (version 7): b"FERROCL\0", u32 format version, u64 metadata
//! length, u64 shared object length (little endian), a 128-bit SipHash-2-4
//! of everything else, then the metadata as text lines and the shared
//! object's bytes.
//!
//! Version 5 added each kernel's flags for argument queries and flushed
//! denormals (-cl-kernel-arg-info, -cl-denorms-are-zero); version 6 the
//! shared object's length and the checksum; version 7 the splittable flag,
//! whose entries read the range of local ids to run from the context (an
//! older entry would run whole groups for every piece).
//!
//! Why the checksum: a damaged binary (an application's file, a cache file
//! cut short by a full disk) used to reach dlopen, and a shared object with
//! changed bytes crashes the process there or later in its code. Now a
//! binary is loaded only if its lengths add up to exactly its size and its
//! checksum matches, checked before anything is written or loaded; the
//! shared object's ELF header and program headers are bounds-checked too
//! (cheap, and what dlopen trusts). Earlier versions carried no checksum,
//! so they are refused (CL_INVALID_BINARY; the cache rebuilds them).

use super::code::{Code, PendingCode};
use super::{abi, driver, ArgSpace, Executable, KernelArg, KernelInfo, Object, ObjectKind};

/// The symbol holding the bytes of a program's program-scope global
/// variables (CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE), read when the
/// program is loaded; passes/global_variables_size.cpp defines it.
const GLOBAL_VARIABLES_SIZE_SYMBOL: &str = "__ferrocl_global_variables_size";

const MAGIC: &[u8; 8] = b"FERROCL\0";
const VERSION: u32 = 7;
/// Magic, version, the two lengths, the checksum.
const HEADER: usize = 8 + 4 + 8 + 8 + 16;
const SUM: std::ops::Range<usize> = 28..44;

/// SipHash-2-4 with 128-bit output under a fixed key: a checksum no
/// accidental damage defeats (unlike a CRC or FNV, every output bit depends
/// on every input bit through a strong permutation), stable across Rust
/// versions. `parts` are hashed as one byte string.
fn checksum(parts: &[&[u8]]) -> [u8; 16] {
    siphash128(0x6665_7272_6f63_6c21, 0x7072_6f67_7261_6d73, parts)
}

fn siphash128(k0: u64, k1: u64, parts: &[&[u8]]) -> [u8; 16] {
    use siphasher::sip128::{Hasher128, SipHasher24};
    use std::hash::Hasher;
    let mut h = SipHasher24::new_with_keys(k0, k1);
    for part in parts {
        // `write`, not `Hash::hash`: no length prefix per part.
        h.write(part);
    }
    h.finish128().as_bytes()
}

/// The checks on the shared object's ELF header and program headers that
/// cost nothing: an x86-64 ELF64 shared object whose headers and loaded
/// segments lie inside the file. (The checksum already rules out damage;
/// this keeps a well-formed binary around some other object from reaching
/// dlopen.)
fn check_elf(so: &[u8]) -> Option<()> {
    let u16_at = |at: usize| Some(u16::from_le_bytes(so.get(at..at + 2)?.try_into().ok()?));
    let u32_at = |at: usize| Some(u32::from_le_bytes(so.get(at..at + 4)?.try_into().ok()?));
    let u64_at = |at: usize| Some(u64::from_le_bytes(so.get(at..at + 8)?.try_into().ok()?));
    let within = |offset: u64, size: u64| {
        offset
            .checked_add(size)
            .is_some_and(|end| end <= so.len() as u64)
    };
    // Magic, 64-bit, little endian, ELF version 1; ET_DYN, EM_X86_64.
    (so.get(..7)? == b"\x7fELF\x02\x01\x01").then_some(())?;
    (u16_at(16)? == 3 && u16_at(18)? == 62 && u32_at(20)? == 1).then_some(())?;
    let (phoff, phentsize, phnum) = (u64_at(32)?, u16_at(54)?, u16_at(56)?);
    let (shoff, shentsize, shnum) = (u64_at(40)?, u16_at(58)?, u16_at(60)?);
    (u16_at(52)? == 64 && phentsize == 56 && phnum > 0).then_some(())?;
    within(phoff, 56 * phnum as u64).then_some(())?;
    (shnum == 0 || (shentsize == 64 && within(shoff, 64 * shnum as u64))).then_some(())?;
    for i in 0..phnum as usize {
        let ph = usize::try_from(phoff).ok()? + 56 * i;
        let (kind, offset) = (u32_at(ph)?, u64_at(ph + 8)?);
        let (filesz, memsz) = (u64_at(ph + 32)?, u64_at(ph + 40)?);
        // PT_LOAD, PT_DYNAMIC: what the loader reads from the file.
        if (kind == 1 || kind == 2) && (!within(offset, filesz) || filesz > memsz) {
            return None;
        }
    }
    Some(())
}

fn esc(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('\t', "\\t")
        .replace('\n', "\\n")
}

fn unesc(s: &str) -> String {
    let mut out = String::new();
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c == '\\' {
            match it.next() {
                Some('t') => out.push('\t'),
                Some('n') => out.push('\n'),
                Some(o) => out.push(o),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn dims(d: Option<[usize; 3]>) -> String {
    d.map_or("-".into(), |[x, y, z]| format!("{x},{y},{z}"))
}

fn parse_dims(s: &str) -> Option<[usize; 3]> {
    let v: Vec<usize> = s.split(',').filter_map(|x| x.parse().ok()).collect();
    (v.len() == 3).then(|| [v[0], v[1], v[2]])
}

fn space_code(s: ArgSpace) -> u8 {
    match s {
        ArgSpace::Private => 0,
        ArgSpace::Global => 1,
        ArgSpace::Constant => 2,
        ArgSpace::Local => 3,
    }
}

pub fn encode(kernels: &[KernelInfo], so: &[u8]) -> Vec<u8> {
    let mut meta = String::new();
    for k in kernels {
        meta += &format!(
            "kernel\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            esc(&k.name),
            dims(k.reqd_work_group_size),
            dims(k.work_group_size_hint),
            k.uses_barriers as u8,
            k.group_entry as u8,
            esc(&k.attributes),
            k.local_variables_size,
            k.uniform_work_groups as u8,
            k.frame_size,
            k.arg_info as u8,
            k.denormals_are_zero as u8,
            k.inner_dimension,
            k.may_wait_for_others as u8,
            k.splittable as u8,
            k.required_sub_group_size
        );
        for a in &k.args {
            meta += &format!(
                "arg\t{}\t{}\t{}\t{}\t{}\t{}\n",
                space_code(a.space),
                a.size,
                esc(&a.type_name),
                esc(&a.name),
                a.access,
                a.type_qualifier
            );
        }
    }
    let mut out = Vec::with_capacity(HEADER + meta.len() + so.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(meta.len() as u64).to_le_bytes());
    out.extend_from_slice(&(so.len() as u64).to_le_bytes());
    let sum = checksum(&[&out, meta.as_bytes(), so]);
    out.extend_from_slice(&sum);
    out.extend_from_slice(meta.as_bytes());
    out.extend_from_slice(so);
    out
}

/// Splits a binary into its kernels and shared object, once its lengths,
/// checksum and ELF headers check out.
pub fn decode(bin: &[u8]) -> Result<(Vec<KernelInfo>, &[u8]), String> {
    let bad = || "ferrocl: not a ferrocl program binary, or a damaged one".to_string();
    if bin.len() < HEADER || &bin[..8] != MAGIC {
        return Err(bad());
    }
    let field = |at: usize| u64::from_le_bytes(bin[at..at + 8].try_into().expect("8 bytes"));
    let version = u32::from_le_bytes(bin[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err("ferrocl: program binary of another ferrocl version".into());
    }
    let (meta_len, so_len) = (field(12), field(20));
    let total = meta_len
        .checked_add(so_len)
        .and_then(|n| n.checked_add(HEADER as u64));
    if total != Some(bin.len() as u64) {
        return Err(bad());
    }
    let meta_end = HEADER + meta_len as usize;
    let (meta, so) = (&bin[HEADER..meta_end], &bin[meta_end..]);
    if checksum(&[&bin[..SUM.start], meta, so])[..] != bin[SUM] {
        return Err(bad());
    }
    check_elf(so).ok_or_else(bad)?;
    let meta = std::str::from_utf8(meta).map_err(|_| bad())?;
    let kernels = parse_kernels(meta.lines()).ok_or_else(bad)?;
    Ok((kernels, so))
}

/// The kernels of a build (passes/kernel_description.h: the metadata's
/// lines, and `note` lines for the build log), and its notes.
pub fn parse_description(description: &str) -> Result<(Vec<KernelInfo>, Vec<String>), String> {
    let (notes, lines): (Vec<&str>, Vec<&str>) =
        description.lines().partition(|l| l.starts_with("note\t"));
    let kernels = parse_kernels(lines.into_iter()).ok_or_else(|| {
        format!("ferrocl: the compiler described the program's kernels wrongly:\n{description}")
    })?;
    let notes = notes.iter().map(|n| unesc(&n["note\t".len()..])).collect();
    Ok((kernels, notes))
}

/// The kernels of metadata lines; None if one is not as `encode` writes.
fn parse_kernels<'a>(lines: impl Iterator<Item = &'a str>) -> Option<Vec<KernelInfo>> {
    let mut kernels: Vec<KernelInfo> = Vec::new();
    for line in lines {
        let f: Vec<&str> = line.split('\t').collect();
        match f.as_slice() {
            ["kernel", name, reqd, hint, barriers, wg, attrs, locals, uniform, frame, arg_info, denormals, inner, waits, splittable, sub_group_size] => {
                kernels.push(KernelInfo {
                    name: unesc(name),
                    args: Vec::new(),
                    reqd_work_group_size: parse_dims(reqd),
                    work_group_size_hint: parse_dims(hint),
                    uses_barriers: *barriers == "1",
                    group_entry: *wg == "1",
                    attributes: unesc(attrs),
                    local_variables_size: locals.parse().ok()?,
                    frame_size: frame.parse().ok()?,
                    uniform_work_groups: *uniform == "1",
                    arg_info: *arg_info == "1",
                    denormals_are_zero: *denormals == "1",
                    inner_dimension: inner.parse().ok().filter(|d: &usize| *d < 3)?,
                    may_wait_for_others: *waits == "1",
                    splittable: *splittable == "1",
                    required_sub_group_size: sub_group_size.parse().ok()?,
                })
            }
            ["arg", space, size, ty, name, access, qual] => {
                let k = kernels.last_mut()?;
                k.args.push(KernelArg {
                    space: match *space {
                        "1" => ArgSpace::Global,
                        "2" => ArgSpace::Constant,
                        "3" => ArgSpace::Local,
                        _ => ArgSpace::Private,
                    },
                    size: size.parse().ok()?,
                    type_name: unesc(ty),
                    name: unesc(name),
                    access: access.parse().ok()?,
                    type_qualifier: qual.parse().ok()?,
                });
            }
            _ => return None,
        }
    }
    Some(kernels)
}

/// Loads the shared object at `path` (whose binary is `binary`) and
/// resolves the entry of each of `kernels`.
pub fn load_so(
    kernels: &[KernelInfo],
    binary: Vec<u8>,
    path: &std::path::Path,
) -> Result<Code, String> {
    // SAFETY: the object is one ferrocl compiled; it has no initialisers
    // that could misbehave (built with -nostartfiles).
    let lib: libloading::Library = unsafe {
        libloading::os::unix::Library::open(Some(path), libc::RTLD_NOW | libc::RTLD_LOCAL)
    }
    .map_err(|e| format!("ferrocl: loading the compiled program: {e}"))?
    .into();
    let mut entries = Vec::new();
    let mut group_entries = Vec::new();
    for k in kernels {
        let sym = format!("{}{}\0", abi::ENTRY_PREFIX, k.name);
        // SAFETY: the entry has the ABI's signature (passes/work_item_entries.cpp).
        let f: abi::WorkItemEntry = unsafe {
            *lib.get::<abi::WorkItemEntry>(sym.as_bytes())
                .map_err(|e| format!("ferrocl: kernel entry {}: {e}", k.name))?
        };
        entries.push(f);
        let group = if k.group_entry {
            let sym = format!("{}{}\0", abi::GROUP_ENTRY_PREFIX, k.name);
            // SAFETY: the entry has the ABI's signature (passes/work_item_entries.cpp).
            Some(unsafe {
                *lib.get::<abi::WorkGroupEntry>(sym.as_bytes())
                    .map_err(|e| format!("ferrocl: kernel entry {}: {e}", k.name))?
            })
        } else {
            None
        };
        group_entries.push(group);
    }
    let size_symbol = format!("{}\0", GLOBAL_VARIABLES_SIZE_SYMBOL);
    // SAFETY: the symbol, where the program defines it, is an i64
    // (passes/global_variables_size.cpp); programs built before it
    // existed have none.
    let global_variables_size = match unsafe { lib.get::<*const u64>(size_symbol.as_bytes()) } {
        // SAFETY: as above: the symbol's address is that of the i64.
        Ok(size) => (unsafe { **size }) as usize,
        Err(_) => 0,
    };
    Ok(Code::new(
        binary,
        entries,
        group_entries,
        Some(lib),
        global_variables_size,
    ))
}

/// clCreateProgramWithBinary and the cache: a binary back to an executable.
pub fn load(bin: &[u8]) -> Result<Executable, String> {
    let (kernels, so) = decode(bin)?;
    let code = driver::with_temp_file("program.so", so, |p| load_so(&kernels, bin.to_vec(), p))??;
    Ok(Executable::new(
        kernels,
        PendingCode::ready(Ok(code)),
        String::new(),
    ))
}

/// Compiled objects and libraries: b"FERROCLO", u32 format version, one
/// byte kind (0 compiled object, 1 library), the checksum of those and the
/// IR (as for programs: a damaged IR text could still parse and link into
/// a program that computes something else), then the LLVM IR text.
const OBJECT_MAGIC: &[u8; 8] = b"FERROCLO";
const OBJECT_HEADER: usize = 8 + 4 + 1 + 16;

pub fn encode_object(o: &Object) -> Vec<u8> {
    let mut out = Vec::with_capacity(OBJECT_HEADER + o.ir.len());
    out.extend_from_slice(OBJECT_MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.push(match o.kind {
        ObjectKind::Compiled => 0,
        ObjectKind::Library => 1,
    });
    let sum = checksum(&[&out, o.ir.as_bytes()]);
    out.extend_from_slice(&sum);
    out.extend_from_slice(o.ir.as_bytes());
    out
}

pub fn decode_object(bin: &[u8]) -> Option<Object> {
    if bin.len() < OBJECT_HEADER || &bin[..8] != OBJECT_MAGIC {
        return None;
    }
    if u32::from_le_bytes(bin[8..12].try_into().ok()?) != VERSION {
        return None;
    }
    let kind = match bin[12] {
        0 => ObjectKind::Compiled,
        1 => ObjectKind::Library,
        _ => return None,
    };
    let ir = &bin[OBJECT_HEADER..];
    if checksum(&[&bin[..13], ir])[..] != bin[13..OBJECT_HEADER] {
        return None;
    }
    let ir = std::str::from_utf8(ir).ok()?.to_string();
    Some(Object {
        kind,
        ir,
        log: String::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::checksum;

    /// The reference implementation's first 128-bit test vectors (key
    /// 00..0f, messages 00..len-1), under that key: the rounds are right.
    #[test]
    fn siphash_128_reference_vectors() {
        let key_checksum =
            |msg: &[u8]| super::siphash128(0x0706050403020100, 0x0f0e0d0c0b0a0908, &[msg]);
        assert_eq!(
            key_checksum(&[]),
            [
                0xa3, 0x81, 0x7f, 0x04, 0xba, 0x25, 0xa8, 0xe6, 0x6d, 0xf6, 0x72, 0x14, 0xc7, 0x55,
                0x02, 0x93
            ]
        );
        // Split anywhere, the same bytes hash the same.
        let msg: Vec<u8> = (0..100u8).collect();
        let whole = checksum(&[&msg]);
        for cut in [0, 1, 7, 8, 9, 50, 99, 100] {
            assert_eq!(checksum(&[&msg[..cut], &msg[cut..]]), whole);
            assert_eq!(checksum(&[&msg[..cut], &[], &msg[cut..]]), whole);
        }
        assert_ne!(checksum(&[&msg[..99]]), whole);
    }
}
