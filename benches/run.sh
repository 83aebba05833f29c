#!/usr/bin/env bash
# Side-by-side benchmarks: ferrocl vs PoCL (vs Intel CPU runtime).
#
# Usage: benches/run.sh              scheduling (sched_bench.c, figures in us)
#        BENCH=kernels benches/run.sh compiled kernels (kernels_bench.c)
#        BENCH=sync benches/run.sh    collectives, device enqueue, atomics (sync_bench.c)
# Environment:
#   FERROCL_LIB   path of libferrocl.so  (default <repo>/target/release/libferrocl.so)
#   POCL_ICD      PoCL .icd file or library (default /etc/OpenCL/vendors/pocl.icd)
#   INTEL_OCL_LIB path of Intel's libintelocl.so (optional; column omitted if unset)
#   SCHED_BENCH_SCALE    repetition factor passed to sched_bench (default 1)
#   SCHED_BENCH_TIMEOUT  seconds per figure group before it is reported NA
#                        (default 10 x max(1, scale))
#   CC            C compiler (default cc)
#   ROUNDS        how many times the whole interleaved sequence runs (default 3)
#   KEEP_RAW=1    keep the build dir with raw per-vendor output and print its path
#   BENCH_GROUPS  kernels only: the figure groups to run (default all), e.g. "build build_first_run"
#
# Never fails because a vendor is missing or broken: its column shows NA.
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
FERROCL_LIB=${FERROCL_LIB:-$repo/target/release/libferrocl.so}
POCL_ICD=${POCL_ICD:-/etc/OpenCL/vendors/pocl.icd}
INTEL_OCL_LIB=${INTEL_OCL_LIB:-}
[ -n "${SCHED_BENCH_TIMEOUT:-}" ] && export SCHED_BENCH_TIMEOUT
[ -n "${SCHED_BENCH_SCALE:-}" ] && export SCHED_BENCH_SCALE
CC=${CC:-cc}

work=$(mktemp -d "${TMPDIR:-/tmp}/sched_bench.XXXXXX")
if [ "${KEEP_RAW:-0}" = 1 ]; then
    echo "raw output kept in $work" >&2
else
    trap 'rm -rf "$work"' EXIT
fi

BENCH=${BENCH:-sched}
bin=$work/${BENCH}_bench
case $BENCH in
sched)
    cflags="-O2"
    groups="roundtrip write1 native inorder_write inorder_marker chain_write chain_marker"
    groups="$groups kernel_roundtrip kernel_launch kernel_chain kernel_roundtrip_busy command_buffer"
    units="us, lower is better" ;;
kernels)
    cflags="-O3 -march=native -ffast-math"
    groups="${BENCH_GROUPS:-vadd sgemm_naive sgemm_tiled reduce histogram nbody build build_first_run}"
    units="*_ms lower, others higher is better" ;;
sync)
    cflags="-O2"
    groups="wg_reduce_int tree_reduce_int wg_reduce_float tree_reduce_float enqueue_device enqueue_host"
    groups="$groups atomic_wg atomic_device atomic_svm atomic_legacy atomic_local_c11 atomic_local_legacy"
    # ferrocl's barrier and collective kernels are slow yet: a group gets a minute.
    export SCHED_BENCH_TIMEOUT=${SCHED_BENCH_TIMEOUT:-60}
    units="*_us lower, others higher is better" ;;
*) echo "error: BENCH is sched, kernels or sync" >&2; exit 1 ;;
esac
if ! $CC $cflags -o "$bin" "$here/${BENCH}_bench.c" -lOpenCL -lpthread -lm 2>"$work/build.log"; then
    echo "error: cannot build ${BENCH}_bench.c:" >&2
    cat "$work/build.log" >&2
    exit 1
fi

# The ICD loader this binary was linked against (ocl-icd on Debian).  Intel's
# pip wheel ships its own libOpenCL.so.1 (a different loader, which found no
# platform with OCL_ICD_VENDORS=<library> when we tried); when we put Intel's
# lib dir on LD_LIBRARY_PATH we preload the system loader so it stays in charge.
sys_loader=$(ldd "$bin" | awk '/libOpenCL\.so/ {print $3; exit}')

# Each figure group runs in its own process, so a hang or crash in one group
# (e.g. PoCL 3.1 chained markers) costs only that group's figures.
# Backstop in case the in-program watchdog itself cannot fire.
outer_timeout=$(awk -v t="${SCHED_BENCH_TIMEOUT:-0}" -v s="${SCHED_BENCH_SCALE:-1}" \
    'BEGIN { if (t <= 0) t = 10 * (s > 1 ? s : 1); printf "%d", 2 * t + 30 }')

# run_group VENDOR GROUP ROUND: one process, output appended to VENDOR.ROUND.out
run_group() {
    local v=$1 g=$2 r=$3 out=$work/$1.$3.out rc
    local lib=${vpath[$v]} libdir=${vlibdir[$v]:-}
    if [ -n "$libdir" ]; then
        OCL_ICD_VENDORS=$lib \
            LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
            LD_PRELOAD="$sys_loader${LD_PRELOAD:+${sys_loader:+:}$LD_PRELOAD}" \
            timeout -k 5 "$outer_timeout" "$bin" "$g" >>"$out" 2>>"$work/$v.err"
    else
        OCL_ICD_VENDORS=$lib \
            timeout -k 5 "$outer_timeout" "$bin" "$g" >>"$out" 2>>"$work/$v.err"
    fi
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "# $v: group $g exited with status $rc; not rerun in later rounds" >>"$out"
        skip[$v.$g]=1
    fi
}

declare -A vpath vlibdir skip
vendors="ferrocl pocl"
vpath[ferrocl]=$FERROCL_LIB
vpath[pocl]=$POCL_ICD
if [ -n "$INTEL_OCL_LIB" ]; then
    vendors="$vendors intel"
    vpath[intel]=$INTEL_OCL_LIB
    vlibdir[intel]=$(dirname "$INTEL_OCL_LIB")
fi
for v in $vendors; do
    echo "$v: ${vpath[$v]}" >&2
    if [ ! -e "${vpath[$v]}" ]; then
        echo "# $v: ${vpath[$v]} not found" >"$work/$v.1.out"
        for g in $groups; do skip[$v.$g]=1; done
    fi
done

# Vendors are interleaved group by group, and the whole sequence is repeated
# ROUNDS times; the table shows each figure's median over rounds.  That way a
# burst of background load hits every vendor alike.
ROUNDS=${ROUNDS:-3}
for ((r = 1; r <= ROUNDS; r++)); do
    echo "round $r/$ROUNDS..." >&2
    for g in $groups; do
        for v in $vendors; do
            [ -n "${skip[$v.$g]:-}" ] || run_group "$v" "$g" "$r"
        done
    done
    [ "$BENCH" = sched ] && "$bin" floor >>"$work/floor.$r.out" 2>>"$work/floor.err"
done

# ----------------------------------------------------------------- report
echo
for v in $vendors; do
    cat "$work/$v".*.out 2>/dev/null | grep -E '^# ' | grep -v '^# platform: ' |
        awk '!seen[$0]++' | sed "s/^# /# [$v] /"
done
echo "# $ROUNDS rounds; each cell is the median over rounds (NA: failed, unsupported or hung)"
echo

shopt -s nullglob
awk -v vendors="$vendors" -v units="$units" '
    function isnum(x) { return x ~ /^[0-9]+(\.[0-9]+)?$/ }
    function ratio(a, b) { return (isnum(a) && isnum(b) && b > 0) ? sprintf("%.2f", a / b) : "NA" }
    # times (*_us, *_us_per_*, *_ms) are lower is better; rates (GB/s, ...) higher
    function better(f, x, y) { return (f ~ /_(us|ms)(_|$)/) ? x + 0 < y + 0 : x + 0 > y + 0 }
    # median of the numeric values collected for key k ("NA" if none)
    function med(k,    m, i, j, t, a) {
        m = cnt[k]
        if (!m) return "NA"
        for (i = 1; i <= m; i++) a[i] = vals[k, i] + 0
        for (i = 2; i <= m; i++)
            for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
        return sprintf("%.3f", (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2)
    }
    FNR == 1 { src = FILENAME; sub(/.*\//, "", src); sub(/\.[0-9]+\.out$/, "", src) }
    /^[a-z0-9_]+ ([0-9.]+|NA)$/ {
        if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 }
        if (isnum($2)) vals[src SUBSEP $1, ++cnt[src SUBSEP $1]] = $2
    }
    END {
        nv = split(vendors, V, " ")
        label["ferrocl"] = "ferrocl"; label["pocl"] = "PoCL"; label["intel"] = "Intel"
        hdr = sprintf("%-36s", "figure (" units ")")
        for (i = 1; i <= nv; i++) hdr = hdr sprintf(" %10s", label[V[i]])
        hdr = hdr sprintf(" %13s %13s", "ferrocl/PoCL", "ferrocl/best")
        print hdr
        for (k = 1; k <= n; k++) {
            f = order[k]
            if (f ~ /pingpong/) continue
            line = sprintf("%-36s", f); best = "NA"
            for (i = 1; i <= nv; i++) {
                x = med(V[i] SUBSEP f)
                line = line sprintf(" %10s", x)
                if (V[i] != "ferrocl" && isnum(x) && (best == "NA" || better(f, x, best))) best = x
            }
            fv = med("ferrocl" SUBSEP f); pv = med("pocl" SUBSEP f)
            print line sprintf(" %13s %13s", ratio(fv, pv), ratio(fv, best))
        }
        if (!("floor" SUBSEP "condvar_pingpong_us" in cnt)) exit
        print ""
        print "machine floor (no OpenCL):"
        for (k = 1; k <= n; k++)
            if (order[k] ~ /pingpong/)
                printf("%-36s %10s\n", order[k], med("floor" SUBSEP order[k]))
    }' "$work"/ferrocl.*.out "$work"/pocl.*.out "$work"/intel.*.out "$work"/floor.*.out
