//! Which blocks all work-items of a group run together, which values they
//! agree on, and region boundaries at the branches they decide together.
//!
//! A work-item loop around a region that tests a uniform value runs the
//! test once per work-item; LLVM then copies the whole loop once per
//! outcome of each such test (non-trivial unswitching), and vectorizes
//! every copy: a loop four times unrolled with four exit tests became five
//! vectorized copies of the region. A branch every work-item takes the
//! same way can instead end the region: each of its two edges gets an
//! implicit barrier, the work-items only note which edge they took (one
//! value for all), and the work-group entry goes on with the region that
//! edge starts. Each region is then straight code that vectorizes once.

use super::regions::{calls_plain_barrier, percent, IMPLICIT_BARRIER};
use super::uniform_loops::{branch_condition, cfg, natural_loops, uniform, Cfg};
use std::collections::{HashMap, HashSet};

pub(super) struct Uniformity {
    /// Per block: every work-item of the group runs it, as often as the
    /// others and in the same order relative to the group's barriers.
    pub together: Vec<bool>,
    /// The phis whose value is the same in every work-item.
    pub phis: HashSet<String>,
}

/// The uniformity of one function (its lines, `define` to `}`), in SSA
/// form. Optimistic: every phi starts uniform, and is dropped once an
/// incoming value is not, or once work-items may reach its block from
/// different predecessors; the blocks run together are those reached from
/// the entry or a barrier (which all work-items reach) through branches on
/// uniform values. Repeated until nothing changes: loop counters stay
/// uniform through their own back edges.
pub(super) fn analyze(function: &[String], g: &Cfg, defs: &HashMap<&str, &str>) -> Uniformity {
    let mut phi_block: HashMap<&str, usize> = HashMap::new();
    for b in 0..g.blocks {
        for line in &function[g.phi_lines(function, b)] {
            if let Some((name, _)) = super::cfg::definition(line) {
                phi_block.insert(name, b);
            }
        }
    }
    let mut phis: HashSet<&str> = phi_block.keys().copied().collect();
    loop {
        let together = together_blocks(function, g, defs, &phis);
        let keep: HashSet<&str> = phis
            .iter()
            .copied()
            .filter(|p| {
                let b = phi_block[p];
                together[b]
                    && g.preds[b].iter().all(|&q| together[q])
                    && defs[p].split('[').skip(1).all(|pair| {
                        let v = pair.split(',').next().unwrap_or("").trim();
                        uniform(v, defs, &phis, 0)
                    })
            })
            .collect();
        if keep.len() == phis.len() {
            return Uniformity {
                together,
                phis: phis.into_iter().map(str::to_string).collect(),
            };
        }
        phis = keep;
    }
}

fn together_blocks(
    function: &[String],
    g: &Cfg,
    defs: &HashMap<&str, &str>,
    phis: &HashSet<&str>,
) -> Vec<bool> {
    let mut together = vec![false; g.blocks];
    let mut stack: Vec<usize> = (0..g.blocks).filter(|&b| b == 0 || g.barriers[b]).collect();
    while let Some(b) = stack.pop() {
        if std::mem::replace(&mut together[b], true) {
            continue;
        }
        let term = g.terminator(function, b);
        // Fails closed: a terminator not understood here decides nothing
        // together.
        let decided = match branch_condition(term) {
            Some(c) => uniform(c, defs, phis, 0),
            None if term.starts_with("switch ") => {
                split_switch_value(term).is_some_and(|v| uniform(v, defs, phis, 0))
            }
            // An unconditional branch; returns and `unreachable` have no
            // successors.
            None => term.starts_with("br label "),
        };
        if decided {
            stack.extend(&g.succs[b]);
        }
    }
    together
}

/// `switch i32 %v, label ...`: `%v`.
fn split_switch_value(term: &str) -> Option<&str> {
    let rest = term.strip_prefix("switch ")?;
    rest.split(',').next()?.split(' ').nth(1)
}

/// Ends regions at the uniform two-way branches of a kernel that runs as
/// regions (its lines, `define` to `}`): an edge of such a branch leads
/// through a new block with an implicit barrier, unless its target starts
/// with a barrier already. Only branches all work-items run together, and
/// only outside loops without barriers: those loops stay inside one
/// region, where LLVM unrolls or vectorizes them whole. True if it cut any.
pub fn cut_uniform_branches(function: &mut Vec<String>, counter: &mut usize) -> bool {
    let Some(g) = cfg(function) else {
        return false;
    };
    let loops = natural_loops(&g);
    let defs = super::cfg::definitions(&function[1..]);
    let uniformity = analyze(function, &g, &defs);
    let phis: HashSet<&str> = uniformity.phis.iter().map(String::as_str).collect();
    let barrier_loop = |b: usize| {
        loops
            .values()
            .filter(|body| body.contains(&b))
            .all(|body| body.iter().any(|&x| g.barriers[x]))
    };
    // The first line after a block's label and phis.
    let starts_with_barrier = |b: usize| {
        function
            .get(g.phi_lines(function, b).end)
            .is_some_and(|l| calls_plain_barrier(l))
    };
    // (block whose branch is cut, the target's index) → the cut block.
    let mut cuts: Vec<(usize, usize, String)> = Vec::new();
    for b in 0..g.blocks {
        if !uniformity.together[b] || !barrier_loop(b) {
            continue;
        }
        let term = g.terminator(function, b);
        let Some(c) = branch_condition(term) else {
            continue;
        };
        let targets = &g.succs[b];
        if targets.len() != 2 || targets[0] == targets[1] || !uniform(c, &defs, &phis, 0) {
            continue;
        }
        for &t in targets {
            if !starts_with_barrier(t) {
                cuts.push((b, t, format!("__fcl.cut.{}", *counter)));
                *counter += 1;
            }
        }
    }
    if cuts.is_empty() {
        return false;
    }
    let mut new_blocks = Vec::new();
    for (b, t, cut) in &cuts {
        let from = &g.labels[*b];
        let to = &g.labels[*t];
        // The branch: its target becomes the cut block.
        if let Some(i) = (g.starts[*b]..g.end(function, *b))
            .rev()
            .find(|&i| function[i].trim_start().starts_with("br i1 "))
        {
            function[i] = retarget(&function[i], to, cut);
        }
        // The target's phis: the value now comes through the cut block.
        for i in g.phi_lines(function, *t) {
            function[i] = function[i].replace(&format!(", {from} ]"), &format!(", %{cut} ]"));
        }
        new_blocks.push(format!("{cut}:"));
        new_blocks.push(format!("  call void @{IMPLICIT_BARRIER}()"));
        new_blocks.push(format!("  br label {to}"));
    }
    let close = function.len() - 1;
    function.splice(close..close, new_blocks);
    true
}

/// A branch line with its `label %to` target (exactly that label) named
/// `%cut` instead.
fn retarget(line: &str, to: &str, cut: &str) -> String {
    let pattern = format!("label {to}");
    let mut out = String::with_capacity(line.len() + 16);
    let mut rest = line;
    while let Some(i) = rest.find(&pattern) {
        let after = &rest[i + pattern.len()..];
        out.push_str(&rest[..i]);
        if after.is_empty() || after.starts_with(',') || after.starts_with(' ') {
            out.push_str(&format!("label {}", percent(cut)));
        } else {
            out.push_str(&pattern);
        }
        rest = after;
    }
    out.push_str(rest);
    out
}
