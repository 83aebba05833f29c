//! An image's shape (OpenCL 3.0 section 5.3.1.2, `cl_image_desc`): its
//! type, size in pixels and pitches, validated as clCreateImage validates
//! them, and the byte rectangles that the image commands' origins and
//! regions name.

use super::format::ImageFormat;
use crate::cl::*;
use crate::compiler::abi::ImageDescriptor;
use crate::memory::RectLayout;

/// The device's image size limits (CL_DEVICE_IMAGE*_MAX_*).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageLimits {
    pub max_2d: [usize; 2],
    pub max_3d: [usize; 3],
    pub max_array_size: usize,
    /// CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, in pixels.
    pub max_buffer_pixels: usize,
}

/// What `cl_image_desc` says, with the pointers left out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImageDesc {
    pub image_type: cl_mem_object_type,
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    pub array_size: usize,
    pub row_pitch: usize,
    pub slice_pitch: usize,
    pub num_mip_levels: cl_uint,
    pub num_samples: cl_uint,
}

/// A validated image's shape. The sizes a type does not have (a 2D
/// image's depth, a 1D image's height, a non-array's array size) are 0, as
/// clGetImageInfo reports them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageShape {
    pub image_type: cl_mem_object_type,
    pub format: ImageFormat,
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    pub array_size: usize,
    /// Bytes from one row to the next.
    pub row_pitch: usize,
    /// Bytes from one 2D slice (or 1D array layer) to the next; 0 for
    /// images that have only one.
    pub slice_pitch: usize,
}

/// An image with a host pointer: the pitches the application's memory has
/// (what clCreateImage copies from, or uses).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostPitches {
    pub row_pitch: usize,
    pub slice_pitch: usize,
}

fn is_array(t: cl_mem_object_type) -> bool {
    matches!(t, CL_MEM_OBJECT_IMAGE1D_ARRAY | CL_MEM_OBJECT_IMAGE2D_ARRAY)
}

fn has_height(t: cl_mem_object_type) -> bool {
    matches!(
        t,
        CL_MEM_OBJECT_IMAGE2D | CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D
    )
}

impl ImageShape {
    /// Validates `desc` for an image of `format`. `pitches_given`: the
    /// application passed memory whose pitches it may give (a host pointer,
    /// or a 1D image buffer's buffer); else they must be 0. Returns the
    /// shape the image's own memory has (rows and slices packed tight) and,
    /// with given memory, that memory's pitches.
    ///
    /// "CL_INVALID_IMAGE_DESCRIPTOR if values specified in image_desc are
    /// not valid"; "CL_INVALID_IMAGE_SIZE if image dimensions specified in
    /// image_desc exceed the maximum image dimensions ... for all devices
    /// in context".
    pub fn new(
        desc: &ImageDesc,
        format: ImageFormat,
        pitches_given: bool,
        limits: &ImageLimits,
    ) -> Result<(ImageShape, Option<HostPitches>), cl_int> {
        let t = desc.image_type;
        let invalid = CL_INVALID_IMAGE_DESCRIPTOR;
        if !matches!(
            t,
            CL_MEM_OBJECT_IMAGE1D
                | CL_MEM_OBJECT_IMAGE1D_ARRAY
                | CL_MEM_OBJECT_IMAGE1D_BUFFER
                | CL_MEM_OBJECT_IMAGE2D
                | CL_MEM_OBJECT_IMAGE2D_ARRAY
                | CL_MEM_OBJECT_IMAGE3D
        ) {
            return Err(invalid);
        }
        // "num_mip_levels and num_samples must be 0."
        if desc.num_mip_levels != 0 || desc.num_samples != 0 {
            return Err(invalid);
        }
        let height = if has_height(t) { desc.height } else { 1 };
        let depth = if t == CL_MEM_OBJECT_IMAGE3D {
            desc.depth
        } else {
            1
        };
        let array_size = if is_array(t) { desc.array_size } else { 0 };
        if desc.width == 0 || height == 0 || depth == 0 || (is_array(t) && array_size == 0) {
            return Err(invalid);
        }
        let too_big = match t {
            CL_MEM_OBJECT_IMAGE1D_BUFFER => desc.width > limits.max_buffer_pixels,
            CL_MEM_OBJECT_IMAGE3D => {
                desc.width > limits.max_3d[0]
                    || height > limits.max_3d[1]
                    || depth > limits.max_3d[2]
            }
            _ => desc.width > limits.max_2d[0] || height > limits.max_2d[1],
        } || array_size > limits.max_array_size;
        if too_big {
            return Err(CL_INVALID_IMAGE_SIZE);
        }
        let element = format.element_size();
        let tight_row = desc.width * element;
        // "image_row_pitch ... must be 0 if host_ptr is NULL and can be
        // either 0 or >= image_width * size of element in bytes if host_ptr
        // is not NULL ... If image_row_pitch is not 0, it must be a
        // multiple of the image element size in bytes."
        if !pitches_given && (desc.row_pitch != 0 || desc.slice_pitch != 0) {
            return Err(invalid);
        }
        let host_row = match desc.row_pitch {
            0 => tight_row,
            p if p < tight_row || !p.is_multiple_of(element) => return Err(invalid),
            p => p,
        };
        // The slice pitch of 3D images and arrays: ">= image_row_pitch *
        // image_height for a 2D image array or 3D image and ... >=
        // image_row_pitch for a 1D image array ... If image_slice_pitch is
        // not 0, it must be a multiple of the image_row_pitch."
        let has_slices = is_array(t) || t == CL_MEM_OBJECT_IMAGE3D;
        let rows_per_slice = if t == CL_MEM_OBJECT_IMAGE1D_ARRAY {
            1
        } else {
            height
        };
        let host_slice = if has_slices {
            let min = host_row
                .checked_mul(rows_per_slice)
                .ok_or(CL_INVALID_IMAGE_SIZE)?;
            match desc.slice_pitch {
                0 => min,
                p if p < min || !p.is_multiple_of(host_row) => return Err(invalid),
                p => p,
            }
        } else {
            0
        };
        let shape = ImageShape {
            image_type: t,
            format,
            width: desc.width,
            height: if has_height(t) { height } else { 0 },
            depth: if t == CL_MEM_OBJECT_IMAGE3D { depth } else { 0 },
            array_size,
            row_pitch: tight_row,
            slice_pitch: if has_slices {
                tight_row * rows_per_slice
            } else {
                0
            },
        };
        shape.size().ok_or(CL_INVALID_IMAGE_SIZE)?;
        let host = pitches_given.then_some(HostPitches {
            row_pitch: host_row,
            slice_pitch: host_slice,
        });
        Ok((shape, host))
    }

    /// The image's extent in pixels, rows and slices (or layers): what a
    /// region covering all of it is.
    pub fn extent(&self) -> [usize; 3] {
        match self.image_type {
            CL_MEM_OBJECT_IMAGE1D_ARRAY => [self.width, self.array_size, 1],
            CL_MEM_OBJECT_IMAGE2D_ARRAY => [self.width, self.height, self.array_size],
            CL_MEM_OBJECT_IMAGE3D => [self.width, self.height, self.depth],
            CL_MEM_OBJECT_IMAGE2D => [self.width, self.height, 1],
            _ => [self.width, 1, 1],
        }
    }

    /// Bytes between consecutive rows and slices of the extent (a 1D
    /// array's layers are its rows).
    pub fn pitches(&self) -> (usize, usize) {
        self.steps(self.row_pitch, self.slice_pitch)
    }

    /// The steps from one row and one slice of the extent to the next in
    /// memory of these pitches (a 1D array's layers are its rows).
    fn steps(&self, row_pitch: usize, slice_pitch: usize) -> (usize, usize) {
        match self.image_type {
            CL_MEM_OBJECT_IMAGE1D_ARRAY => (slice_pitch, slice_pitch),
            CL_MEM_OBJECT_IMAGE2D => (row_pitch, row_pitch * self.height),
            CL_MEM_OBJECT_IMAGE1D | CL_MEM_OBJECT_IMAGE1D_BUFFER => (row_pitch, row_pitch),
            _ => (row_pitch, slice_pitch),
        }
    }

    /// The bytes the image takes; None when that overflows.
    pub fn size(&self) -> Option<usize> {
        let [_, rows, slices] = self.extent();
        let (row_pitch, slice_pitch) = self.pitches();
        match self.image_type {
            CL_MEM_OBJECT_IMAGE1D_ARRAY => row_pitch.checked_mul(rows),
            _ => slice_pitch
                .checked_mul(slices - 1)?
                .checked_add(row_pitch.checked_mul(rows)?),
        }
    }

    /// Checks an image command's origin and region: "CL_INVALID_VALUE if
    /// the region being read or written specified by origin and region is
    /// out of bounds or if ptr is a NULL value", and the dimensions an
    /// image of this type does not have must be origin 0 and region 1. A
    /// region with a zero is CL_INVALID_VALUE too.
    pub fn check_region(&self, origin: [usize; 3], region: [usize; 3]) -> Result<(), cl_int> {
        let extent = self.extent();
        for d in 0..3 {
            let end = origin[d].checked_add(region[d]).ok_or(CL_INVALID_VALUE)?;
            if region[d] == 0 || end > extent[d] {
                return Err(CL_INVALID_VALUE);
            }
        }
        Ok(())
    }

    /// The byte rectangle of the image that `origin` (in pixels, rows and
    /// slices or layers) names, for a checked region.
    pub fn layout(&self, origin: [usize; 3]) -> RectLayout {
        let (row_pitch, slice_pitch) = self.pitches();
        RectLayout {
            origin: [origin[0] * self.format.element_size(), origin[1], origin[2]],
            row_pitch,
            slice_pitch,
        }
    }

    /// The rectangle of the application's memory at `host` pitches that
    /// holds the whole image (clCreateImage's host pointer).
    pub fn host_layout(&self, host: &HostPitches) -> RectLayout {
        let (row_pitch, slice_pitch) = self.steps(host.row_pitch, host.slice_pitch);
        RectLayout {
            origin: [0; 3],
            row_pitch,
            slice_pitch,
        }
    }

    /// What a kernel's image argument points to, for the image's pixels at
    /// `data`.
    pub fn descriptor(&self, data: *mut u8) -> ImageDescriptor {
        let (pitch_y, pitch_z) = self.pitches();
        ImageDescriptor {
            data,
            pitch_y: pitch_y as u64,
            pitch_z: pitch_z as u64,
            width: self.width as i32,
            height: self.height as i32,
            depth: self.depth as i32,
            array_size: self.array_size as i32,
            channel_order: self.format.order as i32,
            channel_data_type: self.format.data_type as i32,
            element_size: self.format.element_size() as i32,
            reserved: 0,
        }
    }

    /// A region in pixels as bytes, rows and slices.
    pub fn byte_region(&self, region: [usize; 3]) -> [usize; 3] {
        [region[0] * self.format.element_size(), region[1], region[2]]
    }
}

#[cfg(test)]
mod tests;
