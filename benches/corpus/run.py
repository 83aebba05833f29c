"""Runs the corpus on ferrocl, PoCL and Intel's CPU runtime in one sitting
and prints per-kernel times, the ratio of the better reference to ferrocl
(above 1: ferrocl is faster) and the geometric mean of those ratios.

Each implementation runs in its own process (the ICD loader reads its
environment once); the rounds interleave the implementations so that a
change in the machine's load touches all of them alike.

    python run.py [--impls ferrocl,pocl,intel] [--only SUBSTR] [--rounds N]
                  [--json FILE] [--before FILE]

--json writes every record; --before reads such a file from an earlier
ferrocl (FERROCL_LIB=<its library> run.py --impls ferrocl --json FILE) and
adds its column and ferrocl's speed-up over it. --from FILE prints the
table of a --json file again instead of running.
"""

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def impl_env(impl):
    env = dict(os.environ)
    if impl == "ferrocl":
        env["OCL_ICD_VENDORS"] = os.environ.get("FERROCL_LIB", os.path.join(REPO, "target/release/libferrocl.so"))
    elif impl == "pocl":
        env["OCL_ICD_VENDORS"] = os.environ.get("POCL_ICD", "/etc/OpenCL/vendors/pocl.icd")
        env["POCL_KERNEL_CACHE"] = "0"
    elif impl == "intel":
        lib = os.environ.get("INTEL_OCL_LIB", "")
        env["OCL_ICD_VENDORS"] = lib
        env["LD_LIBRARY_PATH"] = os.path.dirname(lib) + ":" + env.get("LD_LIBRARY_PATH", "")
    # PyOpenCL's own binary cache would hide build times.
    env["PYOPENCL_NO_CACHE"] = "1"
    return env


def available(impl):
    if impl in ("ferrocl", "pocl"):
        return os.path.exists(impl_env(impl)["OCL_ICD_VENDORS"])
    if impl == "intel":
        lib = os.environ.get("INTEL_OCL_LIB", "")
        return bool(lib) and os.path.exists(lib)
    return False


def run_impl(impl, only, seconds, timeout):
    cmd = [sys.executable, os.path.join(HERE, "corpus.py"), "--worker", impl, "--seconds", str(seconds)]
    if only:
        cmd += ["--only", only]
    env = impl_env(impl)
    # Builds are timed cold: ferrocl gets a private, empty binary cache.
    cache = tempfile.TemporaryDirectory(prefix="corpus-cache-")
    env["FERROCL_CACHE_DIR"] = cache.name
    try:
        p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, timeout=timeout, text=True)
    except subprocess.TimeoutExpired as e:
        out = e.stdout or ""
        if isinstance(out, bytes):
            out = out.decode()
        print(f"# {impl}: timed out after {timeout} s", file=sys.stderr)
        return [json.loads(l) for l in out.splitlines() if l.startswith("{")]
    recs = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
    if p.returncode != 0:
        print(f"# {impl}: worker exited with {p.returncode} after {len(recs)} cases", file=sys.stderr)
    return recs


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--impls", default="ferrocl,pocl,intel")
    p.add_argument("--only")
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--seconds", type=float, default=0.6)
    p.add_argument("--timeout", type=int, default=1800)
    p.add_argument("--json")
    p.add_argument("--before")
    p.add_argument("--builds", action="store_true", help="also print the cold build and build + first launch per program")
    p.add_argument("--from", dest="saved")
    a = p.parse_args()

    if a.saved:
        with open(a.saved) as f:
            saved = json.load(f)
        impls = [i for i in a.impls.split(",") if any(r["impl"] == i for r in saved)]
    else:
        impls = [i for i in a.impls.split(",") if available(i)]
        missing = [i for i in a.impls.split(",") if i not in impls]
        if missing:
            print(f"# not available, column left out: {', '.join(missing)}", file=sys.stderr)
    # best[(impl, case)] = record with the smallest launch time over rounds
    best, order = {}, []
    for r in range(1 if a.saved else a.rounds):
        for impl in impls:
            recs = [x for x in saved if x["impl"] == impl] if a.saved else run_impl(impl, a.only, a.seconds, a.timeout)
            for rec in recs:
                key = (impl, rec["case"])
                if rec["case"] not in order:
                    order.append(rec["case"])
                old = best.get(key)
                if old is None or (rec.get("ok") and (not old.get("ok") or rec["launch_us"] < old["launch_us"])):
                    best[key] = rec
    if a.json:
        with open(a.json, "w") as f:
            json.dump([best[k] for k in best], f, indent=1)

    refs = [i for i in impls if i != "ferrocl"]
    cols = impls
    before = {}
    if a.before:
        with open(a.before) as f:
            before = {r["case"]: r for r in json.load(f) if r.get("impl") == "ferrocl"}
    head = ["kernel"] + (["ferrocl before us"] if before else []) + [f"{i} us" for i in cols]
    head += (["after / before"] if before else []) + ["ferrocl vs best ref", "ferrocl build ms", "best ref build ms"]
    print("| " + " | ".join(head) + " |")
    print("|---" * len(head) + "|")
    speedups = []
    ratios, build_ratios, below = [], [], []
    for case in order:
        cells = []
        for i in cols:
            rec = best.get((i, case))
            if rec is None:
                cells.append("-")
            elif not rec.get("ok"):
                cells.append("FAIL")
            else:
                cells.append(f"{rec['launch_us']:.1f}")
        f = best.get(("ferrocl", case))
        ref_ok = [best[(i, case)] for i in refs if best.get((i, case), {}).get("ok")]
        ratio = build = refbuild = ""
        if f and f.get("ok") and ref_ok:
            bestref = min(r["launch_us"] for r in ref_ok)
            rt = bestref / f["launch_us"]
            ratios.append(rt)
            if rt < 1.0:
                below.append((case, rt))
            ratio = f"{rt:.2f}x"
            if f.get("first_build") and all(r.get("first_build") for r in ref_ok):
                rb = min(r["build_ms"] for r in ref_ok)
                build_ratios.append(f["build_ms"] / rb)
                refbuild = f"{rb:.0f}"
        if f and f.get("ok") and f.get("first_build"):
            build = f"{f['build_ms']:.0f}"
        pre = post = ""
        if before:
            b = before.get(case)
            pre = f"{b['launch_us']:.1f} | " if b and b.get("ok") else "- | "
            if b and b.get("ok") and f and f.get("ok"):
                speedups.append(b["launch_us"] / f["launch_us"])
                post = f" {speedups[-1]:.2f}x |"
            else:
                post = " |"
        print(f"| {case} | {pre}" + " | ".join(cells) + f" |{post} {ratio} | {build} | {refbuild} |")
    print()
    print(f"geometric mean of (best reference time / ferrocl time) over {len(ratios)} kernels: {geomean(ratios):.2f}x")
    if build_ratios:
        print(
            f"geometric mean of (ferrocl build / best reference build) over {len(build_ratios)} programs"
            f" (first builds, caches off): {geomean(build_ratios):.2f}"
        )
    if speedups:
        print(f"geometric mean of ferrocl's speed-up over --before, {len(speedups)} kernels: {geomean(speedups):.2f}x")
    if below:
        print("below 1.0x: " + ", ".join(f"{c} {r:.2f}x" for c, r in sorted(below, key=lambda t: t[1])))
    for (impl, case), rec in sorted(best.items()):
        if not rec.get("ok"):
            print(f"FAIL {impl} {case}: {rec.get('error')}")
    if a.builds:
        print()
        print_builds(best, order, impls, before)


def print_builds(best, order, impls, before):
    """Per program (its first case), the cold build and the build plus the
    first launch on each implementation, and ferrocl's over PoCL's."""
    cols = (["ferrocl before"] if before else []) + impls
    head = ["program (first case)"] + [f"{i} build + first ms" for i in cols]
    head += ["ferrocl / pocl build", "ferrocl / pocl build + first"]
    print("| " + " | ".join(head) + " |")
    print("|---" * len(head) + "|")
    ratios = {"build": [], "first": []}

    def cell(rec):
        if not rec or not rec.get("ok") or not rec.get("first_build"):
            return "-"
        return f"{rec['build_ms']:.0f} + {rec['first_ms']:.0f}"

    for case in order:
        f, p = best.get(("ferrocl", case)), best.get(("pocl", case))
        if not f or not f.get("first_build"):
            continue
        recs = ([before.get(case)] if before else []) + [best.get((i, case)) for i in impls]
        cells = [cell(r) for r in recs]
        rb = rf = "-"
        if f.get("ok") and p and p.get("ok") and p.get("first_build"):
            b = f["build_ms"] / p["build_ms"]
            t = (f["build_ms"] + f["first_ms"]) / (p["build_ms"] + p["first_ms"])
            ratios["build"].append(b)
            ratios["first"].append(t)
            rb, rf = f"{b:.2f}", f"{t:.2f}"
        print(f"| {case} | " + " | ".join(cells) + f" | {rb} | {rf} |")
    print()
    for k, what in (("build", "cold build"), ("first", "build + first launch")):
        if ratios[k]:
            print(f"ferrocl / pocl, {what}: geometric mean {geomean(ratios[k]):.2f}, "
                  f"worst {max(ratios[k]):.2f}, over {len(ratios[k])} programs")


if __name__ == "__main__":
    main()
