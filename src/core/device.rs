//! The CPU device and its sub-devices. A device owns the worker pool that
//! runs its commands: the root device one thread per core, a sub-device as
//! many threads as it has compute units. A sub-device made by affinity
//! domain keeps its workers on the CPUs of its domain.

use crate::cl::*;
use crate::object::{cl_object, lookup, publish, Base, ObjectKind};
use crate::sched::host::HOST;
use crate::sched::pool::Pool;
use crate::sched::topology::{self, Domain};
use std::sync::{Arc, LazyLock, OnceLock};

/// `#[repr(C)]` so that the ICD base comes first.
#[repr(C)]
pub struct Device {
    base: Base,
    pub compute_units: u32,
    pub parent: Option<Arc<Device>>,
    /// CL_DEVICE_PARTITION_TYPE: the properties this sub-device was made with.
    pub partition: Vec<cl_device_partition_property>,
    /// The CPUs of its compute units, one each, when known (not when
    /// FERROCL_WORKERS forces a count unlike the CPUs'): what an affinity
    /// domain splits.
    cpus: Vec<usize>,
    /// Its workers run only on `cpus` (made by affinity domain, or a part
    /// of such a device).
    pinned: bool,
    /// `cpus` split along each affinity domain the host describes for all
    /// of them, in NEXT_PARTITIONABLE's order (sysfs read once).
    domains: OnceLock<Vec<(u32, Vec<Vec<usize>>)>>,
    pool: OnceLock<Arc<Pool>>,
}

/// One sub-device a partition request makes.
pub struct Part {
    pub compute_units: u32,
    cpus: Vec<usize>,
    pinned: bool,
}

/// clCreateSubDevices' answer: the sub-devices, and the properties each
/// reports as CL_DEVICE_PARTITION_TYPE (for NEXT_PARTITIONABLE, the domain
/// it found).
pub struct Partition {
    pub parts: Vec<Part>,
    pub properties: Vec<cl_device_partition_property>,
}

/// The spec's affinity domain bits, in NEXT_PARTITIONABLE's order.
const DOMAIN_BITS: [(Domain, u32); 5] = [
    (Domain::Numa, CL_DEVICE_AFFINITY_DOMAIN_NUMA),
    (Domain::Cache(4), CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE),
    (Domain::Cache(3), CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE),
    (Domain::Cache(2), CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE),
    (Domain::Cache(1), CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE),
];

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
    let units = root_compute_units();
    let cpus = topology::process_cpus();
    let cpus = if cpus.len() == units as usize {
        cpus.to_vec()
    } else {
        Vec::new()
    };
    // The root device's workers go where the OS puts them.
    let root = Part {
        compute_units: units,
        cpus,
        pinned: false,
    };
    let object = Arc::new(Device::new(root, None, Vec::new()));
    let handle = publish(object.clone()) as usize;
    Root { object, handle }
});

impl Device {
    fn new(
        part: Part,
        parent: Option<Arc<Device>>,
        partition: Vec<cl_device_partition_property>,
    ) -> Self {
        Device {
            base: Base::new(ObjectKind::Device),
            compute_units: part.compute_units,
            parent,
            partition,
            cpus: part.cpus,
            pinned: part.pinned,
            domains: OnceLock::new(),
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
        self.pool.get_or_init(|| {
            let cpus = if self.pinned { &self.cpus[..] } else { &[] };
            Pool::on_cpus(self.compute_units as usize, cpus)
        })
    }

    /// This device's CPUs split along each domain the host describes for
    /// every one of them (none when its CPUs are not known): the domain's
    /// bit and its groups.
    fn domain_splits(&self) -> &[(u32, Vec<Vec<usize>>)] {
        self.domains.get_or_init(|| {
            if self.cpus.is_empty() {
                return Vec::new();
            }
            DOMAIN_BITS
                .iter()
                .filter_map(|&(d, bit)| topology::split(d, &self.cpus).map(|g| (bit, g)))
                .collect()
        })
    }

    /// CL_DEVICE_PARTITION_AFFINITY_DOMAIN: the domains the host describes
    /// for every CPU of this device that split it in two or more
    /// (NEXT_PARTITIONABLE with any), 0 when none does or its CPUs are not
    /// known. A domain holding all its CPUs (the one NUMA node and L3 of a
    /// small machine) partitions nothing, so it is not listed: the Khronos
    /// CTS partitions by every domain listed and expects sub-devices.
    pub fn affinity_domains(&self) -> cl_device_affinity_domain {
        let known = self
            .domain_splits()
            .iter()
            .filter(|(_, groups)| groups.len() > 1)
            .fold(0, |bits, (bit, _)| bits | bit);
        if known == 0 {
            return 0;
        }
        (known | CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE) as cl_device_affinity_domain
    }

    /// clCreateSubDevices: the sub-devices a partition request asks for,
    /// or the spec's error.
    pub fn partition(&self, props: &[cl_device_partition_property]) -> Result<Partition, cl_int> {
        if props.first() == Some(&(CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN as isize)) {
            return self.partition_by_domain(*props.get(1).ok_or(CL_INVALID_VALUE)?);
        }
        // Counts take the device's CPUs in order, so that a part of a
        // pinned device stays on CPUs of its own.
        let mut next = 0;
        let parts = self
            .partition_counts(props)?
            .into_iter()
            .map(|n| {
                let cpus = self.cpus.get(next..next + n as usize).unwrap_or_default();
                next += n as usize;
                Part {
                    compute_units: n,
                    cpus: cpus.to_vec(),
                    pinned: self.pinned,
                }
            })
            .collect();
        Ok(Partition {
            parts,
            properties: props.to_vec(),
        })
    }

    /// BY_AFFINITY_DOMAIN: one sub-device per NUMA node or cache instance
    /// among this device's CPUs, its workers kept on them.
    fn partition_by_domain(&self, requested: isize) -> Result<Partition, cl_int> {
        let supported = self.affinity_domains() as isize;
        // One domain bit, and one this device has: "CL_INVALID_VALUE if
        // values specified in properties are valid but not supported".
        if requested.count_ones() != 1 || requested & supported == 0 {
            return Err(CL_INVALID_VALUE);
        }
        let next = requested == CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE as isize;
        // The first domain asked for that splits the device in two or more;
        // one group of all its CPUs is no partition
        // (CL_DEVICE_PARTITION_FAILED: "could not be further partitioned").
        let (bit, groups) = self
            .domain_splits()
            .iter()
            .find(|(bit, groups)| (next || *bit as isize == requested) && groups.len() > 1)
            .ok_or(CL_DEVICE_PARTITION_FAILED)?;
        let parts = groups
            .iter()
            .map(|cpus| Part {
                compute_units: cpus.len() as u32,
                cpus: cpus.clone(),
                pinned: true,
            })
            .collect();
        Ok(Partition {
            parts,
            properties: vec![
                CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN as isize,
                *bit as isize,
                0,
            ],
        })
    }

    /// EQUALLY and BY_COUNTS: the compute-unit counts of the sub-devices,
    /// or the spec's error.
    fn partition_counts(&self, props: &[cl_device_partition_property]) -> Result<Vec<u32>, cl_int> {
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
            _ => Err(CL_INVALID_VALUE),
        }
    }

    pub fn new_sub_device(
        parent: &Arc<Device>,
        part: Part,
        partition: Vec<cl_device_partition_property>,
    ) -> Arc<Device> {
        Arc::new(Device::new(part, Some(parent.clone()), partition))
    }

    /// A sub-device of `compute_units` workers anywhere (tests).
    pub fn unplaced_part(compute_units: u32) -> Part {
        Part {
            compute_units,
            cpus: Vec::new(),
            pinned: false,
        }
    }
}
