"""SHOC, OpenCL level 1 (https://github.com/vetter/shoc, commit
0aea03beba2f09fcb5935cc11737372fe4de9ec0, src/opencl/level1/*; BSD 3-clause,
kernels/shoc/LICENSE): single precision (-DSINGLE_PRECISION, as the host
passes it), one launch per case, with the local sizes of SHOC's host code.

    reduction  reduction.cl reduce        2 Mi floats (SHOC size 2: 8 MiB),
                                          64 groups of 256, data i % 3
    scan       scan.cl reduce, bottom_scan 2 Mi floats, 64 groups of 256, data
                                          i % 3; bottom_scan gets the top-level
                                          sums (reduce + top_scan) from the host
    md         md.cl compute_lj_force     12288 atoms (SHOC size 1), 128
                                          nearest neighbours, groups of 128
    stencil2d  stencil2d.cl StencilKernel 1024x1024 (SHOC size 2) + halo,
                                          LROWS 8, groups of 1x256, rows
                                          padded to 16 floats
    spmv       spmv.cl csr scalar/vector  16384 rows (SHOC size 4), 1% non-zero,
                                          groups of 128, vecWidth 32
    triad      Triad.cpp's kernel         4 Mi floats (SHOC's largest block,
                                          16 MiB), groups of 128, s = 1.75

Sizes are SHOC's own (or scaled down where noted) so that one launch takes
roughly 2-100 ms on a 2-core x86 machine under PoCL. The kernels are
unchanged but for one `volatile` in scan.cl's bottom_scan (see the file's
header: without it PoCL 3.1 gives wrong results); Triad's kernel was taken
out of its C string.
"""

import numpy as np

from corpus import Case, In, InOut, Local, Out, close

SP = {"SINGLE_PRECISION": 1}

# ---------------------------------------------------------------- reduction
RED_N = 2 << 20
RED_LS = 256
RED_G = 64


def pattern(n):
    return (np.arange(n) % 3).astype(np.float32)  # SHOC: h_idata[i] = i % 3


def reduction_setup(rng):
    return [In(pattern(RED_N)), Out((RED_G,), np.float32), Local(4 * RED_LS), np.uint32(RED_N)]


def reduction_check(args, out, launch):
    x = args[0].data.astype(np.float64)
    want = x.reshape(-1, RED_G, 2 * RED_LS).sum(axis=(0, 2))
    close(out[1], want, rtol=1e-6, atol=0, what="partial sums")


# ---------------------------------------------------------------- scan
SC_N = 2 << 20
SC_LS = 256
SC_G = 64


def scan_setup(rng):
    x = pattern(SC_N)
    region = (SC_N // 4 // SC_G) * 4
    sums = x.astype(np.float64).reshape(SC_G, region).sum(axis=1)
    isums = np.concatenate([[0.0], np.cumsum(sums)[:-1]]).astype(np.float32)
    return [In(x), In(isums), Out((SC_N,), np.float32), np.int32(SC_N), Local(4 * 2 * SC_LS)]


def scan_reduce_setup(rng):
    return [In(pattern(SC_N)), Out((SC_G,), np.float32), np.int32(SC_N), Local(4 * SC_LS)]


def scan_reduce_check(args, out, launch):
    want = args[0].data.astype(np.float64).reshape(SC_G, -1).sum(axis=1)
    close(out[1], want, rtol=1e-6, atol=0, what="isums")


def scan_check(args, out, launch):
    want = np.cumsum(args[0].data.astype(np.float64))
    close(out[2], want, rtol=1e-6, atol=0, what="scan")  # sums of small integers: exact in float


# ---------------------------------------------------------------- md
MD_N = 12288
MD_NB = 128
MD_CUTSQ, MD_LJ1, MD_LJ2, MD_EDGE = 16.0, 1.5, 2.0, 20.0


def md_setup(rng):
    pos = np.zeros((MD_N, 4), np.float32)
    pos[:, :3] = rng.random((MD_N, 3)) * MD_EDGE
    p = pos[:, :3].astype(np.float64)
    neigh = np.empty((MD_NB, MD_N), np.int32)  # neighList[j*inum + i]
    sq = (p * p).sum(axis=1)
    for s in range(0, MD_N, 1024):
        d = sq[s:s + 1024, None] + sq[None, :] - 2 * p[s:s + 1024] @ p.T
        d[np.arange(d.shape[0]), np.arange(s, s + d.shape[0])] = np.inf  # not itself
        neigh[:, s:s + 1024] = np.argpartition(d, MD_NB, axis=1)[:, :MD_NB].T
    return [Out((MD_N, 4), np.float32), In(pos), np.int32(MD_NB), In(neigh),
            np.float32(MD_CUTSQ), np.float32(MD_LJ1), np.float32(MD_LJ2), np.int32(MD_N)]


def md_check(args, out, launch):
    p = args[1].data[:, :3].astype(np.float64)
    nl = args[3].data.T  # [atom, neighbour]
    dl = p[:, None, :] - p[nl]
    r2 = (dl * dl).sum(axis=2)
    inside = r2 < MD_CUTSQ
    r2inv = np.where(inside, 1.0 / r2, 0.0)
    r6 = r2inv ** 3
    fc = r2inv * r6 * (MD_LJ1 * r6 - MD_LJ2)
    want = np.zeros((MD_N, 4))
    want[:, :3] = (dl * fc[:, :, None]).sum(axis=1)
    scale = np.zeros((MD_N, 4))
    scale[:, :3] = np.abs(dl * fc[:, :, None]).sum(axis=1)
    assert inside.mean() > 0.5, "neighbour list mostly outside the cutoff"
    close(out[0], want, rtol=1e-4, atol=1e-5 * scale + 1e-6, what="force")


# ---------------------------------------------------------------- stencil2d
ST_R = ST_C = 1024
ST_LROWS = 8
ST_LCOLS = 256
ST_ALIGN = 16
ST_PC = -(-(ST_C + 2) // ST_ALIGN) * ST_ALIGN  # padded columns
ST_W = (0.25, 0.15, 0.05)


def stencil_setup(rng):
    data = np.zeros((ST_R + 2, ST_PC), np.float32)
    data[1:-1, 1:ST_C + 1] = rng.random((ST_R, ST_C), dtype=np.float32)  # halo 0.0 (SHOC's haloVal)
    return [In(data), Out(data.shape, np.float32, init=data.copy()), np.int32(ST_ALIGN),
            np.float32(ST_W[0]), np.float32(ST_W[1]), np.float32(ST_W[2]),
            Local(4 * (ST_LROWS + 2) * (ST_LCOLS + 2))]


def stencil_check(args, out, launch):
    d = args[0].data.astype(np.float64)
    want = d.copy()
    a = d[:, :ST_C + 2]
    c = a[1:-1, 1:-1]
    card = a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:]
    diag = a[:-2, :-2] + a[:-2, 2:] + a[2:, :-2] + a[2:, 2:]
    want[1:-1, 1:ST_C + 1] = ST_W[0] * c + ST_W[1] * card + ST_W[2] * diag
    close(out[1], want, rtol=1e-5, atol=1e-6, what="newData")


# ---------------------------------------------------------------- spmv
SPMV_ROWS = 16384
SPMV_NNZ = SPMV_ROWS * SPMV_ROWS // 100  # SHOC: 1% of entries non-zero
SPMV_LS = 128
SPMV_VW = 32


def spmv_args(rng, vector):
    rows = np.sort(rng.integers(0, SPMV_ROWS, SPMV_NNZ))
    delim = np.searchsorted(rows, np.arange(SPMV_ROWS + 1)).astype(np.int32)
    cols = rng.integers(0, SPMV_ROWS, SPMV_NNZ).astype(np.int32)
    val = rng.random(SPMV_NNZ, dtype=np.float32)
    vec = rng.random(SPMV_ROWS, dtype=np.float32)
    a = [In(val), In(vec), In(cols), In(delim), np.int32(SPMV_ROWS)]
    if vector:
        a.append(np.int32(SPMV_VW))
    return a + [Out((SPMV_ROWS,), np.float32)]


def spmv_check(args, out, launch):
    val = args[0].data.astype(np.float64)
    vec = args[1].data.astype(np.float64)
    cols, delim = args[2].data, args[3].data
    rows = np.repeat(np.arange(SPMV_ROWS), np.diff(delim))
    want = np.bincount(rows, weights=val * vec[cols], minlength=SPMV_ROWS)
    oi = len(args) - 1
    close(out[oi], want, rtol=1e-5, atol=1e-5, what="out")


# ---------------------------------------------------------------- triad
TR_N = 4 << 20


def triad_setup(rng):
    a = (rng.random(TR_N) * 10).astype(np.float32)  # SHOC: drand48()*10
    b = (rng.random(TR_N) * 10).astype(np.float32)
    return [In(a), In(b), Out((TR_N,), np.float32), np.float32(1.75)]


def triad_check(args, out, launch):
    want = args[0].data.astype(np.float64) + 1.75 * args[1].data.astype(np.float64)
    close(out[2], want, rtol=1e-6, atol=1e-6, what="memC")


CASES = [
    Case("shoc/reduction", "shoc/reduction.cl", "reduce", reduction_setup, (RED_LS * RED_G,), (RED_LS,),
         reduction_check, defines=SP, work=(RED_N * 4, "B")),
    Case("shoc/scan_reduce", "shoc/scan.cl", "reduce", scan_reduce_setup, (SC_LS * SC_G,), (SC_LS,),
         scan_reduce_check, defines=SP, work=(SC_N * 4, "B")),
    Case("shoc/scan_bottom", "shoc/scan.cl", "bottom_scan", scan_setup, (SC_LS * SC_G,), (SC_LS,),
         scan_check, defines=SP, work=(SC_N * 8, "B")),
    Case("shoc/md_lj", "shoc/md.cl", "compute_lj_force", md_setup, (MD_N,), (128,), md_check, defines=SP,
         work=(MD_N * MD_NB, "pair")),
    Case("shoc/stencil2d", "shoc/stencil2d.cl", "StencilKernel", stencil_setup,
         (ST_R // ST_LROWS, ST_C), (1, ST_LCOLS), stencil_check, defines={**SP, "LROWS": ST_LROWS},
         work=(ST_R * ST_C * 11, "FLOP")),
    Case("shoc/spmv_csr_scalar", "shoc/spmv.cl", "spmv_csr_scalar_kernel", lambda rng: spmv_args(rng, False),
         (SPMV_ROWS,), (SPMV_LS,), spmv_check, defines=SP, work=(2 * SPMV_NNZ, "FLOP")),
    Case("shoc/spmv_csr_vector", "shoc/spmv.cl", "spmv_csr_vector_kernel", lambda rng: spmv_args(rng, True),
         (SPMV_ROWS * SPMV_VW,), (SPMV_LS,), spmv_check, defines=SP, work=(2 * SPMV_NNZ, "FLOP")),
    Case("shoc/triad", "shoc/triad.cl", "Triad", triad_setup, (TR_N,), (128,), triad_check,
         work=(TR_N * 12, "B")),
]
