//! The CPU device and its sub-devices. A device owns the worker pool that
//! runs its commands: the root device one thread per core, a sub-device as
//! many threads as it has compute units.

use crate::cl::*;
use crate::object::{cl_object, lookup, publish, Base, ObjectKind};
use crate::sched::host::HOST;
use crate::sched::pool::Pool;
use std::sync::{Arc, LazyLock, OnceLock};

/// `#[repr(C)]` so that the ICD base comes first.
#[repr(C)]
pub struct Device {
    base: Base,
    pub compute_units: u32,
    pub parent: Option<Arc<Device>>,
    /// CL_DEVICE_PARTITION_TYPE: the properties this sub-device was made with.
    pub partition: Vec<cl_device_partition_property>,
    pool: OnceLock<Arc<Pool>>,
}

cl_object!(Device, Device, CL_INVALID_DEVICE, _cl_device_id);

struct Root {
    object: Arc<Device>,
    handle: usize,
}

/// The root device's compute units, one worker thread each: the cores this
/// process may run on, or `FERROCL_WORKERS` when set to a positive count,
/// so that a many-worker pool can be tested on a small machine. Spinning
/// is still sized by the real cores (`Pool::new`).
fn root_compute_units() -> u32 {
    std::env::var("FERROCL_WORKERS")
        .ok()
        .and_then(|v| v.trim().parse::<u32>().ok())
        .filter(|&n| n > 0)
        .map_or(HOST.cores, |n| n.min(MAX_FORCED_WORKERS))
}

/// A bound on FERROCL_WORKERS: a typo must not spawn a million threads.
const MAX_FORCED_WORKERS: u32 = 1024;

static ROOT: LazyLock<Root> = LazyLock::new(|| {
    let object = Arc::new(Device::new(root_compute_units(), None, Vec::new()));
    let handle = publish(object.clone()) as usize;
    Root { object, handle }
});

impl Device {
    fn new(
        compute_units: u32,
        parent: Option<Arc<Device>>,
        partition: Vec<cl_device_partition_property>,
    ) -> Self {
        Device {
            base: Base::new(ObjectKind::Device),
            compute_units,
            parent,
            partition,
            pool: OnceLock::new(),
        }
    }

    pub fn root() -> &'static Arc<Device> {
        &ROOT.object
    }

    pub fn root_handle() -> cl_device_id {
        ROOT.handle as cl_device_id
    }

    pub fn resolve(handle: cl_device_id) -> Result<Arc<Device>, cl_int> {
        LazyLock::force(&ROOT);
        lookup::<Device>(handle)
    }

    /// CL_DEVICE_MAX_MEM_ALLOC_SIZE (see HostFacts::max_mem_alloc).
    pub fn max_mem_alloc_size() -> u64 {
        HOST.max_mem_alloc()
    }

    pub fn is_root(&self) -> bool {
        self.parent.is_none()
    }

    /// The worker pool, started on first use.
    pub fn pool(&self) -> &Arc<Pool> {
        self.pool
            .get_or_init(|| Pool::new(self.compute_units as usize))
    }

    /// clCreateSubDevices: the compute-unit counts of the sub-devices a
    /// partition request asks for, or the spec's error.
    pub fn partition_counts(
        &self,
        props: &[cl_device_partition_property],
    ) -> Result<Vec<u32>, cl_int> {
        let units = self.compute_units as isize;
        let kind = *props.first().ok_or(CL_INVALID_VALUE)?;
        match kind as u32 {
            CL_DEVICE_PARTITION_EQUALLY => {
                let n = *props.get(1).ok_or(CL_INVALID_VALUE)?;
                if n <= 0 || n > units {
                    return Err(CL_INVALID_DEVICE_PARTITION_COUNT);
                }
                // "CL_DEVICE_PARTITION_FAILED if the partition name is
                // supported ... but in_device could not be further
                // partitioned": one sub-device with every compute unit.
                if n == units {
                    return Err(CL_DEVICE_PARTITION_FAILED);
                }
                Ok(vec![n as u32; (units / n) as usize])
            }
            CL_DEVICE_PARTITION_BY_COUNTS => {
                let counts: Vec<isize> = props[1..]
                    .iter()
                    .copied()
                    .take_while(|&c| c != CL_DEVICE_PARTITION_BY_COUNTS_LIST_END as isize)
                    .collect();
                // "... if the number of sub-devices requested exceeds
                // CL_DEVICE_PARTITION_MAX_SUB_DEVICES or the total number of
                // compute units requested exceeds CL_DEVICE_MAX_COMPUTE_UNITS"
                if counts.is_empty()
                    || counts.len() as isize > units
                    || counts.iter().any(|&c| c < 0)
                    || counts.iter().sum::<isize>() > units
                {
                    return Err(CL_INVALID_DEVICE_PARTITION_COUNT);
                }
                if counts.iter().all(|&c| c == 0) {
                    return Err(CL_INVALID_DEVICE_PARTITION_COUNT);
                }
                let counts: Vec<u32> = counts
                    .into_iter()
                    .filter(|&c| c > 0)
                    .map(|c| c as u32)
                    .collect();
                // As for EQUALLY: all of in_device is no partition.
                if counts == [units as u32] {
                    return Err(CL_DEVICE_PARTITION_FAILED);
                }
                Ok(counts)
            }
            CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN => Err(CL_INVALID_VALUE),
            _ => Err(CL_INVALID_VALUE),
        }
    }

    pub fn new_sub_device(
        parent: &Arc<Device>,
        compute_units: u32,
        partition: Vec<cl_device_partition_property>,
    ) -> Arc<Device> {
        Arc::new(Device::new(compute_units, Some(parent.clone()), partition))
    }
}
