//! The object model shared by every CL handle: the `#[repr(C)]` base the ICD
//! loader reads, and the registry of live objects that validates handles
//! without dereferencing them.
//!
//! A handle is the address of an object inside an `Arc`. The registry maps
//! that address to the `Arc` and to the reference count the application
//! sees; internal holders (a queue holding its context, a command holding
//! its buffers) keep their own `Arc`s and never show in that count. When the
//! application's count reaches zero the handle leaves the registry, so a
//! stale handle is answered with the object's CL_INVALID_* code, and the
//! object itself is dropped once the last internal holder lets go.

use crate::cl::*;
use std::any::Any;
use std::collections::HashMap;
use std::ffi::c_void;
use std::hash::BuildHasherDefault;
use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};
use std::sync::{Arc, LazyLock, RwLock, Weak};

/// What kind of CL object a handle names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum ObjectKind {
    Platform = 1,
    Device,
    Context,
    Queue,
    Mem,
    Event,
    Program,
    Kernel,
    Sampler,
    CommandBuffer,
    MutableCommand,
}

/// The first fields of every CL object (cl_khr_icd): the loader reads the
/// dispatch table pointer, and with ICD 2.0 the dispatch data it installed.
#[repr(C)]
pub struct Base {
    dispatch: *const cl_icd_dispatch,
    dispatch_data: AtomicPtr<c_void>,
    kind: ObjectKind,
    /// Handed to the application (in the registry), so dropping it must
    /// take it out again.
    published: AtomicBool,
}

// SAFETY: the dispatch table is a static immutable table, and the dispatch
// data is an opaque loader pointer we only store and hand back.
unsafe impl Send for Base {}
// SAFETY: as above; the only mutable field is atomic.
unsafe impl Sync for Base {}

/// The ICD dispatch table every handle starts with (cl_khr_icd). The ICD
/// layer builds it from the entry points and installs it (icd.rs) before it
/// hands out a first handle; objects made before that, by this crate's own
/// tests, which no loader reads, carry NULL.
static DISPATCH_TABLE: AtomicPtr<cl_icd_dispatch> = AtomicPtr::new(std::ptr::null_mut());

/// The dispatch data an ICD 2.0 loader gave (clIcdSetPlatformDispatchDataKHR),
/// copied into every object made after.
static DISPATCH_DATA: AtomicPtr<c_void> = AtomicPtr::new(std::ptr::null_mut());

/// Makes `table` the dispatch table of every object made from now on.
pub fn install_dispatch_table(table: &'static cl_icd_dispatch) {
    DISPATCH_TABLE.store(table as *const cl_icd_dispatch as *mut _, Ordering::Release);
}

/// Makes `data` the ICD 2.0 dispatch data of every object made from now on.
pub fn set_loader_dispatch_data(data: *mut c_void) {
    DISPATCH_DATA.store(data, Ordering::Release);
}

impl Base {
    pub fn new(kind: ObjectKind) -> Self {
        Base {
            dispatch: DISPATCH_TABLE.load(Ordering::Acquire),
            dispatch_data: AtomicPtr::new(DISPATCH_DATA.load(Ordering::Acquire)),
            kind,
            published: AtomicBool::new(false),
        }
    }

    pub fn kind(&self) -> ObjectKind {
        self.kind
    }

    pub fn set_dispatch_data(&self, data: *mut c_void) {
        self.dispatch_data.store(data, Ordering::Release);
    }

    pub fn dispatch_data(&self) -> *mut c_void {
        self.dispatch_data.load(Ordering::Acquire)
    }
}

/// A CL object type: its base, its kind, the C handle type, and the error
/// that an invalid handle of this type earns.
pub trait ClObject: Any + Send + Sync + Sized {
    const KIND: ObjectKind;
    /// The spec's CL_INVALID_* code for a bad handle of this type.
    const INVALID: cl_int;
    /// The opaque C struct the handle points to (`_cl_context`, ...).
    type Raw;

    fn base(&self) -> &Base;
}

/// Implements ClObject for a struct whose `base` field is its ICD base:
/// `cl_object!(Context, Context, CL_INVALID_CONTEXT, _cl_context);`
macro_rules! cl_object {
    ($t:ty, $kind:ident, $invalid:expr, $raw:ty) => {
        impl $crate::object::ClObject for $t {
            const KIND: $crate::object::ObjectKind = $crate::object::ObjectKind::$kind;
            const INVALID: $crate::cl::cl_int = $invalid;
            type Raw = $raw;
            fn base(&self) -> &$crate::object::Base {
                &self.base
            }
        }
    };
}
pub(crate) use cl_object;

struct Entry {
    /// Valid as long as the object lives, whoever holds it.
    object: Weak<dyn Any + Send + Sync>,
    /// The application's hold on the object while its count is above zero.
    held: Option<Arc<dyn Any + Send + Sync>>,
    kind: ObjectKind,
    /// The reference count the application sees.
    app_refs: u32,
}

/// Handles are heap addresses, already unique and well spread once the
/// alignment bits are mixed in: a multiplicative hash does, and costs a
/// fraction of SipHash on every API call.
#[derive(Default)]
struct AddressHasher(u64);

impl std::hash::Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_usize(&mut self, addr: usize) {
        self.0 = (addr as u64 >> 4)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(32);
    }
}

type Registry = HashMap<usize, Entry, BuildHasherDefault<AddressHasher>>;

static REGISTRY: LazyLock<RwLock<Registry>> = LazyLock::new(|| RwLock::new(Registry::default()));

fn registry_read() -> std::sync::RwLockReadGuard<'static, Registry> {
    REGISTRY.read().unwrap_or_else(|poison| poison.into_inner())
}

fn registry_write() -> std::sync::RwLockWriteGuard<'static, Registry> {
    REGISTRY
        .write()
        .unwrap_or_else(|poison| poison.into_inner())
}

/// Hands `object` to the application: registers it with a reference count of
/// one and returns its handle.
pub fn publish<T: ClObject>(object: Arc<T>) -> *mut T::Raw {
    let addr = Arc::as_ptr(&object) as usize;
    object.base().published.store(true, Ordering::Release);
    let weak: Weak<dyn Any + Send + Sync> = Arc::downgrade(&object) as Weak<dyn Any + Send + Sync>;
    let mut reg = registry_write();
    match reg.get_mut(&addr) {
        // Published before (an event returned twice): one more reference.
        Some(e) => {
            e.app_refs += 1;
            e.held = Some(object);
        }
        None => {
            reg.insert(
                addr,
                Entry {
                    object: weak,
                    held: Some(object),
                    kind: T::KIND,
                    app_refs: 1,
                },
            );
        }
    }
    addr as *mut T::Raw
}

/// The handle of an object that is (or was) published.
pub fn handle_of<T: ClObject>(object: &Arc<T>) -> *mut T::Raw {
    Arc::as_ptr(object) as *mut T::Raw
}

/// The entry's object, if the handle names a live object of kind T. The
/// registry lock is released before the object is touched, so that no
/// object can be dropped (and unregister itself) under it.
fn weak_of<T: ClObject>(handle: *const c_void) -> Option<Weak<dyn Any + Send + Sync>> {
    let reg = registry_read();
    reg.get(&(handle as usize))
        .filter(|e| e.kind == T::KIND)
        .map(|e| e.object.clone())
}

/// Resolves a handle to its object, or T's CL_INVALID_* code when the handle
/// is NULL, stale, or names an object of another type. An object the
/// application released stays valid while something attached to it (a
/// queue's context, a command's buffer) keeps it alive, as the spec has it.
pub fn lookup<T: ClObject>(handle: *mut T::Raw) -> Result<Arc<T>, cl_int> {
    let object = weak_of::<T>(handle as *const c_void)
        .and_then(|w| w.upgrade())
        .ok_or(T::INVALID)?;
    object.downcast::<T>().map_err(|_| T::INVALID)
}

/// Every live object of kind T the application was handed (clMemBlockingFreeINTEL
/// waits for a context's queues). The objects are upgraded after the lock
/// is released, as in `lookup`.
pub fn live<T: ClObject>() -> Vec<Arc<T>> {
    let weak: Vec<_> = registry_read()
        .values()
        .filter(|e| e.kind == T::KIND)
        .map(|e| e.object.clone())
        .collect();
    weak.into_iter()
        .filter_map(|w| w.upgrade()?.downcast::<T>().ok())
        .collect()
}

/// clRetain*: one more application reference.
pub fn retain<T: ClObject>(handle: *mut T::Raw) -> Result<(), cl_int> {
    let object = lookup::<T>(handle)?;
    let mut reg = registry_write();
    let e = reg.get_mut(&(handle as usize)).ok_or(T::INVALID)?;
    e.app_refs += 1;
    if e.held.is_none() {
        e.held = Some(object);
        return Ok(());
    }
    drop(reg);
    Ok(())
}

/// clRelease*: one application reference less. The application's hold on
/// the object ends with its last reference; the object goes when nothing
/// else holds it.
pub fn release<T: ClObject>(handle: *mut T::Raw) -> Result<(), cl_int> {
    let released = {
        let mut reg = registry_write();
        let released = match reg.get_mut(&(handle as usize)) {
            Some(e) if e.kind == T::KIND && e.app_refs > 0 => {
                e.app_refs -= 1;
                if e.app_refs > 0 {
                    return Ok(());
                }
                e.held.take()
            }
            _ => return Err(T::INVALID),
        }
        .and_then(|held| held.downcast::<T>().ok());
        // The application's was the last reference: the object goes with
        // it, so its entry goes now rather than in a second pass from Drop.
        if let Some(object) = released.as_ref().filter(|o| Arc::strong_count(o) == 1) {
            object.base().published.store(false, Ordering::Release);
            reg.remove(&(handle as usize));
        }
        released
    };
    // Dropped outside the lock: the object may go now and unregister itself.
    drop(released);
    Ok(())
}

/// The reference count the application sees (CL_*_REFERENCE_COUNT).
pub fn app_ref_count<T: ClObject>(handle: *mut T::Raw) -> Result<cl_uint, cl_int> {
    let reg = registry_read();
    match reg.get(&(handle as usize)) {
        Some(e) if e.kind == T::KIND => Ok(e.app_refs),
        _ => Err(T::INVALID),
    }
}

impl Drop for Base {
    /// The object is going: its handle is no longer valid. The base is the
    /// object's first field, so its address is the handle.
    fn drop(&mut self) {
        if !self.published.load(Ordering::Acquire) {
            return;
        }
        let addr = self as *const Base as usize;
        let removed = registry_write().remove(&addr);
        drop(removed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::Context;
    use crate::device::Device;

    fn context() -> Arc<Context> {
        Context::new(vec![Device::root().clone()], Vec::new(), None)
    }

    #[test]
    fn counts_are_the_applications_and_handles_die_with_their_objects() {
        let ctx = context();
        let handle = publish(ctx.clone());
        assert_eq!(app_ref_count::<Context>(handle), Ok(1));
        retain::<Context>(handle).unwrap();
        assert_eq!(app_ref_count::<Context>(handle), Ok(2));
        release::<Context>(handle).unwrap();
        release::<Context>(handle).unwrap();
        // Released by the application, but still held here: the handle is
        // valid, as for a context a queue keeps alive.
        assert_eq!(app_ref_count::<Context>(handle), Ok(0));
        assert!(lookup::<Context>(handle).is_ok());
        assert_eq!(release::<Context>(handle), Err(CL_INVALID_CONTEXT));
        drop(ctx);
        assert_eq!(lookup::<Context>(handle).err(), Some(CL_INVALID_CONTEXT));
    }

    #[test]
    fn a_handle_of_another_type_or_garbage_is_rejected_without_a_dereference() {
        let handle = publish(context());
        assert_eq!(
            lookup::<Device>(handle as cl_device_id).err(),
            Some(CL_INVALID_DEVICE)
        );
        assert_eq!(
            lookup::<Context>(std::ptr::null_mut()).err(),
            Some(CL_INVALID_CONTEXT)
        );
        assert_eq!(
            lookup::<Context>(0x1234 as cl_context).err(),
            Some(CL_INVALID_CONTEXT)
        );
        release::<Context>(handle).unwrap();
        assert_eq!(lookup::<Context>(handle).err(), Some(CL_INVALID_CONTEXT));
    }
}
