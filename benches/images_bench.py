"""Image filters, side by side: a nearest-sampled copy (scaled) and a two-tap
linear blur over a 2048x2048 RGBA8 image, 10 launches each after one warm-up.
Run with the platform to measure selected by the loader, e.g.
  OCL_ICD_VENDORS=target/release/libferrocl.so python benches/images_bench.py
  OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd python benches/images_bench.py
with a Python that has numpy and pyopencl (target/corpus/venv after make bench-corpus)."""
import numpy as np, pyopencl as cl, time
ctx = cl.Context(devices=cl.get_platforms()[0].get_devices()[:1]); q = cl.CommandQueue(ctx)
src = '''
__constant sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
__kernel void copy(__read_only image2d_t in, __write_only image2d_t out) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(out, p, read_imagef(in, s, p) * 0.5f);
}
__constant sampler_t l = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;
__kernel void blur(__read_only image2d_t in, __write_only image2d_t out) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float2 c = (float2)(p.x + 1.0f, p.y + 1.0f);
  write_imagef(out, p, read_imagef(in, l, c));
}
'''
prg = cl.Program(ctx, src).build()
N = 2048
fmt = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNORM_INT8)
h = np.random.randint(0, 255, (N, N, 4)).astype(np.uint8)
a = cl.Image(ctx, cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR, fmt, shape=(N, N), hostbuf=h)
b = cl.Image(ctx, cl.mem_flags.WRITE_ONLY, fmt, shape=(N, N))
for name in ["copy", "blur"]:
    k = getattr(prg, name)
    k(q, (N, N), None, a, b); q.finish()
    t = time.perf_counter(); R = 10
    for _ in range(R): k(q, (N, N), None, a, b)
    q.finish(); dt = (time.perf_counter() - t) / R
    print(f"{name}: {dt*1e3:.2f} ms, {N*N/dt/1e6:.0f} Mpix/s")
