"""Rodinia 3.1, OpenCL version (https://github.com/yuhc/gpu-rodinia, commit
9c10d3ea16ddba2ba057cc3951a9efc4c2cc18a4, opencl/*; University of Virginia
licence, kernels/rodinia/LICENSE): one launch of the hot kernel of eight
applications, with the work-group sizes of Rodinia's host code and inputs
computed on the host so that the launch can be checked alone.

    hotspot     hotspot_kernel.cl        1024x1024 grid, pyramid height 4 (the
                                         run script's), 16x16 groups
    pathfinder  kernels.cl               100000 columns (the run script's),
                                         pyramid height 20, 256-item groups
                                         (Rodinia asks the device for its
                                         maximum; 256 fixed here)
    nw          nw.cl nw_kernel1         4096x4096 (run script: 8192), the
                                         main anti-diagonal of 16x16 blocks
    kmeans      kmeans.cl kmeans_kernel_c 204800 points (kdd_cup: 819200),
                                         34 features, 5 clusters, groups of 256
    backprop    bpnn_layerforward_ocl    65536 inputs (run script: 4194304),
                                         16 hidden, 16x16 groups
    nn          NearestNeighbor          2 Mi records, local size NULL
    lud         lud_internal             2048x2048 (run script: 8192), offset 0,
                                         16x16 groups
    gaussian    Fan2                     2048x2048 (run script's -s 2048),
                                         t = 0, local size NULL

Sizes are scaled down where noted so that one launch takes roughly 2-100 ms
on a 2-core x86 machine under PoCL. The kernels are unchanged; BLOCK_SIZE is
passed as -DBLOCK_SIZE=16 as the host code does.
"""

import numpy as np

from corpus import Case, In, InOut, Local, Out, close

# ---------------------------------------------------------------- hotspot
HS_N = 1024
HS_PYR = 4
HS_BS = 16


def hotspot_params():
    t_chip, chip_h, chip_w = 0.0005, 0.016, 0.016
    FACTOR_CHIP, SPEC_HEAT_SI, K_SI, MAX_PD, PRECISION = 0.5, 1.75e6, 100, 3.0e6, 0.001
    gh, gw = chip_h / HS_N, chip_w / HS_N
    cap = FACTOR_CHIP * SPEC_HEAT_SI * t_chip * gw * gh
    rx = gw / (2.0 * K_SI * t_chip * gh)
    ry = gh / (2.0 * K_SI * t_chip * gw)
    rz = t_chip / (K_SI * gh * gw)
    max_slope = MAX_PD / (FACTOR_CHIP * t_chip * SPEC_HEAT_SI)
    step = PRECISION / max_slope
    return [np.float32(v) for v in (cap, rx, ry, rz, step)]


def hotspot_setup(rng):
    power = (rng.random((HS_N, HS_N)) * 0.01).astype(np.float32)
    temp = (323.0 + rng.random((HS_N, HS_N)) * 20.0).astype(np.float32)
    border = HS_PYR * 2 // 2
    return [np.int32(HS_PYR), In(power), In(temp), Out((HS_N, HS_N), np.float32),
            np.int32(HS_N), np.int32(HS_N), np.int32(border), np.int32(border)] + hotspot_params()


def hotspot_check(args, out, launch):
    power = args[1].data.astype(np.float64)
    t = args[2].data.astype(np.float64)
    cap, rx, ry, rz, step = [float(v) for v in args[8:13]]
    sdc = step / cap
    for _ in range(HS_PYR):
        p = np.pad(t, 1, mode="edge")
        n, s, w, e = p[:-2, 1:-1], p[2:, 1:-1], p[1:-1, :-2], p[1:-1, 2:]
        t = t + sdc * (power + (s + n - 2 * t) / ry + (e + w - 2 * t) / rx + (80.0 - t) / rz)
    close(out[3], t, rtol=1e-5, atol=1e-3, what="temp_dst")


HS_SMALL = HS_BS - HS_PYR * 2
HS_BLOCKS = -(-HS_N // HS_SMALL)

# ---------------------------------------------------------------- pathfinder
PF_COLS = 100000
PF_PYR = 20
PF_LS = 256
PF_BLOCKS = -(-PF_COLS // (PF_LS - PF_PYR * 2))


def pathfinder_setup(rng):
    wall = rng.integers(0, 10, (PF_PYR + 1, PF_COLS)).astype(np.int32)  # Rodinia: rand() % 10
    return [np.int32(PF_PYR), In(wall[1:].copy()), In(wall[0].copy()), Out((PF_COLS,), np.int32),
            np.int32(PF_COLS), np.int32(PF_PYR + 1), np.int32(0), np.int32(PF_PYR), np.int32(1),
            Local(4 * PF_LS), Local(4 * PF_LS), Out((16384,), np.int32)]


def pathfinder_check(args, out, launch):
    wall = args[1].data
    prev = args[2].data.astype(np.int64)
    for i in range(PF_PYR):
        p = np.pad(prev, 1, mode="edge")
        prev = np.minimum(np.minimum(p[:-2], p[1:-1]), p[2:]) + wall[i]
    close(out[3], prev.astype(np.int32), what="gpuResults")


# ---------------------------------------------------------------- nw
NW_N = 4096  # max_rows - 1
NW_BS = 16
NW_BW = NW_N // NW_BS  # block_width; the launch is the diagonal blk = block_width
NW_PEN = 10


def nw_setup(rng):
    cols = NW_N + 1
    # BLOSUM62 scores of random residue pairs lie in -4..11.
    ref = rng.integers(-4, 12, (cols, cols)).astype(np.int32)
    # Scores as an earlier pass leaves them: the blocks above the diagonal
    # hold computed values; any values will do as the diagonal blocks' borders.
    items = rng.integers(-2000, 2000, (cols, cols)).astype(np.int32)
    items[0, :] = -NW_PEN * np.arange(cols)
    items[:, 0] = -NW_PEN * np.arange(cols)
    return [In(ref), InOut(items), Out((1,), np.int32), Local(4 * (NW_BS + 1) * (NW_BS + 1)),
            Local(4 * NW_BS * NW_BS), np.int32(cols), np.int32(NW_PEN), np.int32(NW_BW),
            np.int32(NW_BW), np.int32(NW_BW * NW_BS), np.int32(0), np.int32(0)]


def nw_check(args, out, launch):
    ref = args[0].data
    want = args[1].data.astype(np.int64).copy()
    bx = np.arange(NW_BW)
    by = NW_BW - 1 - bx
    r0, c0 = by * NW_BS, bx * NW_BS  # each block's north-west corner
    for i in range(1, NW_BS + 1):
        for j in range(1, NW_BS + 1):
            r, c = r0 + i, c0 + j
            want[r, c] = np.maximum(np.maximum(want[r - 1, c - 1] + ref[r, c], want[r, c - 1] - NW_PEN),
                                    want[r - 1, c] - NW_PEN)
    close(out[1], want.astype(np.int32), what="input_itemsets")


# ---------------------------------------------------------------- kmeans
KM_N = 204800
KM_F = 34
KM_K = 5


def kmeans_setup(rng):
    feat = rng.random((KM_F, KM_N), dtype=np.float32)  # kmeans_swap's layout: [feature][point]
    clusters = feat[:, rng.choice(KM_N, KM_K, replace=False)].T.copy()
    clusters += rng.normal(0, 0.05, clusters.shape).astype(np.float32)
    return [In(feat), In(clusters), Out((KM_N,), np.int32), np.int32(KM_N), np.int32(KM_K),
            np.int32(KM_F), np.int32(0), np.int32(0)]


def kmeans_check(args, out, launch):
    f = args[0].data.astype(np.float64)
    c = args[1].data.astype(np.float64)
    d = ((f.T[:, None, :] - c[None, :, :]) ** 2).sum(axis=2)
    want = d.argmin(axis=1)
    got = out[2]
    assert got.min() >= 0 and got.max() < KM_K, "membership out of range"
    bad = np.nonzero(got != want)[0]
    # Allow only float ties: the chosen centre's distance must equal the best's.
    dg = d[bad, got[bad]]
    db = d[bad, want[bad]]
    ok = np.abs(dg - db) <= 1e-5 * db
    assert ok.all(), f"membership: {np.count_nonzero(~ok)} of {KM_N} wrong, first at {bad[~ok][0]}"


# ---------------------------------------------------------------- backprop
BP_IN = 65536
BP_HID = 16
BP_BLOCKS = BP_IN // 16


def backprop_setup(rng):
    inp = rng.random(BP_IN + 1, dtype=np.float32)
    w = (rng.random((BP_IN + 1) * (BP_HID + 1), dtype=np.float32) * 2 - 1).astype(np.float32)
    return [In(inp), Out((BP_HID + 1,), np.float32), InOut(w), Out((BP_BLOCKS * BP_HID,), np.float32),
            Local(4 * 16), Local(4 * 16 * 16), np.int32(BP_IN), np.int32(BP_HID)]


def backprop_check(args, out, launch):
    inp = args[0].data.astype(np.float64)
    w = args[2].data.astype(np.float64).reshape(BP_IN + 1, BP_HID + 1)
    # Per group by: rows 16*by+1 .. 16*by+16, columns 1..16.
    wm = w[1:, 1:].reshape(BP_BLOCKS, 16, 16) * inp[1:].reshape(BP_BLOCKS, 16, 1)
    for p in (1, 2, 4, 8, 16):  # the kernel's tree, as written (p = 1 doubles)
        rows = np.arange(0, 16, p)
        wm[:, rows, :] = wm[:, rows, :] + wm[:, rows + p // 2, :]
    want_w = w.copy()
    want_w[1:, 1:] = wm.reshape(BP_IN, 16)
    close(out[2].reshape(BP_IN + 1, BP_HID + 1), want_w, rtol=1e-5, atol=1e-5, what="input_hidden")
    close(out[3].reshape(BP_BLOCKS, 16), wm[:, 0, :], rtol=1e-5, atol=1e-5, what="hidden_partial_sum")


# ---------------------------------------------------------------- nn
NN_N = 2 << 20


def nn_setup(rng):
    loc = np.empty((NN_N, 2), np.float32)
    loc[:, 0] = rng.uniform(7, 63, NN_N)  # hurricane latitudes
    loc[:, 1] = rng.uniform(0, 359, NN_N)  # and longitudes
    return [In(loc), Out((NN_N,), np.float32), np.int32(NN_N), np.float32(30), np.float32(90)]


def nn_check(args, out, launch):
    loc = args[0].data.astype(np.float64)
    want = np.sqrt((30 - loc[:, 0]) ** 2 + (90 - loc[:, 1]) ** 2)
    close(out[1], want, rtol=1e-6, atol=1e-5, what="distances")


# ---------------------------------------------------------------- lud
LUD_N = 2048
LUD_BS = 16


def lud_setup(rng):
    m = rng.random((LUD_N, LUD_N), dtype=np.float32) + np.float32(LUD_N) * np.eye(LUD_N, dtype=np.float32)
    return [InOut(m), Local(4 * LUD_BS * LUD_BS), Local(4 * LUD_BS * LUD_BS), np.int32(LUD_N), np.int32(0)]


def lud_check(args, out, launch):
    m = args[0].data.astype(np.float64)
    want = m.copy()
    b = LUD_BS
    want[b:, b:] -= m[b:, :b] @ m[:b, b:]
    close(out[0], want, rtol=1e-5, atol=1e-3, what="m")


# ---------------------------------------------------------------- gaussian
GA_N = 2048


def gaussian_setup(rng):
    a = (rng.random((GA_N, GA_N), dtype=np.float32) + GA_N * np.eye(GA_N, dtype=np.float32)).astype(np.float32)
    b = rng.random(GA_N, dtype=np.float32)
    m = np.zeros((GA_N, GA_N), np.float32)
    m[1:, 0] = a[1:, 0] / a[0, 0]  # Fan1 for t = 0
    return [In(m), InOut(a), InOut(b), np.int32(GA_N), np.int32(0)]


def gaussian_check(args, out, launch):
    m = args[0].data.astype(np.float64)
    a = args[1].data.astype(np.float64).copy()
    b = args[2].data.astype(np.float64).copy()
    a[1:, :] -= m[1:, 0:1] * a[0:1, :]
    b[1:] -= m[1:, 0] * b[0]
    close(out[1], a, rtol=1e-5, atol=1e-5, what="a")
    close(out[2], b, rtol=1e-5, atol=1e-5, what="b")


D16 = {"BLOCK_SIZE": 16}
CASES = [
    Case("rodinia/hotspot", "rodinia/hotspot_kernel.cl", "hotspot", hotspot_setup,
         (HS_BS * HS_BLOCKS, HS_BS * HS_BLOCKS), (HS_BS, HS_BS), hotspot_check, defines=D16,
         work=(HS_N * HS_N * HS_PYR, "cell")),
    Case("rodinia/pathfinder", "rodinia/pathfinder_kernels.cl", "dynproc_kernel", pathfinder_setup,
         (PF_BLOCKS * PF_LS,), (PF_LS,), pathfinder_check, work=(PF_COLS * PF_PYR, "cell")),
    Case("rodinia/nw", "rodinia/nw.cl", "nw_kernel1", nw_setup, (NW_BS * NW_BW,), (NW_BS,), nw_check,
         defines=D16, work=(NW_BW * NW_BS * NW_BS, "cell")),
    Case("rodinia/kmeans", "rodinia/kmeans.cl", "kmeans_kernel_c", kmeans_setup, (KM_N,), (256,),
         kmeans_check, work=(KM_N * KM_K * KM_F * 3, "FLOP")),
    Case("rodinia/backprop", "rodinia/backprop_kernel.cl", "bpnn_layerforward_ocl", backprop_setup,
         (16, 16 * BP_BLOCKS), (16, 16), backprop_check),
    Case("rodinia/nn", "rodinia/nearestNeighbor_kernel.cl", "NearestNeighbor", nn_setup, (NN_N,), None,
         nn_check, work=(NN_N * 12, "B")),
    Case("rodinia/lud_internal", "rodinia/lud_kernel.cl", "lud_internal", lud_setup,
         (LUD_N - LUD_BS, LUD_N - LUD_BS), (LUD_BS, LUD_BS), lud_check, defines=D16,
         work=(2 * (LUD_N - LUD_BS) ** 2 * LUD_BS, "FLOP")),
    Case("rodinia/gaussian_fan2", "rodinia/gaussianElim_kernels.cl", "Fan2", gaussian_setup,
         (GA_N, GA_N), None, gaussian_check, work=(2 * GA_N * GA_N, "FLOP")),
]
