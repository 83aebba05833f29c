//! The index space of a launch: validated as clEnqueueNDRangeKernel
//! validates it, with the local size the runtime chooses when the
//! application gives none (a scheduling decision: how many groups the
//! workers share).

use crate::cl::*;
use crate::compiler::abi::MAX_WORK_GROUP_SIZE;
use crate::compiler::KernelInfo;

/// The index space of one launch, validated. Dimensions past `work_dim`
/// are 1 (offset 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NdRange {
    pub work_dim: u32,
    pub offset: [usize; 3],
    pub global: [usize; 3],
    /// The enqueued local size (the last group of a dimension may be
    /// smaller when groups need not be uniform).
    pub local: [usize; 3],
    pub groups: [usize; 3],
}

impl NdRange {
    /// Validates a launch as clEnqueueNDRangeKernel does. None: the range
    /// is empty (a NULL or zero global size), and "the kernel command will
    /// trivially succeed after its event dependencies are satisfied".
    /// `uniform`: every group must be whole (a device or kernel without
    /// non-uniform work-group support). `threads`: the device's workers,
    /// for choosing a local size when none is given.
    pub fn new(
        info: &KernelInfo,
        work_dim: u32,
        offset: Option<&[usize]>,
        global: Option<&[usize]>,
        local: Option<&[usize]>,
        uniform: bool,
        threads: usize,
    ) -> Result<Option<NdRange>, cl_int> {
        // "CL_INVALID_WORK_DIMENSION if work_dim is not a valid value (i.e.
        // a value between 1 and CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS)."
        if !(1..=3).contains(&work_dim) {
            return Err(CL_INVALID_WORK_DIMENSION);
        }
        let dims = work_dim as usize;
        let mut g = [1usize; 3];
        let mut o = [0usize; 3];
        let empty = match global {
            None => true,
            Some(gs) => {
                g[..dims].copy_from_slice(&gs[..dims]);
                g.contains(&0)
            }
        };
        if let Some(os) = offset {
            o[..dims].copy_from_slice(&os[..dims]);
        }
        // "CL_INVALID_GLOBAL_OFFSET if the value specified in
        // global_work_size + the corresponding values in global_work_offset
        // for any dimensions is greater than the maximum value representable
        // by size_t on the device".
        if (0..3).any(|d| g[d].checked_add(o[d]).is_none()) {
            return Err(CL_INVALID_GLOBAL_OFFSET);
        }
        let mut l = [1usize; 3];
        match local {
            Some(ls) => {
                l[..dims].copy_from_slice(&ls[..dims]);
                // "CL_INVALID_WORK_ITEM_SIZE if the number of work-items
                // specified in any of local_work_size[0], ...
                // local_work_size[work_dim - 1] is greater than the
                // corresponding values specified by
                // CL_DEVICE_MAX_WORK_ITEM_SIZES".
                if l.iter().any(|&x| x > MAX_WORK_GROUP_SIZE) {
                    return Err(CL_INVALID_WORK_ITEM_SIZE);
                }
                if l.contains(&0) {
                    return Err(CL_INVALID_WORK_GROUP_SIZE);
                }
                // "... if local_work_size is specified and the total number
                // of work-items in the work-group ... is greater than the
                // value specified by CL_KERNEL_WORK_GROUP_SIZE".
                if l.iter().product::<usize>() > MAX_WORK_GROUP_SIZE {
                    return Err(CL_INVALID_WORK_GROUP_SIZE);
                }
                // "... if local_work_size is specified and does not match
                // the required work-group size for kernel in the program
                // source."
                if info.reqd_work_group_size.is_some_and(|r| r != l) {
                    return Err(CL_INVALID_WORK_GROUP_SIZE);
                }
            }
            None => {
                l = match info.reqd_work_group_size {
                    Some(r) => r,
                    None if empty => [1; 3],
                    None => choose_local_size(g, dims, uniform, threads, info.inner_dimension),
                };
            }
        }
        // "... if the number of work-items specified by global_work_size
        // is not evenly divisible by size of work-group given by
        // local_work_size or by the required work-group size" when groups
        // must be uniform.
        if uniform && (0..3).any(|d| g[d] % l[d] != 0) {
            return Err(CL_INVALID_WORK_GROUP_SIZE);
        }
        if empty {
            return Ok(None);
        }
        let groups = [0, 1, 2].map(|d| g[d].div_ceil(l[d]));
        Ok(Some(NdRange {
            work_dim,
            offset: o,
            global: g,
            local: l,
            groups,
        }))
    }

    /// The work-groups in all.
    pub fn group_count(&self) -> usize {
        self.groups.iter().product()
    }
}

/// The fewest work-items of a group the runtime sizes (see
/// choose_local_size): a vectorized work-item loop's width or two.
const MIN_CHOSEN_GROUP: usize = 16;

/// The largest divisor of `n` that is at most `max`.
fn largest_divisor_up_to(n: usize, max: usize) -> usize {
    (1..=max.min(n))
        .rev()
        .find(|&d| n.is_multiple_of(d))
        .unwrap_or(1)
}

/// A local size for a launch that gave none: groups of up to
/// MAX_WORK_GROUP_SIZE work-items (fewer work-items per group means more
/// per-group overhead), but enough groups to keep every worker busy a few
/// times over. Each dimension's size divides the global size when it can;
/// without the uniform rule a dimension whose only small divisors are tiny
/// gets a non-uniform last group instead. The kernel's inner dimension (the
/// one its memory is contiguous along, KernelInfo::inner_dimension) gets
/// the largest share first: a group as long as possible along it.
///
/// A group has at least MIN_CHOSEN_GROUP work-items when the range has
/// that many: splitting a tiny range over more workers (64 work-items
/// into 64 groups of one on 16 workers) only multiplies the per-group
/// cost of a kernel that one thread ends in a microsecond, so its groups
/// stay the same whatever the worker count.
fn choose_local_size(
    g: [usize; 3],
    dims: usize,
    uniform: bool,
    threads: usize,
    inner: usize,
) -> [usize; 3] {
    let total: usize = g.iter().product();
    let mut budget = (total / (threads.max(1) * 4))
        .max(MIN_CHOSEN_GROUP.min(total))
        .clamp(1, MAX_WORK_GROUP_SIZE);
    let mut l = [1; 3];
    let inner = if inner < dims { inner } else { 0 };
    let order = std::iter::once(inner).chain((0..dims).filter(|&d| d != inner));
    for d in order {
        let want = budget.min(g[d]);
        let div = largest_divisor_up_to(g[d], want);
        l[d] = if !uniform && div * 2 < want {
            want
        } else {
            div
        };
        budget /= l[d];
        if budget <= 1 {
            break;
        }
    }
    l
}

#[cfg(test)]
mod tests {
    use super::{choose_local_size, MAX_WORK_GROUP_SIZE};

    #[test]
    fn a_runtime_sized_group_is_longest_along_the_inner_dimension() {
        // Rodinia's gaussian Fan2 (2048 x 2048, contiguous along y): one
        // column of x, as much of y as a group holds.
        let g = [2048, 2048, 1];
        let along_y = choose_local_size(g, 2, false, 2, 1);
        assert_eq!(along_y, [1, MAX_WORK_GROUP_SIZE.min(2048), 1]);
        let along_x = choose_local_size(g, 2, false, 2, 0);
        assert_eq!(along_x, [MAX_WORK_GROUP_SIZE.min(2048), 1, 1]);
        // An inner dimension the launch does not have counts as x.
        assert_eq!(
            choose_local_size([4096, 1, 1], 1, false, 2, 2),
            choose_local_size([4096, 1, 1], 1, false, 2, 0)
        );
        // What is left after the inner dimension goes to the others.
        assert_eq!(choose_local_size([1024, 8, 1], 2, true, 1, 1), [128, 8, 1]);
    }

    #[test]
    fn a_tiny_range_gets_the_same_groups_on_any_number_of_workers() {
        for threads in [1, 2, 16, 128] {
            assert_eq!(
                choose_local_size([64, 1, 1], 1, true, threads, 0),
                [16, 1, 1]
            );
            assert_eq!(choose_local_size([8, 1, 1], 1, true, threads, 0), [8, 1, 1]);
        }
        // Ranges big enough for every worker are cut as before.
        assert_eq!(choose_local_size([4096, 1, 1], 1, true, 16, 0), [64, 1, 1]);
    }
}
