"""Kernels that PyOpenCL (https://github.com/inducer/pyopencl, MIT licence)
generates, captured verbatim from pyopencl 2026.1.4 on PoCL (its CPU
device's work-group sizes are baked into the reduction and scan sources):
wrapping cl.Program(ctx, src) to save src, then running

  ElementwiseKernel(ctx, "float a, float *x, float b, float *y, float *z",
                    "z[i] = a*x[i] + b*y[i]", "lin_comb")
  ElementwiseKernel(ctx, "float *x, float *y",
                    "y[i] = exp(-x[i]*x[i]) * sin(3*x[i])", "gauss_sin")
  ReductionKernel(ctx, np.float32, neutral="0", reduce_expr="a+b",
                  map_expr="x[i]*y[i]",
                  arguments="__global float *x, __global float *y")
  InclusiveScanKernel(ctx, np.int32, "a+b", neutral="0")

on arrays of n = 1 Mi (elementwise) and 4 Mi (reduction, scan) elements. Each case is one launch with the global
and local sizes and scalar arguments PyOpenCL passed for that n (recorded by
wrapping Kernel.__call__): elementwise (8192,)/(128,) looping over n;
reduction stage 1 (1 Mi,)/(1024,) with seq_count 4, writing 1024 per-group
partial sums; stage 2 (1024,)/(1024,) summing those 1024 partials; scan
level 1 6 groups of 16 (interval 700416), writing per-interval inclusive
scans and per-interval totals. These n keep one launch in the 2-100 ms
range on a 2-core x86 machine under PoCL (the scan's stage 2 and final
update, and the reduction's stage 2 at this size, are far below it; stage 2
is kept as a launch-overhead case).

The reduction sources #include <pyopencl-complex.h>, which PyOpenCL finds
with -I <pyopencl>/cl; the header is copied into kernels/pyopencl/.
"""

import os

import numpy as np

from corpus import KERNELS, Case, In, Out, close

N = 4 * 1024 * 1024
NE = 1024 * 1024  # elementwise cases: PyOpenCL launches the same (8192,)/(128,) for it
I64 = np.int64
INC = "-I " + os.path.join(KERNELS, "pyopencl")


def lin_setup(rng):
    x = rng.random(NE, dtype=np.float32)
    y = rng.random(NE, dtype=np.float32)
    return [np.float32(2.0), In(x), I64(0), np.float32(3.0), In(y), I64(0), Out((NE,), np.float32), I64(0), I64(NE)]


def lin_check(args, out, launch):
    want = 2.0 * args[1].data.astype(np.float64) + 3.0 * args[4].data.astype(np.float64)
    close(out[6], want, rtol=1e-6, atol=1e-6, what="z")


def gauss_setup(rng):
    x = rng.uniform(-3, 3, NE).astype(np.float32)
    return [In(x), I64(0), Out((NE,), np.float32), I64(0), I64(NE)]


def gauss_check(args, out, launch):
    x = args[0].data.astype(np.float64)
    want = np.exp(-x * x) * np.sin(3 * x)
    close(out[2], want, rtol=1e-4, atol=1e-6, what="y")


RED_GROUP = 1024
RED_SEQ = 4
RED_GROUPS = N // (RED_GROUP * RED_SEQ)


def red1_setup(rng):
    x = rng.random(N, dtype=np.float32)
    y = rng.random(N, dtype=np.float32)
    return [Out((RED_GROUPS,), np.float32), I64(0), In(x), I64(0), In(y), I64(0),
            I64(0), I64(1), I64(N), np.uint32(RED_SEQ), I64(N)]


def red1_check(args, out, launch):
    p = args[2].data.astype(np.float64) * args[4].data.astype(np.float64)
    # group g reduces i = g*GROUP*SEQ + s*GROUP + lid: a contiguous block
    want = p.reshape(RED_GROUPS, RED_GROUP * RED_SEQ).sum(1)
    close(out[0], want, rtol=1e-5, atol=1e-5, what="per-group partial sums")


def red2_setup(rng):
    partial = rng.uniform(900, 1100, RED_GROUPS).astype(np.float32)
    dummy = np.zeros(1, np.float32)
    return [Out((1,), np.float32), I64(0), In(partial), In(dummy), I64(0), In(dummy.copy()), I64(0),
            I64(0), I64(1), I64(RED_GROUPS), np.uint32(4), I64(RED_GROUPS)]


def red2_check(args, out, launch):
    want = args[2].data.astype(np.float64).sum(keepdims=True)
    close(out[0], want, rtol=1e-5, atol=0, what="sum of partials")


SCAN_WG = 16
SCAN_GROUPS = 6
SCAN_INTERVAL = 700416


def scan_setup(rng):
    x = rng.integers(0, 100, N, dtype=np.int32)
    return [In(x), Out((1,), np.int32), Out((N,), np.int32), np.int32(N), np.int32(SCAN_INTERVAL),
            Out((SCAN_GROUPS,), np.int32)]


def scan_check(args, out, launch):
    x = args[0].data.astype(np.int64)
    want = np.empty(N, np.int64)
    totals = np.empty(SCAN_GROUPS, np.int64)
    for g in range(SCAN_GROUPS):
        a, b = g * SCAN_INTERVAL, min((g + 1) * SCAN_INTERVAL, N)
        want[a:b] = np.cumsum(x[a:b])
        totals[g] = want[b - 1]
    close(out[2], want.astype(np.int32), what="partial_scan_buffer (per-interval inclusive scan)")
    close(out[5], totals.astype(np.int32), what="interval_results")


CASES = [
    Case(name="pyopencl/elementwise_lin_comb", source="pyopencl/elementwise_lin_comb.cl", kernel="lin_comb",
         setup=lin_setup, global_size=(8192,), local_size=(128,), check=lin_check, work=(12 * NE, "B")),
    Case(name="pyopencl/elementwise_exp_sin", source="pyopencl/elementwise_exp_sin.cl", kernel="gauss_sin",
         setup=gauss_setup, global_size=(8192,), local_size=(128,), check=gauss_check, work=(NE, "elem")),
    Case(name="pyopencl/reduction_dot_stage1", source="pyopencl/reduction_dot_stage1.cl", kernel="reduce_kernel_stage1",
         setup=red1_setup, global_size=(RED_GROUPS * RED_GROUP,), local_size=(RED_GROUP,), check=red1_check,
         options=INC, work=(8 * N, "B")),
    Case(name="pyopencl/reduction_dot_stage2", source="pyopencl/reduction_dot_stage2.cl", kernel="reduce_kernel_stage2",
         setup=red2_setup, global_size=(RED_GROUP,), local_size=(RED_GROUP,), check=red2_check, options=INC),
    Case(name="pyopencl/scan_inclusive_lev1", source="pyopencl/scan_inclusive_lev1.cl", kernel="scan_lev1",
         setup=scan_setup, global_size=(SCAN_GROUPS * SCAN_WG,), local_size=(SCAN_WG,), check=scan_check,
         work=(4 * N, "B")),
]
