//! What each program defines about its own memory: a test of whether a
//! pointer lies in one of its __local variables (the generic address
//! space), and the size of its program-scope global variables.
//!
//! Kernel-scope __local variables are thread-local globals (one work-group
//! runs on one thread at a time, see ir::rewrite), so only the program knows
//! where they are; to_local and get_fence (builtins/workitem.c) call
//!
//! ```text
//! bool __ferrocl_is_local_variable(const generic void *p);
//! ```
//!
//! which every program defines: one range test per __local variable, at
//! the running thread's copy of it.

use std::fmt::Write;

/// The name and type of each thread-local `addrspace(3)` global of the
/// rewritten module `ir`. A variable whose type cannot be read (it has an
/// initializer other than undef or poison, which __local variables never
/// have) is left out: pointers into it are not taken for local ones.
fn local_variables(ir: &str) -> Vec<(&str, &str)> {
    const MARK: &str = " addrspace(3) global ";
    ir.lines()
        .filter(|l| l.starts_with('@'))
        .filter_map(|l| {
            let (name, _) = l.split_once(" = ")?;
            // Not inside a constant's string: the program's data.
            let at = super::ir::global_header(l).find(MARK)?;
            if !l[..at].contains("thread_local") {
                return None;
            }
            let after = &l[at + MARK.len()..];
            let end = [" undef", " poison"]
                .iter()
                .filter_map(|init| after.find(init))
                .min()?;
            Some((name, &after[..end]))
        })
        .collect()
}

/// The LLVM IR of `__ferrocl_is_local_variable` for the rewritten module
/// `ir`.
pub fn local_variable_test(ir: &str) -> String {
    let mut out = String::from(
        "\ndefine hidden zeroext i1 @__ferrocl_is_local_variable(ptr addrspace(4) %p) {\n  \
         %a = ptrtoint ptr addrspace(4) %p to i64\n",
    );
    let mut acc = "false".to_string();
    for (i, (name, ty)) in local_variables(ir).into_iter().enumerate() {
        let _ = write!(
            out,
            "  %lo{i} = ptrtoint ptr addrspace(3) {name} to i64\n  \
             %end{i} = getelementptr {ty}, ptr addrspace(3) {name}, i64 1\n  \
             %hi{i} = ptrtoint ptr addrspace(3) %end{i} to i64\n  \
             %ge{i} = icmp uge i64 %a, %lo{i}\n  \
             %lt{i} = icmp ult i64 %a, %hi{i}\n  \
             %in{i} = and i1 %ge{i}, %lt{i}\n  \
             %acc{i} = or i1 {acc}, %in{i}\n"
        );
        acc = format!("%acc{i}");
    }
    let _ = writeln!(out, "  ret i1 {acc}\n}}");
    out
}

/// The symbol holding the bytes of a program's program-scope global
/// variables (CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE), read when the
/// program is loaded.
pub const GLOBAL_VARIABLES_SIZE_SYMBOL: &str = "__ferrocl_global_variables_size";

/// The types of the `addrspace(1)` variables `ir` defines (program-scope
/// and static __global variables; `constant` ones are addrspace(2)).
fn global_variables(ir: &str) -> Vec<&str> {
    const MARK: &str = " addrspace(1) global ";
    ir.lines()
        .filter(|l| l.starts_with('@'))
        .filter_map(|l| {
            let (_, rest) = l.split_once(" = ")?;
            if rest.starts_with("external ") {
                return None;
            }
            let at = super::ir::global_header(l).find(MARK)?;
            Some(super::ir::leading_type(&l[at + MARK.len()..]).0)
        })
        .collect()
}

/// The LLVM IR of `GLOBAL_VARIABLES_SIZE_SYMBOL` for `ir`: an i64 that LLVM
/// computes from the variables' types laid out one after the other.
pub fn global_variables_size(ir: &str) -> String {
    let types = global_variables(ir).join(", ");
    format!(
        "
@{GLOBAL_VARIABLES_SIZE_SYMBOL} = constant i64 ptrtoint (ptr getelementptr ({{ {types} }}, ptr null, i64 1) to i64)
"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_thread_local_local_variables() {
        let ir = "@x = internal thread_local unnamed_addr addrspace(3) global [16 x i32] undef, align 4\n\
                  @\"y.z\" = internal thread_local addrspace(3) global { i32, float } poison, align 8\n\
                  @g = dso_local addrspace(1) global i32 0, align 4\n";
        assert_eq!(
            local_variables(ir),
            [("@x", "[16 x i32]"), ("@\"y.z\"", "{ i32, float }")]
        );
        let f = local_variable_test(ir);
        assert!(f.contains("getelementptr [16 x i32], ptr addrspace(3) @x, i64 1"));
        assert!(f.contains("ret i1 %acc1"));
        assert!(local_variable_test("").contains("ret i1 false"));
    }

    #[test]
    fn sizes_program_scope_global_variables() {
        let ir = "@a = dso_local addrspace(1) global i32 5, align 4\n\
                  @p = dso_local addrspace(1) global ptr addrspace(1) @a, align 8\n\
                  @arr = internal addrspace(1) global [4 x float] [float 1.0, float 2.0, float 3.0, float 4.0], align 16\n\
                  @e = external addrspace(1) global i32, align 4\n\
                  @c = dso_local addrspace(2) constant i32 1, align 4\n";
        assert_eq!(
            global_variables(ir),
            ["i32", "ptr addrspace(1)", "[4 x float]"]
        );
        assert!(global_variables_size("").contains("({  }, ptr null"));
    }
}
