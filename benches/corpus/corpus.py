"""The kernel corpus: kernels from public OpenCL suites, each run with its
suite's sizes, checked against a host reference, and timed.

A case module in cases/ defines CASES, a list of Case. This file runs the
cases of one OpenCL implementation (the one OCL_ICD_VENDORS selects) and
writes one JSON line per case; run.py starts it once per implementation
and prints the side-by-side table.

    python corpus.py --worker IMPL [--only SUBSTRING] [--seconds S]
"""

import argparse
import importlib
import json
import os
import sys
import time
import traceback
from dataclasses import dataclass, field
from typing import Callable, Optional

# numpy's OpenBLAS threads spin for a while after each call the checks make,
# on the cores the runtime under test is timed on (17 % of a 2-core
# profile of Parboil's mri-q): one thread, set before numpy loads.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import pyopencl as cl  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(HERE, "kernels")


# Argument kinds. A case's setup returns a list of these and numpy scalars
# (np.int32(5), np.float32(1.5), ...) in the kernel's argument order.
@dataclass
class In:
    """A buffer the kernel reads: copied to the device before the first launch."""

    data: np.ndarray


@dataclass
class Out:
    """A buffer the kernel writes: read back after the first launch.
    `init` (optional) is its content before the launch (zeros otherwise)."""

    shape: tuple
    dtype: object
    init: Optional[np.ndarray] = None


@dataclass
class InOut:
    """A buffer read and written; read back after the first launch."""

    data: np.ndarray


@dataclass
class Local:
    """A __local argument of `nbytes` bytes."""

    nbytes: int


@dataclass
class Case:
    name: str  # suite/kernel, e.g. "rodinia/hotspot"
    source: str  # path under kernels/
    kernel: str  # the kernel function's name
    # setup(rng) -> list of In/Out/InOut/Local/numpy scalars
    setup: Callable
    global_size: tuple
    local_size: Optional[tuple]  # None: the implementation chooses
    # check(args, outputs, launch): args as setup returned them; outputs a
    # dict {argument index: numpy array read back}; launch a dict with the
    # "global" and "local" sizes used. Raises AssertionError (or returns
    # False) when the result is wrong.
    check: Callable
    options: str = ""
    # Work per launch, for a rate column: (amount, unit), e.g. (2*n**3, "FLOP").
    work: Optional[tuple] = None
    # -D definitions added to the options. Timing launches reuse the
    # buffers of launch 1, which alone is checked.
    defines: dict = field(default_factory=dict)


def close(got, want, rtol=1e-4, atol=1e-5, what="result"):
    """Asserts that got and want agree elementwise within tolerances."""
    got = np.asarray(got)
    want = np.asarray(want)
    assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
    if np.issubdtype(want.dtype, np.integer):
        bad = np.nonzero(got != want)[0] if got.ndim == 1 else np.argwhere(got != want)
        assert len(bad) == 0, f"{what}: {len(bad)} of {got.size} differ, first at {bad[0]}: {got[tuple(np.atleast_1d(bad[0]))]} != {want[tuple(np.atleast_1d(bad[0]))]}"
        return True
    ok = np.isclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
    if not ok.all():
        i = tuple(np.argwhere(~ok)[0])
        raise AssertionError(
            f"{what}: {np.count_nonzero(~ok)} of {got.size} differ, first at {i}: {got[i]} != {want[i]}"
        )
    return True


def load_cases(only=None):
    sys.path.insert(0, HERE)
    cases = []
    for fn in sorted(os.listdir(os.path.join(HERE, "cases"))):
        if fn.endswith(".py") and not fn.startswith("_"):
            mod = importlib.import_module("cases." + fn[:-3])
            cases.extend(mod.CASES)
    if only:
        cases = [c for c in cases if any(o in c.name for o in only.split(","))]
    return cases


# (source, options) built so far in this process: only a program's first
# build is a cold build (ferrocl and Intel keep built programs in memory).
BUILT = set()


def run_case(ctx, queue, case, seconds):
    src = open(os.path.join(KERNELS, case.source), encoding="utf-8").read()
    opts = case.options + "".join(f" -D{k}={v}" for k, v in case.defines.items())
    first_build = (case.source, opts) not in BUILT
    BUILT.add((case.source, opts))
    t0 = time.perf_counter()
    prog = cl.Program(ctx, src).build(options=opts.strip() or [])
    build_s = time.perf_counter() - t0
    knl = getattr(prog, case.kernel)

    rng = np.random.default_rng(12345)
    args = case.setup(rng)
    mf = cl.mem_flags
    cl_args, readback = [], {}
    for i, a in enumerate(args):
        if isinstance(a, In):
            cl_args.append(cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=np.ascontiguousarray(a.data)))
        elif isinstance(a, InOut):
            host = np.ascontiguousarray(a.data).copy()
            cl_args.append(cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=host))
            readback[i] = host
        elif isinstance(a, Out):
            host = (np.zeros(a.shape, a.dtype) if a.init is None else np.ascontiguousarray(a.init).astype(a.dtype).copy())
            cl_args.append(cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=host))
            readback[i] = host
        elif isinstance(a, Local):
            cl_args.append(cl.LocalMemory(a.nbytes))
        else:
            cl_args.append(a)
    knl.set_args(*cl_args)
    gsz, lsz = case.global_size, case.local_size

    queue.finish()
    t0 = time.perf_counter()
    cl.enqueue_nd_range_kernel(queue, knl, gsz, lsz)
    queue.finish()
    first_s = time.perf_counter() - t0
    for i, host in readback.items():
        cl.enqueue_copy(queue, host, cl_args[i])
    queue.finish()
    if case.check(args, readback, {"global": gsz, "local": lsz}) is False:
        raise AssertionError("check returned False")

    # Timing: batches of launches sized to about seconds/3 each, best batch.
    t0 = time.perf_counter()
    cl.enqueue_nd_range_kernel(queue, knl, gsz, lsz)
    queue.finish()
    one = max(time.perf_counter() - t0, 1e-6)
    reps = int(min(max(seconds / 3 / one, 1), 2000))
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        for _ in range(reps):
            cl.enqueue_nd_range_kernel(queue, knl, gsz, lsz)
        queue.finish()
        best = min(best, (time.perf_counter() - t0) / reps)
    return {
        "build_ms": build_s * 1e3,
        "first_build": first_build,
        "first_ms": first_s * 1e3,
        "launch_us": best * 1e6,
    }


def worker(impl, only, seconds, out):
    plats = cl.get_platforms()
    ctx = cl.Context(devices=plats[0].get_devices()[:1])
    queue = cl.CommandQueue(ctx)
    dev = ctx.devices[0]
    print(f"# {impl}: {plats[0].name} {plats[0].version} / {dev.name}", file=sys.stderr, flush=True)
    for case in load_cases(only):
        rec = {"impl": impl, "case": case.name}
        try:
            rec.update(run_case(ctx, queue, case, seconds))
            rec["ok"] = True
        except Exception as e:  # one broken case must not end the run
            rec["ok"] = False
            rec["error"] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300]
            if os.environ.get("CORPUS_TRACE"):
                traceback.print_exc()
        if case.work and rec.get("ok"):
            amount, unit = case.work
            rec["rate"] = amount / (rec["launch_us"] * 1e-6) / 1e9
            rec["unit"] = "G" + unit + "/s"
        out.write(json.dumps(rec) + "\n")
        out.flush()
        status = "ok" if rec["ok"] else "FAIL " + rec["error"]
        timing = f" {rec['launch_us']:.1f} us" if rec.get("ok") else ""
        print(f"  {impl} {case.name}:{timing} {status}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--worker", required=True)
    p.add_argument("--only")
    p.add_argument("--seconds", type=float, default=0.6)
    a = p.parse_args()
    # The cases import this file as the module `corpus`; run its copy of
    # worker so that In, Out, ... are the classes they use.
    sys.path.insert(0, HERE)
    import corpus

    corpus.worker(a.worker, a.only, a.seconds, sys.stdout)
