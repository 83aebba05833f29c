//! Images (OpenCL 3.0 section 5.3): formats and their pixel conversions,
//! shapes and the byte rectangles of image commands. Not reported yet
//! (CL_DEVICE_IMAGE_SUPPORT is false, issue 16): the kernel side is still
//! to come.

pub mod format;
pub mod ops;
pub mod shape;
