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
//! finds the kernel by it (`Executable::kernel_of_entry`).

use super::{abi, ArgSpace, KernelInfo};

/// Whether a kernel is one clang made for a block (`__X_block_invoke_kernel`,
/// `__X_block_invoke_N_kernel`): names starting with two underscores are
/// reserved, so no application kernel is named like this.
pub fn is_block_kernel(name: &str) -> bool {
    name.starts_with("__") && name.contains("_block_invoke") && name.ends_with("_kernel")
}

/// Block kernels carry no argument metadata: their first parameter is the
/// block literal (a pointer, passed by value), the others are __local
/// pointers. `text` is the module.
pub fn fix_block_kernel_args<'a>(kernels: impl Iterator<Item = &'a mut KernelInfo>, text: &str) {
    for k in kernels.filter(|k| is_block_kernel(&k.name)) {
        let Some(line) = text
            .lines()
            .filter(|l| l.starts_with("define "))
            .find(|l| defines(l, &k.name))
        else {
            continue;
        };
        let locals: Vec<bool> = params_of(line)
            .iter()
            .map(|p| p.starts_with("ptr addrspace(3)"))
            .collect();
        for (arg, local) in k.args.iter_mut().zip(locals) {
            arg.size = 8;
            arg.space = if local {
                ArgSpace::Local
            } else {
                ArgSpace::Private
            };
        }
    }
}

/// Whether a `define` line defines `@name`.
fn defines(line: &str, name: &str) -> bool {
    let pat = format!("@{name}(");
    line.contains(&pat)
}

/// The parameter list of a `define` line, split at top-level commas.
fn params_of(line: &str) -> Vec<String> {
    let Some(at) = line.find('@') else {
        return Vec::new();
    };
    let Some(open) = line[at..].find('(').map(|p| at + p) else {
        return Vec::new();
    };
    let mut depth = 0;
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in line[open + 1..].chars() {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' if depth == 0 => break,
            ')' | ']' | '}' | '>' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// Rewrites every use of a block kernel's address (in the `__enqueue_kernel_*`
/// and `__get_kernel_*` calls) into its work-item entry's address. The
/// kernels' own definitions and the entries' calls (`@"name"`) stay.
pub fn redirect_block_kernels(text: String, kernels: &[KernelInfo]) -> String {
    let names: Vec<&str> = kernels
        .iter()
        .map(|k| k.name.as_str())
        .filter(|n| is_block_kernel(n))
        .collect();
    if names.is_empty() {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 256);
    for line in text.lines() {
        if line.starts_with("define ") || !line.contains("_block_invoke") {
            out.push_str(line);
        } else {
            out.push_str(&redirect_line(line, &names));
        }
        out.push('\n');
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$'
}

fn redirect_line(line: &str, names: &[&str]) -> String {
    let mut out = String::with_capacity(line.len() + 64);
    let mut rest = line;
    while let Some(at) = rest.find('@') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let end = after.find(|c| !is_ident(c)).unwrap_or(after.len());
        let sym = &after[..end];
        if names.contains(&sym) {
            out.push('@');
            out.push_str(abi::ENTRY_PREFIX);
            out.push_str(sym);
        } else {
            out.push('@');
            out.push_str(sym);
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
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

    #[test]
    fn redirect() {
        let names = ["__p_block_invoke_kernel", "__p_block_invoke_2_kernel"];
        let l = "  %1 = call i32 @__enqueue_kernel_basic(ptr %0, i32 1, ptr addrspace(4) addrspacecast (ptr @__p_block_invoke_2_kernel to ptr addrspace(4)), ptr addrspace(4) @__p_block_invoke_kernelx)";
        let r = redirect_line(l, &names);
        assert!(r.contains("(ptr @__ferrocl_wi___p_block_invoke_2_kernel to"));
        assert!(r.contains("@__p_block_invoke_kernelx)"));
        assert!(r.contains("@__enqueue_kernel_basic("));
    }

    #[test]
    fn params() {
        let p = params_of(
            "define spir_kernel void @__p_block_invoke_kernel(ptr addrspace(4) %0, ptr addrspace(3) %1) #2 {",
        );
        assert_eq!(p, vec!["ptr addrspace(4) %0", "ptr addrspace(3) %1"]);
    }
}
