//! Kernel objects: one kernel of a built program and the argument values
//! the application set on it, and the NDRange a launch runs over.
//!
//! A launch snapshots the arguments ("the argument values ... at the time
//! clEnqueueNDRangeKernel is called are used"), so later clSetKernelArg
//! calls never reach an enqueued command.

use crate::caps::caps;
use crate::cl::*;
use crate::compiler::{ArgSpace, Executable, KernelArg, KernelInfo};
use crate::context::Context;
use crate::device::Device;
use crate::event::Work;
use crate::memory::{Mem, BASE_ADDR_ALIGN};
use crate::object::{lookup, Base, ClObject, ObjectKind};
use crate::program::Program;
pub use crate::sched::ndrange::{Arg, Dispatch, NdRange};
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

/// Whether an image created with `flags` may be the value of an image
/// argument with access qualifier `access` (clSetKernelArg).
fn image_access_allowed(access: u32, flags: cl_mem_flags) -> bool {
    let forbidden = match access {
        CL_KERNEL_ARG_ACCESS_READ_ONLY => CL_MEM_WRITE_ONLY,
        CL_KERNEL_ARG_ACCESS_WRITE_ONLY => CL_MEM_READ_ONLY,
        _ => 0,
    };
    flags & forbidden as cl_mem_flags == 0
}

/// The image type of an argument of OpenCL C type `type_name`; None for
/// any other.
fn image_arg_type(type_name: &str) -> Option<cl_mem_object_type> {
    Some(match type_name {
        "image1d_t" => CL_MEM_OBJECT_IMAGE1D,
        "image1d_buffer_t" => CL_MEM_OBJECT_IMAGE1D_BUFFER,
        "image1d_array_t" => CL_MEM_OBJECT_IMAGE1D_ARRAY,
        "image2d_t" => CL_MEM_OBJECT_IMAGE2D,
        "image2d_array_t" => CL_MEM_OBJECT_IMAGE2D_ARRAY,
        "image2d_depth_t" => CL_MEM_OBJECT_IMAGE2D,
        "image2d_array_depth_t" => CL_MEM_OBJECT_IMAGE2D_ARRAY,
        "image3d_t" => CL_MEM_OBJECT_IMAGE3D,
        _ => return None,
    })
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
            // "CL_INVALID_SAMPLER for an argument declared to be of type
            // sampler_t when the specified arg_value is not a valid sampler
            // object"; the kernel receives the sampler's bits.
            _ if arg.type_name == "sampler_t" => {
                if size != std::mem::size_of::<cl_sampler>() {
                    return Err(CL_INVALID_ARG_SIZE);
                }
                let bytes = value.ok_or(CL_INVALID_SAMPLER)?;
                let handle =
                    usize::from_ne_bytes(bytes.try_into().map_err(|_| CL_INVALID_ARG_SIZE)?);
                let sampler = crate::sampler::Sampler::resolve(handle as cl_sampler)
                    .map_err(|_| CL_INVALID_SAMPLER)?;
                if !Arc::ptr_eq(&sampler.context, self.context()) {
                    return Err(CL_INVALID_SAMPLER);
                }
                ArgValue::Bytes((sampler.bits() as u64).to_ne_bytes().to_vec())
            }
            ArgSpace::Global | ArgSpace::Constant => {
                if size != std::mem::size_of::<cl_mem>() {
                    return Err(CL_INVALID_ARG_SIZE);
                }
                let image_type = image_arg_type(&arg.type_name);
                let handle = match value {
                    None => std::ptr::null_mut(),
                    Some(b) => usize::from_ne_bytes(b.try_into().map_err(|_| CL_INVALID_ARG_SIZE)?)
                        as cl_mem,
                };
                if handle.is_null() {
                    // Only a buffer argument may be NULL.
                    if image_type.is_some() {
                        return Err(CL_INVALID_MEM_OBJECT);
                    }
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
                    // An image argument takes an image of its type, any
                    // other pointer no image.
                    if image_type != mem.image.map(|i| i.image_type) {
                        return Err(CL_INVALID_MEM_OBJECT);
                    }
                    // "CL_INVALID_ARG_VALUE if the argument is an image
                    // declared with the read_only qualifier and arg_value
                    // refers to an image object created with ...
                    // CL_MEM_WRITE_ONLY", and write_only with READ_ONLY.
                    if image_type.is_some() && !image_access_allowed(arg.access, mem.flags) {
                        return Err(CL_INVALID_ARG_VALUE);
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
                    let q = crate::queue::Queue::resolve(handle)
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

/// How a kernel's work-groups divide into sub-groups: its sub-group size
/// (KernelInfo::sub_group_size) of consecutive local linear ids each, the
/// last one of a group possibly smaller (clGetKernelSubGroupInfo's
/// answers).
pub struct SubGroups {
    /// The kernel's reqd_work_group_size, if it has one.
    required: Option<[usize; 3]>,
    /// Work-items per sub-group.
    size: usize,
}

impl SubGroups {
    pub fn of(kernel: &Kernel) -> SubGroups {
        SubGroups {
            required: kernel.info().reqd_work_group_size,
            size: kernel.info().sub_group_size(),
        }
    }

    /// The largest sub-group of a group of `items` work-items.
    pub fn max_size_for(&self, items: usize) -> usize {
        items.min(self.size)
    }

    /// The sub-groups of a group of `items` work-items.
    pub fn count_for(&self, items: usize) -> usize {
        items.div_ceil(self.size)
    }

    /// The most work-items a group of this kernel has.
    fn max_items(&self) -> usize {
        self.required
            .map_or(caps().max_work_group_size, |r| r.iter().product())
    }

    /// The most sub-groups a group of this kernel has.
    pub fn max_count(&self) -> usize {
        self.count_for(self.max_items())
    }

    /// A local size of `dims` dimensions whose groups have `count`
    /// sub-groups: the largest such, else the smallest; zeros when none
    /// has ("If no work-group size can accommodate the requested number of
    /// sub-groups, 0 will be returned in each element of the return array").
    pub fn local_size_for_count(&self, count: usize, dims: usize) -> Vec<usize> {
        let (max_items, size) = (self.max_items(), self.size);
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

/// Everything a launch needs once enqueued: what the executor runs (the
/// kernel's code and a snapshot of its arguments) and the buffers those
/// name, held until it has run.
pub struct Launch {
    pub dispatch: Dispatch,
    buffers: Vec<Arc<Mem>>,
}

impl Launch {
    /// Whether a launch of `range` (None: empty) is short enough to run on
    /// the enqueuing thread (sched::ndrange::is_short).
    pub fn is_short(&self, range: Option<&NdRange>) -> bool {
        crate::sched::ndrange::is_short(&self.dispatch, range)
    }

    /// The command's work: runs `range` (None: nothing) on `device`'s
    /// workers.
    pub fn work(self, device: &Device, range: Option<NdRange>) -> Work {
        Box::new(self.action(device, range))
    }

    /// The work as a closure that may run any number of times, by several
    /// threads at once (a command buffer's launch).
    pub fn action(
        self,
        device: &Device,
        range: Option<NdRange>,
    ) -> impl Fn() -> Result<(), cl_int> + Send + Sync + 'static {
        let pool = device.pool().clone();
        move || {
            let _buffers = &self.buffers;
            match &range {
                Some(range) => crate::device_enqueue::execute(&pool, &self.dispatch, range, None),
                None => Ok(()),
            }
        }
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
        let mut buffers = Vec::new();
        let args = args
            .into_iter()
            .map(|a| match a {
                ArgValue::Bytes(b) => Arg::Bytes(b),
                ArgValue::Buffer(None) => Arg::Pointer(0),
                ArgValue::Buffer(Some(m)) => {
                    let address = m.kernel_address();
                    buffers.push(m);
                    Arg::Pointer(address)
                }
                ArgValue::Svm(p) => Arg::Pointer(p),
                ArgValue::Local(n) => Arg::Local(n),
            })
            .collect();
        Ok(Launch {
            dispatch: Dispatch {
                executable: kernel.executable.clone(),
                index: kernel.index,
                args,
                shares_host_memory,
            },
            buffers,
        })
    }

    /// The buffers the launch's arguments name.
    pub fn buffers(&self) -> Vec<Arc<Mem>> {
        self.buffers.clone()
    }

    pub fn info(&self) -> &KernelInfo {
        self.dispatch.info()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn local_sizes_for_a_sub_group_count() {
        use super::SubGroups;
        use crate::compiler::abi::SUB_GROUP_SIZE;
        let free = SubGroups {
            required: None,
            size: SUB_GROUP_SIZE,
        };
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
            size: SUB_GROUP_SIZE,
        };
        assert_eq!(fixed.max_count(), 8);
        assert_eq!(fixed.local_size_for_count(8, 3), [16, 4, 1]);
        assert_eq!(fixed.local_size_for_count(2, 3), [0, 0, 0]);
        assert_eq!(free.count_for(17), 3);
        assert_eq!(free.max_size_for(5), 5);
        // intel_reqd_sub_group_size(32): 1024 work-items hold 32.
        let wide = SubGroups {
            required: None,
            size: 32,
        };
        assert_eq!(wide.count_for(33), 2);
        assert_eq!(wide.max_size_for(64), 32);
        assert_eq!(wide.max_count(), 32);
        assert_eq!(wide.local_size_for_count(3, 1), [96]);
    }
}
