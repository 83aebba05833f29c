//! What the image commands do (clEnqueueReadImage, WriteImage, CopyImage,
//! FillImage, CopyImageToBuffer, CopyBufferToImage): rectangle copies and
//! fills over the image's bytes, in pixels. The caller has checked the
//! origins and regions (`ImageShape::check_region`) and the host layouts
//! (`host_layout`).

use super::format::Color;
use super::shape::ImageShape;
use crate::cl::*;
use crate::memory::{Mem, RectLayout};

/// The layout of the application's memory for a read or write of
/// `region` (pixels) of `shape`: "If input_row_pitch is 0, the appropriate
/// row pitch is calculated based on the size of each element in bytes
/// multiplied by width. If input_row_pitch is not 0, it must be >= width *
/// size of element in bytes"; the slice pitch (of a 3D image or 2D array;
/// for a 1D array, the pitch between its layers) is "calculated as
/// input_row_pitch * height" (1D array: input_row_pitch) when 0, and must
/// be at least that, else CL_INVALID_VALUE.
pub fn host_layout(
    shape: &ImageShape,
    region: [usize; 3],
    row_pitch: usize,
    slice_pitch: usize,
) -> Result<RectLayout, cl_int> {
    let row_bytes = region[0]
        .checked_mul(shape.format.element_size())
        .ok_or(CL_INVALID_VALUE)?;
    let row_pitch = match row_pitch {
        0 => row_bytes,
        p if p < row_bytes => return Err(CL_INVALID_VALUE),
        p => p,
    };
    let layered_1d = shape.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    let has_slices = layered_1d
        || matches!(
            shape.image_type,
            CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D
        );
    let min_slice = if layered_1d {
        row_pitch
    } else {
        row_pitch.checked_mul(region[1]).ok_or(CL_INVALID_VALUE)?
    };
    let slice_pitch = match slice_pitch {
        _ if !has_slices => min_slice,
        0 => min_slice,
        p if p < min_slice => return Err(CL_INVALID_VALUE),
        p => p,
    };
    Ok(if layered_1d {
        // The layers are the rectangle's rows.
        RectLayout {
            origin: [0; 3],
            row_pitch: slice_pitch,
            slice_pitch,
        }
    } else {
        RectLayout {
            origin: [0; 3],
            row_pitch,
            slice_pitch,
        }
    })
}

/// The tight layout a buffer holds a region in (clEnqueueCopyImageToBuffer
/// and CopyBufferToImage): rows of `region[0]` pixels, then slices (or a
/// 1D array's layers) one after the other, from `offset`.
pub fn buffer_layout(shape: &ImageShape, region: [usize; 3], offset: usize) -> RectLayout {
    let row = region[0] * shape.format.element_size();
    RectLayout {
        origin: [offset, 0, 0],
        row_pitch: row,
        slice_pitch: row * region[1],
    }
}

impl Mem {
    fn shape(&self) -> &ImageShape {
        self.image.as_ref().expect("an image")
    }

    /// Copies `region` at `origin` of this image to `host`
    /// (clEnqueueReadImage's work).
    ///
    /// # Safety
    /// `host` holds the region at `host_layout` for the call.
    pub unsafe fn read_image(
        &self,
        origin: [usize; 3],
        region: [usize; 3],
        host: *mut u8,
        host_layout: &RectLayout,
    ) {
        let shape = self.shape();
        // SAFETY: the caller vouches for the host's rectangle; read_rect
        // checks the image's.
        unsafe {
            self.read_rect(
                &shape.layout(origin),
                host,
                host_layout,
                shape.byte_region(region),
            )
        };
    }

    /// Copies `region` from `host` to `origin` of this image
    /// (clEnqueueWriteImage's work).
    ///
    /// # Safety
    /// `host` holds the region at `host_layout` for the call.
    pub unsafe fn write_image(
        &self,
        origin: [usize; 3],
        region: [usize; 3],
        host: *const u8,
        host_layout: &RectLayout,
    ) {
        let shape = self.shape();
        // SAFETY: as in read_image.
        unsafe {
            self.write_rect(
                &shape.layout(origin),
                host,
                host_layout,
                shape.byte_region(region),
            )
        };
    }

    /// Copies `region` at `src_origin` of this image to `dst_origin` of
    /// `dst`, an image of the same format (clEnqueueCopyImage's work).
    pub fn copy_image_to(
        &self,
        src_origin: [usize; 3],
        dst: &Mem,
        dst_origin: [usize; 3],
        region: [usize; 3],
    ) {
        let (src, to) = (self.shape(), dst.shape());
        assert_eq!(src.format.element_size(), to.format.element_size());
        self.copy_rect_to(
            &src.layout(src_origin),
            dst,
            &to.layout(dst_origin),
            src.byte_region(region),
        );
    }

    /// Copies `region` at `origin` of this image to `dst_offset` of the
    /// buffer `dst`, packed tight (clEnqueueCopyImageToBuffer's work).
    pub fn copy_image_to_buffer(
        &self,
        origin: [usize; 3],
        region: [usize; 3],
        dst: &Mem,
        dst_offset: usize,
    ) {
        let shape = self.shape();
        self.copy_rect_to(
            &shape.layout(origin),
            dst,
            &buffer_layout(shape, region, dst_offset),
            shape.byte_region(region),
        );
    }

    /// Copies `region` of pixels packed tight at `src_offset` of the buffer
    /// `src` to `origin` of this image (clEnqueueCopyBufferToImage's work).
    pub fn copy_buffer_to_image(
        &self,
        src: &Mem,
        src_offset: usize,
        origin: [usize; 3],
        region: [usize; 3],
    ) {
        let shape = self.shape();
        src.copy_rect_to(
            &buffer_layout(shape, region, src_offset),
            self,
            &shape.layout(origin),
            shape.byte_region(region),
        );
    }

    /// Fills `region` at `origin` with `color`, converted to the image's
    /// format as write_image* converts it (clEnqueueFillImage's work).
    /// CL_INVALID_VALUE when the colour's kind is not the format's.
    pub fn fill_image(
        &self,
        color: Color,
        origin: [usize; 3],
        region: [usize; 3],
    ) -> Result<(), cl_int> {
        let shape = self.shape();
        let pixel = shape.format.encode(color).ok_or(CL_INVALID_VALUE)?;
        let layout = shape.layout(origin);
        let bytes = shape.byte_region(region);
        // Mem::fill checks that each row lies inside the image.
        for z in 0..region[2] {
            for y in 0..region[1] {
                self.fill(layout.row_offset(y, z), &pixel, bytes[0]);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
