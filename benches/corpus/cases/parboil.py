"""Parboil, OpenCL base versions (https://github.com/abduld/Parboil, commit
a4c63da28f45699e9a274cbc49af3e067162aa2b, benchmarks/*/src/opencl_base/),
University of Illinois/NCSA licence (kernels/parboil/LICENSE).

Local sizes are the host programs'; data is random instead of the suite's
input files, sized so that one launch takes a few to ~100 ms on two x86
cores under PoCL:
  sgemm   mysgemmNT, 32x32 work-groups (TILE_SZ), m=n=256, k=512 instead of the
          medium dataset's 1024x992x1056; alpha=1, beta=0 as main.cc passes
  stencil naive_kernel, one time step of the 7-point stencil, 256x1x1
          work-groups, the default dataset's 512x512x64 grid
  mri-q   ComputeQ_GPU, one launch of the host's loop over K tiles (1024
          K values each), 256 work-items a group; numX=2048 (the small
          dataset has 32768), numK=2560 and the last, partial tile
          (kGlobalIndex=2048: 512 of the 1024 K values in use, the rest NaN)
  spmv    spmv_jds_naive, a random 131072-row matrix with 1..48 non-zeros a
          row (about 3.2 M, like the large dataset) in JDS form built as
          coo_to_jds does it (rows sorted by length, warp-size 32 padding);
          work-groups of 192 as compute_active_thread gives for a large
          matrix
  cutcp   opencl_cutoff_potential_lattice, one launch of the host's loop over
          z region planes (zRegionIndex=1), 8x8x2 work-groups, the suite's
          h=0.5 and cutoff=12; a 64x64x24 lattice (the small dataset's is
          larger) and ~3 random atoms per 4 A bin, at most BIN_DEPTH=8 a bin
          (cutoff.c hands the overflow to the CPU; here it is dropped)
"""

import numpy as np

from corpus import Case, In, InOut, Out, close

F32 = np.float32


def ceil_to(n, l):
    return (n + l - 1) // l * l


# --- sgemm --------------------------------------------------------------------
SG_M = SG_N = 256
SG_K = 512


def sgemm_setup(rng):
    m, n, k = SG_M, SG_N, SG_K
    a = rng.random((k, m), dtype=F32) - F32(0.5)  # column-major m x k: A[m + i*lda]
    b = rng.random((k, n), dtype=F32) - F32(0.5)  # B^T, column-major: B[n + i*ldb]
    return [In(a), np.int32(m), In(b), np.int32(n), Out((n, m), F32), np.int32(m), np.int32(k),
            F32(1.0), F32(0.0)]


def sgemm_check(args, out, launch):
    a, b = args[0].data.astype(np.float64), args[2].data.astype(np.float64)
    close(out[4], b.T @ a, rtol=1e-3, atol=1e-4, what="C")


# --- stencil ------------------------------------------------------------------
ST_NX, ST_NY, ST_NZ = 512, 512, 64
C0, C1 = F32(1.0 / 6.0), F32(1.0 / 6.0 / 6.0)


def stencil_setup(rng):
    shape = (ST_NZ, ST_NY, ST_NX)  # Index3D(i, j, k) = i + nx*(j + ny*k)
    return [C0, C1, In(rng.random(shape, dtype=F32)), Out(shape, F32, np.full(shape, -1, F32)),
            np.int32(ST_NX), np.int32(ST_NY), np.int32(ST_NZ)]


def stencil_check(args, out, launch):
    a = args[2].data.astype(np.float64)
    want = np.full(a.shape, -1.0)
    c = a[1:-1, 1:-1, 1:-1]
    want[1:-1, 1:-1, 1:-1] = float(C1) * (
        a[2:, 1:-1, 1:-1] + a[:-2, 1:-1, 1:-1] + a[1:-1, 2:, 1:-1] + a[1:-1, :-2, 1:-1]
        + a[1:-1, 1:-1, 2:] + a[1:-1, 1:-1, :-2]) - c * float(C0)
    close(out[3], want, rtol=1e-5, atol=1e-6, what="Anext")


# --- mri-q --------------------------------------------------------------------
MQ_X, MQ_K, MQ_BASE, MQ_TILE = 2048, 2560, 2048, 1024


def mriq_setup(rng):
    nx = MQ_X
    x, y, z = (rng.random(nx, dtype=F32) - F32(0.5) for _ in range(3))
    ck = np.full((MQ_TILE, 4), np.nan, F32)  # struct kValues {Kx, Ky, Kz, PhiMag}
    used = MQ_K - MQ_BASE
    ck[:used, :3] = rng.random((used, 3), dtype=F32) * F32(16) - F32(8)
    ck[:used, 3] = rng.random(used, dtype=F32)
    qr, qi = rng.random(nx, dtype=F32), rng.random(nx, dtype=F32)  # the earlier tiles' sums
    return [np.int32(MQ_K), np.int32(MQ_BASE), In(x), In(y), In(z), InOut(qr), InOut(qi), In(ck)]


def mriq_check(args, out, launch):
    x, y, z, qr, qi = (args[i].data.astype(np.float64) for i in (2, 3, 4, 5, 6))
    ck = args[7].data[: MQ_K - MQ_BASE].astype(np.float64)
    arg = 2 * np.pi * (np.outer(x, ck[:, 0]) + np.outer(y, ck[:, 1]) + np.outer(z, ck[:, 2]))
    close(out[5], qr + np.cos(arg) @ ck[:, 3], rtol=1e-3, atol=1e-3, what="Qr")
    close(out[6], qi + np.sin(arg) @ ck[:, 3], rtol=1e-3, atol=1e-3, what="Qi")


# --- spmv (JDS) ---------------------------------------------------------------
SP_DIM, SP_MAXNZ, SP_WARP, SP_BLOCK = 131072, 48, 32, 192


def spmv_setup(rng):
    dim = SP_DIM
    counts = rng.integers(1, SP_MAXNZ + 1, dim)
    perm = np.argsort(-counts, kind="stable").astype(np.int32)  # row perm[ix] at position ix
    sc = counts[perm]
    zcnt = sc.reshape(-1, SP_WARP).max(axis=1).astype(np.int32)  # per warp: its longest row
    depth = int(zcnt.max())
    # Diagonal k holds one entry for each row of each warp with zcnt > k.
    lens = np.array([SP_WARP * np.count_nonzero(zcnt > k) for k in range(depth)])
    ptr = np.concatenate([[0], np.cumsum(lens)[:-1]]).astype(np.int32)
    total = int(lens.sum())
    data = np.zeros(total, F32)
    index = np.zeros(total, np.int32)
    cols, vals = [], []
    for k in range(depth):
        n = lens[k]
        has = sc[:n] > k  # padding entries stay 0 * x[0]
        c = rng.integers(0, dim, n).astype(np.int32)
        v = (rng.random(n, dtype=F32) - F32(0.5)) * has
        index[ptr[k]:ptr[k] + n] = np.where(has, c, 0)
        data[ptr[k]:ptr[k] + n] = v
    x = rng.random(dim, dtype=F32)
    return [Out((dim,), F32, np.full(dim, np.nan, F32)), In(data), In(index), In(perm), In(x),
            np.int32(dim), In(ptr), In(zcnt)]


def spmv_check(args, out, launch):
    dim = SP_DIM
    data, index, perm = args[1].data.astype(np.float64), args[2].data, args[3].data
    x, ptr, zcnt = args[4].data.astype(np.float64), args[6].data, args[7].data
    acc = np.zeros(dim)
    for k in range(len(ptr)):
        n = SP_WARP * np.count_nonzero(zcnt > k)
        sl = slice(ptr[k], ptr[k] + n)
        acc[:n] += data[sl] * x[index[sl]]
    want = np.empty(dim)
    want[perm] = acc
    close(out[0], want, rtol=1e-4, atol=1e-5, what="y")


# --- cutcp --------------------------------------------------------------------
CP_H, CP_CUTOFF, CP_BINLEN, CP_DEPTH = np.float32(0.5), np.float32(12.0), 4.0, 8
CP_NX, CP_NY, CP_NZ, CP_ZREGION = 64, 64, 24, 1


def cutcp_geometry():
    c = int(np.ceil(CP_CUTOFF / CP_BINLEN))
    bdim = [int(np.ceil(n * CP_H / CP_BINLEN)) + 2 * c for n in (CP_NX, CP_NY, CP_NZ)]
    # cutoff.c's neighbour list (its 8h == BIN_LENGTH branch)
    r2 = (CP_CUTOFF + np.sqrt(np.float32(3)) * CP_BINLEN) ** 2
    nbr = [(i, j, k, 0) for k in range(-c, c + 1) for j in range(-c, c + 1) for i in range(-c, c + 1)
           if (i * i + j * j + k * k) * CP_BINLEN * CP_BINLEN < r2]
    return c, bdim, np.array(nbr, np.int32)


def cutcp_setup(rng):
    c, (bx, by, bz), nbr = cutcp_geometry()
    nbins = bx * by * bz
    natoms = 3 * nbins
    lo = -c * CP_BINLEN
    pos = np.stack([rng.uniform(lo, (d - c) * CP_BINLEN, natoms) for d in (bx, by, bz)], 1).astype(F32)
    q = (rng.uniform(0.1, 1.0, natoms) * rng.choice([-1, 1], natoms)).astype(F32)
    ijk = np.floor(pos * F32(1.0 / CP_BINLEN)).astype(np.int64) + c
    ijk = np.clip(ijk, 0, np.array([bx, by, bz]) - 1)
    b = (ijk[:, 2] * by + ijk[:, 1]) * bx + ijk[:, 0]
    order = np.argsort(b, kind="stable")
    b, pos, q = b[order], pos[order], q[order]
    slot = np.arange(natoms) - np.searchsorted(b, b)  # rank within its bin
    keep = slot < CP_DEPTH
    bins = np.zeros((nbins * CP_DEPTH, 4), F32)
    where = b[keep] * CP_DEPTH + slot[keep]
    bins[where, :3] = pos[keep]
    bins[where, 3] = q[keep]
    offset = ((c * by + c) * bx + c) * CP_DEPTH
    lnall = CP_NX * CP_NY * CP_NZ
    return [np.int32(bx), np.int32(by), In(bins), np.int32(offset), CP_H, F32(CP_CUTOFF * CP_CUTOFF),
            F32(1.0) / F32(CP_CUTOFF * CP_CUTOFF), Out((lnall,), F32, np.full(lnall, np.nan, F32)),
            np.int32(CP_ZREGION), In(np.array([len(nbr)], np.int32)), In(nbr)]


def cutcp_check(args, out, launch):
    c, (bx, by, bz), nbr = cutcp_geometry()
    bins = args[2].data.astype(np.float64).reshape(bz, by, bx, CP_DEPTH, 4)
    h, cut2 = float(CP_H), float(args[5])
    xrd, yrd = CP_NX // 8, CP_NY // 8
    want = np.full((CP_NZ // 8, yrd, xrd, 512), np.nan)
    tol = np.zeros_like(want)
    # A region's lattice points, in its storage order (z, y, x within 8^3).
    zz, yy, xx = np.meshgrid(np.arange(8), np.arange(8), np.arange(8), indexing="ij")
    local = np.stack([xx.ravel(), yy.ravel(), zz.ravel()], 1).astype(np.float64)
    rz = CP_ZREGION
    for ry in range(yrd):
        for rx in range(xrd):
            B = np.floor((8 * np.array([rx, ry, rz]) + 4) * h / CP_BINLEN).astype(int)
            idx = B + nbr[:, :3] + c
            atoms = bins[idx[:, 2], idx[:, 1], idx[:, 0]].reshape(-1, 4)
            atoms = atoms[atoms[:, 3] != 0]
            pts = (local + 8 * np.array([rx, ry, rz])) * h
            d = pts[:, None, :] - atoms[None, :, :3]
            r2 = (d * d).sum(-1)
            s = np.where(r2 < cut2, 1 - r2 / cut2, 0.0)
            terms = atoms[None, :, 3] / np.sqrt(np.where(r2 > 0, r2, 1)) * s * s
            want[rz, ry, rx] = terms.sum(1)
            tol[rz, ry, rx] = np.abs(terms).sum(1)
    close(out[7], want.ravel(), rtol=1e-4, atol=1e-4 * tol.ravel() + 1e-6, what="lattice")


CASES = [
    Case(name="parboil/sgemm", source="parboil/sgemm.cl", kernel="mysgemmNT", setup=sgemm_setup,
         global_size=(SG_M, SG_N), local_size=(32, 32), check=sgemm_check,
         work=(2 * SG_M * SG_N * SG_K, "FLOP")),
    Case(name="parboil/stencil", source="parboil/stencil.cl", kernel="naive_kernel", setup=stencil_setup,
         global_size=(ceil_to(ST_NX - 2, 256), ST_NY - 2, ST_NZ - 2), local_size=(256, 1, 1),
         check=stencil_check, work=(ST_NX * ST_NY * ST_NZ, "cell")),
    Case(name="parboil/mri-q", source="parboil/mri-q.cl", kernel="ComputeQ_GPU", setup=mriq_setup,
         global_size=(ceil_to(MQ_X, 256),), local_size=(256,), check=mriq_check),
    Case(name="parboil/spmv", source="parboil/spmv.cl", kernel="spmv_jds_naive", setup=spmv_setup,
         global_size=(ceil_to(SP_DIM, SP_BLOCK),), local_size=(SP_BLOCK,), check=spmv_check),
    Case(name="parboil/cutcp", source="parboil/cutcp.cl", kernel="opencl_cutoff_potential_lattice",
         setup=cutcp_setup, global_size=(4 * (CP_NX // 8) * 8, (CP_NY // 8) * 8, 2), local_size=(8, 8, 2),
         check=cutcp_check),
]
