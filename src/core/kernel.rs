//! Kernel objects: one kernel of a built program and the argument values
//! the application set on it, and the NDRange a launch runs over.
//!
//! A launch snapshots the arguments ("the argument values ... at the time
//! clEnqueueNDRangeKernel is called are used"), so later clSetKernelArg
//! calls never reach an enqueued command.

use crate::cl::*;
use crate::compiler::{ArgSpace, Executable, KernelArg, KernelInfo};
use crate::core::caps::caps;
use crate::core::context::Context;
use crate::core::device::Device;
use crate::core::event::Work;
use crate::core::memory::{Mem, BASE_ADDR_ALIGN};
use crate::core::object::{lookup, Base, ClObject, ObjectKind};
use crate::core::program::Program;
use std::ffi::c_void;
use std::sync::{Arc, Mutex, MutexGuard, Weak};

/// CL_DEVICE_MAX_WORK_GROUP_SIZE (caps::DeviceCaps reports it): a
/// constant, for array lengths and the scheduler.
pub const MAX_WORK_GROUP_SIZE: usize = crate::compiler::abi::MAX_WORK_GROUP_SIZE;

/// CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, for the scheduler's
/// device-side queries (caps::DeviceCaps reports it).
pub const PREFERRED_WORK_GROUP_SIZE_MULTIPLE: usize = 8;

/// CL_DEVICE_LOCAL_MEM_SIZE (caps::DeviceCaps).
pub fn local_mem_size() -> u64 {
    caps().local_mem_size
}

/// One argument's value. A kernel holds its buffers weakly (`M` is
/// `Weak<Mem>`): clSetKernelArg does not retain a memory object, whose
/// release must still destroy it (the CTS checks the destructor callback).
/// A launch holds them strongly (`Arc<Mem>`) until it has run.
#[derive(Clone)]
pub enum ArgValue<M = Arc<Mem>> {
    /// A value passed by copy.
    Bytes(Vec<u8>),
    /// A buffer for a __global/__constant pointer (None: a NULL pointer).
    Buffer(Option<M>),
    /// An SVM pointer (clSetKernelArgSVMPointer).
    Svm(usize),
    /// The size of a __local buffer.
    Local(usize),
}

/// clSetKernelExecInfo's state.
#[derive(Clone, Default)]
pub struct ExecInfo {
    /// CL_KERNEL_EXEC_INFO_SVM_PTRS. Host memory is the device's, so these
    /// need no migration; they are kept for completeness.
    pub svm_ptrs: Vec<usize>,
    pub fine_grain_system: bool,
}

/// `#[repr(C)]` so that the ICD base comes first.
#[repr(C)]
pub struct Kernel {
    base: Base,
    pub program: Arc<Program>,
    pub executable: Arc<Executable>,
    /// This kernel's index in the executable.
    pub index: usize,
    args: Mutex<Vec<Option<ArgValue<Weak<Mem>>>>>,
    exec_info: Mutex<ExecInfo>,
}

impl Drop for Kernel {
    fn drop(&mut self) {
        self.program.kernel_detached();
    }
}

impl ClObject for Kernel {
    const KIND: ObjectKind = ObjectKind::Kernel;
    const INVALID: cl_int = CL_INVALID_KERNEL;
    type Raw = _cl_kernel;
    fn base(&self) -> &Base {
        &self.base
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Kernel {
    /// clCreateKernel: CL_INVALID_PROGRAM_EXECUTABLE without a built
    /// executable, CL_INVALID_KERNEL_NAME when it has no such kernel.
    pub fn new(program: &Arc<Program>, name: impl AsRef<[u8]>) -> Result<Arc<Kernel>, cl_int> {
        let exe = program.executable().ok_or(CL_INVALID_PROGRAM_EXECUTABLE)?;
        // Kernel names are OpenCL C identifiers: bytes that are not UTF-8
        // name no kernel.
        let index = std::str::from_utf8(name.as_ref())
            .ok()
            .and_then(|n| exe.kernel_index(n))
            .ok_or(CL_INVALID_KERNEL_NAME)?;
        Ok(Kernel::with_index(program, exe, index))
    }

    /// Every kernel of the program (clCreateKernelsInProgram).
    pub fn all(program: &Arc<Program>) -> Result<Vec<Arc<Kernel>>, cl_int> {
        let exe = program.executable().ok_or(CL_INVALID_PROGRAM_EXECUTABLE)?;
        Ok(exe
            .visible_kernels()
            .map(|i| Kernel::with_index(program, exe.clone(), i))
            .collect())
    }

    fn with_index(
        program: &Arc<Program>,
        executable: Arc<Executable>,
        index: usize,
    ) -> Arc<Kernel> {
        let n = executable.kernels[index].args.len();
        program.kernel_attached();
        Arc::new(Kernel {
            base: Base::new(ObjectKind::Kernel),
            program: program.clone(),
            executable,
            index,
            args: Mutex::new(vec![None; n]),
            exec_info: Mutex::new(ExecInfo::default()),
        })
    }

    /// clCloneKernel: the same kernel with a copy of the arguments and the
    /// exec info set so far.
    pub fn clone_kernel(&self) -> Arc<Kernel> {
        self.program.kernel_attached();
        Arc::new(Kernel {
            base: Base::new(ObjectKind::Kernel),
            program: self.program.clone(),
            executable: self.executable.clone(),
            index: self.index,
            args: Mutex::new(lock(&self.args).clone()),
            exec_info: Mutex::new(lock(&self.exec_info).clone()),
        })
    }

    pub fn resolve(handle: cl_kernel) -> Result<Arc<Kernel>, cl_int> {
        lookup::<Kernel>(handle)
    }

    pub fn info(&self) -> &KernelInfo {
        &self.executable.kernels[self.index]
    }

    pub fn context(&self) -> &Arc<Context> {
        &self.program.context
    }

    fn arg(&self, index: u32) -> Result<&KernelArg, cl_int> {
        self.info()
            .args
            .get(index as usize)
            .ok_or(CL_INVALID_ARG_INDEX)
    }

    /// clSetKernelArg, with the value already read: `value` is None for a
    /// NULL arg_value, else the arg_size bytes it points to.
    pub fn set_arg(&self, index: u32, size: usize, value: Option<&[u8]>) -> Result<(), cl_int> {
        let arg = self.arg(index)?;
        let v = match arg.space {
            // "CL_INVALID_ARG_SIZE if ... arg_size is zero and the argument
            // is declared with the local qualifier"; "CL_INVALID_ARG_VALUE
            // if arg_value specified is NULL for an argument that is not
            // declared with the __local qualifier or vice-versa".
            ArgSpace::Local => {
                if size == 0 {
                    return Err(CL_INVALID_ARG_SIZE);
                }
                if value.is_some() {
                    return Err(CL_INVALID_ARG_VALUE);
                }
                ArgValue::Local(size)
            }
            // "... if the argument is a memory object and arg_size !=
            // sizeof(cl_mem)"; "the arg_value pointer can be NULL or point
            // to a NULL value in which case a NULL value will be used".
            ArgSpace::Global | ArgSpace::Constant => {
                if size != std::mem::size_of::<cl_mem>() {
                    return Err(CL_INVALID_ARG_SIZE);
                }
                let handle = match value {
                    None => std::ptr::null_mut(),
                    Some(b) => usize::from_ne_bytes(b.try_into().map_err(|_| CL_INVALID_ARG_SIZE)?)
                        as cl_mem,
                };
                if handle.is_null() {
                    ArgValue::Buffer(None)
                } else {
                    // "CL_INVALID_MEM_OBJECT for an argument declared to be
                    // a memory object when the specified arg_value is not a
                    // valid memory object"; one of another context is not
                    // valid for this kernel either.
                    let mem = Mem::resolve(handle).map_err(|_| CL_INVALID_MEM_OBJECT)?;
                    if !Arc::ptr_eq(&mem.context, self.context()) {
                        return Err(CL_INVALID_MEM_OBJECT);
                    }
                    // A pipe argument takes a pipe, a pointer a buffer.
                    let pipe_arg = arg.type_qualifier
                        & CL_KERNEL_ARG_TYPE_PIPE as cl_kernel_arg_type_qualifier
                        != 0;
                    if pipe_arg != mem.pipe.is_some() {
                        return Err(CL_INVALID_MEM_OBJECT);
                    }
                    ArgValue::Buffer(Some(Arc::downgrade(&mem)))
                }
            }
            // "CL_INVALID_ARG_SIZE if arg_size does not match the size of
            // the data type for an argument that is not a memory object".
            ArgSpace::Private => {
                if size != arg.size {
                    return Err(CL_INVALID_ARG_SIZE);
                }
                let bytes = value.ok_or(CL_INVALID_ARG_VALUE)?;
                // "CL_INVALID_DEVICE_QUEUE for an argument declared to be of
                // type queue_t when the specified arg_value is not a valid
                // device queue object."
                if arg.type_name == "queue_t" {
                    let handle =
                        usize::from_ne_bytes(bytes.try_into().map_err(|_| CL_INVALID_ARG_SIZE)?)
                            as cl_command_queue;
                    let q = crate::core::queue::Queue::resolve(handle)
                        .map_err(|_| CL_INVALID_DEVICE_QUEUE)?;
                    if q.on_device.is_none() || !Arc::ptr_eq(&q.context, self.context()) {
                        return Err(CL_INVALID_DEVICE_QUEUE);
                    }
                }
                ArgValue::Bytes(bytes.to_vec())
            }
        };
        lock(&self.args)[index as usize] = Some(v);
        Ok(())
    }

    /// clSetKernelArgSVMPointer: any pointer into an SVM allocation (or
    /// NULL) for a __global/__constant pointer argument.
    pub fn set_arg_svm(&self, index: u32, ptr: *const c_void) -> Result<(), cl_int> {
        let arg = self.arg(index)?;
        if !matches!(arg.space, ArgSpace::Global | ArgSpace::Constant) {
            return Err(CL_INVALID_ARG_VALUE);
        }
        lock(&self.args)[index as usize] = Some(ArgValue::Svm(ptr as usize));
        Ok(())
    }

    pub fn set_svm_ptrs(&self, ptrs: Vec<usize>) {
        lock(&self.exec_info).svm_ptrs = ptrs;
    }

    pub fn set_fine_grain_system(&self, on: bool) {
        lock(&self.exec_info).fine_grain_system = on;
    }

    /// The argument values now, for a launch: CL_INVALID_KERNEL_ARGS when
    /// one is not set.
    /// The argument values for a launch: "CL_INVALID_KERNEL_ARGS if the
    /// kernel argument values have not been specified"; a buffer released
    /// since it was set is no valid memory object any more.
    pub fn snapshot(&self) -> Result<Vec<ArgValue>, cl_int> {
        lock(&self.args)
            .iter()
            .map(|a| match a.as_ref().ok_or(CL_INVALID_KERNEL_ARGS)? {
                ArgValue::Bytes(b) => Ok(ArgValue::Bytes(b.clone())),
                ArgValue::Buffer(None) => Ok(ArgValue::Buffer(None)),
                ArgValue::Buffer(Some(w)) => w
                    .upgrade()
                    .map(|m| ArgValue::Buffer(Some(m)))
                    .ok_or(CL_INVALID_MEM_OBJECT),
                ArgValue::Svm(p) => Ok(ArgValue::Svm(*p)),
                ArgValue::Local(n) => Ok(ArgValue::Local(*n)),
            })
            .collect()
    }

    /// CL_KERNEL_LOCAL_MEM_SIZE: the __local argument sizes set so far.
    pub fn local_mem_used(&self) -> u64 {
        lock(&self.args)
            .iter()
            .map(|a| match a {
                Some(ArgValue::Local(n)) => *n as u64,
                _ => 0,
            })
            .sum()
    }
}

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
                if l.iter().any(|&x| x > caps().max_work_group_size) {
                    return Err(CL_INVALID_WORK_ITEM_SIZE);
                }
                if l.contains(&0) {
                    return Err(CL_INVALID_WORK_GROUP_SIZE);
                }
                // "... if local_work_size is specified and the total number
                // of work-items in the work-group ... is greater than the
                // value specified by CL_KERNEL_WORK_GROUP_SIZE".
                if l.iter().product::<usize>() > caps().max_work_group_size {
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
        .clamp(1, caps().max_work_group_size);
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

/// Everything a launch needs once enqueued: the kernel's code and a
/// snapshot of its arguments.
pub struct Launch {
    pub executable: Arc<Executable>,
    pub index: usize,
    pub args: Vec<ArgValue>,
    /// The kernel may share memory with host threads while it runs: SVM
    /// pointers, or the application's own memory (CL_MEM_USE_HOST_PTR,
    /// which may be SVM too).
    pub shares_host_memory: bool,
}

/// How a kernel's work-groups divide into sub-groups: SUB_GROUP_SIZE
/// consecutive local linear ids each, the last one of a group possibly
/// smaller (clGetKernelSubGroupInfo's answers).
pub struct SubGroups {
    /// The kernel's reqd_work_group_size, if it has one.
    required: Option<[usize; 3]>,
}

impl SubGroups {
    pub fn of(kernel: &Kernel) -> SubGroups {
        SubGroups {
            required: kernel.info().reqd_work_group_size,
        }
    }

    /// The largest sub-group of a group of `items` work-items.
    pub fn max_size_for(items: usize) -> usize {
        items.min(caps().sub_group_size)
    }

    /// The sub-groups of a group of `items` work-items.
    pub fn count_for(items: usize) -> usize {
        items.div_ceil(caps().sub_group_size)
    }

    /// The most work-items a group of this kernel has.
    fn max_items(&self) -> usize {
        self.required
            .map_or(caps().max_work_group_size, |r| r.iter().product())
    }

    /// The most sub-groups a group of this kernel has.
    pub fn max_count(&self) -> usize {
        Self::count_for(self.max_items())
    }

    /// A local size of `dims` dimensions whose groups have `count`
    /// sub-groups: the largest such, else the smallest; zeros when none
    /// has ("If no work-group size can accommodate the requested number of
    /// sub-groups, 0 will be returned in each element of the return array").
    pub fn local_size_for_count(&self, count: usize, dims: usize) -> Vec<usize> {
        let (max_items, size) = (self.max_items(), caps().sub_group_size);
        let mut local = vec![1usize; dims];
        match self.required {
            Some(r) if self.max_count() == count => {
                local.iter_mut().zip(r).for_each(|(l, r)| *l = r)
            }
            None if count > 0 && count * size <= max_items => local[0] = count * size,
            None if count > 0 && (count - 1) * size < max_items => {
                local[0] = (count - 1) * size + 1
            }
            _ => local.fill(0),
        }
        local
    }
}

impl Launch {
    /// Whether a launch of `range` (None: empty) is short enough to run on
    /// the enqueuing thread (sched::ndrange::is_short).
    pub fn is_short(&self, range: Option<&NdRange>) -> bool {
        crate::sched::ndrange::is_short(self, range)
    }

    /// The command's work: runs `range` (None: nothing) on `device`'s
    /// workers.
    pub fn work(self, device: &Device, range: Option<NdRange>) -> Work {
        let pool = device.pool().clone();
        Box::new(move || match range {
            Some(range) => crate::sched::ndrange::execute(&pool, &self, &range),
            None => Ok(()),
        })
    }

    /// Snapshots `kernel`'s arguments for a launch on `device`.
    pub fn new(kernel: &Kernel, _device: &Device) -> Result<Launch, cl_int> {
        let args = kernel.snapshot()?;
        // "CL_OUT_OF_RESOURCES if ... the local memory required by the
        // kernel exceeds CL_DEVICE_LOCAL_MEM_SIZE".
        let local: u64 = args
            .iter()
            .map(|a| match a {
                ArgValue::Local(n) => *n as u64,
                _ => 0,
            })
            .sum();
        if local > local_mem_size() {
            return Err(CL_OUT_OF_RESOURCES);
        }
        // "CL_MISALIGNED_SUB_BUFFER_OFFSET if a sub-buffer object is
        // specified as the value for an argument that is a buffer object
        // and the offset specified when the sub-buffer object is created is
        // not aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN".
        if args
            .iter()
            .any(|a| matches!(a, ArgValue::Buffer(Some(m)) if m.offset() % BASE_ADDR_ALIGN != 0))
        {
            return Err(CL_MISALIGNED_SUB_BUFFER_OFFSET);
        }
        let exec_info = lock(&kernel.exec_info);
        let shares_host_memory = !exec_info.svm_ptrs.is_empty()
            || exec_info.fine_grain_system
            || args.iter().any(|a| match a {
                ArgValue::Svm(_) => true,
                ArgValue::Buffer(Some(m)) => m.flags & CL_MEM_USE_HOST_PTR as cl_mem_flags != 0,
                _ => false,
            });
        drop(exec_info);
        Ok(Launch {
            executable: kernel.executable.clone(),
            index: kernel.index,
            args,
            shares_host_memory,
        })
    }

    /// The buffers the launch's arguments name.
    pub fn buffers(&self) -> Vec<Arc<Mem>> {
        self.args
            .iter()
            .filter_map(|a| match a {
                ArgValue::Buffer(Some(m)) => Some(m.clone()),
                _ => None,
            })
            .collect()
    }

    pub fn info(&self) -> &KernelInfo {
        &self.executable.kernels[self.index]
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn local_sizes_for_a_sub_group_count() {
        use super::SubGroups;
        use crate::compiler::abi::SUB_GROUP_SIZE;
        let free = SubGroups { required: None };
        // The largest group with 3 sub-groups.
        assert_eq!(free.local_size_for_count(3, 1), [3 * SUB_GROUP_SIZE]);
        assert_eq!(free.local_size_for_count(3, 2), [3 * SUB_GROUP_SIZE, 1]);
        assert_eq!(free.local_size_for_count(0, 1), [0]);
        // 1024 work-items hold 128 sub-groups at most.
        assert_eq!(free.local_size_for_count(128, 1), [1024]);
        assert_eq!(free.local_size_for_count(129, 3), [0, 0, 0]);
        assert_eq!(free.max_count(), 128);
        // reqd_work_group_size(16, 4, 1): 64 work-items, 8 sub-groups.
        let fixed = SubGroups {
            required: Some([16, 4, 1]),
        };
        assert_eq!(fixed.max_count(), 8);
        assert_eq!(fixed.local_size_for_count(8, 3), [16, 4, 1]);
        assert_eq!(fixed.local_size_for_count(2, 3), [0, 0, 0]);
        assert_eq!(SubGroups::count_for(17), 3);
        assert_eq!(SubGroups::max_size_for(5), 5);
    }

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
