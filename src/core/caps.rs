//! What the device can do and its limits, as one value: every report
//! (clGetDeviceInfo, clGetKernelWorkGroupInfo, clGetKernelSubGroupInfo)
//! and every check in the api and in core reads them from `caps()`. Each
//! number comes from the layer that makes it true (the compiler's ABI, the
//! scheduler's buffers and queues), gathered here once.

use crate::compiler::abi;
use crate::device_enqueue;
use crate::image::shape::ImageLimits;
use crate::sched::host::{HostFacts, HOST};
use crate::sched::printf;
use std::sync::LazyLock;

pub struct DeviceCaps {
    /// The machine's facts the device reports as its own (name, vendor,
    /// clock, caches, memory, FMA).
    pub host: &'static HostFacts,
    /// CL_DEVICE_MAX_WORK_GROUP_SIZE and each of
    /// CL_DEVICE_MAX_WORK_ITEM_SIZES: what the passes size ids and frames for.
    pub max_work_group_size: usize,
    /// Work-items per sub-group: consecutive local linear ids, the last
    /// sub-group of a group possibly smaller; a kernel may require another
    /// of sub_group_sizes.
    pub sub_group_size: usize,
    /// CL_DEVICE_SUB_GROUP_SIZES_INTEL: the sizes a kernel may require.
    pub sub_group_sizes: &'static [usize],
    /// CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE (and each kernel's).
    pub preferred_work_group_size_multiple: usize,
    /// CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT: the executor runs a smaller
    /// last group in each dimension, for kernels built for OpenCL C 2.0 or
    /// later without -cl-uniform-work-group-size.
    pub non_uniform_work_groups: bool,
    /// CL_DEVICE_LOCAL_MEM_SIZE: what a core's own cache holds.
    pub local_mem_size: u64,
    /// CL_DEVICE_PRINTF_BUFFER_SIZE: a launch's printf buffer.
    pub printf_buffer_size: usize,
    /// OpenCL C 2.0 and the 3.0 features it needs are reported (clang-19
    /// needs generic address space and program-scope globals for it).
    pub opencl_c_2_0: bool,
    /// On-device queues, when device-side enqueue is reported.
    pub device_queues: Option<DeviceQueueCaps>,
    /// Images and samplers with their limits, when reported: always, but
    /// with FERROCL_IMAGES=0 (compiler::images_supported).
    pub images: Option<ImageCaps>,
}

/// The image limits (CL_DEVICE_IMAGE*, CL_DEVICE_MAX_*_IMAGE_ARGS,
/// CL_DEVICE_MAX_SAMPLERS).
pub struct ImageCaps {
    pub limits: ImageLimits,
    pub max_read_image_args: u32,
    pub max_write_image_args: u32,
    pub max_read_write_image_args: u32,
    pub max_samplers: u32,
}

/// The on-device queues' limits (CL_DEVICE_QUEUE_ON_DEVICE_*).
pub struct DeviceQueueCaps {
    pub preferred_size: u32,
    /// The smallest CL_QUEUE_SIZE: one command.
    pub min_size: u32,
    pub max_size: u32,
    pub max_queues: u32,
    pub max_events: u32,
}

impl DeviceQueueCaps {
    /// Whether CL_QUEUE_SIZE `size` is one the device gives.
    pub fn size_allowed(&self, size: u64) -> bool {
        (self.min_size as u64..=self.max_size as u64).contains(&size)
    }
}

static CAPS: LazyLock<DeviceCaps> = LazyLock::new(|| DeviceCaps {
    host: &HOST,
    max_work_group_size: abi::MAX_WORK_GROUP_SIZE,
    sub_group_size: abi::SUB_GROUP_SIZE,
    sub_group_sizes: &abi::SUB_GROUP_SIZES,
    preferred_work_group_size_multiple: crate::kernel::PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
    non_uniform_work_groups: true,
    local_mem_size: HOST.l2_cache.max(32 << 10),
    printf_buffer_size: printf::PRINTF_BUFFER_SIZE,
    opencl_c_2_0: crate::compiler::opencl_c_2_0(),
    device_queues: crate::compiler::device_enqueue_supported().then_some(DeviceQueueCaps {
        preferred_size: device_enqueue::QUEUE_PREFERRED_SIZE,
        min_size: device_enqueue::COMMAND_BYTES,
        max_size: device_enqueue::QUEUE_MAX_SIZE,
        max_queues: device_enqueue::MAX_QUEUES,
        max_events: device_enqueue::MAX_EVENTS,
    }),
    images: crate::compiler::images_supported().then_some(ImageCaps {
        // The full profile's minimums, but for the 1D buffer: a pixel per
        // 16 bytes of the largest allocation the spec's minimum allows.
        limits: ImageLimits {
            max_2d: [16384, 16384],
            max_3d: [2048, 2048, 2048],
            max_array_size: 2048,
            max_buffer_pixels: 1 << 27,
        },
        max_read_image_args: 128,
        max_write_image_args: 64,
        max_read_write_image_args: 64,
        max_samplers: 16,
    }),
});

/// The device's capabilities (every device and sub-device has the same).
pub fn caps() -> &'static DeviceCaps {
    &CAPS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limits_agree_with_each_other() {
        let c = caps();
        assert!(c.max_work_group_size.is_multiple_of(c.sub_group_size));
        assert!(c.sub_group_sizes.contains(&c.sub_group_size));
        for size in c.sub_group_sizes {
            assert!(size.is_power_of_two() && c.max_work_group_size.is_multiple_of(*size));
        }
        assert!(c
            .max_work_group_size
            .is_multiple_of(c.preferred_work_group_size_multiple));
        assert!(c.local_mem_size >= 32 << 10, "the spec's minimum");
        if let Some(q) = &c.device_queues {
            assert!(q.size_allowed(q.preferred_size as u64));
            assert!(q.size_allowed(q.min_size as u64) && q.size_allowed(q.max_size as u64));
            assert!(!q.size_allowed(q.min_size as u64 - 1));
            assert!(!q.size_allowed(q.max_size as u64 + 1));
        }
    }
}
