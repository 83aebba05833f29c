//! The basic blocks of one function in textual IR, and their edges: one
//! reading for the region planner, the uniform-loop analysis and the guard
//! finder.

use super::ir::split_top;
use super::regions::{label_of, used_names};
use std::collections::HashMap;

/// One basic block.
pub struct Block<'a> {
    /// Its label without `%` (the entry's is the caller's name for it).
    pub label: String,
    /// The index of its label line in the function's lines (the entry: its
    /// first line).
    pub first: usize,
    /// Its instructions, without blank and comment lines.
    pub lines: Vec<&'a str>,
    /// The labels it branches to, without `%`.
    pub successors: Vec<String>,
}

/// The labels a terminator (or any line) names as `label %x`.
pub fn branch_targets(line: &str) -> impl Iterator<Item = &str> {
    line.match_indices("label %").filter_map(move |(i, _)| {
        let rest = &line[i + "label ".len()..];
        used_names(rest).next()
    })
}

/// The blocks of a function body: `lines` are those after its `define`
/// line (reading stops at `}`), `entry` the name given to the unnamed entry
/// block.
pub fn blocks<'a, S: AsRef<str>>(lines: &'a [S], entry: &str) -> Vec<Block<'a>> {
    let mut out = vec![Block {
        label: entry.to_string(),
        first: 0,
        lines: Vec::new(),
        successors: Vec::new(),
    }];
    for (i, line) in lines.iter().enumerate() {
        let line = line.as_ref();
        if line.starts_with('}') {
            break;
        }
        if let Some(label) = label_of(line) {
            out.push(Block {
                label: label.to_string(),
                first: i,
                lines: Vec::new(),
                successors: Vec::new(),
            });
            continue;
        }
        let t = line.trim();
        if t.is_empty() || t.starts_with(';') {
            continue;
        }
        if let Some(block) = out.last_mut() {
            block
                .successors
                .extend(branch_targets(line).map(str::to_string));
            block.lines.push(line);
        }
    }
    // A function whose first line is a label has no unnamed entry.
    if out.len() > 1 && out[0].lines.is_empty() && out[1].first == 0 {
        out.remove(0);
    }
    out
}

/// A line's SSA definition: the name (without `%` and quotes) and what
/// follows ` = `.
pub fn definition(line: &str) -> Option<(&str, &str)> {
    let (name, rhs) = line.trim_start().split_once(" = ")?;
    Some((name.strip_prefix('%')?.trim_matches('"'), rhs))
}

/// The SSA definitions of some lines, by name.
pub fn definitions<S: AsRef<str>>(lines: &[S]) -> HashMap<&str, &str> {
    lines
        .iter()
        .filter_map(|l| definition(l.as_ref()))
        .collect()
}

/// A plain (not atomic) load's or store's pointer operand, as written
/// (`ptr addrspace(3) %p`), and whether the access is volatile; `line` may
/// also be a load's right-hand side.
pub fn pointer_operand(line: &str) -> Option<(&str, bool)> {
    let t = line.trim_start();
    let rhs = definition(t).map_or(t, |(_, rhs)| rhs);
    let ops = rhs
        .strip_prefix("store ")
        .or_else(|| rhs.strip_prefix("load "))?;
    if ops.starts_with("atomic ") {
        return None;
    }
    let (volatile, ops) = match ops.strip_prefix("volatile ") {
        Some(rest) => (true, rest),
        None => (false, ops),
    };
    // load T, ptr P, align N / store T V, ptr P, align N.
    Some((*split_top(ops).get(1)?, volatile))
}
