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
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::{Arc, LazyLock, RwLock};

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
}

/// The first fields of every CL object (cl_khr_icd): the loader reads the
/// dispatch table pointer, and with ICD 2.0 the dispatch data it installed.
#[repr(C)]
pub struct Base {
    dispatch: *const cl_icd_dispatch,
    dispatch_data: AtomicPtr<c_void>,
    kind: ObjectKind,
}

// SAFETY: the dispatch table is a static immutable table, and the dispatch
// data is an opaque loader pointer we only store and hand back.
unsafe impl Send for Base {}
// SAFETY: as above; the only mutable field is atomic.
unsafe impl Sync for Base {}

impl Base {
    pub fn new(kind: ObjectKind) -> Self {
        Base {
            dispatch: crate::icd::dispatch_table(),
            dispatch_data: AtomicPtr::new(crate::icd::platform_dispatch_data()),
            kind,
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

struct Entry {
    object: Arc<dyn Any + Send + Sync>,
    kind: ObjectKind,
    /// The reference count the application sees.
    app_refs: u32,
}

static REGISTRY: LazyLock<RwLock<HashMap<usize, Entry>>> =
    LazyLock::new(|| RwLock::new(HashMap::new()));

fn registry_read() -> std::sync::RwLockReadGuard<'static, HashMap<usize, Entry>> {
    REGISTRY.read().unwrap_or_else(|poison| poison.into_inner())
}

fn registry_write() -> std::sync::RwLockWriteGuard<'static, HashMap<usize, Entry>> {
    REGISTRY
        .write()
        .unwrap_or_else(|poison| poison.into_inner())
}

/// Hands `object` to the application: registers it with a reference count of
/// one and returns its handle.
pub fn publish<T: ClObject>(object: Arc<T>) -> *mut T::Raw {
    let addr = Arc::as_ptr(&object) as usize;
    registry_write().insert(
        addr,
        Entry {
            object,
            kind: T::KIND,
            app_refs: 1,
        },
    );
    addr as *mut T::Raw
}

/// The handle of an object that is (or was) published.
pub fn handle_of<T: ClObject>(object: &Arc<T>) -> *mut T::Raw {
    Arc::as_ptr(object) as *mut T::Raw
}

/// Resolves a handle to its object, or T's CL_INVALID_* code when the handle
/// is NULL, stale, or names an object of another type.
pub fn lookup<T: ClObject>(handle: *mut T::Raw) -> Result<Arc<T>, cl_int> {
    let reg = registry_read();
    let entry = reg.get(&(handle as usize)).ok_or(T::INVALID)?;
    if entry.kind != T::KIND {
        return Err(T::INVALID);
    }
    entry.object.clone().downcast::<T>().map_err(|_| T::INVALID)
}

/// clRetain*: one more application reference.
pub fn retain<T: ClObject>(handle: *mut T::Raw) -> Result<(), cl_int> {
    let mut reg = registry_write();
    match reg.get_mut(&(handle as usize)) {
        Some(e) if e.kind == T::KIND => {
            e.app_refs += 1;
            Ok(())
        }
        _ => Err(T::INVALID),
    }
}

/// clRelease*: one application reference less. Returns the object when that
/// was the last one, so the caller can finish the release outside the
/// registry lock (dropping it may run destructor callbacks).
pub fn release<T: ClObject>(handle: *mut T::Raw) -> Result<Option<Arc<T>>, cl_int> {
    let removed = {
        let mut reg = registry_write();
        match reg.get_mut(&(handle as usize)) {
            Some(e) if e.kind == T::KIND => {
                e.app_refs -= 1;
                if e.app_refs > 0 {
                    return Ok(None);
                }
            }
            _ => return Err(T::INVALID),
        }
        reg.remove(&(handle as usize))
    };
    Ok(removed.and_then(|e| e.object.downcast::<T>().ok()))
}

/// The reference count the application sees (CL_*_REFERENCE_COUNT).
pub fn app_ref_count<T: ClObject>(handle: *mut T::Raw) -> Result<cl_uint, cl_int> {
    let reg = registry_read();
    match reg.get(&(handle as usize)) {
        Some(e) if e.kind == T::KIND => Ok(e.app_refs),
        _ => Err(T::INVALID),
    }
}

/// The kind of a live handle, whatever it is (for entry points that accept
/// several object types, like clGetExtensionFunctionAddressForPlatform).
pub fn kind_of(handle: *const c_void) -> Option<ObjectKind> {
    registry_read().get(&(handle as usize)).map(|e| e.kind)
}
