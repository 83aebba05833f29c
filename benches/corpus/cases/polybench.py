"""PolyBench/GPU 1.0, OpenCL version (https://github.com/sgrauerg/polybenchGpu,
commit 5584aaa7d0be810ff5eb0b61c49fb64ecc81ba4c, OpenCL/*/): linear algebra
(gemm, 2mm, atax, bicg, gesummv, mvt, syrk), data mining (correlation),
stencils (fdtd-2d, 2D and 3D convolution). The kernel files are unchanged;
the repository has no licence file, so kernels/polybench/LICENSE carries the
copyright notice of its README.

Local sizes are the suite's (DIM_LOCAL_WORK_GROUP_X/Y of each header: 32x8
for the 2-D kernels; 32 for atax and mvt, which launch in 1-D with X; 256
for bicg, gesummv and correlation's corr_kernel), global sizes are its
ceil-to-the-local-size. Problem sizes, scaled so that one launch takes a few
to ~100 ms on two x86 cores under PoCL:
  gemm       NI=NJ=NK=512 (the suite's own size)
  2mm        NI=NJ=NK=NL=512 instead of 2048; mm2_kernel2 (D = beta*D + tmp*C)
             with tmp = alpha*A*B computed on the host
  atax       NX=NY=4096 (the suite's); atax_kernel1 (tmp += A x, row per item)
  bicg       NX=NY=4096 (the suite's); bicgKernel2 (s = A^T r, column per item)
  gesummv    N=4096 (the suite's)
  mvt        N=4096 (the suite's); mvt_kernel2 (x2 += A^T y2)
  syrk       NI=NJ=512 instead of 1024
  correlation M=N=512 instead of 2048; corr_kernel (the O(M^2 N) one) on data
             normalised on the host the way mean/std/reduce_kernel do it
  fdtd2d     NX=NY=2048 (the suite's); fdtd_kernel3 (the hz update), one step
  2DCONV     NI=NJ=2048 (the suite's)
  3DCONV     one launch is one i-slice (the suite launches NI-2 of them); the
             slice is 2048x2048 instead of 256x256 so that a launch is
             measurable, NI=3 (the slices i-1..i+1 it reads), i=1
Scalars alpha/beta are the suite's init() values.
"""

import numpy as np

from corpus import Case, In, InOut, Out, close

F32 = np.float32


def rnd(rng, *shape):
    return rng.random(shape, dtype=F32)


def f64(a):
    return np.asarray(a, np.float64)


def ceil_to(n, l):
    return (n + l - 1) // l * l


# --- gemm -------------------------------------------------------------------
GEMM_N = 512


def gemm_setup(rng):
    n = GEMM_N
    return [In(rnd(rng, n, n)), In(rnd(rng, n, n)), InOut(rnd(rng, n, n)),
            F32(32412), F32(2123), np.int32(n), np.int32(n), np.int32(n)]


def gemm_check(args, out, launch):
    a, b, c = f64(args[0].data), f64(args[1].data), f64(args[2].data)
    want = 2123.0 * c + 32412.0 * (a @ b)
    close(out[2], want, rtol=1e-3, atol=1e-3, what="C")


# --- 2mm (mm2_kernel2) ----------------------------------------------------------
MM2_N = 512


def mm2_setup(rng):
    n = MM2_N
    a, b = rnd(rng, n, n), rnd(rng, n, n)
    tmp = (F32(32412) * (a @ b)).astype(F32)  # what mm2_kernel1 leaves
    return [In(tmp), In(rnd(rng, n, n)), InOut(rnd(rng, n, n)),
            np.int32(n), np.int32(n), np.int32(n), np.int32(n), F32(32412), F32(2123)]


def mm2_check(args, out, launch):
    tmp, c, d = f64(args[0].data), f64(args[1].data), f64(args[2].data)
    want = 2123.0 * d + tmp @ c
    close(out[2], want, rtol=1e-3, atol=1e-3, what="D")


# --- matrix-vector kernels ----------------------------------------------------
MV_N = 4096


def atax1_setup(rng):
    n = MV_N
    return [In(rnd(rng, n, n)), In(rnd(rng, n)), InOut(rnd(rng, n)), np.int32(n), np.int32(n)]


def atax1_check(args, out, launch):
    a, x, tmp = f64(args[0].data), f64(args[1].data), f64(args[2].data)
    close(out[2], tmp + a @ x, rtol=1e-4, atol=1e-4, what="tmp")


def bicg2_setup(rng):
    n = MV_N
    # s starts as NaN: the kernel must store 0 before it accumulates.
    return [In(rnd(rng, n, n)), In(rnd(rng, n)), Out((n,), F32, np.full(n, np.nan, F32)),
            np.int32(n), np.int32(n)]


def bicg2_check(args, out, launch):
    a, r = f64(args[0].data), f64(args[1].data)
    close(out[2], a.T @ r, rtol=1e-4, atol=1e-4, what="s")


def gesummv_setup(rng):
    n = MV_N
    return [In(rnd(rng, n, n)), In(rnd(rng, n, n)), In(rnd(rng, n)), Out((n,), F32), Out((n,), F32),
            F32(43532), F32(12313), np.int32(n)]


def gesummv_check(args, out, launch):
    a, b, x = f64(args[0].data), f64(args[1].data), f64(args[2].data)
    tmp = a @ x
    close(out[4], tmp, rtol=1e-4, atol=1e-4, what="tmp")
    close(out[3], 43532.0 * tmp + 12313.0 * (b @ x), rtol=1e-4, atol=1e-2, what="y")


def mvt2_setup(rng):
    n = MV_N
    return [In(rnd(rng, n, n)), InOut(rnd(rng, n)), In(rnd(rng, n)), np.int32(n)]


def mvt2_check(args, out, launch):
    a, x2, y2 = f64(args[0].data), f64(args[1].data), f64(args[2].data)
    close(out[1], x2 + a.T @ y2, rtol=1e-4, atol=1e-4, what="x2")


# --- syrk ---------------------------------------------------------------------
SYRK_N = 512


def syrk_setup(rng):
    n = SYRK_N
    return [In(rnd(rng, n, n)), InOut(rnd(rng, n, n)), F32(32412), F32(2123), np.int32(n), np.int32(n)]


def syrk_check(args, out, launch):
    a, c = f64(args[0].data), f64(args[1].data)
    close(out[1], 2123.0 * c + 32412.0 * (a @ a.T), rtol=1e-3, atol=1e-3, what="C")


# --- correlation (corr_kernel) ------------------------------------------------
CORR_M = CORR_N = 512
FLOAT_N, EPS = F32(3214212.01), F32(0.005)


def corr_setup(rng):
    m, n = CORR_M, CORR_N
    data = rnd(rng, n, m)
    # mean_kernel, std_kernel, reduce_kernel, in float32 as on the device.
    mean = (data.sum(axis=0, dtype=F32) / FLOAT_N).astype(F32)
    std = np.sqrt(((data - mean) ** 2).sum(axis=0, dtype=F32) / FLOAT_N).astype(F32)
    std[std <= EPS] = 1
    data = ((data - mean) / (np.sqrt(FLOAT_N) * std)).astype(F32)
    return [Out((m, m), F32), In(data), np.int32(m), np.int32(n)]


def corr_check(args, out, launch):
    m = CORR_M
    d = f64(args[1].data)
    full = d.T @ d
    want = np.zeros((m, m))
    iu = np.triu_indices(m, 1)
    want[iu] = full[iu]
    want = want + want.T
    want[np.arange(m - 1), np.arange(m - 1)] = 1.0  # [m-1][m-1] is the host's
    scale = np.abs(full[iu]).max()
    close(out[0], want, rtol=1e-3, atol=1e-4 * scale, what="symmat")


# --- fdtd2d (fdtd_kernel3) ----------------------------------------------------
FDTD_N = 2048


def fdtd_setup(rng):
    n = FDTD_N
    return [In(rnd(rng, n, n)), In(rnd(rng, n, n)), InOut(rnd(rng, n, n)), np.int32(n), np.int32(n)]


def fdtd_check(args, out, launch):
    ex, ey, hz = f64(args[0].data), f64(args[1].data), f64(args[2].data)
    want = hz.copy()
    want[:-1, :-1] -= 0.7 * (ex[:-1, 1:] - ex[:-1, :-1] + ey[1:, :-1] - ey[:-1, :-1])
    close(out[2], want, rtol=1e-5, atol=1e-6, what="hz")


# --- 2DCONV -------------------------------------------------------------------
CONV2_N = 2048


def conv2_setup(rng):
    n = CONV2_N
    return [In(rnd(rng, n, n)), Out((n, n), F32), np.int32(n), np.int32(n)]


def conv2_check(args, out, launch):
    a = f64(args[0].data)
    c = {(1, 1): 0.2, (2, 1): 0.5, (3, 1): -0.8, (1, 2): -0.3, (2, 2): 0.6, (3, 2): -0.9,
         (1, 3): 0.4, (2, 3): 0.7, (3, 3): 0.10}
    want = np.zeros_like(a)
    # c<x><y>: x is the column offset + 2, y the row offset + 2.
    for (x, y), w in c.items():
        di, dj = y - 2, x - 2
        want[1:-1, 1:-1] += w * a[1 + di:a.shape[0] - 1 + di, 1 + dj:a.shape[1] - 1 + dj]
    close(out[1], want, rtol=1e-4, atol=1e-5, what="B")


# --- 3DCONV (one i-slice) -----------------------------------------------------
C3_NI, C3_NJ, C3_NK, C3_I = 3, 2048, 2048, 1


def conv3_setup(rng):
    shape = (C3_NI, C3_NJ, C3_NK)
    return [In(rnd(rng, *shape)), Out(shape, F32, np.full(shape, -1, F32)),
            np.int32(C3_NI), np.int32(C3_NJ), np.int32(C3_NK), np.int32(C3_I)]


def conv3_check(args, out, launch):
    a = f64(args[0].data)
    i = C3_I
    c11, c21, c31, c12, c22, c32, c13, c23, c33 = 2, 5, -8, -3, 6, -9, 4, 7, 10

    def A(di, dj, dk):  # A[i+di][j+dj][k+dk] for the interior j, k
        return a[i + di, 1 + dj:C3_NJ - 1 + dj, 1 + dk:C3_NK - 1 + dk]

    # The kernel's expression, term for term (repeated terms included).
    inner = (c11 * A(-1, -1, -1) + c13 * A(1, -1, -1) + c21 * A(-1, -1, -1) + c23 * A(1, -1, -1)
             + c31 * A(-1, -1, -1) + c33 * A(1, -1, -1) + c12 * A(0, -1, 0) + c22 * A(0, 0, 0)
             + c32 * A(0, 1, 0) + c11 * A(-1, -1, 1) + c13 * A(1, -1, 1) + c21 * A(-1, 0, 1)
             + c23 * A(1, 0, 1) + c31 * A(-1, 1, 1) + c33 * A(1, 1, 1))
    want = np.full((C3_NI, C3_NJ, C3_NK), -1.0)
    want[i] = 0
    want[i, 1:-1, 1:-1] = inner
    close(out[1], want, rtol=1e-4, atol=1e-4, what="B")


def mk(name, source, kernel, setup, check, gsize, lsize, work=None):
    return Case(name=f"polybench/{name}", source=f"polybench/{source}", kernel=kernel, setup=setup,
                global_size=gsize, local_size=lsize, check=check, work=work)


N2 = lambda n: (ceil_to(n, 32), ceil_to(n, 8))  # noqa: E731

CASES = [
    mk("gemm", "gemm.cl", "gemm", gemm_setup, gemm_check, N2(GEMM_N), (32, 8), (2 * GEMM_N**3, "FLOP")),
    mk("2mm", "2mm.cl", "mm2_kernel2", mm2_setup, mm2_check, N2(MM2_N), (32, 8), (2 * MM2_N**3, "FLOP")),
    mk("atax", "atax.cl", "atax_kernel1", atax1_setup, atax1_check, (ceil_to(MV_N, 32),), (32,), (4 * MV_N**2, "B")),
    mk("bicg", "bicg.cl", "bicgKernel2", bicg2_setup, bicg2_check, (ceil_to(MV_N, 256),), (256,), (4 * MV_N**2, "B")),
    mk("gesummv", "gesummv.cl", "gesummv_kernel", gesummv_setup, gesummv_check, (ceil_to(MV_N, 256),), (256,),
       (8 * MV_N**2, "B")),
    mk("mvt", "mvt.cl", "mvt_kernel2", mvt2_setup, mvt2_check, (ceil_to(MV_N, 32),), (32,), (4 * MV_N**2, "B")),
    mk("syrk", "syrk.cl", "syrk_kernel", syrk_setup, syrk_check, N2(SYRK_N), (32, 8), (2 * SYRK_N**3, "FLOP")),
    mk("correlation", "correlation.cl", "corr_kernel", corr_setup, corr_check, (ceil_to(CORR_M, 256),), (256,),
       (CORR_M * (CORR_M - 1) * CORR_N, "FLOP")),
    mk("fdtd2d", "fdtd2d.cl", "fdtd_kernel3", fdtd_setup, fdtd_check, N2(FDTD_N), (32, 8)),
    mk("2dconv", "2DConvolution.cl", "Convolution2D_kernel", conv2_setup, conv2_check, N2(CONV2_N), (32, 8)),
    mk("3dconv", "3DConvolution.cl", "Convolution3D_kernel", conv3_setup, conv3_check, (C3_NK, C3_NJ), (32, 8)),
]
