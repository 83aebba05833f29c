//! The one platform, "FerroCL".

use crate::cl::*;
use crate::object::{cl_object, lookup, publish, Base, ClObject, ObjectKind};
use std::ffi::c_void;
use std::sync::{Arc, LazyLock};

pub const PLATFORM_NAME: &str = "FerroCL";
pub const VENDOR: &str = "ferrocl developers";
pub const ICD_SUFFIX: &str = "FERRO";
pub const EXTENSIONS: &[(&str, (u32, u32, u32))] = &[
    ("cl_khr_icd", (2, 0, 0)),
    ("cl_khr_extended_versioning", (1, 0, 0)),
];

/// CL_MAKE_VERSION.
pub const fn make_version(major: u32, minor: u32, patch: u32) -> cl_version {
    (major << 22) | (minor << 12) | patch
}

/// `#[repr(C)]` so that the ICD base comes first.
#[repr(C)]
pub struct Platform {
    base: Base,
}

cl_object!(Platform, Platform, CL_INVALID_PLATFORM, _cl_platform_id);

struct Published {
    object: Arc<Platform>,
    handle: usize,
}

static PLATFORM: LazyLock<Published> = LazyLock::new(|| {
    let object = Arc::new(Platform {
        base: Base::new(ObjectKind::Platform),
    });
    let handle = publish(object.clone()) as usize;
    Published { object, handle }
});

impl Platform {
    pub fn get() -> &'static Arc<Platform> {
        &PLATFORM.object
    }

    pub fn handle() -> cl_platform_id {
        PLATFORM.handle as cl_platform_id
    }

    pub fn resolve(handle: cl_platform_id) -> Result<Arc<Platform>, cl_int> {
        LazyLock::force(&PLATFORM);
        lookup::<Platform>(handle)
    }

    pub fn set_dispatch_data(&self, data: *mut c_void) {
        self.base.set_dispatch_data(data);
        crate::device::Device::root().base().set_dispatch_data(data);
    }
}

/// The extensions as the space-separated list CL_*_EXTENSIONS returns.
pub fn extension_string(list: &[(&str, (u32, u32, u32))]) -> String {
    list.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(" ")
}

/// cl_name_version entries (CL_*_WITH_VERSION queries).
pub fn name_versions(list: &[(&str, (u32, u32, u32))]) -> Vec<cl_name_version> {
    list.iter()
        .map(|(n, (a, b, c))| name_version(n, make_version(*a, *b, *c)))
        .collect()
}

pub fn name_version(name: &str, version: cl_version) -> cl_name_version {
    let mut nv = cl_name_version {
        version,
        name: [0; 64],
    };
    for (dst, src) in nv.name.iter_mut().zip(name.bytes().take(63)) {
        *dst = src as _;
    }
    nv
}

/// The host clock's nanoseconds (clGetHostTimer, clGetDeviceAndHostTimer):
/// the clock events' profiling stamps read.
pub fn host_timer_ns() -> u64 {
    crate::sched::host::now_ns()
}
