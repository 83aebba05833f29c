//! The program binary (CL_PROGRAM_BINARIES): a small header with the kernel
//! metadata in front of the shared object, so that clCreateProgramWithBinary
//! and the cache recover both.
//!
//! Layout: b"FERROCL\0", u32 format version, u64 metadata length (little
//! endian), the metadata as text lines, then the shared object's bytes.
//!
//! Version 2 added each kernel's work-group entry flag (the field after
//! uses_barriers); version 1 binaries still load, work-item entries only.
//! Version 3 added the __local variables' size, version 4 the uniform
//! work-group flag and the region frame size (kernels run as regions),
//! version 5 whether the kernel answers argument queries and whether it
//! flushes denormals (-cl-kernel-arg-info, -cl-denorms-are-zero).

use super::{
    abi, address_space, driver, ArgSpace, Executable, KernelArg, KernelInfo, Object, ObjectKind,
};

const MAGIC: &[u8; 8] = b"FERROCL\0";
const VERSION: u32 = 5;
const HEADER: usize = 8 + 4 + 8;

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
            "kernel\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
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
            k.denormals_are_zero as u8
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
    out.extend_from_slice(meta.as_bytes());
    out.extend_from_slice(so);
    out
}

/// Splits a binary into its kernels and shared object.
pub fn decode(bin: &[u8]) -> Result<(Vec<KernelInfo>, &[u8]), String> {
    let bad = || "ferrocl: not a ferrocl program binary".to_string();
    if bin.len() < HEADER || &bin[..8] != MAGIC {
        return Err(bad());
    }
    let version = u32::from_le_bytes(bin[8..12].try_into().unwrap());
    if !(1..=VERSION).contains(&version) {
        return Err("ferrocl: program binary of another ferrocl version".into());
    }
    let len = u64::from_le_bytes(bin[12..20].try_into().unwrap()) as usize;
    let meta = bin
        .get(HEADER..HEADER.checked_add(len).ok_or_else(bad)?)
        .ok_or_else(bad)?;
    let meta = std::str::from_utf8(meta).map_err(|_| bad())?;
    let mut kernels: Vec<KernelInfo> = Vec::new();
    for line in meta.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let kernel =
            |name: &str, reqd: &str, hint: &str, barriers: &str, wg: &str, attrs| KernelInfo {
                name: unesc(name),
                args: Vec::new(),
                reqd_work_group_size: parse_dims(reqd),
                work_group_size_hint: parse_dims(hint),
                uses_barriers: barriers == "1",
                group_entry: wg == "1",
                attributes: unesc(attrs),
                local_variables_size: 0,
                frame_size: 0,
                // Binaries before version 4: what their CL1.2 default was.
                uniform_work_groups: true,
                // Before version 5 every kernel answered and none flushed.
                arg_info: true,
                denormals_are_zero: false,
            };
        match f.as_slice() {
            ["kernel", name, reqd, hint, barriers, attrs] if version == 1 => {
                kernels.push(kernel(name, reqd, hint, barriers, "0", attrs))
            }
            ["kernel", name, reqd, hint, barriers, wg, attrs] if version == 2 => {
                kernels.push(kernel(name, reqd, hint, barriers, wg, attrs))
            }
            ["kernel", name, reqd, hint, barriers, wg, attrs, locals] if version == 3 => {
                let mut k = kernel(name, reqd, hint, barriers, wg, attrs);
                k.local_variables_size = locals.parse().map_err(|_| bad())?;
                kernels.push(k)
            }
            ["kernel", name, reqd, hint, barriers, wg, attrs, locals, uniform, frame, flags @ ..]
                if version >= 4 && flags.len() == if version >= 5 { 2 } else { 0 } =>
            {
                let mut k = kernel(name, reqd, hint, barriers, wg, attrs);
                k.local_variables_size = locals.parse().map_err(|_| bad())?;
                k.uniform_work_groups = *uniform == "1";
                k.frame_size = frame.parse().map_err(|_| bad())?;
                if let [arg_info, denormals] = flags {
                    k.arg_info = *arg_info == "1";
                    k.denormals_are_zero = *denormals == "1";
                }
                kernels.push(k)
            }
            ["arg", space, size, ty, name, access, qual] => {
                let k = kernels.last_mut().ok_or_else(bad)?;
                k.args.push(KernelArg {
                    space: match *space {
                        "1" => ArgSpace::Global,
                        "2" => ArgSpace::Constant,
                        "3" => ArgSpace::Local,
                        _ => ArgSpace::Private,
                    },
                    size: size.parse().map_err(|_| bad())?,
                    type_name: unesc(ty),
                    name: unesc(name),
                    access: access.parse().map_err(|_| bad())?,
                    type_qualifier: qual.parse().map_err(|_| bad())?,
                });
            }
            _ => return Err(bad()),
        }
    }
    Ok((kernels, &bin[HEADER + len..]))
}

/// Loads the shared object at `path` and resolves each kernel's entry.
pub fn load_so(
    kernels: Vec<KernelInfo>,
    binary: Vec<u8>,
    path: &std::path::Path,
    log: String,
) -> Result<Executable, String> {
    // SAFETY: the object is one ferrocl compiled; it has no initialisers
    // that could misbehave (built with -nostartfiles).
    let lib: libloading::Library = unsafe {
        libloading::os::unix::Library::open(Some(path), libc::RTLD_NOW | libc::RTLD_LOCAL)
    }
    .map_err(|e| format!("ferrocl: loading the compiled program: {e}"))?
    .into();
    let mut entries = Vec::new();
    let mut group_entries = Vec::new();
    for k in &kernels {
        let sym = format!("{}{}\0", abi::ENTRY_PREFIX, k.name);
        // SAFETY: the entry has the ABI's signature (generated in ir.rs).
        let f: abi::WorkItemEntry = unsafe {
            *lib.get::<abi::WorkItemEntry>(sym.as_bytes())
                .map_err(|e| format!("ferrocl: kernel entry {}: {e}", k.name))?
        };
        entries.push(f);
        let group = if k.group_entry {
            let sym = format!("{}{}\0", abi::GROUP_ENTRY_PREFIX, k.name);
            // SAFETY: the entry has the ABI's signature (generated in ir.rs).
            Some(unsafe {
                *lib.get::<abi::WorkGroupEntry>(sym.as_bytes())
                    .map_err(|e| format!("ferrocl: kernel entry {}: {e}", k.name))?
            })
        } else {
            None
        };
        group_entries.push(group);
    }
    let mut exe = Executable::with_group_entries(kernels, binary, entries, group_entries);
    let size_symbol = format!("{}\0", address_space::GLOBAL_VARIABLES_SIZE_SYMBOL);
    // SAFETY: the symbol, where the program defines it, is an i64
    // (address_space::global_variables_size); programs built before it
    // existed have none.
    if let Ok(size) = unsafe { lib.get::<*const u64>(size_symbol.as_bytes()) } {
        // SAFETY: as above: the symbol's address is that of the i64.
        exe.global_variables_size = unsafe { **size } as usize;
    }
    exe.library = Some(lib);
    exe.log = log;
    Ok(exe)
}

/// clCreateProgramWithBinary and the cache: a binary back to an executable.
pub fn load(bin: &[u8]) -> Result<Executable, String> {
    let (kernels, so) = decode(bin)?;
    driver::with_temp_file("program.so", so, |p| {
        load_so(kernels, bin.to_vec(), p, String::new())
    })?
}

/// Compiled objects and libraries: b"FERROCLO", u32 format version, one
/// byte kind (0 compiled object, 1 library), then the LLVM IR text.
const OBJECT_MAGIC: &[u8; 8] = b"FERROCLO";

pub fn encode_object(o: &Object) -> Vec<u8> {
    let mut out = Vec::with_capacity(13 + o.ir.len());
    out.extend_from_slice(OBJECT_MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.push(match o.kind {
        ObjectKind::Compiled => 0,
        ObjectKind::Library => 1,
    });
    out.extend_from_slice(o.ir.as_bytes());
    out
}

pub fn decode_object(bin: &[u8]) -> Option<Object> {
    if bin.len() < 13 || &bin[..8] != OBJECT_MAGIC {
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
    let ir = std::str::from_utf8(&bin[13..]).ok()?.to_string();
    Some(Object {
        kind,
        ir,
        log: String::new(),
    })
}
