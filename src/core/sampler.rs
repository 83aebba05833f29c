//! Samplers (OpenCL 3.0 section 5.7): how a kernel's read_image* with a
//! sampler addresses and filters. A kernel receives a sampler as its CLK_*
//! bits (builtins/lib/image.cl), the same value a program-scope sampler
//! constant has.

use crate::cl::*;
use crate::object::{cl_object, lookup, Base, ObjectKind};
use std::sync::Arc;

/// OpenCL C's CLK_NORMALIZED_COORDS_TRUE, CLK_FILTER_NEAREST and
/// CLK_FILTER_LINEAR (opencl-c-base.h); the CLK_ADDRESS_* values are the
/// CL_ADDRESS_* ones less 0x1130.
const CLK_NORMALIZED_COORDS_TRUE: u32 = 1;
const CLK_FILTER_NEAREST: u32 = 0x10;
const CLK_FILTER_LINEAR: u32 = 0x20;

/// `#[repr(C)]` so that the ICD base comes first.
#[repr(C)]
pub struct Sampler {
    base: Base,
    pub context: Arc<crate::context::Context>,
    pub normalized_coords: bool,
    pub addressing_mode: cl_addressing_mode,
    pub filter_mode: cl_filter_mode,
    /// CL_SAMPLER_PROPERTIES: the list as passed (terminator included),
    /// empty for clCreateSampler.
    pub properties: Vec<cl_sampler_properties>,
}

cl_object!(Sampler, Sampler, CL_INVALID_SAMPLER, _cl_sampler);

impl Sampler {
    /// "CL_INVALID_VALUE if addressing_mode, filter_mode,
    /// normalized_coords or a combination of these arguments are not
    /// valid": REPEAT and MIRRORED_REPEAT need normalized coordinates.
    pub fn new(
        context: Arc<crate::context::Context>,
        normalized_coords: bool,
        addressing_mode: cl_addressing_mode,
        filter_mode: cl_filter_mode,
        properties: Vec<cl_sampler_properties>,
    ) -> Result<Arc<Sampler>, cl_int> {
        let modes = [
            CL_ADDRESS_NONE,
            CL_ADDRESS_CLAMP_TO_EDGE,
            CL_ADDRESS_CLAMP,
            CL_ADDRESS_REPEAT,
            CL_ADDRESS_MIRRORED_REPEAT,
        ];
        if !modes.contains(&addressing_mode)
            || ![CL_FILTER_NEAREST, CL_FILTER_LINEAR].contains(&filter_mode)
        {
            return Err(CL_INVALID_VALUE);
        }
        let repeats = [CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT].contains(&addressing_mode);
        if repeats && !normalized_coords {
            return Err(CL_INVALID_VALUE);
        }
        Ok(Arc::new(Sampler {
            base: Base::new(ObjectKind::Sampler),
            context,
            normalized_coords,
            addressing_mode,
            filter_mode,
            properties,
        }))
    }

    pub fn resolve(handle: cl_sampler) -> Result<Arc<Sampler>, cl_int> {
        lookup::<Sampler>(handle)
    }

    /// The value a kernel receives: OpenCL C's sampler bits.
    pub fn bits(&self) -> u32 {
        let address = self.addressing_mode - CL_ADDRESS_NONE;
        let filter = if self.filter_mode == CL_FILTER_LINEAR {
            CLK_FILTER_LINEAR
        } else {
            CLK_FILTER_NEAREST
        };
        let normalized = if self.normalized_coords {
            CLK_NORMALIZED_COORDS_TRUE
        } else {
            0
        };
        address * 2 + filter + normalized
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::Context;
    use crate::device::Device;

    #[test]
    fn bits_are_opencl_cs_and_bad_combinations_are_refused() {
        let ctx = Context::new(vec![Device::root().clone()], Vec::new(), None);
        let s = |n, a, f| Sampler::new(ctx.clone(), n, a, f, Vec::new());
        // CLK_ADDRESS_CLAMP (4) | CLK_FILTER_NEAREST (0x10).
        assert_eq!(
            s(false, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST)
                .unwrap()
                .bits(),
            0x14
        );
        // CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT (8) |
        // CLK_FILTER_LINEAR.
        assert_eq!(
            s(true, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_LINEAR)
                .unwrap()
                .bits(),
            0x29
        );
        assert_eq!(
            s(true, CL_ADDRESS_NONE, CL_FILTER_NEAREST).unwrap().bits(),
            0x11
        );
        assert_eq!(
            s(false, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR)
                .unwrap()
                .bits(),
            0x22
        );
        assert_eq!(
            s(false, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST).err(),
            Some(CL_INVALID_VALUE)
        );
        assert_eq!(
            s(true, 0x1234, CL_FILTER_NEAREST).err(),
            Some(CL_INVALID_VALUE)
        );
        assert_eq!(
            s(true, CL_ADDRESS_CLAMP, 0x1234).err(),
            Some(CL_INVALID_VALUE)
        );
    }
}
