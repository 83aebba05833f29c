"""clpeak (https://github.com/krrishnarraj/clpeak, Apache-2.0): compute
per type and vector width, global-memory bandwidth (local- and
global-offset fetches, every width), local-memory bandwidth.

Sizes follow clpeak's host code (compute_test.cpp, global_bandwidth.cpp,
local_bandwidth.cpp) with two fixed choices so that the three
implementations run the same NDRange: local size 1024 (clpeak asks each
device for its maximum, which is 1024, 4096 and 8192 here) and 2 Mi floats
read by the bandwidth kernels (clpeak reads up to its globalBWMaxSize).
"""

import numpy as np

from corpus import Case, In, Local, Out, close

LSIZE = 1024
COMPUTE_WIS = 1 << 18
WIDTHS = (1, 2, 4, 8, 16)


def chain_reference(dtype, a, n_wis, width, mads):
    """clpeak's chain x = x*x + c per component, c = local id, x0 = a + k;
    the components' sum per work-item."""
    lid = (np.arange(n_wis) % LSIZE).astype(dtype)
    total = np.zeros(n_wis, dtype)
    with np.errstate(all="ignore"):
        for k in range(width):
            x = np.full(n_wis, a + k, dtype)
            for _ in range(mads):
                x = (x * x + lid).astype(dtype)
                if dtype == np.float32 and np.isinf(x).all():
                    break
            total = (total + x).astype(dtype)
    return total


def compute_case(kind, width):
    dtype = {"sp": np.float32, "int": np.int32}[kind]
    a = {"sp": np.float32(1.3), "int": np.int32(4)}[kind]
    # Per work-item, 2048 (float) or 1024 (int) scalar multiply-adds spread
    # over the width (clpeak's loop counts of MAD_16).
    per_wi = {"sp": 2048, "int": 1024}[kind]
    mads = per_wi // width
    src = {"sp": "clpeak/compute_sp_kernels.cl", "int": "clpeak/compute_integer_kernels.cl"}[kind]
    name = {"sp": "compute_sp", "int": "compute_integer"}[kind]

    def setup(rng):
        return [Out((COMPUTE_WIS,), dtype), a]

    def check(args, out, launch):
        want = chain_reference(dtype, a, COMPUTE_WIS, width, mads)
        # (The float chain diverges: every value is +inf; clpeak only times it.)
        close(out[0], want, what=f"{name}_v{width}")

    return Case(
        name=f"clpeak/{name}_v{width}",
        source=src,
        kernel=f"{name}_v{width}",
        setup=setup,
        global_size=(COMPUTE_WIS,),
        local_size=(LSIZE,),
        check=check,
        work=(COMPUTE_WIS * per_wi * 2, "FLOP" if kind == "sp" else "OP"),
    )


BW_FLOATS = 2 << 20
FETCH_PER_WI = 16


def bandwidth_case(width, offset):
    n_wis = BW_FLOATS // width // FETCH_PER_WI

    def setup(rng):
        return [In(rng.random(BW_FLOATS, dtype=np.float32)), Out((BW_FLOATS,), np.float32)]

    def check(args, out, launch):
        a = args[0].data.astype(np.float64).reshape(-1, width)
        if offset == "local":
            # group g, fetch f, local id l: vector g*LSIZE*16 + f*LSIZE + l
            v = a.reshape(n_wis // LSIZE, FETCH_PER_WI, LSIZE, width).sum(axis=(1, 3)).reshape(-1)
        else:
            # fetch f of work-item i: vector f*n_wis + i
            v = a.reshape(FETCH_PER_WI, n_wis, width).sum(axis=(0, 2))
        close(out[1][:n_wis], v, rtol=1e-4, what=f"global_bandwidth_v{width}_{offset}_offset")

    return Case(
        name=f"clpeak/global_bandwidth_v{width}_{offset}_offset",
        source="clpeak/global_bandwidth_kernels.cl",
        kernel=f"global_bandwidth_v{width}_{offset}_offset",
        setup=setup,
        global_size=(n_wis,),
        local_size=(LSIZE,),
        check=check,
        work=(BW_FLOATS * 4, "B"),
    )


LOCAL_WIS = 1 << 16


def local_bandwidth_case(width):
    def setup(rng):
        return [Out((LOCAL_WIS,), np.float32), Local(LSIZE * width * 4)]

    def check(args, out, launch):
        gid = np.arange(LOCAL_WIS)
        lid = gid % LSIZE
        # After 64 rotations each work-item holds the start value of the
        # work-item 64 places after it in its group.
        src = gid - lid + (lid + 64) % LSIZE
        want = sum((src + k).astype(np.float32) for k in range(width))
        close(out[0], want, rtol=1e-6, what=f"local_bandwidth_v{width}")

    return Case(
        name=f"clpeak/local_bandwidth_v{width}",
        source="clpeak/local_bandwidth_kernels.cl",
        kernel=f"local_bandwidth_v{width}",
        setup=setup,
        global_size=(LOCAL_WIS,),
        local_size=(LSIZE,),
        check=check,
        work=(LOCAL_WIS * 64 * 2 * width * 4, "B"),
    )



CASES = (
    [compute_case("sp", w) for w in WIDTHS]
    + [compute_case("int", w) for w in WIDTHS]
    + [bandwidth_case(w, o) for o in ("local", "global") for w in WIDTHS]
    + [local_bandwidth_case(w) for w in (1, 2, 4, 8)]
)
