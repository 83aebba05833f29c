//! Work-items a region can skip: the guard of a tree reduction.
//!
//! `for (s = n / 2; s > 0; s /= 2) { barrier(...); if (l < s) t[l] += t[l + s]; }`
//! leaves most work-items idle in most rounds, yet the work-item loop runs
//! all of them, each vector iteration fully masked. When a region starts
//! by testing `get_local_id(0) < V` with V the same for the whole group,
//! and a work-item that fails the test has no effect of its own until the
//! region ends (no store but to uniform values and temporaries, no call but
//! work-item functions; a branch on `get_local_id(0) == 0` counts as not
//! taken, as a skipped work-item has `lx >= 1`), the work-items with
//! `lx >= V` change nothing the others do not change too. The work-group
//! entry then runs the region only for `lx < max(1, min(V, local size))`
//! (one always runs, to note the uniform values and the next region),
//! computing V first with a small function made of the test's inputs.

use super::cfg::{definition, definitions, pointer_operand, Block};
use super::ir::{symbol_after_at, WORK_ITEM_FNS};
use super::regions::{used_names, RegionPlan};
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

/// Work-item functions whose value is the same for the whole group.
const UNIFORM_FNS: &[&str] = &[
    "_Z12get_work_dimv",
    "_Z15get_global_sizej",
    "_Z14get_local_sizej",
    "_Z23get_enqueued_local_sizej",
    "_Z14get_num_groupsj",
    "_Z12get_group_idj",
    "_Z17get_global_offsetj",
];

/// A region's guard: the bound's name and the lines computing it (from the
/// region's first block, in order).
pub struct Guard {
    pub bound: String,
    pub lines: Vec<String>,
}

/// The twin of `get_local_id`, as region bodies call it.
const LOCAL_ID_TWIN: &str = "@__ferrocl_loop_local_id(";

/// Whether a twin call is of a function uniform across the group.
fn uniform_twin(name: String) -> bool {
    WORK_ITEM_FNS
        .iter()
        .any(|(f, twin, _, _)| *twin == name && UNIFORM_FNS.contains(f))
}

/// The guard of region `r`, if it has one that lets idle work-items be
/// skipped.
pub fn guard(plan: &RegionPlan, body: &[&str], r: usize) -> Option<Guard> {
    if r == 0 {
        return None;
    }
    let parsed = super::cfg::blocks(body, "");
    let by_label: HashMap<&str, &Block> = parsed.iter().map(|b| (b.label.as_str(), b)).collect();
    let start = by_label.get(plan.start(r))?.lines.as_slice();
    let (term, rest) = start.split_last()?;
    let cond = term.trim_start().strip_prefix("br i1 ")?;
    let c = cond.split(',').next()?.trim();
    let false_label = super::cfg::branch_targets(term).nth(1)?;
    let defs = definitions(rest);
    // The first block only computes (its effects would be skipped too).
    if rest.iter().any(|l| !pure(l, plan, &HashSet::new())) {
        return None;
    }
    let cmp = defs.get(c.trim_start_matches('%'))?;
    let (lid, bound) = if let Some(ops) = cmp.strip_prefix("icmp ult i64 ") {
        let (a, b) = ops.split_once(", ")?;
        (a, b)
    } else {
        let ops = cmp.strip_prefix("icmp ugt i64 ")?;
        let (b, a) = ops.split_once(", ")?;
        (a, b)
    };
    if !is_local_id_0(defs.get(lid.trim_start_matches('%'))?) {
        return None;
    }
    let all_defs = definitions(body);
    // The bound and what it is computed from: uniform values only.
    let uniform_allocas: HashSet<&str> = plan.uniform_slot_names().collect();
    let mut needed: Vec<&str> = Vec::new();
    let mut stack = vec![bound.trim_start_matches('%')];
    while let Some(n) = stack.pop() {
        let Some(rhs) = defs.get(n) else {
            // A parameter, or defined outside the block: parameters only.
            if all_defs.contains_key(n) {
                return None;
            }
            continue;
        };
        if needed.contains(&n) {
            continue;
        }
        let op = rhs.split(' ').next().unwrap_or("");
        match op {
            "load" => {
                let ptr = pointer_operand(rhs)?.0.strip_prefix("ptr ")?;
                if !uniform_allocas.contains(ptr.trim_start_matches('%').trim_matches('"')) {
                    return None;
                }
            }
            "call" | "tail" => {
                if !symbol_after_at(rhs).is_some_and(uniform_twin) {
                    return None;
                }
            }
            "trunc" | "zext" | "sext" | "add" | "sub" | "mul" | "shl" | "lshr" | "ashr" | "and"
            | "or" | "xor" | "udiv" | "sdiv" | "urem" | "srem" | "select" | "icmp" => {
                stack.extend(used_names(rhs));
            }
            _ => return None,
        }
        needed.push(n);
    }
    // A work-item failing the test has no effect of its own until the
    // region ends.
    let allocas: HashSet<&str> = all_defs
        .iter()
        .filter(|(_, rhs)| rhs.starts_with("alloca "))
        .map(|(n, _)| *n)
        .collect();
    let mut seen: HashSet<&str> = HashSet::new();
    let mut todo = vec![false_label];
    while let Some(b) = todo.pop() {
        if !seen.insert(b) || plan.is_barrier_block(b) {
            continue;
        }
        let block = *by_label.get(b)?;
        if block.lines.iter().any(|l| !pure(l, plan, &allocas)) {
            return None;
        }
        // A branch on `get_local_id(0) == 0`: a skipped work-item takes
        // its false edge (the last target).
        let on_first = block.lines.last().and_then(|t| {
            let c = t.trim_start().strip_prefix("br i1 ")?.split(',').next()?;
            let ops = all_defs
                .get(c.trim().trim_start_matches('%'))?
                .strip_prefix("icmp eq i64 ")?
                .strip_suffix(", 0")?;
            all_defs
                .get(ops.trim_start_matches('%'))
                .is_some_and(|d| is_local_id_0(d))
                .then_some(())
        });
        let targets = match on_first {
            Some(()) => &block.successors[block.successors.len().saturating_sub(1)..],
            None => &block.successors[..],
        };
        todo.extend(targets.iter().map(String::as_str));
    }
    let lines = rest
        .iter()
        .filter(|l| definition(l).is_some_and(|(n, _)| needed.contains(&n)))
        .map(|l| l.to_string())
        .collect();
    Some(Guard {
        bound: bound.to_string(),
        lines,
    })
}

/// Whether a call's right-hand side is `get_local_id(0)`'s twin.
fn is_local_id_0(rhs: &str) -> bool {
    rhs.split_once(LOCAL_ID_TWIN)
        .and_then(|(_, args)| args.split(')').next())
        .is_some_and(|args| args.ends_with("i32 noundef 0"))
}

/// Whether a line has no effect but on registers: no store except to a
/// uniform slot's register or a temporary (an alloca that is no slot), no
/// call but to work-item functions, no atomics.
fn pure(line: &str, plan: &RegionPlan, allocas: &HashSet<&str>) -> bool {
    let t = line.trim_start();
    if t.starts_with("store ") {
        let Some(("ptr", name)) = pointer_operand(t)
            .filter(|&(_, volatile)| !volatile)
            .and_then(|(pointer, _)| pointer.split_once(' '))
        else {
            return false;
        };
        let name = name.trim_start_matches('%').trim_matches('"');
        return allocas.contains(name) && !plan.is_work_item_slot(name);
    }
    let rhs = t.split_once(" = ").map_or(t, |(_, r)| r);
    let op = rhs.split(' ').next().unwrap_or("");
    match op {
        "call" | "tail" => symbol_after_at(rhs).is_some_and(|f| f.starts_with("__ferrocl_loop_")),
        "atomicrmw" | "cmpxchg" | "fence" | "invoke" | "unreachable" => false,
        "load" => !rhs.starts_with("load atomic") && !rhs.starts_with("load volatile"),
        _ => true,
    }
}

/// The bound function of a guarded region: the region's parameters, the
/// uniform slots copied in, the guard's lines, the bound returned.
pub fn write_bound_function(out: &mut String, define: &str, plan: &RegionPlan, guard: &Guard) {
    let define = define.replacen(" void @", " i64 @", 1);
    let _ = writeln!(out, "\n{define}");
    plan.write_uniform_copy_in(out);
    for l in &guard.lines {
        let _ = writeln!(out, "{l}");
    }
    let _ = writeln!(out, "  ret i64 {}\n}}", guard.bound);
}
