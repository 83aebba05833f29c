"""Generates builtins/lib/image.cl: OpenCL C 6.15.15 image functions
(read_image{f,i,ui} with and without samplers, write_image{f,i,ui},
get_image_*) for every image type, the depth ones (cl_khr_depth_images) included.

An image argument points to the runtime's image descriptor (`img_t` below,
include/ferrocl_kernel.h's `struct ferrocl_image`, compiler::abi::
ImageDescriptor); a sampler is its CLK_* bits (the runtime passes sampler
objects so, and __translate_sampler_initializer in builtins/workitem.c
turns a program's sampler constants into the same). Pixels convert by the
rules of OpenCL C 8.3 (core::image::format does the same on the host for
clEnqueueFillImage); addressing and filtering follow OpenCL C 8.2.
The format is read from the descriptor at run time: one function for every
format, correct first (fast paths per format are to come)."""
from common import *

out = []
emit = out.append
emit(HEADER.format(gen='gen_image.py'))
emit(r'''
// include/ferrocl_kernel.h struct ferrocl_image.
typedef struct {
  __global uchar *data;
  ulong pitch_y;  // bytes from one y (row, or 1D array layer) to the next
  ulong pitch_z;  // bytes from one z (slice, or 2D array layer) to the next
  int width, height, depth, array_size;
  int order, type, element_size, reserved;
} img_t;

#define DESC(image) __builtin_astype(image, __global const img_t *)
#define SMP(sampler) ((uint)(ulong)__builtin_astype(sampler, __constant void *))

static uint ld16(__global const uchar *p, int i) {
  return (uint)p[2 * i] | ((uint)p[2 * i + 1] << 8);
}
static uint ld32(__global const uchar *p, int i) {
  return (uint)p[4 * i] | ((uint)p[4 * i + 1] << 8) | ((uint)p[4 * i + 2] << 16) |
         ((uint)p[4 * i + 3] << 24);
}
static uint ld8(__global const uchar *p, int i) { return p[i]; }
static void st8(__global uchar *p, int i, uint v) { p[i] = (uchar)v; }
static ulong ld64(__global const uchar *p, int i) {
  return (ulong)ld32(p, 2 * i) | (ulong)ld32(p, 2 * i + 1) << 32;
}
static void st16(__global uchar *p, int i, uint v) {
  p[2 * i] = (uchar)v;
  p[2 * i + 1] = (uchar)(v >> 8);
}
static void st32(__global uchar *p, int i, uint v) {
  p[4 * i] = (uchar)v;
  p[4 * i + 1] = (uchar)(v >> 8);
  p[4 * i + 2] = (uchar)(v >> 16);
  p[4 * i + 3] = (uchar)(v >> 24);
}
static void st64(__global uchar *p, int i, ulong v) {
  st32(p, 2 * i, (uint)v);
  st32(p, 2 * i + 1, (uint)(v >> 32));
}

static int nchan(int order) {
  switch (order) {
  case CLK_R: case CLK_A: case CLK_INTENSITY: case CLK_LUMINANCE: case CLK_DEPTH:
    return 1;
  case CLK_RG: case CLK_RA:
    return 2;
  case CLK_RGB:
    return 3;
  default:
    return 4;
  }
}

// The RGBA component the order stores as its channel i.
static int comp(int order, int i) {
  switch (order) {
  case CLK_A: return 3;
  case CLK_RA: return i == 0 ? 0 : 3;
  case CLK_BGRA: case CLK_sBGRA: return i == 3 ? 3 : 2 - i;
  case CLK_ARGB: return i == 0 ? 3 : i - 1;
  case CLK_ABGR: return 3 - i;
  default: return i;
  }
}

static bool is_srgb(int order) { return order == CLK_sRGBA || order == CLK_sBGRA; }

static bool has_alpha(int order) {
  return !(order == CLK_R || order == CLK_RG || order == CLK_RGB || order == CLK_LUMINANCE ||
           order == CLK_DEPTH);
}

static float srgb_to_linear(float c) {
  return c <= 0.04045f ? c / 12.92f : pow((c + 0.055f) / 1.055f, 2.4f);
}
static float linear_to_srgb(float c) {
  if (isnan(c)) return 0.0f;
  c = clamp(c, 0.0f, 1.0f);
  return c < 0.0031308f ? 12.92f * c : 1.055f * pow(c, 1.0f / 2.4f) - 0.055f;
}

static bool is_packed(int type) {
  return type == CLK_UNORM_SHORT_565 || type == CLK_UNORM_SHORT_555 ||
         type == CLK_UNORM_INT_101010;
}

// The shifts and widths of a packed type's r, g and b.
static int3 packed_shift(int type) {
  return type == CLK_UNORM_SHORT_565 ? (int3)(11, 5, 0)
       : type == CLK_UNORM_SHORT_555 ? (int3)(10, 5, 0) : (int3)(20, 10, 0);
}
static int3 packed_width(int type) {
  return type == CLK_UNORM_SHORT_565 ? (int3)(5, 6, 5)
       : type == CLK_UNORM_SHORT_555 ? (int3)(5, 5, 5) : (int3)(10, 10, 10);
}

static float chan_f(int type, __global const uchar *p, int i) {
  switch (type) {
  case CLK_UNORM_INT8: return (float)p[i] / 255.0f;
  case CLK_SNORM_INT8: return fmax(-1.0f, (float)(char)p[i] / 127.0f);
  case CLK_UNORM_INT16: return (float)ld16(p, i) / 65535.0f;
  case CLK_SNORM_INT16: return fmax(-1.0f, (float)(short)ld16(p, i) / 32767.0f);
  case CLK_HALF_FLOAT: return (float)as_half((ushort)ld16(p, i));
  default: return as_float(ld32(p, i));
  }
}

// A pixel's colour for read_imagef.
static float4 load_f(__global const img_t *d, __global const uchar *p) {
  int t = d->type, o = d->order;
  // The formats image filters use most, as whole vectors.
  if (t == CLK_UNORM_INT8 && o == CLK_RGBA) return convert_float4(vload4(0, p)) / 255.0f;
  if (t == CLK_UNORM_INT8 && o == CLK_BGRA) return convert_float4(vload4(0, p)).zyxw / 255.0f;
  if (t == CLK_FLOAT && o == CLK_RGBA) return vload4(0, (__global const float *)p);
  float v[4] = {0.0f, 0.0f, 0.0f, 1.0f};
  if (is_packed(t)) {
    uint w = t == CLK_UNORM_INT_101010 ? ld32(p, 0) : ld16(p, 0);
    int3 s = packed_shift(t), n = packed_width(t);
    v[0] = (float)((w >> s.x) & ((1u << n.x) - 1)) / (float)((1u << n.x) - 1);
    v[1] = (float)((w >> s.y) & ((1u << n.y) - 1)) / (float)((1u << n.y) - 1);
    v[2] = (float)((w >> s.z) & ((1u << n.z) - 1)) / (float)((1u << n.z) - 1);
    return (float4)(v[0], v[1], v[2], 1.0f);
  }
  int n = nchan(o);
  for (int i = 0; i < n; i++) v[comp(o, i)] = chan_f(t, p, i);
  if (is_srgb(o))
    for (int i = 0; i < 3; i++) v[i] = srgb_to_linear(v[i]);
  if (o == CLK_INTENSITY) return (float4)(v[0]);
  if (o == CLK_LUMINANCE) return (float4)(v[0], v[0], v[0], 1.0f);
  return (float4)(v[0], v[1], v[2], v[3]);
}

// Integer channels, sign- or zero-extended: read_imagei and read_imageui.
static uint4 load_bits(__global const img_t *d, __global const uchar *p, bool sign) {
  int t = d->type, o = d->order;
  uint v[4] = {0, 0, 0, 1};
  int n = nchan(o);
  for (int i = 0; i < n; i++) {
    uint x;
    switch (t) {
    case CLK_SIGNED_INT8: x = (uint)(int)(char)p[i]; break;
    case CLK_UNSIGNED_INT8: x = p[i]; break;
    case CLK_SIGNED_INT16: x = (uint)(int)(short)ld16(p, i); break;
    case CLK_UNSIGNED_INT16: x = ld16(p, i); break;
    default: x = ld32(p, i); break;
    }
    v[comp(o, i)] = x;
  }
  return (uint4)(v[0], v[1], v[2], v[3]);
}

static void store_f(__global const img_t *d, __global uchar *p, float4 color) {
  int t = d->type, o = d->order;
  if (t == CLK_UNORM_INT8 && o == CLK_RGBA) {
    vstore4(convert_uchar4_sat_rte(color * 255.0f), 0, p);
    return;
  }
  if (t == CLK_UNORM_INT8 && o == CLK_BGRA) {
    vstore4(convert_uchar4_sat_rte(color.zyxw * 255.0f), 0, p);
    return;
  }
  if (t == CLK_FLOAT && o == CLK_RGBA) {
    vstore4(color, 0, (__global float *)p);
    return;
  }
  float v[4] = {color.x, color.y, color.z, color.w};
  if (is_packed(t)) {
    int3 s = packed_shift(t), n = packed_width(t);
    uint w = ((uint)convert_ushort_sat_rte(v[0] * (float)((1u << n.x) - 1)) << s.x) |
             ((uint)convert_ushort_sat_rte(v[1] * (float)((1u << n.y) - 1)) << s.y) |
             ((uint)convert_ushort_sat_rte(v[2] * (float)((1u << n.z) - 1)) << s.z);
    if (t == CLK_UNORM_INT_101010) st32(p, 0, w); else st16(p, 0, w);
    return;
  }
  if (is_srgb(o))
    for (int i = 0; i < 3; i++) v[i] = linear_to_srgb(v[i]);
  int n = nchan(o);
  for (int i = 0; i < n; i++) {
    float x = v[comp(o, i)];
    switch (t) {
    case CLK_UNORM_INT8: p[i] = convert_uchar_sat_rte(x * 255.0f); break;
    case CLK_SNORM_INT8: p[i] = (uchar)convert_char_sat_rte(x * 127.0f); break;
    case CLK_UNORM_INT16: st16(p, i, convert_ushort_sat_rte(x * 65535.0f)); break;
    case CLK_SNORM_INT16: st16(p, i, (ushort)convert_short_sat_rte(x * 32767.0f)); break;
    case CLK_HALF_FLOAT: {
      ushort h;
      vstore_half_rte(x, 0, (__private half *)&h);
      st16(p, i, h);
      break;
    }
    default: st32(p, i, as_uint(x)); break;
    }
  }
}

static void store_i(__global const img_t *d, __global uchar *p, int4 color) {
  int t = d->type, o = d->order;
  int v[4] = {color.x, color.y, color.z, color.w};
  int n = nchan(o);
  for (int i = 0; i < n; i++) {
    int x = v[comp(o, i)];
    switch (t) {
    case CLK_SIGNED_INT8: p[i] = (uchar)convert_char_sat(x); break;
    case CLK_SIGNED_INT16: st16(p, i, (ushort)convert_short_sat(x)); break;
    default: st32(p, i, (uint)x); break;
    }
  }
}

static void store_ui(__global const img_t *d, __global uchar *p, uint4 color) {
  int t = d->type, o = d->order;
  uint v[4] = {color.x, color.y, color.z, color.w};
  int n = nchan(o);
  for (int i = 0; i < n; i++) {
    uint x = v[comp(o, i)];
    switch (t) {
    case CLK_UNSIGNED_INT8: p[i] = convert_uchar_sat(x); break;
    case CLK_UNSIGNED_INT16: st16(p, i, convert_ushort_sat(x)); break;
    default: st32(p, i, x); break;
    }
  }
}

// The pixel at (x, y, z), or NULL outside an extent of (nx, ny, nz).
static __global uchar *pixel(__global const img_t *d, int x, int y, int z, int nx, int ny,
                             int nz) {
  if (x < 0 || y < 0 || z < 0 || x >= nx || y >= ny || z >= nz) return 0;
  return d->data + (ulong)x * (ulong)d->element_size + (ulong)y * d->pitch_y +
         (ulong)z * d->pitch_z;
}

// The border colour: transparent black where the order has alpha.
static float4 border_f(__global const img_t *d) {
  return has_alpha(d->order) ? (float4)(0.0f) : (float4)(0.0f, 0.0f, 0.0f, 1.0f);
}
static uint4 border_bits(__global const img_t *d) {
  return has_alpha(d->order) ? (uint4)(0) : (uint4)(0, 0, 0, 1);
}

static float frac_of(float x) { return x - floor(x); }

static int to_index(float u) { return convert_int_sat(floor(u)); }

// OpenCL C 8.2: the texel a nearest-filtered coordinate s selects along a
// dimension of n texels (-1 or n: the border, under CLK_ADDRESS_CLAMP).
static int coord_nearest(float s, int n, uint smp) {
  uint mode = smp & 0xe;
  bool normalized = (smp & 1) != 0;
  if (mode == CLK_ADDRESS_REPEAT && normalized) {
    int i = to_index((s - floor(s)) * (float)n);
    return i > n - 1 ? i - n : i;
  }
  if (mode == CLK_ADDRESS_MIRRORED_REPEAT && normalized) {
    float m = fabs(s - 2.0f * rint(0.5f * s));
    return min(to_index(m * (float)n), n - 1);
  }
  int i = to_index(normalized ? s * (float)n : s);
  return mode == CLK_ADDRESS_CLAMP_TO_EDGE ? clamp(i, 0, n - 1) : clamp(i, -1, n);
}

// The two texels and the weight of the second that a linear-filtered
// coordinate s blends along a dimension of n texels.
static void coord_linear(float s, int n, uint smp, int *i0, int *i1, float *a) {
  uint mode = smp & 0xe;
  bool normalized = (smp & 1) != 0;
  float u;
  if (mode == CLK_ADDRESS_REPEAT && normalized) {
    u = (s - floor(s)) * (float)n;
    int j0 = to_index(u - 0.5f), j1 = j0 + 1;
    *i0 = j0 < 0 ? j0 + n : j0;
    *i1 = j1 > n - 1 ? j1 - n : j1;
  } else if (mode == CLK_ADDRESS_MIRRORED_REPEAT && normalized) {
    u = fabs(s - 2.0f * rint(0.5f * s)) * (float)n;
    int j0 = to_index(u - 0.5f);
    *i0 = max(j0, 0);
    *i1 = min(j0 + 1, n - 1);
  } else {
    u = normalized ? s * (float)n : s;
    int j0 = to_index(u - 0.5f), j1 = j0 + 1;
    if (mode == CLK_ADDRESS_CLAMP_TO_EDGE) {
      *i0 = clamp(j0, 0, n - 1);
      *i1 = clamp(j1, 0, n - 1);
    } else {
      *i0 = clamp(j0, -1, n);
      *i1 = clamp(j1, -1, n);
    }
  }
  *a = frac_of(u - 0.5f);
}

static float4 fetch_f(__global const img_t *d, int x, int y, int z, int3 n) {
  __global const uchar *p = pixel(d, x, y, z, n.x, n.y, n.z);
  return p ? load_f(d, p) : border_f(d);
}

static uint4 fetch_bits(__global const img_t *d, int x, int y, int z, int3 n, bool sign) {
  __global const uchar *p = pixel(d, x, y, z, n.x, n.y, n.z);
  return p ? load_bits(d, p, sign) : border_bits(d);
}

// A sampled read_imagef: the first `dims` of (s, t, r) are filtered
// coordinates, the others the fixed indices in `fixed` (an array layer);
// n is the extent.
static float4 sample_f(__global const img_t *d, uint smp, int dims, float4 c, int3 fixed, int3 n) {
  float cc[3] = {c.x, c.y, c.z};
  int nn[3] = {n.x, n.y, n.z};
  int ff[3] = {fixed.x, fixed.y, fixed.z};
  int i0[3], i1[3];
  float a[3];
  bool linear = (smp & 0x30) == CLK_FILTER_LINEAR;
  for (int k = 0; k < 3; k++) {
    if (k >= dims) {
      i0[k] = i1[k] = ff[k];
      a[k] = 0.0f;
    } else if (linear) {
      coord_linear(cc[k], nn[k], smp, &i0[k], &i1[k], &a[k]);
    } else {
      i0[k] = i1[k] = coord_nearest(cc[k], nn[k], smp);
      a[k] = 0.0f;
    }
  }
  if (!linear) return fetch_f(d, i0[0], i0[1], i0[2], n);
  float4 sum = (float4)(0.0f);
  for (int corner = 0; corner < (1 << dims); corner++) {
    float w = 1.0f;
    int at[3];
    for (int k = 0; k < 3; k++) {
      bool hi = k < dims && (corner >> k) & 1;
      at[k] = hi ? i1[k] : i0[k];
      if (k < dims) w *= hi ? a[k] : 1.0f - a[k];
    }
    sum += w * fetch_f(d, at[0], at[1], at[2], n);
  }
  return sum;
}

// A sampled integer read: nearest only (the spec leaves others undefined).
static uint4 sample_bits(__global const img_t *d, uint smp, int dims, float4 c, int3 fixed, int3 n,
                         bool sign) {
  float cc[3] = {c.x, c.y, c.z};
  int nn[3] = {n.x, n.y, n.z};
  int ff[3] = {fixed.x, fixed.y, fixed.z};
  int at[3];
  for (int k = 0; k < 3; k++) at[k] = k < dims ? coord_nearest(cc[k], nn[k], smp) : ff[k];
  return fetch_bits(d, at[0], at[1], at[2], n, sign);
}

static int layer_of(float c, int size) { return clamp(convert_int_sat_rte(c), 0, size - 1); }
''')

# (type, coord width, dims filtered, layer component, extent expression)
TYPES = [
    ('image1d_t', 1, 1, None, '(int3)(d->width, 1, 1)'),
    ('image1d_buffer_t', 1, 1, None, '(int3)(d->width, 1, 1)'),
    ('image1d_array_t', 2, 1, 'y', '(int3)(d->width, d->array_size, 1)'),
    ('image2d_t', 2, 2, None, '(int3)(d->width, d->height, 1)'),
    ('image2d_array_t', 4, 2, 'z', '(int3)(d->width, d->height, d->array_size)'),
    ('image3d_t', 4, 3, None, '(int3)(d->width, d->height, d->depth)'),
    # cl_khr_depth_images: CL_DEPTH images, read and written as one float.
    ('image2d_depth_t', 2, 2, None, '(int3)(d->width, d->height, 1)'),
    ('image2d_array_depth_t', 4, 2, 'z', '(int3)(d->width, d->height, d->array_size)'),
]
DEPTH = ('image2d_depth_t', 'image2d_array_depth_t')
KINDS = [('f', 'float4'), ('i', 'int4'), ('ui', 'uint4')]


def vec(base, n):
    return base if n == 1 else f'{base}{n}'


def as4(expr, n, base):
    """A coordinate of width n widened to four components."""
    zero = '0.0f' if base == 'float' else '0'
    if n == 1:
        return f'({base}4)({expr}, {zero}, {zero}, {zero})'
    if n == 2:
        return f'({base}4)({expr}, {zero}, {zero})'
    return f'({base}4)({expr})'


def fixed_of(layer, c4, kind):
    """The fixed indices (the array layer) of a coordinate."""
    if layer is None:
        return '(int3)(0)'
    if kind == 'float':
        size = 'd->array_size'
        idx = f'layer_of({c4}.{layer}, {size})'
    else:
        # The layer is clamped to the array with integer coordinates too.
        idx = f'clamp({c4}.{layer}, 0, d->array_size - 1)'
    return f'(int3)(0, {idx}, 0)' if layer == 'y' else f'(int3)(0, 0, {idx})'


def result(kind, expr_bits, depth=False):
    if kind == 'f':
        return f'({expr_bits}).x' if depth else expr_bits
    if kind == 'i':
        return f'as_int4({expr_bits})'
    return expr_bits


def to_half4(e):
    """cl_khr_fp16's read_imageh: read_imagef's colour rounded to half."""
    return f'__builtin_convertvector({e}, half4)'


for t, cw, dims, layer, extent in TYPES:
    for access in ['read_only', 'read_write', 'write_only']:
        img = f'{access} {t}'
        ic = vec('int', cw)
        fc = vec('float', cw)
        depth = t in DEPTH
        kinds = [('f', 'float')] if depth else KINDS
        if access != 'write_only':
            for k, rt in kinds:
                sign = 'true' if k == 'i' else 'false'
                if k == 'f':
                    load = lambda x, y, z: f'fetch_f(d, {x}, {y}, {z}, {extent})'
                else:
                    load = lambda x, y, z: f'fetch_bits(d, {x}, {y}, {z}, {extent}, {sign})'
                # Sampler-less reads: integer coordinates, no filtering.
                c4 = 'c4'
                xyz = {1: ('c4.x', '0', '0'), 2: ('c4.x', 'c4.y', '0'), 4: ('c4.x', 'c4.y', 'c4.z')}[cw]
                body = result(k, load(*xyz), depth)
                emit(f'{rt} OVL read_image{k}({img} image, {ic} coord) {{\n'
                     f'  __global const img_t *d = DESC(image);\n'
                     f'  int4 c4 = {as4("coord", cw, "int")};\n'
                     f'  return {body};\n}}')
                if k == 'f' and not depth:
                    emit(f'half4 OVL read_imageh({img} image, {ic} coord) {{ return {to_half4("read_imagef(image, coord)")}; }}')
                if access != 'read_only' or t == 'image1d_buffer_t':
                    continue
                for ct, cvec in [('int', ic), ('float', fc)]:
                    conv = 'convert_float4(c4)' if ct == 'int' else 'c4'
                    fixed = fixed_of(layer, 'c4', ct)
                    if k == 'f':
                        # Integer coordinates select texels unnormalized and
                        # nearest (the only samplers the spec allows them).
                        smp = 'SMP(sampler) & 0xe' if ct == 'int' else 'SMP(sampler)'
                        body = result(k, f'sample_f(d, {smp}, {dims}, {conv}, {fixed}, {extent})', depth)
                    else:
                        smp = 'SMP(sampler) & 0xe' if ct == 'int' else 'SMP(sampler)'
                        body = result(k, f'sample_bits(d, {smp}, {dims}, {conv}, {fixed}, {extent}, {sign})')
                    emit(f'{rt} OVL read_image{k}({img} image, sampler_t sampler, {cvec} coord) {{\n'
                         f'  __global const img_t *d = DESC(image);\n'
                         f'  {ct}4 c4 = {as4("coord", cw, ct)};\n'
                         f'  return {body};\n}}')
                    if k == 'f' and not depth:
                        emit(f'half4 OVL read_imageh({img} image, sampler_t sampler, {cvec} coord) '
                             f'{{ return {to_half4("read_imagef(image, sampler, coord)")}; }}')
        if access != 'read_only':
            for k, rt in kinds:
                store = {'f': 'store_f', 'i': 'store_i', 'ui': 'store_ui'}[k]
                xyz = {1: 'c4.x, 0, 0', 2: 'c4.x, c4.y, 0', 4: 'c4.x, c4.y, c4.z'}[cw]
                emit(f'void OVL write_image{k}({img} image, {ic} coord, {rt} color) {{\n'
                     f'  __global const img_t *d = DESC(image);\n'
                     f'  int4 c4 = {as4("coord", cw, "int")};\n'
                     f'  __global uchar *p = pixel(d, {xyz}, {extent}.x, {extent}.y, {extent}.z);\n'
                     f'  if (p) {store}(d, p, {"(float4)(color, 0.0f, 0.0f, 0.0f)" if depth else "color"});\n}}')
                if k == 'f' and not depth:
                    emit(f'void OVL write_imageh({img} image, {ic} coord, half4 color) '
                         f'{{ write_imagef(image, coord, __builtin_convertvector(color, float4)); }}')
        # Queries.
        emit(f'int OVL get_image_width({img} image) {{ return DESC(image)->width; }}')
        if t in ('image2d_t', 'image2d_array_t', 'image3d_t') + DEPTH:
            emit(f'int OVL get_image_height({img} image) {{ return DESC(image)->height; }}')
        if t == 'image3d_t':
            emit(f'int OVL get_image_depth({img} image) {{ return DESC(image)->depth; }}')
            emit(f'int4 OVL get_image_dim({img} image) {{\n'
                 f'  __global const img_t *d = DESC(image);\n'
                 f'  return (int4)(d->width, d->height, d->depth, 0);\n}}')
        if t in ('image2d_t', 'image2d_array_t') + DEPTH:
            emit(f'int2 OVL get_image_dim({img} image) {{\n'
                 f'  __global const img_t *d = DESC(image);\n'
                 f'  return (int2)(d->width, d->height);\n}}')
        if t in ('image1d_array_t', 'image2d_array_t', 'image2d_array_depth_t'):
            emit(f'size_t OVL get_image_array_size({img} image) {{ return DESC(image)->array_size; }}')
        emit(f'int OVL get_image_channel_data_type({img} image) {{ return DESC(image)->type; }}')
        emit(f'int OVL get_image_channel_order({img} image) {{ return DESC(image)->order; }}')

# cl_intel_subgroups' image block reads and writes: work-item l of the
# sub-group reads or writes the uint at byte x + 4 l of row y, component i
# of a vector from row y + i. Outside the image a read gives 0 and a write
# is dropped, as for the image's other accesses.
emit("""
static __global uchar *block_at(__global const img_t *d, int2 byte_coord, int row, int bytes) {
  long x = (long)byte_coord.x + bytes * (long)get_sub_group_local_id(), y = (long)byte_coord.y + row;
  if (x < 0 || y < 0 || x + bytes > (long)d->width * d->element_size || y >= d->height) return 0;
  return d->data + y * d->pitch_y + x;
}""")
# (cl_intel_subgroups_short: the same of ushort at byte x + 2 l, _us, and
# the uint ones under their _ui names.)
# (cl_intel_subgroups_char: uchar at byte x + l, _uc, up to 16 rows;
# cl_intel_subgroups_long: ulong at byte x + 8 l, _ul.)
for access in ['read_only', 'read_write', 'write_only']:
    for n in [1, 2, 4, 8, 16]:
        suffix = '' if n == 1 else str(n)
        for W, size, ld, st, names in [('uint', 4, 'ld32', 'st32', ['', '_ui']), ('ushort', 2, 'ld16', 'st16', ['_us']),
                                       ('uchar', 1, 'ld8', 'st8', ['_uc']), ('ulong', 8, 'ld64', 'st64', ['_ul'])]:
            if n not in block_widths(W):
                continue
            V = W if n == 1 else f'{W}{n}'
            for name in names:
                if access != 'write_only':
                    body = (f'{V} r; for (int i = 0; i < {n}; i++) {{ __global uchar *p = block_at(DESC(image), byte_coord, i, {size}); '
                            f'(({W} *)&r)[i] = p ? ({W}){ld}(p, 0) : 0; }} return r;')
                    emit(f'{V} OVL intel_sub_group_block_read{name}{suffix}({access} image2d_t image, int2 byte_coord) {{ {body} }}')
                if access != 'read_only':
                    body = (f'for (int i = 0; i < {n}; i++) {{ __global uchar *p = block_at(DESC(image), byte_coord, i, {size}); '
                            f'if (p) {st}(p, 0, (({W} *)&data)[i]); }}')
                    emit(f'void OVL intel_sub_group_block_write{name}{suffix}({access} image2d_t image, int2 byte_coord, {V} data) {{ {body} }}')

with open('../lib/image.cl', 'w') as f:
    f.write('\n'.join(out) + '\n')
