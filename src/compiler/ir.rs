//! Reading and rewriting clang's textual LLVM IR: kernel metadata, parameter
//! types and sizes, the call graph (for barriers), and the work-item entries.

use super::regions::{self, RegionPlan};
use super::{ArgSpace, KernelArg, KernelInfo};
use crate::cl::*;
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

/// One kernel as found in the module, with its IR parameters.
pub struct IrKernel {
    pub info: KernelInfo,
    /// Per parameter: the IR type, and for `byval(T)` parameters T and the
    /// parameter's alignment.
    params: Vec<IrParam>,
    /// For a kernel with barriers run as compiled loops: its regions.
    regions: Option<RegionPlan>,
    /// A kernel-scope __local variable the kernel uses, if any (see
    /// group_entry_head).
    local_variable: Option<String>,
}

struct IrParam {
    ty: String,
    byval: Option<(String, u64)>,
}

/// Splits `s` at top-level commas (outside (), [], {}, <> and strings).
pub(super) fn split_top(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start, mut in_str) = (0i32, 0, false);
    for (i, c) in s.char_indices() {
        match c {
            '"' => in_str = !in_str,
            _ if in_str => {}
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' | '>' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !s[start..].trim().is_empty() {
        out.push(s[start..].trim());
    }
    out
}

/// The index just past the bracket group opening at `open`.
pub(super) fn matching(s: &str, open: usize) -> usize {
    let mut depth = 0;
    for (i, c) in s[open..].char_indices() {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' | '>' => {
                depth -= 1;
                if depth == 0 {
                    return open + i + 1;
                }
            }
            _ => {}
        }
    }
    s.len()
}

/// The type at the start of a parameter (`ptr addrspace(1)`, `<4 x float>`,
/// `%struct.S`, `i32`), and the rest (attributes, name).
pub(super) fn leading_type(p: &str) -> (&str, &str) {
    let end = match p.chars().next() {
        Some('<' | '[' | '{') => matching(p, 0),
        _ => p.find(' ').unwrap_or(p.len()),
    };
    let mut end = end;
    let rest = p[end..].trim_start();
    if rest.starts_with("addrspace(") {
        let off = p.len() - rest.len();
        end = matching(p, off + "addrspace".len());
    }
    (&p[..end], p[end..].trim_start())
}

/// Decodes an LLVM string literal body (`\XX` hex escapes).
fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 2 < b.len() + 1 && i + 2 <= b.len() {
            if let Ok(v) = u8::from_str_radix(
                std::str::from_utf8(&b[i + 1..(i + 3).min(b.len())]).unwrap_or(""),
                16,
            ) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[derive(Clone, Debug)]
enum Md {
    Int(i64),
    Str(String),
    /// Anything else, as written (e.g. `<2 x i8> undef`).
    Other(String),
}

fn parse_md_items(body: &str) -> Vec<Md> {
    split_top(body)
        .into_iter()
        .map(|item| {
            if let Some(s) = item.strip_prefix("!\"") {
                Md::Str(unescape(s.strip_suffix('"').unwrap_or(s)))
            } else if let Some(i) = item
                .split_once(' ')
                .and_then(|(_, v)| v.trim().parse().ok())
            {
                Md::Int(i)
            } else {
                Md::Other(item.to_string())
            }
        })
        .collect()
}

/// The OpenCL C name of a vec_type_hint's IR type (`<4 x float>` -> float4).
fn vec_type_name(ir: &str, signed: bool) -> Option<String> {
    let ty = ir
        .trim()
        .trim_end_matches("undef")
        .trim_end_matches("poison")
        .trim();
    let (lanes, elem) = match ty.strip_prefix('<').and_then(|t| t.strip_suffix('>')) {
        Some(v) => {
            let (n, e) = v.split_once(" x ")?;
            (n.trim().to_string(), e.trim())
        }
        None => (String::new(), ty),
    };
    let base = match elem {
        "i8" => "char",
        "i16" => "short",
        "i32" => "int",
        "i64" => "long",
        "half" => "half",
        "float" => "float",
        "double" => "double",
        _ => return None,
    };
    let unsigned = elem.starts_with('i') && !signed;
    Some(format!("{}{base}{lanes}", if unsigned { "u" } else { "" }))
}

/// ABI size and alignment of an IR type on x86_64 (the module's layout).
pub(super) fn type_layout(ty: &str, structs: &HashMap<String, String>) -> (u64, u64) {
    let ty = ty.trim();
    if ty.starts_with("ptr") {
        return (8, 8);
    }
    if let Some(body) = ty.strip_prefix('<').and_then(|t| t.strip_suffix('>')) {
        if let Some(inner) = body.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
            return struct_layout(inner, true, structs);
        }
        let (n, elem) = body.split_once(" x ").unwrap_or(("1", body));
        let n: u64 = n.trim().parse().unwrap_or(1);
        let (es, _) = type_layout(elem, structs);
        let size = (n * es).next_power_of_two().max(1);
        return (size, size);
    }
    if let Some(body) = ty.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        let (n, elem) = body.split_once(" x ").unwrap_or(("1", body));
        let n: u64 = n.trim().parse().unwrap_or(1);
        let (es, ea) = type_layout(elem, structs);
        return (n * es, ea);
    }
    if let Some(inner) = ty.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
        return struct_layout(inner, false, structs);
    }
    if ty.starts_with('%') {
        return match structs.get(ty) {
            Some(def) => type_layout(def, structs),
            None => (0, 1),
        };
    }
    match ty {
        "half" | "bfloat" => (2, 2),
        "float" => (4, 4),
        "double" => (8, 8),
        "fp128" | "x86_fp80" => (16, 16),
        _ => match ty.strip_prefix('i').and_then(|b| b.parse::<u64>().ok()) {
            Some(bits) => {
                let bytes = bits.div_ceil(8).next_power_of_two();
                (bytes, bytes.min(16))
            }
            None => (0, 1),
        },
    }
}

fn struct_layout(inner: &str, packed: bool, structs: &HashMap<String, String>) -> (u64, u64) {
    let (mut size, mut align) = (0u64, 1u64);
    for field in split_top(inner) {
        let (fs, fa) = type_layout(field, structs);
        let fa = if packed { 1 } else { fa.max(1) };
        size = size.div_ceil(fa) * fa + fs;
        align = align.max(fa);
    }
    (size.div_ceil(align) * align, align)
}

fn qualifier_bits(q: &str) -> cl_kernel_arg_type_qualifier {
    let mut bits = CL_KERNEL_ARG_TYPE_NONE as cl_kernel_arg_type_qualifier;
    for w in q.split_whitespace() {
        bits |= match w {
            "const" => CL_KERNEL_ARG_TYPE_CONST,
            "restrict" => CL_KERNEL_ARG_TYPE_RESTRICT,
            "volatile" => CL_KERNEL_ARG_TYPE_VOLATILE,
            "pipe" => CL_KERNEL_ARG_TYPE_PIPE,
            _ => 0,
        } as cl_kernel_arg_type_qualifier;
    }
    bits
}

fn access_qualifier(q: &str) -> cl_kernel_arg_access_qualifier {
    (match q {
        "read_only" => CL_KERNEL_ARG_ACCESS_READ_ONLY,
        "write_only" => CL_KERNEL_ARG_ACCESS_WRITE_ONLY,
        "read_write" => CL_KERNEL_ARG_ACCESS_READ_WRITE,
        _ => CL_KERNEL_ARG_ACCESS_NONE,
    }) as cl_kernel_arg_access_qualifier
}

/// Calls that make work-items wait for each other: OpenCL C's barriers,
/// work-group and sub-group functions (async_work_group_*copy included;
/// wait_group_events is a barrier), clang's work-group and sub-group pipe
/// reservations, and ferrocl's collective wait. Known by their exact
/// identifiers, never by a part of a name: a program's own
/// `my_work_group_sum` is ordinary code (its body's calls are followed
/// like any other function's).
pub(super) fn is_barrier_symbol(name: &str) -> bool {
    if name == regions::COLLECTIVE_WAIT
        || name.starts_with("__work_group_")
        || name.starts_with("__sub_group_")
    {
        return true;
    }
    // The builtins are overloaded, so mangled: `_Z<length><identifier>`.
    let Some(id) = mangled_identifier(name) else {
        return false;
    };
    id == "barrier"
        || id == "wait_group_events"
        || id.starts_with("work_group_")
        || id.starts_with("async_work_group_")
        || is_sub_group_identifier(id)
}

/// The sub-group functions, queries included (they read the running
/// work-item's id from the context, which a work-group entry's loops do
/// not update): such kernels run on fibers, whose executor tells
/// sub-group barriers from work-group ones.
fn is_sub_group_identifier(id: &str) -> bool {
    id.starts_with("sub_group_")
        || id.starts_with("get_sub_group_")
        || id.starts_with("get_max_sub_group_")
        || id == "get_num_sub_groups"
        || id == "get_enqueued_num_sub_groups"
}

/// The identifier of a mangled C++/OpenCL C name (`_Z3sinf`: `sin`); None
/// for a name that is not mangled.
pub(super) fn mangled_identifier(sym: &str) -> Option<&str> {
    let r = sym.strip_prefix("_Z")?;
    let digits = r.find(|c: char| !c.is_ascii_digit())?;
    let n: usize = r[..digits].parse().ok()?;
    r.get(digits..digits + n)
}

/// The work-item functions (their mangled names) and, for work-group
/// entries, their twins in builtins/workitem.c that take the context and
/// the local id as arguments; with the twin's return type and whether it
/// takes a dimension.
pub(super) const WORK_ITEM_FNS: &[(&str, &str, &str, bool)] = &[
    ("_Z12get_work_dimv", "__ferrocl_loop_work_dim", "i32", false),
    (
        "_Z15get_global_sizej",
        "__ferrocl_loop_global_size",
        "i64",
        true,
    ),
    (
        "_Z14get_local_sizej",
        "__ferrocl_loop_local_size",
        "i64",
        true,
    ),
    (
        "_Z23get_enqueued_local_sizej",
        "__ferrocl_loop_enqueued_local_size",
        "i64",
        true,
    ),
    ("_Z12get_local_idj", "__ferrocl_loop_local_id", "i64", true),
    (
        "_Z14get_num_groupsj",
        "__ferrocl_loop_num_groups",
        "i64",
        true,
    ),
    ("_Z12get_group_idj", "__ferrocl_loop_group_id", "i64", true),
    (
        "_Z17get_global_offsetj",
        "__ferrocl_loop_global_offset",
        "i64",
        true,
    ),
    (
        "_Z13get_global_idj",
        "__ferrocl_loop_global_id",
        "i64",
        true,
    ),
    (
        "_Z20get_global_linear_idv",
        "__ferrocl_loop_global_linear_id",
        "i64",
        false,
    ),
    (
        "_Z19get_local_linear_idv",
        "__ferrocl_loop_local_linear_id",
        "i64",
        false,
    ),
];

fn is_work_item_symbol(name: &str) -> bool {
    WORK_ITEM_FNS.iter().any(|f| f.0 == name)
}

/// The internal copy of a kernel that a work-group entry calls per
/// work-item (a `.` keeps it apart from any OpenCL C name).
pub(super) const WG_BODY_PREFIX: &str = "__ferrocl_wgbody.";

/// The parameters a kernel's work-group copy takes after the kernel's own.
/// Not `noalias`: the inliner would mark each inlined copy with a
/// `noalias.scope.decl` call, which keeps LLVM from treating the work-item
/// loop as parallel (see ParallelAccess). The work-group entry's own `ctx`
/// is `noalias readonly`, which makes every load from it invariant.
pub(super) const WG_PARAMS: &str =
    "ptr nocapture readonly %__ferrocl.ctx, i64 %__ferrocl.lx, i64 %__ferrocl.ly, i64 %__ferrocl.lz";
const WG_ARGS: &str = "ptr %__ferrocl.ctx, i64 %__ferrocl.lx, i64 %__ferrocl.ly, i64 %__ferrocl.lz";

/// A parsed module: its kernels and what rewriting needs.
pub struct Module {
    pub kernels: Vec<IrKernel>,
    /// For the build log: kernels that take the safe path (fibers) where
    /// the region transform should have cut them, and why.
    pub notes: Vec<String>,
}

pub fn analyze(text: &str) -> Result<Module, String> {
    let mut md: HashMap<&str, Vec<Md>> = HashMap::new();
    let mut structs = HashMap::new();
    let calls = call_graph(text);
    let mut kernel_lines = Vec::new();
    // Each kernel's lines, `define` to `}`.
    let mut bodies: HashMap<String, Vec<&str>> = HashMap::new();
    let mut current: Option<String> = None;
    // Kernel-scope __local variables: addrspace(3) globals, by name.
    let mut local_vars: Vec<(String, &str)> = Vec::new();
    // Attribute groups: "#N" -> its attributes.
    let mut attribute_groups: HashMap<&str, &str> = HashMap::new();
    for line in text.lines() {
        if let Some((group, attrs)) = line
            .strip_prefix("attributes ")
            .and_then(|r| r.split_once(" = "))
        {
            attribute_groups.insert(group, attrs);
        }
        if line.starts_with('@') {
            if let (Some(name), Some(at)) = (
                symbol_after_at(line),
                global_header(line).find(" addrspace(3) global "),
            ) {
                local_vars.push((name, &line[at + " addrspace(3) global ".len()..]));
            }
        }
        if let Some(rest) = line.strip_prefix('!') {
            if let Some((id, body)) = rest.split_once(" = ") {
                let body = body.trim_start_matches("distinct ");
                if let Some(items) = body.strip_prefix("!{").and_then(|b| b.strip_suffix('}')) {
                    md.insert(&line[..id.len() + 1], parse_md_items(items));
                }
            }
        } else if line.starts_with('%') {
            if let Some((name, def)) = line.split_once(" = type ") {
                structs.insert(name.to_string(), def.trim().to_string());
            }
        } else if line.starts_with("define ") {
            let name = symbol_after_at(line).unwrap_or_default();
            if line.contains(" spir_kernel ") {
                kernel_lines.push(line);
                bodies.insert(name.clone(), Vec::new());
                current = Some(name);
            }
        }
        if let Some(f) = &current {
            bodies.entry(f.clone()).or_default().push(line);
            if line.starts_with('}') {
                current = None;
            }
        }
    }
    let local_sizes: HashMap<String, u64> = local_vars
        .into_iter()
        .map(|(name, rest)| (name, type_layout(leading_type(rest).0, &structs).0))
        .collect();
    let mut kernels = Vec::new();
    let mut notes = Vec::new();
    for line in kernel_lines {
        let mut k = kernel_of(line, &md, &structs, &calls)?;
        // Kernels with barriers, or with implicit ones (uniform_loops.rs),
        // run as regions when every wait is in the kernel's own body.
        let implicit = calls
            .get(&k.info.name)
            .is_some_and(|c| c.contains(regions::IMPLICIT_BARRIER));
        let cut = match k.info.uses_barriers {
            true => only_own_barriers(&k.info.name, &calls),
            false => implicit,
        };
        if cut && loop_safe(&k.info.name, &calls) {
            k.regions = bodies
                .get(&k.info.name)
                .and_then(|body| regions::plan(body, &structs));
            match &k.regions {
                Some(plan) => {
                    k.info.group_entry = true;
                    k.info.frame_size = plan.frame_size;
                }
                None => notes.push(format!(
                    "ferrocl: note: kernel {}: its barriers could not be cut into regions \
                     (code the region transform does not handle); it runs one fiber per \
                     work-item, correctly but more slowly",
                    k.info.name
                )),
            }
        }
        let used = reachable(&k.info.name, &calls);
        k.info.local_variables_size = used
            .iter()
            .filter_map(|sym| local_sizes.get(sym))
            .sum::<u64>() as usize;
        k.local_variable = used.into_iter().find(|sym| local_sizes.contains_key(sym));
        // `define ... @k(...) #0 !kernel_arg_addr_space ...`
        let tail = &line[line.find('(').map_or(0, |o| matching(line, o))..];
        k.info.uniform_work_groups = tail.split(' ').any(|t| {
            attribute_groups
                .get(t)
                .is_some_and(|a| a.contains("\"uniform-work-group-size\"=\"true\""))
        });
        kernels.push(k);
    }
    Ok(Module { kernels, notes })
}

/// Per defined function, every symbol its body names.
pub(super) fn call_graph(text: &str) -> HashMap<String, HashSet<String>> {
    let mut calls: HashMap<String, HashSet<String>> = HashMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if line.starts_with("define ") {
            current = symbol_after_at(line);
        } else if line.starts_with('}') {
            current = None;
        } else if let Some(f) = &current {
            let mut rest = line;
            while let Some(at) = rest.find('@') {
                rest = &rest[at..];
                if let Some(sym) = symbol_after_at(rest) {
                    calls.entry(f.clone()).or_default().insert(sym);
                }
                rest = &rest[1..];
            }
        }
    }
    calls
}

/// Whether a kernel's only waits are plain barriers in its own body (the
/// functions it calls were inlined), as the region transform needs.
fn only_own_barriers(kernel: &str, calls: &HashMap<String, HashSet<String>>) -> bool {
    let waits = |f: &str| {
        calls
            .get(f)
            .into_iter()
            .flatten()
            .filter(|g| is_barrier_symbol(g))
            .collect::<Vec<_>>()
    };
    waits(kernel).iter().all(|g| regions::is_plain_barrier(g))
        && reachable(kernel, calls)
            .iter()
            .filter(|f| *f != kernel)
            .all(|f| waits(f).is_empty())
}

pub(super) fn symbol_after_at(s: &str) -> Option<String> {
    let at = s.find('@')?;
    let rest = &s[at + 1..];
    if let Some(q) = rest.strip_prefix('"') {
        return q.find('"').map(|e| q[..e].to_string());
    }
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$'))
        .unwrap_or(rest.len());
    (end > 0).then(|| rest[..end].to_string())
}

/// Every symbol `f` refers to, directly or through the functions it calls.
fn reachable(f: &str, calls: &HashMap<String, HashSet<String>>) -> HashSet<String> {
    let mut seen = HashSet::new();
    let mut stack = vec![f.to_string()];
    while let Some(g) = stack.pop() {
        if seen.insert(g.clone()) {
            stack.extend(calls.get(&g).into_iter().flatten().cloned());
        }
    }
    seen
}

fn reaches_barrier(f: &str, calls: &HashMap<String, HashSet<String>>) -> bool {
    reaches(f, calls, is_barrier_symbol)
}

/// Whether `f` calls a symbol `target` accepts, directly or through the
/// functions it calls.
pub(super) fn reaches(
    f: &str,
    calls: &HashMap<String, HashSet<String>>,
    target: impl Fn(&str) -> bool,
) -> bool {
    let mut seen = HashSet::new();
    let mut stack = vec![f];
    while let Some(g) = stack.pop() {
        if !seen.insert(g) {
            continue;
        }
        for c in calls.get(g).into_iter().flatten() {
            if target(c) {
                return true;
            }
            stack.push(c);
        }
    }
    false
}

/// Whether a kernel's work-item functions can become loop variables: it
/// calls them only in its own body. A function it calls that asks for them
/// itself (clang did not inline it, or another kernel) reads the running
/// work-item from the context, which a work-group entry does not update, so
/// such a kernel runs work-item by work-item instead.
fn loop_safe(kernel: &str, calls: &HashMap<String, HashSet<String>>) -> bool {
    let mut seen = HashSet::new();
    let mut stack: Vec<&str> = calls
        .get(kernel)
        .into_iter()
        .flatten()
        .map(|s| s.as_str())
        .collect();
    while let Some(g) = stack.pop() {
        if !seen.insert(g) {
            continue;
        }
        let Some(callees) = calls.get(g) else {
            continue;
        };
        if callees.iter().any(|c| is_work_item_symbol(c)) {
            return false;
        }
        stack.extend(callees.iter().map(|s| s.as_str()));
    }
    true
}

fn kernel_of(
    line: &str,
    md: &HashMap<&str, Vec<Md>>,
    structs: &HashMap<String, String>,
    calls: &HashMap<String, HashSet<String>>,
) -> Result<IrKernel, String> {
    let name = symbol_after_at(line).ok_or("ferrocl: unreadable kernel definition")?;
    let open = line
        .find('@')
        .and_then(|a| line[a..].find('(').map(|p| a + p))
        .ok_or("ferrocl: unreadable kernel")?;
    let close = matching(line, open);
    let params_text = &line[open + 1..close - 1];
    let tail = &line[close..];
    // `!kernel_arg_type !8` in the attachments after the parameters.
    let attachment = |key: &str| -> Vec<Md> {
        let pat = format!("!{key} ");
        tail.find(&pat)
            .and_then(|i| {
                let id = tail[i + pat.len()..].split([' ', ',', '{']).next()?;
                md.get(id).cloned()
            })
            .unwrap_or_default()
    };
    let strs = |key: &str| -> Vec<String> {
        attachment(key)
            .into_iter()
            .map(|m| match m {
                Md::Str(s) => s,
                _ => String::new(),
            })
            .collect()
    };
    let ints = |key: &str| -> Vec<i64> {
        attachment(key)
            .into_iter()
            .map(|m| match m {
                Md::Int(i) => i,
                _ => 0,
            })
            .collect()
    };
    let dims = |key: &str| -> Option<[usize; 3]> {
        let v = ints(key);
        (v.len() == 3).then(|| [v[0] as usize, v[1] as usize, v[2] as usize])
    };
    let spaces = ints("kernel_arg_addr_space");
    let types = strs("kernel_arg_type");
    let names = strs("kernel_arg_name");
    let access = strs("kernel_arg_access_qual");
    let quals = strs("kernel_arg_type_qual");
    let mut params = Vec::new();
    let mut args = Vec::new();
    for (i, p) in split_top(params_text).into_iter().enumerate() {
        let (ty, attrs) = leading_type(p);
        let byval = attrs.find("byval(").map(|b| {
            let open = b + "byval".len();
            let t = attrs[open + 1..matching(attrs, open) - 1].to_string();
            let align = attrs
                .split("align ")
                .nth(1)
                .and_then(|a| a.split(' ').next()?.parse().ok())
                .unwrap_or(1);
            (t, align)
        });
        let space = match spaces.get(i) {
            Some(1) => ArgSpace::Global,
            Some(2) => ArgSpace::Constant,
            Some(3) => ArgSpace::Local,
            _ => ArgSpace::Private,
        };
        let size = match (&byval, space) {
            (Some((t, _)), ArgSpace::Private) => type_layout(t, structs).0,
            (None, ArgSpace::Private) => type_layout(ty, structs).0,
            _ => 8,
        } as usize;
        args.push(KernelArg {
            space,
            size,
            type_name: types.get(i).cloned().unwrap_or_default(),
            name: names.get(i).cloned().unwrap_or_default(),
            access: access_qualifier(access.get(i).map_or("", |s| s)),
            type_qualifier: qualifier_bits(quals.get(i).map_or("", |s| s)),
        });
        params.push(IrParam {
            ty: ty.to_string(),
            byval,
        });
    }
    let reqd = dims("reqd_work_group_size");
    let hint = dims("work_group_size_hint");
    let mut attributes = Vec::new();
    if let Some([x, y, z]) = reqd {
        attributes.push(format!("reqd_work_group_size({x},{y},{z})"));
    }
    if let Some([x, y, z]) = hint {
        attributes.push(format!("work_group_size_hint({x},{y},{z})"));
    }
    // !{<2 x i8> undef, i32 0}: the type, and 1 for signed.
    if let [Md::Other(ty), Md::Int(signed)] = attachment("vec_type_hint").as_slice() {
        if let Some(t) = vec_type_name(ty, *signed != 0) {
            attributes.push(format!("vec_type_hint({t})"));
        }
    }
    let uses_barriers = reaches_barrier(&name, calls);
    Ok(IrKernel {
        info: KernelInfo {
            group_entry: !uses_barriers && loop_safe(&name, calls),
            uses_barriers,
            name,
            args,
            reqd_work_group_size: reqd,
            work_group_size_hint: hint,
            attributes: attributes.join(" "),
            local_variables_size: 0,
            frame_size: 0,
            uniform_work_groups: false,
            arg_info: tail.contains("!kernel_arg_name "),
            denormals_are_zero: tail.contains(&format!("!{DENORMALS_ARE_ZERO} ")),
        },
        params,
        regions: None,
        local_variable: None,
    })
}

/// The metadata a kernel built with -cl-denorms-are-zero carries (clang
/// has no x86 attribute for it that leaves inlining of the builtins be),
/// as passes/kernel_options.cpp names it.
pub(super) const DENORMALS_ARE_ZERO: &str = "ferrocl.denorms_are_zero";

/// The highest `#N` attribute group and `!N` metadata number in the module.
pub(super) fn max_numbers(text: &str) -> (usize, usize) {
    let (mut attrs, mut md) = (0, 0);
    for line in text.lines() {
        let num = |s: &str| -> Option<usize> {
            s[..s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len())]
                .parse()
                .ok()
        };
        if let Some(r) = line.strip_prefix("attributes #") {
            attrs = attrs.max(num(r).unwrap_or(0));
        } else if let Some(r) = line.strip_prefix('!') {
            md = md.max(num(r).unwrap_or(0));
        }
    }
    (attrs, md)
}

/// A global variable's line up to its initializer's first string (`c"..."`
/// in a constant's initializer is the program's data, which may read like
/// IR), its quoted name aside.
pub(super) fn global_header(line: &str) -> &str {
    let name_end = match line.strip_prefix("@\"") {
        Some(rest) => rest.find('"').map_or(line.len(), |e| e + 3),
        None => 0,
    };
    let end = line[name_end..]
        .find('"')
        .map_or(line.len(), |q| name_end + q);
    &line[..end]
}

/// The module ready for the back end: kernels become internal functions
/// with the C calling convention (__local variables are thread-local
/// already: passes/thread_local_locals.cpp), target attributes dropped (the
/// back end picks the host CPU), and a work-item entry per kernel appended;
/// for each kernel with `group_entry`, a copy of its body taking the local
/// id as arguments and a work-group entry running it in loops.
pub fn rewrite(text: &str, module: &Module, entries: WorkItemEntries) -> String {
    let (max_attr, max_md) = max_numbers(text);
    let mut out = String::with_capacity(text.len() * 2 + 4096);
    let mut attr_groups: HashMap<String, String> = HashMap::new();
    // Per kernel with a work-group entry, in module order: its copy.
    let mut copies: Vec<(String, String)> = Vec::new();
    let mut copying: Option<(String, String)> = None;
    let mut twins_used = vec![false; WORK_ITEM_FNS.len()];
    for line in text.lines() {
        let l = if line.starts_with("define ") {
            let l = line
                .replace(" spir_kernel ", " ")
                .replace(" spir_func ", " ");
            match l.strip_prefix("define dso_local ") {
                Some(rest) => format!("define internal {rest}"),
                None => l,
            }
        } else if line.starts_with("attributes #") {
            let mut l = line.to_string();
            for key in ["\"target-cpu\"=", "\"target-features\"=", "\"tune-cpu\"="] {
                if let Some(i) = l.find(key) {
                    let vstart = i + key.len() + 1;
                    if let Some(vlen) = l[vstart..].find('"') {
                        l.replace_range(i..vstart + vlen + 1, "");
                    }
                }
            }
            if let Some((id, body)) = l["attributes ".len()..].split_once(" = ") {
                attr_groups.insert(id.to_string(), body.to_string());
            }
            l
        } else if line.contains("spir_") && !line.starts_with('@') && !line.starts_with('!') {
            // Calls and declarations; never a global's initializer or
            // metadata, whose strings are the program's data.
            line.replace(" spir_kernel ", " ")
                .replace(" spir_func ", " ")
        } else {
            line.to_string()
        };
        if line.starts_with("define ") {
            let name = symbol_after_at(line).unwrap_or_default();
            if module
                .kernels
                .iter()
                .any(|k| k.info.group_entry && k.info.name == name)
            {
                copying = Some((name, String::new()));
            }
        }
        if let Some((_, body)) = &mut copying {
            if line.starts_with("define ") {
                body.push_str(&l);
            } else {
                body.push_str(&loop_twins(&l, &mut twins_used));
            }
            body.push('\n');
            if line.starts_with('}') {
                copies.extend(copying.take());
            }
        }
        out.push_str(&l);
        out.push('\n');
    }
    out.push_str("\n@__ferrocl_ctx = external hidden thread_local global ptr\n");
    for k in &module.kernels {
        entry_ir(&mut out, k, entries);
    }
    for (i, &(_, twin, ret, dim)) in WORK_ITEM_FNS.iter().enumerate() {
        if twins_used[i] {
            let dim = if dim { ", i32" } else { "" };
            let _ = writeln!(out, "declare {ret} @{twin}(ptr, i64, i64, i64{dim})");
        }
    }
    let mut next_md = max_md + 1;
    // The local sizes' range (group_entry_head).
    let range_md = next_md;
    next_md += 1;
    if !copies.is_empty() {
        let _ = writeln!(
            out,
            "!{range_md} = !{{i64 0, i64 {}}}",
            crate::core::kernel::MAX_WORK_GROUP_SIZE + 1
        );
    }
    for (n, (name, body)) in copies.iter().enumerate() {
        let Some(k) = module.kernels.iter().find(|k| &k.info.name == name) else {
            continue;
        };
        let group = max_attr + 1 + n;
        let (define, rest) = body.split_once('\n').unwrap_or((body, ""));
        let (define, attrs) = copy_define(define, name, group, &attr_groups);
        let access = ParallelAccess::new(&mut next_md);
        match &k.regions {
            None => {
                let _ = writeln!(out, "\n{define}");
                for line in rest.lines() {
                    let _ = writeln!(out, "{}", access.tag(line));
                }
                let call_args = group_entry_head(&mut out, k, range_md);
                group_loops_ir(&mut out, k, call_args, &access, &mut next_md);
            }
            Some(plan) => {
                let lines: Vec<&str> = rest.lines().collect();
                let mut guarded = Vec::new();
                for r in 0..plan.regions() {
                    let define = regions::region_define(&define, name, r);
                    regions::write_region(&mut out, plan, &define, &lines, r, &access);
                    let guard = super::clip::guard(plan, &lines, r);
                    if let Some(g) = &guard {
                        let bound = regions::bound_define(&define, name, r);
                        super::clip::write_bound_function(&mut out, &bound, plan, g);
                    }
                    guarded.push(guard.is_some());
                }
                let call_args = group_entry_head(&mut out, k, range_md);
                regions::write_group_entry(
                    &mut out,
                    name,
                    plan,
                    &call_args,
                    &access,
                    &guarded,
                    &mut next_md,
                );
            }
        }
        let _ = writeln!(out, "{}", access.declaration());
        let _ = writeln!(out, "attributes #{group} = {attrs}");
    }
    out
}

/// A work-group copy's `define` line: renamed, with the loop parameters,
/// and its own attribute group (returned): the kernel's, without its
/// memory effects (the copy reads the context) and always inlined into the
/// work-group entry unless the kernel must not be inlined (-cl-opt-disable).
fn copy_define(
    line: &str,
    name: &str,
    group: usize,
    attr_groups: &HashMap<String, String>,
) -> (String, String) {
    let at = line.find('@').unwrap_or(0);
    let open = at + line[at..].find('(').unwrap_or(0);
    let close = matching(line, open);
    // No `noalias` (restrict): inlined, it leaves noalias.scope.decl calls
    // in the work-item loop, which keep LLVM from treating it as parallel
    // (ParallelAccess says more than restrict would).
    let params = line[open + 1..close - 1].trim().replace(" noalias", "");
    let sep = if params.is_empty() { "" } else { ", " };
    let mut tail = line[close..].to_string();
    let mut attrs = String::from("{ }");
    // The attribute group reference: ` #N` before the attachments.
    let hash = tail
        .match_indices(" #")
        .map(|(i, _)| i)
        .find(|&i| tail[i + 2..].starts_with(|c: char| c.is_ascii_digit()));
    match hash {
        Some(i) => {
            let end = tail[i + 2..]
                .find(|c: char| !c.is_ascii_digit())
                .map_or(tail.len(), |e| i + 2 + e);
            if let Some(a) = attr_groups.get(&tail[i + 1..end]) {
                attrs = a.clone();
            }
            tail.replace_range(i..end, &format!(" #{group}"));
        }
        None => {
            let i = tail.rfind(" {").unwrap_or(tail.len());
            tail.insert_str(i, &format!(" #{group}"));
        }
    }
    while let Some(m) = attrs.find("memory(") {
        let end = matching(&attrs, m + "memory".len());
        attrs.replace_range(m..end, "");
    }
    if !attrs.contains("noinline") {
        attrs = attrs.replacen('{', "{ alwaysinline", 1);
    }
    (
        format!(
            "{}@\"{WG_BODY_PREFIX}{name}\"({params}{sep}{WG_PARAMS}){tail}",
            &line[..at]
        ),
        attrs,
    )
}

/// A line of a work-group copy with each call to a work-item function
/// turned into a call to its twin, on the copy's loop parameters.
fn loop_twins(line: &str, used: &mut [bool]) -> String {
    if !line.contains("@_Z") {
        return line.to_string();
    }
    let mut l = line.to_string();
    for (i, &(mangled, twin, _, _)) in WORK_ITEM_FNS.iter().enumerate() {
        let pat = format!("@{mangled}(");
        while let Some(p) = l.find(&pat) {
            let open = p + pat.len() - 1;
            let close = matching(&l, open);
            let args = l[open + 1..close - 1].trim();
            let sep = if args.is_empty() { "" } else { ", " };
            // The call's attributes are the builtin's (memory(none)), not
            // true of the twin, which reads the context: dropped.
            let mut rest = &l[close..];
            if let Some(r) = rest.strip_prefix(" #") {
                let digits = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
                if digits > 0 {
                    rest = &r[digits..];
                }
            }
            l = format!("{}@{twin}({WG_ARGS}{sep}{args}){rest}", &l[..p]);
            used[i] = true;
        }
    }
    l
}

/// Loads a kernel's arguments from `%args` (in the entry's first block)
/// and returns them as call arguments.
fn load_args(out: &mut String, k: &IrKernel) -> Vec<String> {
    let mut call_args = Vec::new();
    for (i, p) in k.params.iter().enumerate() {
        let _ = writeln!(
            out,
            "  %s{i} = getelementptr ptr, ptr %args, i64 {i}\n  %a{i} = load ptr, ptr %s{i}"
        );
        match &p.byval {
            Some((t, align)) => call_args.push(format!("ptr byval({t}) align {align} %a{i}")),
            None => {
                let _ = writeln!(out, "  %v{i} = load {}, ptr %a{i}, align 1", p.ty);
                call_args.push(format!("{} %v{i}", p.ty));
            }
        }
    }
    call_args
}

/// Which kernels get a work-item entry that runs the kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkItemEntries {
    /// Those the executor runs work-item by work-item: kernels without a
    /// work-group entry. The others' entry only traps: it stays for its
    /// address, by which the runtime knows a kernel a block enqueues
    /// (blocks.rs), and compiling their bodies twice cost a sixth of the
    /// back end's time.
    WhereRun,
    /// Every kernel (tests compare work-group entries with them).
    #[cfg(test)]
    All,
}

fn entry_ir(out: &mut String, k: &IrKernel, entries: WorkItemEntries) {
    let _ = writeln!(
        out,
        "\ndefine void @{}{}(ptr %args, ptr %ctx) {{",
        super::abi::ENTRY_PREFIX,
        k.info.name
    );
    if k.info.group_entry && entries == WorkItemEntries::WhereRun {
        out.push_str("  call void @llvm.trap()\n  unreachable\n}\n");
        return;
    }
    out.push_str("  store ptr %ctx, ptr @__ferrocl_ctx\n");
    let call_args = load_args(out, k);
    let _ = writeln!(
        out,
        "  call void @\"{}\"({})\n  ret void\n}}",
        k.info.name,
        call_args.join(", ")
    );
}

/// The head of `void __ferrocl_wg_K(args, ctx)`: the kernel's arguments
/// (returned as call arguments), the group's local size (`%ls0..2`) and
/// whether it is empty (`%ls.zero`).
fn group_entry_head(out: &mut String, k: &IrKernel, range_md: usize) -> Vec<String> {
    let local_size = std::mem::offset_of!(super::abi::WorkGroupContext, local_size);
    let _ = writeln!(
        out,
        "\ndefine void @{}{}(ptr %args, ptr noalias readonly %ctx) {{\nentry:\n  store ptr %ctx, ptr @__ferrocl_ctx",
        super::abi::GROUP_ENTRY_PREFIX,
        k.info.name
    );
    let call_args = load_args(out, k);
    // Kernel-scope __local variables are thread-local: their addresses
    // come from one call that finds this object's thread-local block,
    // which the back end makes once per function when a first use
    // dominates the others (x86's local-dynamic clean-up), else in every
    // region that uses one. This empty use is that first one. (The
    // context's store above is removed when nothing reads it.)
    if let Some(v) = &k.local_variable {
        let _ = writeln!(
            out,
            "  call void asm sideeffect \"\", \"r\"(ptr addrspace(3) @\"{v}\")"
        );
    }
    // A local size is at most the device's limit, so LLVM knows the local
    // ids fit in 32 bits: an `int` index built from one (`A[i * n + lx]`)
    // is then a consecutive access, and the loop over it vectorizes.
    for d in 0..3 {
        let _ = writeln!(
            out,
            "  %ls.p{d} = getelementptr inbounds i8, ptr %ctx, i64 {}\n  %ls{d} = load i64, ptr %ls.p{d}, align 8, !range !{range_md}\n  %ls.zero{d} = icmp eq i64 %ls{d}, 0",
            local_size + 8 * d
        );
    }
    let _ = writeln!(
        out,
        "  %ls.zero01 = or i1 %ls.zero0, %ls.zero1\n  %ls.zero = or i1 %ls.zero01, %ls.zero2"
    );
    call_args
}

/// What the work-item loops of one kernel may assume about its memory
/// accesses, told to LLVM as metadata on the text.
///
/// An access group: the accesses no other work-item of the group touches
/// between two barriers. The work-item loops declare it parallel, so the
/// vectorizer needs no dependence checks (which fail at run time for a
/// tree reduction's `tmp[l] += tmp[l + s]`, and cannot tell `__local` from
/// `__global`). Why this is sound: "a data race [conflicting accesses by
/// different work-items, not both atomic, neither happening before the
/// other] results in undefined behavior" (OpenCL 3.0, 3.3.6.1), and between
/// barriers nothing orders two work-items of a group but atomics and
/// fences, which LLVM never vectorizes. Only plain loads and stores through
/// `__global`, `__constant` and `__local` pointers are in it, and the
/// region frame's slots: private memory (allocas the loop reuses for every
/// work-item) and generic pointers (which may point there) are not, and
/// LLVM treats a loop with any access outside the group as an ordinary one.
///
/// Four alias scopes, for memory that never overlaps but LLVM cannot see
/// so (the frame's address is loaded from the context): global, constant
/// and local memory; the work-items' frame slots; the group's uniform
/// slots; and the uniform slots' staging copy (see regions.rs).
pub struct ParallelAccess {
    /// The first of its metadata nodes: the access group, then the scope
    /// domain, the scopes (by AccessKind), and per kind its own scope list
    /// and the list of the others.
    first: usize,
}

/// Which memory an access touches.
#[derive(Clone, Copy)]
pub enum AccessKind {
    Memory = 0,
    Frame = 1,
    Uniform = 2,
    Staging = 3,
}

const ACCESS_KINDS: [&str; 4] = ["memory", "frame", "uniform", "staging"];

impl ParallelAccess {
    /// Takes the metadata numbers it needs.
    pub fn new(next_md: &mut usize) -> Self {
        let first = *next_md;
        *next_md += 2 + 3 * ACCESS_KINDS.len();
        ParallelAccess { first }
    }

    fn group(&self) -> usize {
        self.first
    }

    fn scope(&self, kind: usize) -> usize {
        self.first + 2 + kind
    }

    /// The lists of `kind`: its own scope, and the others'.
    fn lists(&self, kind: usize) -> (usize, usize) {
        let at = self.first + 2 + ACCESS_KINDS.len() + 2 * kind;
        (at, at + 1)
    }

    /// The definitions of its metadata nodes.
    pub fn declaration(&self) -> String {
        let domain = self.first + 1;
        let mut out = format!(
            "!{} = distinct !{{}}\n!{domain} = distinct !{{!{domain}, !\"ferrocl work-group\"}}",
            self.group()
        );
        for (k, name) in ACCESS_KINDS.iter().enumerate() {
            let s = self.scope(k);
            out.push_str(&format!(
                "\n!{s} = distinct !{{!{s}, !{domain}, !\"{name}\"}}"
            ));
        }
        for k in 0..ACCESS_KINDS.len() {
            let (own, others) = self.lists(k);
            let rest: Vec<String> = (0..ACCESS_KINDS.len())
                .filter(|&o| o != k)
                .map(|o| format!("!{}", self.scope(o)))
                .collect();
            out.push_str(&format!(
                "\n!{own} = !{{!{}}}\n!{others} = !{{{}}}",
                self.scope(k),
                rest.join(", ")
            ));
        }
        out
    }

    /// The work-item loop's metadata: its identity and the group it runs in
    /// parallel. `id` is the loop's metadata number; `next_md` gives two
    /// more.
    ///
    /// Not interleaved: a vector loop interleaved 4 times needs 64
    /// work-items per row before it runs at all, and rows of 16 (a 16 x 16
    /// group) would run in the 8-wide remainder loop.
    ///
    /// Not unrolled at run time either: a row is a few vector iterations
    /// (one for 16 work-items), and unrolling the vector and remainder
    /// loops of every region made a third of the back end's time.
    pub fn loop_metadata(&self, id: usize, next_md: &mut usize) -> String {
        let parallel = *next_md;
        let once = parallel + 1;
        let no_runtime_unroll = parallel + 2;
        *next_md += 3;
        format!(
            "!{id} = distinct !{{!{id}, !{parallel}, !{once}, !{no_runtime_unroll}}}\n!{parallel} = !{{!\"llvm.loop.parallel_accesses\", !{}}}\n!{once} = !{{!\"llvm.loop.interleave.count\", i32 1}}\n!{no_runtime_unroll} = !{{!\"llvm.loop.unroll.runtime.disable\"}}",
            self.group()
        )
    }

    /// The metadata of an access of one kind: its scope and, unless the
    /// access already has scopes of its own (from inlining), the others'.
    fn attachments(&self, kind: AccessKind, scoped: bool) -> String {
        let (own, others) = self.lists(kind as usize);
        let group = format!(", !llvm.access.group !{}", self.group());
        match scoped {
            true => group,
            false => format!(", !alias.scope !{own}, !noalias !{others}{group}"),
        }
    }

    /// The metadata of a region's access to its frame (a slot of one of
    /// the kinds but Memory). Every such access is in the group: a
    /// work-item's slot is its own, uniform slots are only read while the
    /// loop runs, and the staging copy is written by every work-item with
    /// the same value.
    pub fn slot_tag(&self, kind: AccessKind) -> String {
        self.attachments(kind, false)
    }

    /// The line with its metadata attached, if it is a plain load or store
    /// through a global, constant or local pointer.
    pub fn tag<'a>(&self, line: &'a str) -> std::borrow::Cow<'a, str> {
        let space = super::cfg::pointer_operand(line)
            .filter(|&(_, volatile)| !volatile)
            .and_then(|(pointer, _)| pointer.strip_prefix("ptr addrspace("))
            .and_then(|r| r.split(')').next());
        match space {
            Some("1" | "2" | "3") => {
                let scoped = line.contains("!alias.scope") || line.contains("!noalias");
                format!("{line}{}", self.attachments(AccessKind::Memory, scoped)).into()
            }
            _ => line.into(),
        }
    }
}

/// The rest of a barrier-free kernel's work-group entry: its work-group
/// copy called for every local id, z outermost, x innermost.
fn group_loops_ir(
    out: &mut String,
    k: &IrKernel,
    mut call_args: Vec<String>,
    access: &ParallelAccess,
    next_md: &mut usize,
) {
    let md = *next_md;
    *next_md += 1;
    call_args.push("ptr %ctx, i64 %lx, i64 %ly, i64 %lz".into());
    let _ = writeln!(
        out,
        "  br i1 %ls.zero, label %done, label %z
z:
  %lz = phi i64 [ 0, %entry ], [ %lz.next, %z.latch ]
  br label %y
y:
  %ly = phi i64 [ 0, %z ], [ %ly.next, %y.latch ]
  br label %x
x:
  %lx = phi i64 [ 0, %y ], [ %lx.next, %x ]
  call void @\"{WG_BODY_PREFIX}{}\"({})
  %lx.next = add nuw i64 %lx, 1
  %x.more = icmp ult i64 %lx.next, %ls0
  br i1 %x.more, label %x, label %y.latch, !llvm.loop !{md}
y.latch:
  %ly.next = add nuw i64 %ly, 1
  %y.more = icmp ult i64 %ly.next, %ls1
  br i1 %y.more, label %y, label %z.latch
z.latch:
  %lz.next = add nuw i64 %lz, 1
  %z.more = icmp ult i64 %lz.next, %ls2
  br i1 %z.more, label %z, label %done
done:
  ret void
}}
{}",
        k.info.name,
        call_args.join(", "),
        access.loop_metadata(md, next_md)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts() {
        let mut s = HashMap::new();
        s.insert("%struct.S".to_string(), "{ float, i32, i64 }".to_string());
        s.insert("%struct.P".to_string(), "<{ i8, i32 }>".to_string());
        assert_eq!(type_layout("%struct.S", &s), (16, 8));
        assert_eq!(type_layout("%struct.P", &s), (5, 1));
        assert_eq!(type_layout("<3 x float>", &s).0, 16);
        assert_eq!(type_layout("<2 x i8>", &s).0, 2);
        assert_eq!(type_layout("{ <4 x float>, [5 x i32] }", &s).0, 48);
        assert_eq!(type_layout("ptr addrspace(1)", &s).0, 8);
    }

    #[test]
    fn params() {
        assert_eq!(
            leading_type("ptr addrspace(1) noundef align 4 %0"),
            ("ptr addrspace(1)", "noundef align 4 %0")
        );
        assert_eq!(leading_type("<4 x float> noundef %1").0, "<4 x float>");
        assert_eq!(
            split_top("i32 %a, <2 x i8> %b, ptr byval(%s) align 8 %c").len(),
            3
        );
    }
}
