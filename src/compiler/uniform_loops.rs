//! Vectorizing across work-items through loops: implicit barriers.
//!
//! A work-item loop around a kernel whose body has its own loop runs that
//! inner loop once per work-item; when the inner loop carries a
//! floating-point value (a sum), LLVM cannot vectorize it (that would
//! reorder the additions) and the work-item loop around it is not
//! innermost, so nothing vectorizes: naive matrix products, n-body steps.
//! When every work-item of a group runs the inner loop the same number of
//! times (its trip count is uniform), a barrier at its header changes no
//! result: it only makes all work-items run iteration i before any runs
//! i + 1, an order OpenCL allows anyway. The region transform then turns
//! each iteration into a work-item loop, which vectorizes like a
//! barrier-free kernel, with the carried values per work-item in the frame.
//!
//! A loop qualifies when it is not nested in another loop, every work-item
//! reaches it (its preheader lies on every path from the entry to a
//! return), each branch leaving it depends only on uniform values (the
//! kernel's parameters, group ids and sizes, constants, the loop's own
//! uniform counters), and its header carries a floating-point value.

use super::ir::symbol_after_at;
use super::regions::{
    calls_plain_barrier, each_function, entry_number, has_wait, label_of, percent, rename,
    used_names, IMPLICIT_BARRIER, UNIFORM_PREFIX,
};
use std::collections::{HashMap, HashSet};

/// Work-item functions whose value is the same for the whole group.
pub(super) const UNIFORM_FNS: &[&str] = &[
    "_Z12get_work_dimv",
    "_Z15get_global_sizej",
    "_Z14get_local_sizej",
    "_Z23get_enqueued_local_sizej",
    "_Z14get_num_groupsj",
    "_Z12get_group_idj",
    "_Z17get_global_offsetj",
];

/// Before inlining: whether some kernel may have such a loop (a back edge
/// and floating-point arithmetic), so the region pipeline is worth running.
pub fn worth_trying(text: &str) -> bool {
    let mut labels: HashSet<&str> = HashSet::new();
    let (mut kernel, mut back_edge, mut float) = (false, false, false);
    for line in text.lines() {
        if line.starts_with("define ") {
            kernel = line.contains(" spir_kernel ");
            labels.clear();
            back_edge = false;
            float = false;
            continue;
        }
        if !kernel {
            continue;
        }
        if let Some(l) = label_of(line) {
            labels.insert(l);
        }
        let t = line.trim_start();
        if t.starts_with("br ") {
            back_edge |= line
                .split("label %")
                .skip(1)
                .any(|r| labels.contains(used_names(&format!("%{r}")).next().unwrap_or("")));
        }
        float |= [" fadd ", " fmul ", " fsub ", "@llvm.fmuladd"]
            .iter()
            .any(|op| line.contains(op));
        if back_edge && float {
            return true;
        }
    }
    false
}

pub(super) struct Cfg {
    /// How many blocks.
    pub blocks: usize,
    /// Line index of each block's first line (its label, or the first
    /// instruction of the entry).
    pub starts: Vec<usize>,
    /// Each block's label as a phi names it (`%name`, `%3`).
    pub labels: Vec<String>,
    pub succs: Vec<Vec<usize>>,
    pub preds: Vec<Vec<usize>>,
    returns: Vec<bool>,
    /// Per block: it calls a barrier (plain or implicit).
    pub barriers: Vec<bool>,
}

impl Cfg {
    /// Block `b`'s lines in `function` (its label line first, but for the
    /// entry).
    pub fn lines<'a>(&self, function: &'a [String], b: usize) -> &'a [String] {
        &function[self.starts[b]..self.end(function, b)]
    }

    /// The index of the line after block `b`.
    pub fn end(&self, function: &[String], b: usize) -> usize {
        self.starts.get(b + 1).copied().unwrap_or(function.len())
    }

    /// The range of block `b`'s phi lines (after its label, but for the
    /// entry); its first other line is at the range's end.
    pub fn phi_lines(&self, function: &[String], b: usize) -> std::ops::Range<usize> {
        let first = self.starts[b] + usize::from(b != 0);
        let count = function[first..self.end(function, b)]
            .iter()
            .take_while(|l| l.contains(" = phi "))
            .count();
        first..first + count
    }

    /// Block `b`'s terminator line, trimmed: for a `switch`, whose cases
    /// follow on lines of their own up to `]`, its first line.
    pub fn terminator<'a>(&self, function: &'a [String], b: usize) -> &'a str {
        let mut lines = self
            .lines(function, b)
            .iter()
            .rev()
            .map(|l| l.trim_start())
            .filter(|l| !l.is_empty() && !l.starts_with(';') && !l.starts_with('}'));
        match lines.next() {
            Some(l) if l.starts_with(']') => lines
                .find(|l| l.starts_with("switch ") || l.contains(" = switch "))
                .unwrap_or(l),
            other => other.unwrap_or(""),
        }
    }
}

/// The condition a two-way branch (a terminator) tests, if it is one.
pub(super) fn branch_condition(term: &str) -> Option<&str> {
    term.strip_prefix("br i1 ")
        .and_then(|c| c.split(',').next())
        .map(str::trim)
}

pub(super) fn cfg(function: &[String]) -> Option<Cfg> {
    if function.iter().any(|l| {
        let t = l.trim_start();
        t.starts_with("indirectbr") || t.starts_with("callbr") || t.starts_with("invoke")
    }) {
        return None;
    }
    let entry = entry_number(&function[0]).to_string();
    let blocks = super::cfg::blocks(&function[1..], &entry);
    let index: HashMap<&str, usize> = blocks
        .iter()
        .enumerate()
        .map(|(i, b)| (b.label.as_str(), i))
        .collect();
    let mut succs = Vec::with_capacity(blocks.len());
    for b in &blocks {
        let targets: Option<Vec<usize>> = b
            .successors
            .iter()
            .map(|s| index.get(s.as_str()).copied())
            .collect();
        succs.push(targets?);
    }
    let mut preds = vec![Vec::new(); blocks.len()];
    for (b, ss) in succs.iter().enumerate() {
        for &s in ss {
            preds[s].push(b);
        }
    }
    Some(Cfg {
        // Line indices in `function`, whose first line is the `define`.
        starts: blocks.iter().map(|b| b.first + 1).collect(),
        labels: blocks.iter().map(|b| percent(&b.label)).collect(),
        returns: blocks
            .iter()
            .map(|b| {
                b.lines.iter().any(|l| {
                    let t = l.trim_start();
                    t.starts_with("ret ") || t == "ret void"
                })
            })
            .collect(),
        barriers: blocks
            .iter()
            .map(|b| b.lines.iter().any(|l| calls_plain_barrier(l)))
            .collect(),
        blocks: blocks.len(),
        succs,
        preds,
    })
}

/// Each block's dominators (iterative data flow; kernels are small).
fn dominators(g: &Cfg) -> Vec<HashSet<usize>> {
    let n = g.blocks;
    let all: HashSet<usize> = (0..n).collect();
    let mut dom = vec![all; n];
    dom[0] = HashSet::from([0]);
    let mut changed = true;
    while changed {
        changed = false;
        for b in 1..n {
            let mut new: Option<HashSet<usize>> = None;
            for &p in &g.preds[b] {
                new = Some(match new {
                    None => dom[p].clone(),
                    Some(s) => s.intersection(&dom[p]).copied().collect(),
                });
            }
            let mut new = new.unwrap_or_default();
            new.insert(b);
            if new != dom[b] {
                dom[b] = new;
                changed = true;
            }
        }
    }
    dom
}

/// Natural loops by header: the blocks that reach a back edge's source
/// without passing the header.
pub(super) fn natural_loops(g: &Cfg) -> HashMap<usize, HashSet<usize>> {
    let dom = dominators(g);
    let mut loops: HashMap<usize, HashSet<usize>> = HashMap::new();
    for (b, ss) in g.succs.iter().enumerate() {
        for &h in ss {
            if dom[b].contains(&h) {
                let body = loops.entry(h).or_insert_with(|| HashSet::from([h]));
                let mut stack = vec![b];
                while let Some(x) = stack.pop() {
                    if body.insert(x) {
                        stack.extend(&g.preds[x]);
                    }
                }
            }
        }
    }
    loops
}

/// Whether every path from the entry to a return passes `b`.
fn on_every_path(g: &Cfg, b: usize) -> bool {
    let mut seen = vec![false; g.blocks];
    let mut stack = vec![0];
    while let Some(x) = stack.pop() {
        if x == b || std::mem::replace(&mut seen[x], true) {
            continue;
        }
        if g.returns[x] {
            return false;
        }
        stack.extend(&g.succs[x]);
    }
    true
}

/// Inserts implicit barriers at the headers of one kernel's qualifying
/// loops (its lines, `define` to `}`); true if it inserted any.
pub fn insert_implicit_barriers(function: &mut Vec<String>, counter: &mut usize) -> bool {
    cut_loops(function, counter, Mode::Implicit)
}

/// How many iterations of a qualifying loop become one region: the
/// work-item's sum stays in a register across them, and the loads of
/// consecutive iterations overlap. Each iteration but the last keeps its
/// exit test, so the region has UNROLL + 1 ways out, and LLVM compiles a
/// vectorized copy of the work-item loop for each: four iterations made
/// naive SGEMM 1.4x faster than two (78 against 55 GFLOP/s) but its back
/// end 1.5x slower (70 against 48 ms), the longest step of a cold build.
/// Unrolling at run time (one test per four iterations) would keep both,
/// once the remainder's tests are region boundaries too (uniformity.rs);
/// see the README's design notes.
const UNROLL: u32 = 2;

/// Before the implicit barriers: the qualifying loops of the module's
/// barrier-free kernels get `llvm.loop.unroll.count` (`opt` unrolls them
/// next, and the barriers then go into the unrolled loops); None if no
/// loop qualifies.
pub fn mark_for_unrolling(text: &str) -> Option<String> {
    let mut next_md = super::ir::max_numbers(text).1 + 1;
    let mut definitions = String::new();
    let mut out = each_function(text, |function| {
        let kernel = function[0].contains(" spir_kernel ");
        let waits = function
            .iter()
            .any(|l| calls_plain_barrier(l) || l.contains("@_Z") && has_wait(l));
        if kernel && !waits {
            let first = next_md;
            cut_loops(function, &mut next_md, Mode::Unroll);
            for m in (first..next_md).step_by(2) {
                definitions.push_str(&format!(
                    "!{m} = distinct !{{!{m}, !{}}}\n!{} = !{{!\"llvm.loop.unroll.count\", i32 {UNROLL}}}\n",
                    m + 1,
                    m + 1
                ));
            }
        }
    });
    if definitions.is_empty() {
        return None;
    }
    out.push_str(&definitions);
    Some(out)
}

/// For a kernel with barriers: the uniform counters of the loops that
/// contain a barrier (every work-item runs those the same number of times,
/// as OpenCL requires) are marked uniform, so that a region tests them
/// once, not per work-item (a tree reduction's stride); true if any.
pub fn mark_barrier_loop_counters(function: &mut Vec<String>, counter: &mut usize) -> bool {
    cut_loops(function, counter, Mode::Counters)
}

/// What cut_loops does with the loops it finds.
#[derive(PartialEq, Clone, Copy)]
enum Mode {
    /// Barriers in the qualifying loops, their counters marked uniform.
    Implicit,
    /// Only the counters of loops with barriers marked uniform.
    Counters,
    /// The qualifying loops' latches get loop metadata numbered from
    /// `counter` (two numbers each: the loop and its unroll count).
    Unroll,
}

/// The loop analysis of all three modes.
fn cut_loops(function: &mut Vec<String>, counter: &mut usize, mode: Mode) -> bool {
    let implicit = mode != Mode::Counters;
    let Some(g) = cfg(function) else {
        return false;
    };
    let loops = natural_loops(&g);
    let defs = super::cfg::definitions(&function[1..]);
    // Only the implicit barriers' loops need to know which blocks all
    // work-items reach.
    let together = implicit.then(|| super::uniformity::analyze(function, &g, &defs).together);
    let mut headers = Vec::new();
    let mut uniform_phis: Vec<String> = Vec::new();
    let mut order: Vec<usize> = loops.keys().copied().collect();
    order.sort_unstable();
    for h in order {
        let body = &loops[&h];
        let nested = loops.iter().any(|(&o, other)| o != h && other.contains(&h));
        let outside: Vec<usize> = g.preds[h]
            .iter()
            .copied()
            .filter(|p| !body.contains(p))
            .collect();
        if !implicit {
            if body.iter().any(|&b| g.barriers[b]) {
                let header_phis = header_phis(function, &g, h);
                if let Some(counters) = exits_uniformly(function, &g, body, &header_phis, &defs) {
                    uniform_phis.extend(counters.iter().map(|c| c.to_string()));
                }
            }
            continue;
        }
        let reached_together = together.as_ref().is_some_and(|t| t[outside[0]]);
        if nested || outside.len() != 1 || !(on_every_path(&g, outside[0]) || reached_together) {
            continue;
        }
        let header_phis = header_phis(function, &g, h);
        let carries_float = header_phis.iter().any(|n| {
            defs.get(n).is_some_and(|rhs| {
                let ty = rhs
                    .trim_start_matches("phi ")
                    .split(' ')
                    .next()
                    .unwrap_or("");
                // Vectors too: the scalarizer (driver.rs) splits them
                // before the work-item loops are vectorized.
                ty == "float"
                    || ty == "double"
                    || rhs.contains(" x float>")
                    || rhs.contains(" x double>")
            })
        });
        if !carries_float {
            continue;
        }
        if let Some(counters) = exits_uniformly(function, &g, body, &header_phis, &defs) {
            headers.push(h);
            uniform_phis.extend(counters.iter().map(|c| c.to_string()));
        }
    }
    if mode == Mode::Unroll {
        let mut latches = Vec::new();
        for &h in &headers {
            latches.extend(
                loops[&h]
                    .iter()
                    .copied()
                    .filter(|&b| g.succs[b].contains(&h)),
            );
        }
        for b in latches {
            let Some(term) = (g.starts[b]..g.end(function, b))
                .rev()
                .find(|&i| function[i].trim_start().starts_with("br "))
            else {
                continue;
            };
            if !function[term].contains("!llvm.loop") {
                function[term].push_str(&format!(", !llvm.loop !{}", *counter));
                *counter += 2;
            }
        }
        return false;
    }
    if headers.is_empty() && uniform_phis.is_empty() {
        return false;
    }
    // After the phis of each header, and of each block the loops exit to,
    // so that an iteration is a region of its own and what follows the
    // loop another (line indices to insert before).
    let mut blocks: Vec<usize> = headers.clone();
    for &h in &headers {
        let body = &loops[&h];
        for &b in body {
            blocks.extend(g.succs[b].iter().filter(|s| !body.contains(s)));
        }
    }
    blocks.sort_unstable();
    blocks.dedup();
    let mut at: Vec<usize> = blocks
        .iter()
        .map(|&h| g.phi_lines(function, h).end)
        .collect();
    at.sort_unstable_by(|a, b| b.cmp(a));
    for i in at {
        function.insert(i, format!("  call void @{IMPLICIT_BARRIER}()"));
    }
    // The counters get names that mark them uniform (regions.rs keeps them
    // once per group, not per work-item).
    let renames: HashMap<String, String> = uniform_phis
        .into_iter()
        .map(|p| {
            let n = format!("{UNIFORM_PREFIX}{}", *counter);
            *counter += 1;
            (p, n)
        })
        .collect();
    for line in function.iter_mut().skip(1) {
        if line.contains('%') {
            *line = rename(line, &renames);
        }
    }
    !headers.is_empty()
}

/// A loop header's phis: the loop's carried values.
fn header_phis<'a>(function: &'a [String], g: &Cfg, h: usize) -> Vec<&'a str> {
    function[g.phi_lines(function, h)]
        .iter()
        .filter_map(|l| l.trim_start().split_once(" = ").map(|(n, _)| n))
        .map(|n| n.trim_start_matches('%').trim_matches('"'))
        .collect()
}

/// Whether each branch out of the loop tests a uniform value: then the
/// header's uniform phis (the loop's counters).
fn exits_uniformly<'a>(
    function: &[String],
    g: &Cfg,
    body: &HashSet<usize>,
    header_phis: &[&'a str],
    defs: &HashMap<&str, &str>,
) -> Option<Vec<&'a str>> {
    // Optimistically uniform: the header's phis whose incoming values are.
    let mut phis: HashSet<&str> = header_phis.iter().copied().collect();
    loop {
        let before = phis.len();
        let keep: HashSet<&str> = phis
            .iter()
            .copied()
            .filter(|p| {
                let rhs = defs[p];
                // [ value, %block ] pairs: the values only.
                rhs.split('[').skip(1).all(|pair| {
                    let v = pair.split(',').next().unwrap_or("").trim();
                    uniform(v, defs, &phis, 0)
                })
            })
            .collect();
        phis = keep;
        if phis.len() == before {
            break;
        }
    }
    for &b in body {
        if !g.succs[b].iter().any(|s| !body.contains(s)) {
            continue;
        }
        let cond = branch_condition(g.terminator(function, b))?;
        if !uniform(cond, defs, &phis, 0) {
            return None;
        }
    }
    Some(
        header_phis
            .iter()
            .copied()
            .filter(|p| phis.contains(p))
            .collect(),
    )
}

/// Whether an operand (`%x`, a constant, a global) is the same for every
/// work-item of the group.
pub(super) fn uniform(
    operand: &str,
    defs: &HashMap<&str, &str>,
    phis: &HashSet<&str>,
    depth: u32,
) -> bool {
    let Some(name) = operand.strip_prefix('%') else {
        // A constant or a global.
        return true;
    };
    let name = name.trim_matches('"');
    if depth > 64 {
        return false;
    }
    let Some(rhs) = defs.get(name) else {
        // A parameter.
        return true;
    };
    if rhs.starts_with("phi ") {
        return phis.contains(name);
    }
    let op = rhs.split(' ').next().unwrap_or("");
    let operands_uniform =
        || used_names(rhs).all(|n| uniform(&format!("%{n}"), defs, phis, depth + 1));
    match op {
        "call" | "tail" => {
            symbol_after_at(rhs).is_some_and(|f| UNIFORM_FNS.contains(&f.as_str()))
                && operands_uniform()
        }
        "trunc" | "zext" | "sext" | "add" | "sub" | "mul" | "shl" | "lshr" | "ashr" | "and"
        | "or" | "xor" | "icmp" | "select" | "getelementptr" | "sdiv" | "udiv" | "srem"
        | "urem" | "sitofp" | "uitofp" | "fptosi" | "fptoui" | "fcmp" | "freeze" => {
            operands_uniform()
        }
        _ => false,
    }
}
