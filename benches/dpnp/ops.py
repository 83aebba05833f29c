"""NumPy's operations through dpnp (Intel's NumPy on SYCL) on the OpenCL
CPU device the environment selects: one operation per process (run.sh),
its best of five calls after a first one that builds its kernels, in ms,
the result copied back to the host (dpnp.asnumpy) as a user would.

    python ops.py            # every operation, one line each
    python ops.py sum sort   # those only

Arrays of 4 Mi elements (1024 x 1024 for the matrix operations), seeded.
"""
import sys
import time

import dpnp
import numpy as np

dev = "opencl:cpu"
rng = np.random.default_rng(0)
N = 1 << 22


def arr(n, dt=np.float32):
    return dpnp.asarray(rng.random(n).astype(dt), device=dev)


a = arr(N)
b = arr(N)
ai = dpnp.asarray(rng.integers(0, 1000, N).astype(np.int32), device=dev)
m = dpnp.asarray(rng.random((1024, 1024)).astype(np.float32), device=dev)
m2 = dpnp.asarray(rng.random((1024, 1024)).astype(np.float32), device=dev)
ad = arr(N, np.float64)
small = arr(1 << 12)
ops = {
    "add": lambda: a + b,
    "mul_scalar": lambda: a * 3.0,
    "exp": lambda: dpnp.exp(a),
    "sin": lambda: dpnp.sin(a),
    "sqrt": lambda: dpnp.sqrt(a),
    "where": lambda: dpnp.where(a > 0.5, a, b),
    "sum": lambda: dpnp.sum(a),
    "sum_f64": lambda: dpnp.sum(ad),
    "sum_axis0": lambda: dpnp.sum(m, axis=0),
    "sum_axis1": lambda: dpnp.sum(m, axis=1),
    "max": lambda: dpnp.max(a),
    "argmax": lambda: dpnp.argmax(a),
    "mean": lambda: dpnp.mean(a),
    "std": lambda: dpnp.std(a),
    "cumsum": lambda: dpnp.cumsum(a),
    "cumsum_i32": lambda: dpnp.cumsum(ai),
    "sort": lambda: dpnp.sort(a),
    "argsort": lambda: dpnp.argsort(a[: 1 << 20]),
    "sort_i32": lambda: dpnp.sort(ai),
    "unique": lambda: dpnp.unique(ai),
    "matmul": lambda: m @ m2,
    "dot": lambda: dpnp.dot(a, b),
    "transpose_copy": lambda: dpnp.ascontiguousarray(m.T),
    "nonzero": lambda: dpnp.nonzero(a > 0.5),
    "mask_index": lambda: a[a > 0.5],
    "take": lambda: dpnp.take(a, ai),
    "clip": lambda: dpnp.clip(a, 0.2, 0.8),
    "isclose": lambda: dpnp.isclose(a, b),
    "count_nonzero": lambda: dpnp.count_nonzero(a > 0.5),
    "all": lambda: dpnp.all(a >= 0),
    "linspace": lambda: dpnp.linspace(0, 1, N, device=dev),
    "arange": lambda: dpnp.arange(N, device=dev),
    "searchsorted": lambda: dpnp.searchsorted(dpnp.sort(b), a),
    "small_add": lambda: small + small,
    "small_sum": lambda: dpnp.sum(small),
    "convolve_1k": lambda: dpnp.convolve(a[:4096], b[:1024], method="direct"),
}


def host(r):
    return dpnp.asnumpy(r[0] if isinstance(r, tuple) else r)


def main():
    only = sys.argv[1:]
    for name, f in ops.items():
        if only and name not in only:
            continue
        try:
            host(f())
            times = []
            for _ in range(5):
                t = time.perf_counter()
                host(f())
                times.append(time.perf_counter() - t)
            print(f"{name} {min(times) * 1e3:.3f}", flush=True)
        except Exception as e:  # a failure is a row of the table, not the end of the run
            print(f"{name} ERR {type(e).__name__}: {str(e)[:100]}", flush=True)


if __name__ == "__main__":
    main()
