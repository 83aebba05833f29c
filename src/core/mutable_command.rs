//! A kernel launch recorded in a mutable command buffer
//! (cl_khr_command_buffer_mutable_dispatch): its arguments, exec info and
//! sizes may change between enqueues. It keeps a private copy of the
//! kernel (clCloneKernel's), so that an update is clSetKernelArg on that
//! copy followed by a fresh snapshot; enqueues already made keep the work
//! they took.

use crate::cl::*;
use crate::command_buffer::{Action, CommandBuffer};
use crate::kernel::{Kernel, Launch, NdRange};
use crate::memory::Mem;
use crate::object::{cl_object, lookup, Base, ObjectKind};
use crate::queue::Queue;
use std::sync::{Arc, Mutex, MutexGuard, Weak};

/// A launch's sizes as the application gave them; `local` None where it
/// let the device choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    pub work_dim: cl_uint,
    pub offset: [usize; 3],
    pub global: [usize; 3],
    pub local: Option<[usize; 3]>,
}

/// The launch an enqueue runs now.
pub struct Current {
    /// The private copy of the kernel, with the arguments updates set.
    pub kernel: Arc<Kernel>,
    pub sizes: Sizes,
    /// The local size the launch runs with (CL_MUTABLE_DISPATCH_LOCAL_WORK_SIZE_KHR).
    pub local: [usize; 3],
    /// None while an argument is unset (recorded so, to be set by an
    /// update): the buffer cannot be enqueued until it is.
    action: Option<Action>,
}

/// `#[repr(C)]` so that the ICD base comes first.
#[repr(C)]
pub struct MutableCommand {
    base: Base,
    pub buffer: Weak<CommandBuffer>,
    pub queue: Arc<Queue>,
    /// The kernel the application recorded (CL_MUTABLE_DISPATCH_KERNEL_KHR).
    pub kernel: Arc<Kernel>,
    /// CL_MUTABLE_COMMAND_PROPERTIES_ARRAY_KHR: as recorded.
    pub properties: Vec<cl_properties>,
    /// CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR: what updates may change.
    pub updatable: cl_bitfield,
    current: Mutex<Current>,
    /// Every buffer a launch of it has named: the kernel copy holds its
    /// arguments weakly, and an update that leaves an argument alone must
    /// still find it.
    held: Mutex<Vec<Arc<Mem>>>,
}

cl_object!(
    MutableCommand,
    MutableCommand,
    CL_INVALID_MUTABLE_COMMAND_KHR,
    _cl_mutable_command_khr
);

impl MutableCommand {
    /// The launch of `kernel` over `range` recorded into `buffer`.
    pub fn new(
        buffer: &Arc<CommandBuffer>,
        (properties, updatable): (Vec<cl_properties>, cl_bitfield),
        kernel: &Arc<Kernel>,
        sizes: Sizes,
        range: Option<NdRange>,
    ) -> Result<Arc<MutableCommand>, cl_int> {
        let queue = buffer.queue.clone();
        let (current, held) = launch(&queue, updatable, kernel.clone_kernel(), sizes, range)?;
        Ok(Arc::new(MutableCommand {
            base: Base::new(ObjectKind::MutableCommand),
            buffer: Arc::downgrade(buffer),
            queue,
            kernel: kernel.clone(),
            properties,
            updatable,
            current: Mutex::new(current),
            held: Mutex::new(held),
        }))
    }

    pub fn resolve(handle: cl_mutable_command_khr) -> Result<Arc<MutableCommand>, cl_int> {
        lookup::<MutableCommand>(handle)
    }

    pub fn current(&self) -> MutexGuard<'_, Current> {
        self.current.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The work an enqueue made now runs (None: an argument is unset).
    pub fn action(&self) -> Option<Action> {
        self.current().action.clone()
    }

    /// The buffers of its launches so far.
    pub fn buffers(&self) -> Vec<Arc<Mem>> {
        self.held.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Snapshots `kernel` (an updated copy) over `range`: checked, not yet
    /// in effect (`commit` makes it so), so that a failing update of a
    /// group changes nothing.
    pub fn prepare(
        &self,
        kernel: Arc<Kernel>,
        sizes: Sizes,
        range: Option<NdRange>,
    ) -> Result<Prepared, cl_int> {
        let (current, buffers) = launch(&self.queue, self.updatable, kernel, sizes, range)?;
        Ok(Prepared { current, buffers })
    }

    pub fn commit(&self, prepared: Prepared) {
        self.held
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .extend(prepared.buffers);
        *self.current() = prepared.current;
    }
}

/// An update checked and snapshot, waiting for its group's others.
pub struct Prepared {
    current: Current,
    buffers: Vec<Arc<Mem>>,
}

/// Snapshots `kernel` for a launch over `range`: unset arguments are an
/// error unless updates may set them (the launch then waits for them).
fn launch(
    queue: &Queue,
    updatable: cl_bitfield,
    kernel: Arc<Kernel>,
    sizes: Sizes,
    range: Option<NdRange>,
) -> Result<(Current, Vec<Arc<Mem>>), cl_int> {
    let local = range.as_ref().map_or([0; 3], |r| r.local);
    let (action, held) = match Launch::new(&kernel, &queue.device) {
        Ok(launch) => {
            let held = launch.buffers();
            let action: Action = Arc::new(launch.action(&queue.device, range));
            (Some(action), held)
        }
        Err(CL_INVALID_KERNEL_ARGS)
            if updatable & CL_MUTABLE_DISPATCH_ARGUMENTS_KHR as cl_bitfield != 0 =>
        {
            (None, Vec::new())
        }
        Err(e) => return Err(e),
    };
    let current = Current {
        kernel,
        sizes,
        local,
        action,
    };
    Ok((current, held))
}
