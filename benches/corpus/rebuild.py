"""Rebuilding after a trivial edit (issue 13, "builds that scale with the
change"): a 7-kernel, 100-line program is built cold, then built again
with one constant of one kernel changed, as an application's developer
does between runs. Each build is timed alone and with the first launch of
every kernel after it (PoCL compiles a kernel at its first launch, ferrocl
and Intel at clBuildProgram). Each implementation runs in its own process
with a fresh, empty ferrocl cache, PoCL's cache off and PyOpenCL's off;
one unrelated program is built first so that loading the compiler is not
counted. Rounds interleave the implementations; the table keeps each
one's best.

    python rebuild.py [--impls ferrocl,pocl,intel] [--rounds N]

(run with the corpus' venv: `bash benches/corpus/run.sh` makes it; the
environment variables are run.py's.)
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from run import available, impl_env  # noqa: E402

N = 1 << 16

PROGRAM = r"""
#define SCALE SCALE_VALUE
__kernel void saxpy(__global const float *x, __global float *y, float a) {
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}
__kernel void scale(__global float *y) {
    size_t i = get_global_id(0);
    y[i] = y[i] * SCALE;
}
__kernel void reduce(__global const float *x, __global float *out, __local float *tmp) {
    size_t l = get_local_id(0), n = get_local_size(0);
    tmp[l] = x[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = n / 2; s > 0; s /= 2) {
        if (l < s)
            tmp[l] += tmp[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[get_group_id(0)] = tmp[0];
}
__kernel void histogram(__global const uint *x, __global uint *bins) {
    __local uint local_bins[64];
    size_t l = get_local_id(0);
    if (l < 64)
        local_bins[l] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&local_bins[x[get_global_id(0)] % 64]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 64)
        atomic_add(&bins[l], local_bins[l]);
}
__kernel void transpose(__global const float *in, __global float *out, int w) {
    __local float tile[16][17];
    int gx = get_group_id(0) * 16, gy = get_group_id(1) * 16;
    int lx = get_local_id(0), ly = get_local_id(1);
    tile[ly][lx] = in[(gy + ly) * w + gx + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[(gx + ly) * w + gy + lx] = tile[lx][ly];
}
float wave(float x, int k) {
    return sin(x * k) / k;
}
__kernel void series(__global const float *x, __global float *y, int terms) {
    size_t i = get_global_id(0);
    float s = 0.0f;
    for (int k = 1; k <= terms; k++)
        s += wave(x[i], 2 * k - 1);
    y[i] = s * 1.2732395f;
}
__kernel void stencil(__global const float *in, __global float *out, int w, int h) {
    int x = get_global_id(0), y = get_global_id(1);
    if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1)
        return;
    float c = in[y * w + x];
    float n = in[(y - 1) * w + x], s = in[(y + 1) * w + x];
    float e = in[y * w + x + 1], o = in[y * w + x - 1];
    out[y * w + x] = c + 0.25f * (n + s + e + o - 4.0f * c);
}
"""

# (kernel, global size, local size, arguments as (kind, value))
LAUNCHES = [
    ("saxpy", (N,), None, [("in", N), ("out", N), ("f", 2.0)]),
    ("scale", (N,), None, [("out", N)]),
    ("reduce", (N,), (256,), [("in", N), ("out", N // 256), ("local", 256 * 4)]),
    ("histogram", (N,), (256,), [("uin", N), ("uout", 64)]),
    ("transpose", (256, 256), (16, 16), [("in", N), ("out", N), ("i", 256)]),
    ("series", (N,), None, [("in", N), ("out", N), ("i", 16)]),
    ("stencil", (256, 256), None, [("in", N), ("out", N), ("i", 256), ("i", 256)]),
]


def launch_all(cl, np, ctx, queue, prog):
    """The first launch of every kernel of `prog`, finished."""
    mf = cl.mem_flags
    bufs = []
    for name, gsz, lsz, args in LAUNCHES:
        knl = getattr(prog, name)
        vals = []
        for kind, v in args:
            if kind in ("in", "out", "uin", "uout"):
                dtype = np.uint32 if kind.startswith("u") else np.float32
                host = (np.arange(v) % 97).astype(dtype)
                b = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=host)
                bufs.append(b)
                vals.append(b)
            elif kind == "local":
                vals.append(cl.LocalMemory(v))
            elif kind == "f":
                vals.append(np.float32(v))
            else:
                vals.append(np.int32(v))
        knl.set_args(*vals)
        cl.enqueue_nd_range_kernel(queue, knl, gsz, lsz)
    queue.finish()


def worker(impl):
    import numpy as np
    import pyopencl as cl

    ctx = cl.Context(devices=cl.get_platforms()[0].get_devices()[:1])
    queue = cl.CommandQueue(ctx)
    # Loading the compiler is no part of a build's time.
    warm = cl.Program(ctx, "__kernel void warm(__global int *x) { x[0] = 1; }").build()
    launch = cl.Kernel(warm, "warm")
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4)
    launch.set_args(buf)
    cl.enqueue_nd_range_kernel(queue, launch, (1,), None)
    queue.finish()
    rec = {"impl": impl}
    for step, scale in (("cold", "2.0f"), ("edited", "3.0f")):
        t0 = time.perf_counter()
        prog = cl.Program(ctx, PROGRAM.replace("SCALE_VALUE", scale)).build()
        t1 = time.perf_counter()
        launch_all(cl, np, ctx, queue, prog)
        t2 = time.perf_counter()
        rec[step + "_build_ms"] = (t1 - t0) * 1e3
        rec[step + "_first_ms"] = (t2 - t0) * 1e3
        log = prog.get_build_info(ctx.devices[0], cl.program_build_info.LOG)
        if "reused" in log:
            rec[step + "_note"] = log.strip().splitlines()[-1]
    print(json.dumps(rec), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--worker")
    ap.add_argument("--impls", default="ferrocl,pocl,intel")
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    if a.worker:
        return worker(a.worker)
    impls = [i for i in a.impls.split(",") if available(i)]
    best = {}
    for _ in range(a.rounds):
        for impl in impls:
            env = impl_env(impl)
            with tempfile.TemporaryDirectory(prefix="rebuild-cache-") as cache:
                env["FERROCL_CACHE_DIR"] = cache
                out = subprocess.run([sys.executable, __file__, "--worker", impl], env=env,
                                     stdout=subprocess.PIPE, text=True, timeout=600).stdout
            for line in out.splitlines():
                if line.startswith("{"):
                    rec = json.loads(line)
                    b = best.setdefault(impl, rec)
                    for k, v in rec.items():
                        if k.endswith("_ms"):
                            b[k] = min(b[k], v)
    cols = ["cold_build_ms", "cold_first_ms", "edited_build_ms", "edited_first_ms"]
    print("| implementation | cold build ms | cold build + first launches ms | "
          "rebuild after the edit ms | rebuild + first launches ms |")
    print("|---|---|---|---|---|")
    for impl, rec in best.items():
        print(f"| {impl} | " + " | ".join(f"{rec[c]:.0f}" for c in cols) + " |")
    for impl, rec in best.items():
        if "edited_note" in rec:
            print(f"# {impl}: {rec['edited_note']}")


if __name__ == "__main__":
    main()
