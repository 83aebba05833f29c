"""Kernels from OpenCL applications and sample suites.

Sources (each kernel file's header says which commit and path; the
licence is copied beside the files):
  kernels/apps/amd_app_sdk/: AMD APP SDK 2.x samples (AMD's BSD-2-Clause
    licence) from the mirror https://github.com/ChiahungTai/OpenCL-playgorund
    (commit b8ba6131090a003df7e8be7f9331fb2640ba69a7, amd/opencl/...):
    NBody (float4 bodies, __local tiles of groupSize bodies, 1/sqrt in the
    inner j-loop), Histogram (histogram256: per-thread uchar sub-histograms in
    __local memory), HistogramAtomics (histogramKernel: __local bins with
    atom_inc, reqd_work_group_size 256), BlackScholes (float4: exp, log,
    sqrt, Abramowitz-Stegun CND), SobelFilter (uchar4 image on buffers).
  kernels/apps/hetero_mark/: Hetero-Mark HIST (global atomic_add of private
    histograms), https://github.com/NUCAR-DEV/Hetero-Mark commit
    b8ea324d2394401776487b3520338d03f8c27676, src/hist/cl12/kernels.cl.
  kernels/apps/opencl_brute/: MD5 and SHA-256 of many short passwords,
    https://github.com/bkerler/opencl_brute (MIT) commit
    c294a158cd56e32c8a05f88f0bebf89466513015 (template filled in as its
    host code does; hashcat's own fast-hash kernels are not self-contained).

Sizes: the samples' own launch shapes (local sizes as their host code
passes them) with the problem sizes scaled so that one launch takes
roughly 2-100 ms on a 2-core x86 machine under PoCL:
  nbody: 4096 bodies (sample default 1024), delT 0.005, espSqr 500, local
    256 (the sample's GROUP_SIZE) and NULL; positions in [3, 50), masses in
    [1, 1000), velocities 0 as NBody.cpp sets them up.
  histogram256: 2048 x 2048 values (sample 1024 x 1024), local 128.
  histogram_atomics: 64 Ki work-items of 256 as the sample, 1 Mi uint4
    (sample 4 Mi), 16 per work-item.
  hetero_mark_hist: global 1024, local 64 as the benchmark, 4 Mi pixels
    (benchmark default 64 Ki), 256 colours.
  blackscholes: 1024 x 512 float4 (2 Mi options; sample 256 x 256 x 4
    options), local 16 x 16 (the sample's block growing to 256).
  sobel: 2048 x 1024 uchar4 image (the sample's BMP is 512 x 512),
    local 256 x 1 as the sample.
  md5 / sha256: 128 Ki passwords of 0-55 bytes, local NULL as opencl_brute.
"""

import hashlib

import numpy as np

from corpus import Case, In, InOut, Local, Out, close

# ---------------------------------------------------------------- N-body

NB_N = 4096
NB_DT = np.float32(0.005)
NB_EPS = np.float32(500.0)
NB_CHECK = 512  # bodies checked against the O(n^2) float64 reference


def nbody_case(local):
    def setup(rng):
        pos = np.empty((NB_N, 4), np.float32)
        pos[:, :3] = rng.uniform(3, 50, (NB_N, 3))
        pos[:, 3] = rng.uniform(1, 1000, NB_N)
        vel = np.zeros((NB_N, 4), np.float32)
        # __local float4 localPos[local size]; with NULL the implementation
        # picks the size, so allow for the largest work-group.
        lbytes = 16 * (local if local else 4096)
        return [In(pos), In(vel), np.int32(NB_N), NB_DT, NB_EPS, Local(lbytes),
                Out((NB_N, 4), np.float32), Out((NB_N, 4), np.float32)]

    def check(args, out, launch):
        pos = args[0].data.astype(np.float64)
        vel = args[1].data.astype(np.float64)
        idx = np.linspace(0, NB_N - 1, NB_CHECK).astype(np.int64)
        r = pos[None, :, :] - pos[idx, None, :]  # (check, n, 4), w = mass diff
        dist2 = (r[..., :3] ** 2).sum(-1) + float(NB_EPS)
        s = pos[None, :, 3] / dist2 ** 1.5
        acc = (s[..., None] * r).sum(1)
        dt = float(NB_DT)
        want_pos = pos[idx] + vel[idx] * dt + acc * 0.5 * dt * dt
        want_pos[:, 3] = pos[idx, 3]
        want_vel = vel[idx] + acc * dt
        got_pos, got_vel = out[6][idx], out[7][idx]
        scale = np.abs(want_vel[:, :3]).max()
        close(got_vel[:, :3], want_vel[:, :3], rtol=1e-3, atol=1e-4 * scale, what="newVelocity.xyz")
        close(got_pos, want_pos, rtol=1e-5, atol=1e-4, what="newPosition")

    return Case(
        name="apps/nbody_amd" + ("_local256" if local else "_localnull"),
        source="apps/amd_app_sdk/NBody_Kernels.cl",
        kernel="nbody_sim",
        setup=setup,
        global_size=(NB_N,),
        local_size=(local,) if local else None,
        check=check,
        work=(20 * NB_N * NB_N, "FLOP"),
    )


# ---------------------------------------------------------------- histograms

H256_VALUES = 2048 * 2048
H256_GROUP = 128
H256_THREADS = H256_VALUES // 256
H256_GROUPS = H256_THREADS // H256_GROUP


def h256_setup(rng):
    data = rng.integers(0, 256, H256_VALUES, dtype=np.uint32)
    return [In(data), Local(H256_GROUP * 256), Out((H256_GROUPS * 256,), np.uint32)]


def h256_check(args, out, launch):
    data = args[0].data.reshape(H256_GROUPS, -1).astype(np.int64)
    # group g reads uint4s g*groupSize*64 ... : one contiguous block of 32 Ki values
    keys = np.arange(H256_GROUPS)[:, None] * 256 + data
    want = np.bincount(keys.ravel(), minlength=H256_GROUPS * 256).astype(np.uint32)
    close(out[2], want, what="binResult")


HA_THREADS = 64 * 1024
HA_LOCAL = 256
HA_N4 = 1024 * 1024
HA_PER = HA_N4 // HA_THREADS
HA_GROUPS = HA_THREADS // HA_LOCAL


def ha_setup(rng):
    img = rng.integers(0, 1 << 32, HA_N4 * 4, dtype=np.uint32)
    return [In(img), Out((HA_GROUPS * 256,), np.uint32), np.uint32(HA_PER)]


def ha_check(args, out, launch):
    # Image[tid + i*Stride] (uint4), every byte a pixel; group = tid / 256
    b = args[0].data.view(np.uint8).reshape(HA_PER, HA_GROUPS, HA_LOCAL * 16).astype(np.int64)
    keys = np.arange(HA_GROUPS)[None, :, None] * 256 + b
    want = np.bincount(keys.ravel(), minlength=HA_GROUPS * 256).astype(np.uint32)
    close(out[1], want, what="Histogram (per work-group)")


HM_PIXELS = 4 * 1024 * 1024


def hm_setup(rng):
    pixels = rng.integers(0, 256, HM_PIXELS, dtype=np.uint32)
    return [In(pixels), Out((256,), np.uint32), np.uint32(256), np.uint32(HM_PIXELS)]


def hm_check(args, out, launch):
    want = np.bincount(args[0].data, minlength=256).astype(np.uint32)
    close(out[1], want, what="histogram")


# ---------------------------------------------------------------- Black-Scholes

BS_W, BS_H = 1024, 512


def bs_setup(rng):
    r = rng.random((BS_H * BS_W, 4), dtype=np.float32)
    return [In(r), np.int32(BS_W), Out((BS_H * BS_W, 4), np.float32), Out((BS_H * BS_W, 4), np.float32)]


def bs_phi(x):
    c1, c2, c3, c4, c5 = 0.319381530, -0.356563782, 1.781477937, -1.821255978, 1.330274429
    t = 1.0 / (1.0 + 0.2316419 * np.abs(x))
    y = 1.0 - 0.398942280 * np.exp(-x * x / 2.0) * t * (c1 + t * (c2 + t * (c3 + t * (c4 + t * c5))))
    return np.where(x < 0, 1.0 - y, y)


def bs_check(args, out, launch):
    r = args[0].data.astype(np.float64)
    S = 10.0 * r + 100.0 * (1.0 - r)
    K = 10.0 * r + 100.0 * (1.0 - r)
    T = 1.0 * r + 10.0 * (1.0 - r)
    R = 0.01 * r + 0.05 * (1.0 - r)
    sig = 0.01 * r + 0.10 * (1.0 - r)
    sst = sig * np.sqrt(T)
    d1 = (np.log(S / K) + (R + sig * sig / 2.0) * T) / sst
    d2 = d1 - sst
    kexp = K * np.exp(-R * T)
    call = S * bs_phi(d1) - kexp * bs_phi(d2)
    put = kexp * bs_phi(-d2) - S * bs_phi(-d1)
    close(out[2], call, rtol=1e-4, atol=2e-4, what="call")
    close(out[3], put, rtol=1e-4, atol=2e-4, what="put")


# ---------------------------------------------------------------- Sobel

SO_W, SO_H = 2048, 1024


def sobel_setup(rng):
    # Pixel values in [100, 190]: hypot(Gx, Gy)/2 stays below 256, so the
    # kernel's (non-saturating) convert_uchar4 is defined for every pixel.
    img = rng.integers(100, 191, (SO_H, SO_W, 4), dtype=np.uint8)
    return [In(img), Out((SO_H, SO_W, 4), np.uint8)]


def sobel_check(args, out, launch):
    i = args[0].data.astype(np.float64)
    up, dn = i[:-2], i[2:]
    gx = up[:, :-2] + 2 * up[:, 1:-1] + up[:, 2:] - dn[:, :-2] - 2 * dn[:, 1:-1] - dn[:, 2:]
    gy = up[:, :-2] - up[:, 2:] + 2 * i[1:-1, :-2] - 2 * i[1:-1, 2:] + dn[:, :-2] - dn[:, 2:]
    v = np.hypot(gx, gy) / 2
    want = np.zeros_like(i)
    want[1:-1, 1:-1] = np.trunc(v)
    got = out[1].astype(np.float64)
    diff = np.abs(got - want)
    # truncation of a float: a value within rounding of an integer may land
    # on either side; allow 1 there, and nowhere else
    near = np.zeros_like(i, bool)
    near[1:-1, 1:-1] = np.abs(v - np.round(v)) < 1e-3
    bad = (diff > 1) | ((diff == 1) & ~near)
    assert not bad.any(), f"sobel: {np.count_nonzero(bad)} pixels differ, first at {tuple(np.argwhere(bad)[0])}: {got[tuple(np.argwhere(bad)[0])]} != {want[tuple(np.argwhere(bad)[0])]}"


# ---------------------------------------------------------------- MD5 / SHA-256

HASH_N = 128 * 1024
IN_WORDS = 32  # 128-byte input buffers


def hash_setup(rng):
    lens = rng.integers(0, 56, HASH_N)
    chars = rng.integers(33, 127, (HASH_N, IN_WORDS * 4), dtype=np.uint8)
    chars[np.arange(IN_WORDS * 4)[None, :] >= lens[:, None]] = 0
    buf = np.zeros((HASH_N, 1 + IN_WORDS), np.uint32)  # struct { uint length; uint buffer[32]; }
    buf[:, 0] = lens
    buf[:, 1:] = chars.view(np.uint32)
    return buf


def hash_check_fn(algo, words, out_index):
    def check(args, out, launch):
        buf = args[0].data
        msgs = buf[:, 1:].view(np.uint8)
        lens = buf[:, 0]
        got = out[out_index].view(np.uint8).reshape(HASH_N, words * 4)
        idx = np.arange(HASH_N) if HASH_N <= 4096 else np.concatenate([np.arange(2048), np.arange(HASH_N - 2048, HASH_N), np.arange(0, HASH_N, 61)])
        for k in idx:
            want = hashlib.new(algo, msgs[k, : lens[k]].tobytes()).digest()
            got_k = got[k].tobytes()
            assert got_k == want, f"{algo} of item {k} ({lens[k]} bytes): {got_k.hex()} != {want.hex()}"

    return check


def md5_setup(rng):
    # the kernel pads the message in the input buffer
    return [InOut(hash_setup(rng)), Out((HASH_N, 4), np.uint32)]


def sha256_setup(rng):
    return [In(hash_setup(rng)), Out((HASH_N, 8), np.uint32)]


CASES = [
    nbody_case(None),
    nbody_case(256),
    Case(
        name="apps/histogram256_amd",
        source="apps/amd_app_sdk/Histogram_Kernels.cl",
        kernel="histogram256",
        setup=h256_setup,
        global_size=(H256_THREADS,),
        local_size=(H256_GROUP,),
        check=h256_check,
        work=(H256_VALUES * 4, "B"),
    ),
    Case(
        name="apps/histogram_atomics_amd",
        source="apps/amd_app_sdk/HistogramAtomics_Kernels.cl",
        kernel="histogramKernel",
        setup=ha_setup,
        global_size=(HA_THREADS,),
        local_size=(HA_LOCAL,),
        check=ha_check,
        work=(HA_N4 * 16, "B"),
    ),
    Case(
        name="apps/hist_global_atomics_heteromark",
        source="apps/hetero_mark/hist_kernels.cl",
        kernel="HIST",
        setup=hm_setup,
        global_size=(1024,),
        local_size=(64,),
        check=hm_check,
        work=(HM_PIXELS * 4, "B"),
    ),
    Case(
        name="apps/blackscholes_amd",
        source="apps/amd_app_sdk/BlackScholes_Kernels.cl",
        kernel="blackScholes",
        setup=bs_setup,
        global_size=(BS_W, BS_H),
        local_size=(16, 16),
        check=bs_check,
        work=(BS_W * BS_H * 4, "option"),
    ),
    Case(
        name="apps/sobel_amd",
        source="apps/amd_app_sdk/SobelFilter_Kernels.cl",
        kernel="sobel_filter",
        setup=sobel_setup,
        global_size=(SO_W, SO_H),
        local_size=(256, 1),
        check=sobel_check,
        work=(SO_W * SO_H, "pixel"),
    ),
    Case(
        name="apps/md5_opencl_brute",
        source="apps/opencl_brute/md5.cl",
        kernel="hash_main",
        setup=md5_setup,
        global_size=(HASH_N,),
        local_size=None,
        check=hash_check_fn("md5", 4, 1),
        work=(HASH_N, "hash"),
    ),
    Case(
        name="apps/sha256_opencl_brute",
        source="apps/opencl_brute/sha256.cl",
        kernel="hash_main",
        setup=sha256_setup,
        global_size=(HASH_N,),
        local_size=None,
        check=hash_check_fn("sha256", 8, 1),
        work=(HASH_N, "hash"),
    ),
]
