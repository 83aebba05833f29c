//! Contexts: a set of devices and the objects created in them.

use crate::callback::Callback;
use crate::cl::*;
use crate::device::Device;
use crate::object::{cl_object, lookup, Base, ObjectKind};
use crate::queue::Queue;
use std::ffi::c_void;
use std::sync::{Arc, Mutex, MutexGuard, Weak};

pub type ContextNotify = unsafe extern "C" fn(*const i8, *const c_void, usize, *mut c_void);
pub type ContextDestructor = unsafe extern "C" fn(cl_context, *mut c_void);

/// `#[repr(C)]` so that the ICD base comes first.
#[repr(C)]
pub struct Context {
    base: Base,
    pub devices: Vec<Arc<Device>>,
    /// The properties as the application passed them (terminator included).
    pub properties: Vec<cl_context_properties>,
    pub notify: Option<Callback<ContextNotify>>,
    destructors: Mutex<Vec<Callback<ContextDestructor>>>,
    /// The default on-device queue of each device (get_default_queue):
    /// held weakly, the application's handle keeps it.
    default_device_queues: Mutex<DefaultQueues>,
}

cl_object!(Context, Context, CL_INVALID_CONTEXT, _cl_context);

impl Context {
    pub fn new(
        devices: Vec<Arc<Device>>,
        properties: Vec<cl_context_properties>,
        notify: Option<Callback<ContextNotify>>,
    ) -> Arc<Context> {
        Arc::new(Context {
            base: Base::new(ObjectKind::Context),
            devices,
            properties,
            notify,
            destructors: Mutex::new(Vec::new()),
            default_device_queues: Mutex::new(DefaultQueues::default()),
        })
    }

    pub fn resolve(handle: cl_context) -> Result<Arc<Context>, cl_int> {
        lookup::<Context>(handle)
    }

    pub fn has_device(&self, device: &Arc<Device>) -> bool {
        self.devices.iter().any(|d| Arc::ptr_eq(d, device))
    }

    /// The default on-device queues, under their lock.
    fn default_queues(&self) -> MutexGuard<'_, DefaultQueues> {
        self.default_device_queues
            .lock()
            .unwrap_or_else(|p| p.into_inner())
    }

    /// The default on-device queue of `device`, if it has a live one.
    pub fn default_device_queue(&self, device: &Arc<Device>) -> Option<Arc<Queue>> {
        self.default_queues().live(device)
    }

    /// The default on-device queue of `device`: the live one, or the one
    /// `create` makes, under one lock, so that threads asking at once all
    /// get the same queue.
    pub fn default_device_queue_or_create(
        &self,
        device: &Arc<Device>,
        create: impl FnOnce() -> Arc<Queue>,
    ) -> Arc<Queue> {
        let mut queues = self.default_queues();
        queues.live(device).unwrap_or_else(|| {
            let queue = create();
            queues.set(&queue);
            queue
        })
    }

    /// Makes `queue` the default on-device queue of its device.
    pub fn set_default_device_queue(&self, queue: &Arc<Queue>) {
        self.default_queues().set(queue);
    }

    pub fn add_destructor(&self, cb: Callback<ContextDestructor>) {
        self.destructors.lock().unwrap().push(cb);
    }
}

/// Each device's default on-device queue, held weakly (the application's
/// handle keeps it), by the device's address.
#[derive(Default)]
struct DefaultQueues(Vec<(usize, Weak<Queue>)>);

impl DefaultQueues {
    fn live(&self, device: &Arc<Device>) -> Option<Arc<Queue>> {
        let key = Arc::as_ptr(device) as usize;
        self.0
            .iter()
            .find(|(d, _)| *d == key)
            .and_then(|(_, q)| q.upgrade())
    }

    /// Makes `queue` its device's default, dropping the old one and the
    /// entries of queues gone.
    fn set(&mut self, queue: &Arc<Queue>) {
        let key = Arc::as_ptr(&queue.device) as usize;
        self.0.retain(|(d, q)| *d != key && q.strong_count() > 0);
        self.0.push((key, Arc::downgrade(queue)));
    }
}

impl Drop for Context {
    /// "... called in the reverse order of registration" once the context
    /// and everything attached to it are gone.
    fn drop(&mut self) {
        let handle = self as *mut Context as cl_context;
        let callbacks = std::mem::take(self.destructors.get_mut().unwrap());
        for cb in callbacks.into_iter().rev() {
            // SAFETY: an application callback with the arguments the spec
            // defines; the handle is still ours during drop.
            unsafe { (cb.func)(handle, cb.user_data) };
        }
    }
}
