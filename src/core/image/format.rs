//! Image formats (OpenCL 3.0 section 5.3.1.1): which channel orders and
//! data types are valid together, which ferrocl supports, how many bytes a
//! pixel takes, and how a pixel's value converts to and from its bytes by
//! the rules of OpenCL C's read_image* and write_image* (OpenCL C 8.3).
//! clEnqueueFillImage converts its colour by the same rules.

// The headers spell some channel orders in lower case (CL_sRGBA, CL_RGBx).
#![allow(non_upper_case_globals)]

use crate::cl::*;

/// A validated image format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageFormat {
    pub order: cl_channel_order,
    pub data_type: cl_channel_type,
}

/// A pixel's value as the kernel sees it: read_imagef and write_imagef
/// take floats (normalized, half and float data types), read_imagei and
/// write_imagei signed integers, the `ui` forms unsigned ones.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Color {
    Float([f32; 4]),
    Int([i32; 4]),
    Uint([u32; 4]),
}

/// Which kind of `Color` a data type takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorKind {
    Float,
    Int,
    Uint,
}

/// The RGBA component each stored channel holds, in memory order.
fn channel_components(order: cl_channel_order) -> Option<&'static [usize]> {
    Some(match order {
        CL_R | CL_INTENSITY | CL_LUMINANCE | CL_DEPTH => &[0],
        CL_A => &[3],
        CL_RG => &[0, 1],
        CL_RA => &[0, 3],
        CL_RGB => &[0, 1, 2],
        CL_RGBA | CL_sRGBA => &[0, 1, 2, 3],
        CL_BGRA | CL_sBGRA => &[2, 1, 0, 3],
        CL_ARGB => &[3, 0, 1, 2],
        CL_ABGR => &[3, 2, 1, 0],
        _ => return None,
    })
}

/// Every channel order the headers define (the `x` orders and the
/// 24-bit sRGB are valid descriptors ferrocl does not support).
const ORDERS: [cl_channel_order; 20] = [
    CL_R,
    CL_A,
    CL_RG,
    CL_RA,
    CL_RGB,
    CL_RGBA,
    CL_BGRA,
    CL_ARGB,
    CL_INTENSITY,
    CL_LUMINANCE,
    CL_Rx,
    CL_RGx,
    CL_RGBx,
    CL_DEPTH,
    CL_sRGB,
    CL_sRGBx,
    CL_sRGBA,
    CL_sBGRA,
    CL_ABGR,
    CL_DEPTH_STENCIL,
];

/// The data types of one component each (the packed ones hold three).
const PLAIN_TYPES: [cl_channel_type; 12] = [
    CL_SNORM_INT8,
    CL_SNORM_INT16,
    CL_UNORM_INT8,
    CL_UNORM_INT16,
    CL_SIGNED_INT8,
    CL_SIGNED_INT16,
    CL_SIGNED_INT32,
    CL_UNSIGNED_INT8,
    CL_UNSIGNED_INT16,
    CL_UNSIGNED_INT32,
    CL_HALF_FLOAT,
    CL_FLOAT,
];

const PACKED_TYPES: [cl_channel_type; 3] =
    [CL_UNORM_SHORT_565, CL_UNORM_SHORT_555, CL_UNORM_INT_101010];

/// The data types CL_INTENSITY and CL_LUMINANCE allow.
const INTENSITY_TYPES: [cl_channel_type; 6] = [
    CL_UNORM_INT8,
    CL_UNORM_INT16,
    CL_SNORM_INT8,
    CL_SNORM_INT16,
    CL_HALF_FLOAT,
    CL_FLOAT,
];

/// The data types CL_ARGB, CL_BGRA and CL_ABGR allow.
const BYTE_TYPES: [cl_channel_type; 4] = [
    CL_UNORM_INT8,
    CL_SNORM_INT8,
    CL_SIGNED_INT8,
    CL_UNSIGNED_INT8,
];

/// Whether the spec's table of channel orders allows `data_type` with
/// `order` (valid, whether or not ferrocl supports it).
fn is_valid(order: cl_channel_order, data_type: cl_channel_type) -> bool {
    let known_type = PLAIN_TYPES.contains(&data_type)
        || PACKED_TYPES.contains(&data_type)
        || [CL_UNORM_INT_101010_2, CL_UNORM_INT24].contains(&data_type);
    if !ORDERS.contains(&order) || !known_type {
        return false;
    }
    match order {
        CL_RGB | CL_RGBx => PACKED_TYPES.contains(&data_type),
        CL_INTENSITY | CL_LUMINANCE => INTENSITY_TYPES.contains(&data_type),
        CL_ARGB | CL_BGRA | CL_ABGR => BYTE_TYPES.contains(&data_type),
        CL_DEPTH => [CL_UNORM_INT16, CL_FLOAT].contains(&data_type),
        CL_DEPTH_STENCIL => [CL_UNORM_INT24, CL_FLOAT].contains(&data_type),
        CL_sRGB | CL_sRGBx | CL_sRGBA | CL_sBGRA => data_type == CL_UNORM_INT8,
        // "CL_UNORM_INT_101010_2 ... can only be used if channel order is
        // CL_RGBA."
        CL_RGBA => PLAIN_TYPES.contains(&data_type) || data_type == CL_UNORM_INT_101010_2,
        _ => PLAIN_TYPES.contains(&data_type),
    }
}

/// Whether ferrocl supports a valid format: every plain order with every
/// type the spec allows it, the packed RGB types, depth (2D images and 2D
/// arrays only: `ImageFormat::supports`) and 32-bit sRGB. Left out: the
/// `x` orders and 24-bit sRGB (their pixel sizes are not settled between
/// implementations), CL_UNORM_INT_101010_2 and depth-stencil (an OpenGL
/// sharing format).
fn is_supported(order: cl_channel_order, data_type: cl_channel_type) -> bool {
    is_valid(order, data_type)
        && channel_components(order).is_some()
        && data_type != CL_UNORM_INT_101010_2
}

impl ImageFormat {
    /// "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if values specified in
    /// image_format are not valid"; "CL_IMAGE_FORMAT_NOT_SUPPORTED if the
    /// image_format is not supported".
    pub fn new(order: cl_channel_order, data_type: cl_channel_type) -> Result<Self, cl_int> {
        if !is_valid(order, data_type) {
            return Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
        }
        if !is_supported(order, data_type) {
            return Err(CL_IMAGE_FORMAT_NOT_SUPPORTED);
        }
        Ok(ImageFormat { order, data_type })
    }

    /// Every supported format, for clGetSupportedImageFormats: ferrocl
    /// supports each of them for every access (read, write, read-write)
    /// and image type.
    pub fn all() -> Vec<ImageFormat> {
        let mut all = Vec::new();
        for order in ORDERS {
            for data_type in PLAIN_TYPES.iter().chain(&PACKED_TYPES) {
                if is_supported(order, *data_type) {
                    all.push(ImageFormat {
                        order,
                        data_type: *data_type,
                    });
                }
            }
        }
        all
    }

    /// Whether images of `image_type` come in this format: depth images
    /// are 2D images and 2D arrays (cl_khr_depth_images).
    pub fn supports(&self, image_type: cl_mem_object_type) -> bool {
        self.order != CL_DEPTH
            || matches!(
                image_type,
                CL_MEM_OBJECT_IMAGE2D | CL_MEM_OBJECT_IMAGE2D_ARRAY
            )
    }

    fn components(&self) -> &'static [usize] {
        channel_components(self.order).expect("a supported order")
    }

    fn is_packed(&self) -> bool {
        PACKED_TYPES.contains(&self.data_type)
    }

    /// A packed type's (shift, width) of red, green and blue in its word.
    fn packed_fields(&self) -> [(u32, u32); 3] {
        match self.data_type {
            CL_UNORM_SHORT_565 => [(11, 5), (5, 6), (0, 5)],
            CL_UNORM_SHORT_555 => [(10, 5), (5, 5), (0, 5)],
            _ => [(20, 10), (10, 10), (0, 10)],
        }
    }

    /// The bytes of one channel (of a plain type).
    fn channel_size(&self) -> usize {
        match self.data_type {
            CL_SNORM_INT8 | CL_UNORM_INT8 | CL_SIGNED_INT8 | CL_UNSIGNED_INT8 => 1,
            CL_SNORM_INT16 | CL_UNORM_INT16 | CL_SIGNED_INT16 | CL_UNSIGNED_INT16
            | CL_HALF_FLOAT => 2,
            _ => 4,
        }
    }

    /// CL_IMAGE_ELEMENT_SIZE: the bytes of one pixel.
    pub fn element_size(&self) -> usize {
        match self.data_type {
            CL_UNORM_SHORT_565 | CL_UNORM_SHORT_555 => 2,
            CL_UNORM_INT_101010 => 4,
            _ => self.components().len() * self.channel_size(),
        }
    }

    /// The kind of colour the format's pixels read and write as.
    pub fn color_kind(&self) -> ColorKind {
        match self.data_type {
            CL_SIGNED_INT8 | CL_SIGNED_INT16 | CL_SIGNED_INT32 => ColorKind::Int,
            CL_UNSIGNED_INT8 | CL_UNSIGNED_INT16 | CL_UNSIGNED_INT32 => ColorKind::Uint,
            _ => ColorKind::Float,
        }
    }

    fn is_srgb(&self) -> bool {
        matches!(self.order, CL_sRGBA | CL_sBGRA)
    }

    /// The bytes of a pixel of colour `color` (`element_size` of them), as
    /// write_image* stores it; None when the colour's kind is not the
    /// format's.
    pub fn encode(&self, color: Color) -> Option<Vec<u8>> {
        let mut out = Vec::with_capacity(self.element_size());
        match color {
            Color::Float(c) if self.color_kind() == ColorKind::Float => {
                if self.is_packed() {
                    let bits = self.packed_fields();
                    let mut word = 0u32;
                    for (i, (shift, width)) in bits.into_iter().enumerate() {
                        let max = ((1u32 << width) - 1) as f32;
                        word |= (sat_rte(c[i] * max, 0.0, max) as u32) << shift;
                    }
                    out.extend_from_slice(&word.to_ne_bytes()[..self.element_size()]);
                    return Some(out);
                }
                for (i, &k) in self.components().iter().enumerate() {
                    let v = if self.is_srgb() && i < 3 && k < 3 {
                        linear_to_srgb(c[k])
                    } else {
                        c[k]
                    };
                    match self.data_type {
                        CL_UNORM_INT8 => out.push(sat_rte(v * 255.0, 0.0, 255.0) as u8),
                        CL_SNORM_INT8 => out.push(sat_rte(v * 127.0, -128.0, 127.0) as i8 as u8),
                        CL_UNORM_INT16 => out.extend_from_slice(
                            &(sat_rte(v * 65535.0, 0.0, 65535.0) as u16).to_ne_bytes(),
                        ),
                        CL_SNORM_INT16 => out.extend_from_slice(
                            &(sat_rte(v * 32767.0, -32768.0, 32767.0) as i16).to_ne_bytes(),
                        ),
                        CL_HALF_FLOAT => out.extend_from_slice(&f32_to_f16(v).to_ne_bytes()),
                        _ => out.extend_from_slice(&v.to_ne_bytes()),
                    }
                }
            }
            Color::Int(c) if self.color_kind() == ColorKind::Int => {
                for &k in self.components() {
                    let v = c[k];
                    match self.data_type {
                        CL_SIGNED_INT8 => out.push(v.clamp(-128, 127) as i8 as u8),
                        CL_SIGNED_INT16 => {
                            out.extend_from_slice(&(v.clamp(-32768, 32767) as i16).to_ne_bytes())
                        }
                        _ => out.extend_from_slice(&v.to_ne_bytes()),
                    }
                }
            }
            Color::Uint(c) if self.color_kind() == ColorKind::Uint => {
                for &k in self.components() {
                    let v = c[k];
                    match self.data_type {
                        CL_UNSIGNED_INT8 => out.push(v.min(255) as u8),
                        CL_UNSIGNED_INT16 => {
                            out.extend_from_slice(&(v.min(65535) as u16).to_ne_bytes())
                        }
                        _ => out.extend_from_slice(&v.to_ne_bytes()),
                    }
                }
            }
            _ => return None,
        }
        Some(out)
    }

    /// The colour read_image* returns for a pixel's bytes (at least
    /// `element_size` of them), sampler-less: channels the order lacks read
    /// as 0, alpha as 1; intensity fills all four, luminance red, green and
    /// blue.
    pub fn decode(&self, bytes: &[u8]) -> Color {
        let n = self.element_size();
        let bytes = &bytes[..n];
        match self.color_kind() {
            ColorKind::Float => {
                let mut c = [0.0, 0.0, 0.0, 1.0];
                if self.is_packed() {
                    let mut word = [0u8; 4];
                    word[..n].copy_from_slice(bytes);
                    let word = u32::from_ne_bytes(word);
                    let bits = self.packed_fields();
                    for (i, (shift, width)) in bits.into_iter().enumerate() {
                        let max = (1u32 << width) - 1;
                        c[i] = ((word >> shift) & max) as f32 / max as f32;
                    }
                    return Color::Float(c);
                }
                let size = self.channel_size();
                for (i, &k) in self.components().iter().enumerate() {
                    let b = &bytes[i * size..(i + 1) * size];
                    let v = match self.data_type {
                        CL_UNORM_INT8 => b[0] as f32 / 255.0,
                        CL_SNORM_INT8 => (b[0] as i8 as f32 / 127.0).max(-1.0),
                        CL_UNORM_INT16 => u16::from_ne_bytes([b[0], b[1]]) as f32 / 65535.0,
                        CL_SNORM_INT16 => {
                            (i16::from_ne_bytes([b[0], b[1]]) as f32 / 32767.0).max(-1.0)
                        }
                        CL_HALF_FLOAT => f16_to_f32(u16::from_ne_bytes([b[0], b[1]])),
                        _ => f32::from_ne_bytes([b[0], b[1], b[2], b[3]]),
                    };
                    c[k] = if self.is_srgb() && k < 3 {
                        srgb_to_linear(v)
                    } else {
                        v
                    };
                }
                Color::Float(self.replicate(c))
            }
            kind => {
                // Integer channels, sign- or zero-extended to 32 bits.
                let signed = kind == ColorKind::Int;
                let mut c = [0u32, 0, 0, 1];
                let size = self.channel_size();
                for (i, &k) in self.components().iter().enumerate() {
                    let b = &bytes[i * size..(i + 1) * size];
                    c[k] = match (size, signed) {
                        (1, true) => b[0] as i8 as u32,
                        (1, false) => b[0] as u32,
                        (2, true) => i16::from_ne_bytes([b[0], b[1]]) as u32,
                        (2, false) => u16::from_ne_bytes([b[0], b[1]]) as u32,
                        _ => u32::from_ne_bytes([b[0], b[1], b[2], b[3]]),
                    };
                }
                if signed {
                    Color::Int(c.map(|v| v as i32))
                } else {
                    Color::Uint(c)
                }
            }
        }
    }

    /// Intensity reads as (I, I, I, I), luminance as (L, L, L, 1).
    fn replicate(&self, c: [f32; 4]) -> [f32; 4] {
        match self.order {
            CL_INTENSITY => [c[0]; 4],
            CL_LUMINANCE => [c[0], c[0], c[0], 1.0],
            _ => c,
        }
    }
}

/// `v` rounded to the nearest integer, ties to even, and clamped to
/// `[lo, hi]`; NaN gives 0 (OpenCL C's convert_*_sat_rte).
fn sat_rte(v: f32, lo: f32, hi: f32) -> f32 {
    if v.is_nan() {
        return 0.0;
    }
    v.round_ties_even().clamp(lo, hi)
}

/// OpenCL C 8.3.4.1: linear to sRGB, after clamping to [0, 1] (NaN: 0).
fn linear_to_srgb(c: f32) -> f32 {
    if c.is_nan() {
        return 0.0;
    }
    let c = c.clamp(0.0, 1.0);
    if c < 0.0031308 {
        12.92 * c
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    }
}

/// sRGB to linear.
fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// IEEE half from a float, rounded to the nearest, ties to even (what
/// write_imagef does with CL_HALF_FLOAT).
pub fn f32_to_f16(v: f32) -> u16 {
    let bits = v.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & 0xff) as i32;
    let mant = bits & 0x7f_ffff;
    if exp == 0xff {
        // Infinity, or NaN with a payload bit kept.
        return sign | 0x7c00 | if mant != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        // A half subnormal (or zero): the implicit bit joins the mantissa,
        // shifted right by 14 - e, rounding on what is shifted out.
        if e < -10 {
            return sign;
        }
        let m = mant | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = m >> shift;
        let rest = m & ((1 << shift) - 1);
        let mid = 1 << (shift - 1);
        let round = rest > mid || (rest == mid && half & 1 == 1);
        return sign | (half + round as u32) as u16;
    }
    let half = ((e as u32) << 10) | (mant >> 13);
    let rest = mant & 0x1fff;
    let round = rest > 0x1000 || (rest == 0x1000 && half & 1 == 1);
    // A carry out of the mantissa moves to the next exponent, up to
    // infinity, which is the right answer then.
    sign | (half + round as u32) as u16
}

/// The float a half holds (exactly).
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h & 0x8000) as u32) << 16;
    let exp = ((h >> 10) & 0x1f) as u32;
    let mant = (h & 0x3ff) as u32;
    let bits = match (exp, mant) {
        (0, 0) => sign,
        (0, m) => {
            // Subnormal: m * 2^-24.
            let v = m as f32 * 2f32.powi(-24);
            return if sign != 0 { -v } else { v };
        }
        (0x1f, m) => sign | 0x7f80_0000 | (m << 13),
        (e, m) => sign | ((e + 127 - 15) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

#[cfg(test)]
mod tests;
