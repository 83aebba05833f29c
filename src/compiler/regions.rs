//! Kernels with barriers as compiled work-item loops.
//!
//! A kernel whose only synchronization is `barrier` / `work_group_barrier`
//! is cut at its barriers into regions: region 0 starts at the kernel's
//! entry, region r at the block after the r-th barrier. The work-group entry
//! runs one region for every work-item in a loop (vectorized across
//! work-items like a barrier-free kernel), and the region's end (the barrier
//! each work-item reached, or the kernel's return) picks the next region.
//! This is correct in any control flow OpenCL allows around barriers
//! (loops, uniformly taken branches, called functions, which are inlined),
//! because a region is a copy of the whole kernel entered at its barrier.
//!
//! Values that live across a barrier must survive while the other
//! work-items run the region, so they are kept per work-item in a frame the
//! executor provides (`WorkGroupContext::frame`). Finding them needs no
//! liveness of SSA values: before the kernel is cut, the region pipeline
//! (driver.rs REGIONS_PIPELINE, passes in passes/) inlines the
//! functions that reach a barrier and demotes every value used outside its
//! block to an alloca (reg2mem), with each barrier alone in its block. An
//! alloca then goes to the frame only when the value it holds may be read
//! after a barrier before being written again (or when its address is
//! taken); the others stay allocas, which the back end promotes back into
//! registers.
//!
//! Work-group functions are linked in and become barriers of the kernel;
//! kernels with other collective calls (async copies, sub-groups) keep
//! running on fibers.

use super::ir::{split_top, type_layout, AccessKind, ParallelAccess, WG_BODY_PREFIX, WG_PARAMS};
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

/// A barrier the compiler adds (passes/implicit_barriers.cpp,
/// passes/cut_uniform_branches.cpp; passes/kernel_symbols.h names it too): a region boundary that
/// needs no synchronization when work-items run one by one (a no-op in
/// builtins/workitem.c).
pub const IMPLICIT_BARRIER: &str = "__ferrocl_implicit_barrier";

/// The name prefix of values the same in every work-item of a group
/// (passes/implicit_barriers.cpp, passes/uniform_counters.cpp): kept once per group in the frame; a region writes
/// them to a staging copy, which the work-group entry copies back after
/// every work-item has run the region.
pub const UNIFORM_PREFIX: &str = "__fcl.u.";

/// The barriers regions are cut at (their mangled names).
const PLAIN_BARRIERS: &[&str] = &[
    IMPLICIT_BARRIER,
    "_Z7barrierj",
    "_Z18work_group_barrierj",
    "_Z18work_group_barrierj12memory_scope",
];

/// The block that continues a kernel's entry after its allocas.
const START: &str = "__fcl.start";
/// The block every region function leaves through.
const EXIT: &str = "__fcl.exit";

/// The widest alignment a frame slot gets (the frame's own alignment).
pub const FRAME_ALIGN: usize = 64;

/// The wait inside the work-group (argument 0) and sub-group functions
/// (builtins/lib/collective.cl).
pub const COLLECTIVE_WAIT: &str = "__ferrocl_collective_wait";

pub fn is_plain_barrier(symbol: &str) -> bool {
    PLAIN_BARRIERS.contains(&symbol)
}

pub(super) fn calls_plain_barrier(line: &str) -> bool {
    PLAIN_BARRIERS
        .iter()
        .any(|b| line.contains(&format!("@{b}(")))
}

/// The label a line starts, if it is a label line (`name:`, `12:`,
/// `"quoted name":`).
pub(super) fn label_of(line: &str) -> Option<&str> {
    if line.starts_with(' ') || line.starts_with(';') || line.is_empty() {
        return None;
    }
    let end = if let Some(quoted) = line.strip_prefix('"') {
        quoted.find('"')? + 2
    } else {
        line.find(':')?
    };
    (line[end..].starts_with(':')).then(|| line[..end].trim_matches('"'))
}

/// `%name` as written in IR for a label or value (quoted when needed).
pub(super) fn percent(name: &str) -> String {
    if name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "._$-".contains(c))
    {
        format!("%{name}")
    } else {
        format!("%\"{name}\"")
    }
}

/// How a block first touches an alloca.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    None,
    /// Overwrites it before any read: the value held before is dead.
    Store,
    /// Reads it (or something else that may read it).
    Read,
}

enum Visit {
    Found,
    Stop,
    Continue,
}

/// One frame slot: an alloca kept per work-item.
struct Slot {
    name: String,
    /// For a value only loaded and stored whole: its type. The region
    /// copies it into its own alloca on entry and back on exit, so inside
    /// the region it is a register again; an alloca whose address escapes
    /// (None) is used in the frame directly.
    copied: Option<String>,
    /// Bytes per work-item (a multiple of the alignment).
    stride: u64,
    align: u64,
    /// Bytes of frame per work-item before this slot's array; for a
    /// uniform slot, its offset in the uniform area.
    offset: u64,
    /// Uniform (UNIFORM_PREFIX): one value for the group, in the uniform
    /// area after the per-work-item arrays.
    uniform: bool,
}

/// How a kernel runs as regions: its region starts, frame slots and frame
/// bytes per work-item.
pub struct RegionPlan {
    /// The first block of region r (region 0: the entry's continuation).
    starts: Vec<String>,
    /// Barrier block label → the region it starts.
    barriers: HashMap<String, usize>,
    slots: Vec<Slot>,
    /// Bytes per work-item of the per-work-item arrays (the uniform area
    /// starts at this times the group's work-items).
    per_item_size: u64,
    /// Bytes of the uniform slots: the staging copy follows them, then the
    /// next region's number (an i32).
    uniform_size: u64,
    pub frame_size: usize,
}

/// The `%name` tokens a line uses.
pub(super) fn used_names(line: &str) -> impl Iterator<Item = &str> {
    line.match_indices('%').filter_map(move |(i, _)| {
        let rest = &line[i + 1..];
        if let Some(q) = rest.strip_prefix('"') {
            return q.find('"').map(|e| &q[..e]);
        }
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || "._$-".contains(c)))
            .unwrap_or(rest.len());
        (end > 0).then(|| &rest[..end])
    })
}

/// Whether the alloca `a` is only the pointer operand of this load or store
/// (or of a lifetime marker): Some(access) then, None when the line does
/// anything else with it (its address escapes).
fn direct_access(line: &str, a: &str) -> Option<Access> {
    let l = line.trim_start();
    let operand = |s: &str| {
        s.rsplit(' ')
            .next()
            .map(|t| t.trim_start_matches('%').trim_matches('"') == a)
    };
    if l.starts_with("call void @llvm.lifetime.") {
        return Some(Access::None);
    }
    let (kind, ops) = if let Some(r) = l.strip_prefix("store ") {
        (Access::Store, r)
    } else if let Some((_, r)) = l.split_once(" = load ") {
        (Access::Read, r)
    } else {
        return None;
    };
    let ops = ops.strip_prefix("volatile ").unwrap_or(ops);
    let parts = split_top(ops);
    match kind {
        Access::Store => {
            // store T V, ptr %A, align N: %A must be the pointer, not V.
            (parts.len() >= 2
                && operand(parts[1]) == Some(true)
                && operand(parts[0]) == Some(false))
            .then_some(Access::Store)
        }
        _ => (parts.len() >= 2 && operand(parts[1]) == Some(true)).then_some(Access::Read),
    }
}

/// Plans the regions of one kernel's body (its lines after `opt`, from the
/// `define` line to `}`). None when the body has a shape the transform does
/// not handle; the kernel then runs on fibers.
pub fn plan(body: &[&str], structs: &HashMap<String, String>) -> Option<RegionPlan> {
    // Blocks; the entry's allocas come out of it, the rest is START.
    let mut blocks = super::cfg::blocks(&body[1..], START);
    let mut allocas: Vec<(&str, &str)> = Vec::new();
    if blocks.first()?.label == START {
        let entry = &mut blocks[0];
        let leading = entry
            .lines
            .iter()
            .take_while(|l| l.contains(" = alloca ") || l.contains("\"reg2mem alloca point\""))
            .count();
        for line in entry.lines.drain(..leading) {
            if let Some((name, rest)) = line.trim_start().split_once(" = alloca ") {
                allocas.push((name.trim_start_matches('%').trim_matches('"'), rest));
            }
        }
        if entry.lines.is_empty() {
            blocks.remove(0);
        }
    }
    // A dynamic alloca: not a fixed frame slot.
    if blocks
        .iter()
        .any(|b| b.lines.iter().any(|l| l.contains(" alloca ")))
    {
        return None;
    }
    let index: HashMap<&str, usize> = blocks
        .iter()
        .enumerate()
        .map(|(i, b)| (b.label.as_str(), i))
        .collect();
    let mut starts = vec![START.to_string()];
    let mut barriers = HashMap::new();
    for b in &blocks {
        if b.lines.iter().any(|l| calls_plain_barrier(l)) {
            // Exactly the barrier and the branch to its continuation.
            if b.lines.len() != 2 || b.successors.len() != 1 {
                return None;
            }
            barriers.insert(b.label.clone(), starts.len());
            starts.push(b.successors[0].clone());
        }
    }
    if barriers.is_empty() || index.len() != blocks.len() {
        return None;
    }
    for s in &starts {
        index.get(s.as_str())?;
    }
    // Per alloca: how each block touches it first, and whether its address
    // escapes.
    let names: HashSet<&str> = allocas.iter().map(|a| a.0).collect();
    let mut first: HashMap<&str, Vec<Access>> = names
        .iter()
        .map(|&n| (n, vec![Access::None; blocks.len()]))
        .collect();
    let mut escaped: HashSet<&str> = HashSet::new();
    let mut used_in: HashMap<&str, Vec<usize>> = HashMap::new();
    for (bi, b) in blocks.iter().enumerate() {
        for l in &b.lines {
            for n in used_names(l) {
                let Some(&a) = names.get(n) else { continue };
                used_in.entry(a).or_default().push(bi);
                let access = direct_access(l, a).unwrap_or_else(|| {
                    escaped.insert(a);
                    Access::Read
                });
                let f = &mut first.get_mut(a)?[bi];
                if *f == Access::None {
                    *f = access;
                }
            }
        }
    }
    // Whether, from `from`, a walk that does not pass a barrier and stops
    // at blocks `visit` calls Stop reaches one it calls Found.
    let reaches = |from: usize, visit: &dyn Fn(usize) -> Visit| -> bool {
        let mut seen = vec![false; blocks.len()];
        let mut stack = vec![from];
        while let Some(b) = stack.pop() {
            if std::mem::replace(&mut seen[b], true) {
                continue;
            }
            match visit(b) {
                Visit::Found => return true,
                Visit::Stop => {}
                Visit::Continue if barriers.contains_key(&blocks[b].label) => {}
                Visit::Continue => stack.extend(
                    blocks[b]
                        .successors
                        .iter()
                        .filter_map(|s| index.get(s.as_str()).copied()),
                ),
            }
        }
        false
    };
    let mut in_frame = HashSet::new();
    for &(name, _) in &allocas {
        let accesses = &first[name];
        let uses = used_in.get(name).cloned().unwrap_or_default();
        let escapes = escaped.contains(name);
        let live_after_barrier = starts[1..].iter().any(|s| {
            reaches(index[s.as_str()], &|b| {
                if escapes {
                    // Its address is taken: kept whenever a region after
                    // a barrier uses it at all.
                    return match uses.contains(&b) {
                        true => Visit::Found,
                        false => Visit::Continue,
                    };
                }
                // Read before being overwritten on some path: the value from
                // before the barrier is needed.
                match accesses[b] {
                    Access::Read => Visit::Found,
                    Access::Store => Visit::Stop,
                    Access::None => Visit::Continue,
                }
            })
        });
        if live_after_barrier {
            in_frame.insert(name.to_string());
        }
    }
    // The frame: one array per slot, widest alignment first so each
    // array's offset (per work-item offset × work-items) stays aligned.
    let mut slots = Vec::new();
    for &(name, rest) in &allocas {
        if !in_frame.contains(name) {
            continue;
        }
        let parts = split_top(rest);
        let ty = parts.first()?;
        let mut align = 1;
        for p in &parts[1..] {
            match p.strip_prefix("align ") {
                Some(a) => align = a.trim().parse().ok()?,
                // An element count or address space: not handled.
                None => return None,
            }
        }
        let (size, ty_align) = type_layout(ty, structs);
        if size == 0 {
            return None;
        }
        let align = align.max(ty_align);
        if align as usize > FRAME_ALIGN {
            return None;
        }
        slots.push(Slot {
            name: name.to_string(),
            copied: (!escaped.contains(name)).then(|| ty.to_string()),
            stride: size.div_ceil(align) * align,
            align,
            offset: 0,
            uniform: name.starts_with(UNIFORM_PREFIX) && !escaped.contains(name),
        });
    }
    slots.sort_by_key(|s| std::cmp::Reverse(s.align));
    let (mut per_item, mut uniform) = (0, 0);
    for s in &mut slots {
        let offset = if s.uniform {
            &mut uniform
        } else {
            &mut per_item
        };
        s.offset = *offset;
        *offset += s.stride;
    }
    // The uniform area follows the arrays, aligned: the uniform slots,
    // their staging copy, the next region's number. frame_size counts it
    // per work-item too (the executor sizes the frame by work-items).
    let per_item = per_item.div_ceil(FRAME_ALIGN as u64) * FRAME_ALIGN as u64;
    let uniform = uniform.div_ceil(8) * 8;
    Some(RegionPlan {
        starts,
        barriers,
        slots,
        per_item_size: per_item,
        uniform_size: uniform,
        frame_size: (per_item + 2 * uniform + 8) as usize,
    })
}

/// The parameters a region function takes after the kernel's and WG_PARAMS.
/// Not `noalias` (see WG_PARAMS): the frame's accesses carry alias scopes
/// of their own (ParallelAccess).
const REGION_PARAMS: &str = "i64 %__ferrocl.wi, i64 %__ferrocl.nwi, ptr nocapture %__ferrocl.frame, ptr nocapture %__ferrocl.uniform";

/// The name of region `r`'s function for kernel `kernel`.
fn region_name(kernel: &str, r: usize) -> String {
    format!("\"__ferrocl_region.{kernel}.{r}\"")
}

/// Writes region `r` of a kernel: `body` is the kernel's work-group copy
/// (work-item calls already turned into loop twins) after its `define`
/// line, `define` the copy's `define` line renamed by the caller.
pub fn write_region(
    out: &mut String,
    plan: &RegionPlan,
    define: &str,
    body: &[&str],
    r: usize,
    access: &ParallelAccess,
) {
    let _ = writeln!(out, "\n{define}");
    let mut in_entry = true;
    // Inside a barrier block: its call and branch become the return.
    let mut in_barrier: Option<usize> = None;
    // Every way out of the region notes the next region's number and goes
    // to one exit block, which copies the slots back to the frame: copies
    // at each exit would be merged by LLVM into stores that lose their
    // access group, and the work-item loop would no longer be parallel.
    let exit = |out: &mut String, next: usize| {
        let _ = writeln!(
            out,
            "  store i32 {next}, ptr %__fcl.next.id\n  br label %{EXIT}"
        );
    };
    let (frame, uniform, staging) = (AccessKind::Frame, AccessKind::Uniform, AccessKind::Staging);
    let _ = writeln!(
        out,
        "  %__fcl.next = getelementptr inbounds i8, ptr %__ferrocl.uniform, i64 {}\n  %__fcl.next.id = alloca i32",
        2 * plan.uniform_size
    );
    for (i, s) in plan.slots.iter().enumerate() {
        let _ = match s.uniform {
            true => writeln!(
                out,
                "  %__fcl.at.{i} = getelementptr inbounds i8, ptr %__ferrocl.uniform, i64 {}\n  %__fcl.stage.{i} = getelementptr inbounds i8, ptr %__ferrocl.uniform, i64 {}",
                s.offset,
                s.offset + plan.uniform_size
            ),
            false => writeln!(
                out,
                "  %__fcl.off.{i} = mul i64 %__ferrocl.nwi, {off}\n  %__fcl.slot.{i} = getelementptr inbounds i8, ptr %__ferrocl.frame, i64 %__fcl.off.{i}\n  %__fcl.at.{i} = getelementptr inbounds [{} x i8], ptr %__fcl.slot.{i}, i64 %__ferrocl.wi",
                s.stride,
                off = s.offset
            ),
        };
    }
    for &line in body {
        if line.starts_with('}') {
            break;
        }
        if in_entry {
            if let Some((name, _)) = line.trim_start().split_once(" = alloca ") {
                let bare = name.trim_start_matches('%').trim_matches('"');
                match plan.slots.iter().position(|s| s.name == bare) {
                    Some(i) if plan.slots[i].copied.is_none() => {
                        let _ = writeln!(
                            out,
                            "  {name} = getelementptr inbounds i8, ptr %__fcl.at.{i}, i64 0"
                        );
                    }
                    _ => {
                        let _ = writeln!(out, "{line}");
                    }
                }
                continue;
            }
            if line.contains("\"reg2mem alloca point\"") {
                continue;
            }
            in_entry = false;
            for (i, s) in plan.slots.iter().enumerate() {
                if let Some(ty) = &s.copied {
                    let _ = writeln!(
                        out,
                        "  %__fcl.in.{i} = load {ty}, ptr %__fcl.at.{i}{}\n  store {ty} %__fcl.in.{i}, ptr {}",
                        access.slot_tag(match s.uniform {
                            true => uniform,
                            false => frame,
                        }),
                        percent(&s.name)
                    );
                }
            }
            let _ = writeln!(out, "  br label {}\n{START}:", percent(&plan.starts[r]));
        }
        if let Some(label) = label_of(line) {
            let _ = writeln!(out, "{line}");
            in_barrier = plan.barriers.get(label).copied();
            if let Some(next) = in_barrier {
                exit(out, next);
            }
            continue;
        }
        if in_barrier.is_some() {
            continue;
        }
        let trimmed = line.trim_start();
        if trimmed == "ret void" {
            exit(out, 0);
            continue;
        }
        if trimmed.starts_with("call void @llvm.lifetime.")
            && used_names(line).any(|n| plan.slots.iter().any(|s| s.name == n))
        {
            continue;
        }
        let _ = writeln!(out, "{}", access.tag(line));
    }
    // The exit. A uniform slot goes to its staging copy: the group's other
    // work-items may still have to read the value from before the region
    // (the work-group entry copies it back once all are done).
    let _ = writeln!(out, "{EXIT}:");
    for (i, s) in plan.slots.iter().enumerate() {
        if let Some(ty) = &s.copied {
            let (to, kind) = match s.uniform {
                true => ("stage", staging),
                false => ("at", frame),
            };
            let _ = writeln!(
                out,
                "  %__fcl.out.{i} = load {ty}, ptr {name}\n  store {ty} %__fcl.out.{i}, ptr %__fcl.{to}.{i}{tag}",
                name = percent(&s.name),
                tag = access.slot_tag(kind)
            );
        }
    }
    let _ = writeln!(
        out,
        "  %__fcl.next.value = load i32, ptr %__fcl.next.id\n  store i32 %__fcl.next.value, ptr %__fcl.next{}\n  ret void\n}}",
        access.slot_tag(staging)
    );
}

/// The rest of the work-group entry of a kernel run as regions, after the
/// head group_entry_head wrote (`%ls0..2`, `%ls.zero`; `call_args` the
/// kernel's arguments): each region for every work-item (z, y, x loops, x
/// innermost, with no value live out of them, so the x loop vectorizes),
/// then the uniform slots' staging copy back to the slots, then the region
/// the work-items' barrier named, until the kernel returns. `md` is the
/// next free metadata number.
pub fn write_group_entry(
    out: &mut String,
    kernel: &str,
    plan: &RegionPlan,
    call_args: &[String],
    access: &ParallelAccess,
    guarded: &[bool],
    md: &mut usize,
) {
    let frame = std::mem::offset_of!(super::abi::WorkGroupContext, frame);
    let mut args = call_args.join(", ");
    if !args.is_empty() {
        args.push_str(", ");
    }
    let _ = writeln!(
        out,
        "  %nwi01 = mul i64 %ls0, %ls1
  %nwi = mul i64 %nwi01, %ls2
  %frame.p = getelementptr inbounds i8, ptr %ctx, i64 {frame}
  %frame = load ptr, ptr %frame.p, align 8
  %uniform.off = mul i64 %nwi, {per_item}
  %uniform = getelementptr inbounds i8, ptr %frame, i64 %uniform.off
  %next.p = getelementptr inbounds i8, ptr %uniform, i64 {next}
  br i1 %ls.zero, label %done, label %run0",
        per_item = plan.per_item_size,
        next = 2 * plan.uniform_size
    );
    let mut loop_ids = Vec::new();
    // The y and z loops are never unrolled: a copy of a row loop is a copy
    // of its vector, remainder and epilogue loops, for rows that are few.
    let outer = *md;
    *md += 1;
    let mut outer_ids = Vec::new();
    for r in 0..plan.starts.len() {
        let f = region_name(kernel, r);
        let m = *md;
        *md += 1;
        loop_ids.push(m);
        let (y_id, z_id) = (*md, *md + 1);
        *md += 2;
        outer_ids.extend([y_id, z_id]);
        // The x loop's end: for a guarded region (clip.rs), only the
        // work-items below its bound, at least one.
        let x_end = match guarded.get(r).copied().unwrap_or(false) {
            true => {
                let b = bound_name(kernel, r);
                let _ = writeln!(
                    out,
                    "run{r}:
  %r{r}.bound = call i64 @{b}({args}ptr %ctx, i64 0, i64 0, i64 0, i64 0, i64 %nwi, ptr %frame, ptr %uniform)
  %r{r}.lt = icmp ult i64 %r{r}.bound, %ls0
  %r{r}.below = select i1 %r{r}.lt, i64 %r{r}.bound, i64 %ls0
  %r{r}.none = icmp eq i64 %r{r}.below, 0
  %r{r}.x.end = select i1 %r{r}.none, i64 1, i64 %r{r}.below
  br label %r{r}.z"
                );
                format!("%r{r}.x.end")
            }
            false => {
                let _ = writeln!(out, "run{r}:\n  br label %r{r}.z");
                "%ls0".to_string()
            }
        };
        let _ = writeln!(
            out,
            "r{r}.z:
  %r{r}.lz = phi i64 [ 0, %run{r} ], [ %r{r}.lz.next, %r{r}.ylatch ]
  br label %r{r}.y
r{r}.y:
  %r{r}.ly = phi i64 [ 0, %r{r}.z ], [ %r{r}.ly.next, %r{r}.x.done ]
  %r{r}.row.zy = mul i64 %r{r}.lz, %ls1
  %r{r}.row.y = add i64 %r{r}.row.zy, %r{r}.ly
  %r{r}.row = mul i64 %r{r}.row.y, %ls0
  br label %r{r}.x
r{r}.x:
  %r{r}.lx = phi i64 [ 0, %r{r}.y ], [ %r{r}.lx.next, %r{r}.x ]
  %r{r}.wi = add i64 %r{r}.row, %r{r}.lx
  call void @{f}({args}ptr %ctx, i64 %r{r}.lx, i64 %r{r}.ly, i64 %r{r}.lz, i64 %r{r}.wi, i64 %nwi, ptr %frame, ptr %uniform)
  %r{r}.lx.next = add nuw i64 %r{r}.lx, 1
  %r{r}.x.more = icmp ult i64 %r{r}.lx.next, {x_end}
  %r{r}.ly.next = add nuw i64 %r{r}.ly, 1
  %r{r}.y.more = icmp ult i64 %r{r}.ly.next, %ls1
  br i1 %r{r}.x.more, label %r{r}.x, label %r{r}.x.done, !llvm.loop !{m}
r{r}.x.done:
  br i1 %r{r}.y.more, label %r{r}.y, label %r{r}.ylatch, !llvm.loop !{y_id}
r{r}.ylatch:
  %r{r}.lz.next = add nuw i64 %r{r}.lz, 1
  %r{r}.z.more = icmp ult i64 %r{r}.lz.next, %ls2
  br i1 %r{r}.z.more, label %r{r}.z, label %dispatch, !llvm.loop !{z_id}"
        );
    }
    // Every region ends here: the uniform slots' staging copies go back to
    // the slots, and the number the region noted picks the next one.
    let _ = writeln!(out, "dispatch:");
    for (i, s) in plan.slots.iter().enumerate() {
        if let (true, Some(ty)) = (s.uniform, &s.copied) {
            let _ = writeln!(
                out,
                "  %at.{i} = getelementptr inbounds i8, ptr %uniform, i64 {}
  %stage.{i} = getelementptr inbounds i8, ptr %uniform, i64 {}
  %staged.{i} = load {ty}, ptr %stage.{i}
  store {ty} %staged.{i}, ptr %at.{i}",
                s.offset,
                s.offset + plan.uniform_size
            );
        }
    }
    let cases: Vec<String> = (1..plan.starts.len())
        .map(|r| format!("i32 {r}, label %run{r}"))
        .collect();
    let _ = writeln!(
        out,
        "  %next = load i32, ptr %next.p
  switch i32 %next, label %done [ {} ]
done:
  ret void
}}",
        cases.join(" ")
    );
    for m in loop_ids {
        let _ = writeln!(out, "{}", access.loop_metadata(m, md));
    }
    let _ = writeln!(out, "!{outer} = !{{!\"llvm.loop.unroll.disable\"}}");
    for m in outer_ids {
        let _ = writeln!(out, "!{m} = distinct !{{!{m}, !{outer}}}");
    }
}

/// The number of regions a plan has.
impl RegionPlan {
    pub fn regions(&self) -> usize {
        self.starts.len()
    }

    /// The label of region `r`'s first block.
    pub(super) fn start(&self, r: usize) -> &str {
        &self.starts[r]
    }

    /// The allocas of the uniform slots.
    pub(super) fn uniform_slot_names(&self) -> impl Iterator<Item = &str> {
        self.slots
            .iter()
            .filter(|s| s.uniform)
            .map(|s| s.name.as_str())
    }

    /// Whether an alloca is a slot of each work-item's own.
    pub(super) fn is_work_item_slot(&self, name: &str) -> bool {
        self.slots.iter().any(|s| !s.uniform && s.name == name)
    }

    /// Whether a block is a barrier's (where a region ends).
    pub(super) fn is_barrier_block(&self, label: &str) -> bool {
        self.barriers.contains_key(label)
    }

    /// The uniform slots' registers, loaded from the uniform area (for a
    /// function with the region parameters).
    pub(super) fn write_uniform_copy_in(&self, out: &mut String) {
        for (i, s) in self.slots.iter().enumerate() {
            if let (true, Some(ty)) = (s.uniform, &s.copied) {
                let _ = writeln!(
                    out,
                    "  {name} = alloca {ty}\n  %__fcl.at.{i} = getelementptr inbounds i8, ptr %__ferrocl.uniform, i64 {}\n  %__fcl.in.{i} = load {ty}, ptr %__fcl.at.{i}\n  store {ty} %__fcl.in.{i}, ptr {name}",
                    s.offset,
                    name = percent(&s.name)
                );
            }
        }
    }
}

/// The `define` line of region `r`'s bound function (clip.rs), from the
/// region's own.
pub fn bound_define(region_define: &str, kernel: &str, r: usize) -> String {
    region_define.replacen(&region_name(kernel, r), &bound_name(kernel, r), 1)
}

/// The name of region `r`'s bound function.
fn bound_name(kernel: &str, r: usize) -> String {
    format!("\"__ferrocl_bound.{kernel}.{r}\"")
}

/// A region function's `define` line from the kernel's work-group copy's:
/// it takes the region parameters too.
pub fn region_define(copy_define: &str, kernel: &str, r: usize) -> String {
    let copy_name = format!("@\"{}{kernel}\"", WG_BODY_PREFIX);
    let l = copy_define.replacen(&copy_name, &format!("@{}", region_name(kernel, r)), 1);
    l.replacen(WG_PARAMS, &format!("{WG_PARAMS}, {REGION_PARAMS}"), 1)
}
