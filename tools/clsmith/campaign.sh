#!/usr/bin/env bash
# Differential fuzzing of ferrocl with CLsmith's random OpenCL C kernels.
#
# Each kernel runs in three configurations and their outputs are compared:
#   opt    ferrocl, default build options
#   noopt  ferrocl, -cl-opt-disable (cl_launcher's ---disable_opts)
#   pocl   PoCL (the reference)
#
# Getting CLsmith (never inside this repository):
#   git clone https://github.com/ChrisLidbury/CLSmith /work/clsmith-src
#     (or `git archive` a mirror of it into /work/clsmith-src)
#   apt-get install cmake m4 ocl-icd-opencl-dev
#   mkdir /work/clsmith-build && cd /work/clsmith-build
#   cmake -DCMAKE_BUILD_TYPE=Release /work/clsmith-src && make -j2
#   -> /work/clsmith-build/{CLSmith,cl_launcher,safe_math_macros.h,cl_safe_math_macros.h}
#   (CLSmith.h comes from /work/clsmith-src/runtime; the script finds it via
#   CLSMITH_SRC, default: the source dir recorded in the build's CMakeCache.txt)
#
# Usage:
#   tools/clsmith/campaign.sh CLSMITH_BUILD_DIR MODE COUNT [FIRST_SEED]
#   MODE: basic vectors barriers atomics atomic_reductions emi
#         fake_divergence inter_thread_comm
#   Environment:
#     FERROCL_ICD  ferrocl for OCL_ICD_VENDORS (default: target/release/libferrocl.so)
#     POCL_ICD     PoCL for OCL_ICD_VENDORS (default: /etc/OpenCL/vendors/pocl.icd)
#     OUT          results directory (default: /work/clsmith-runs/MODE), keep it
#                  outside the repository
#     TIMEOUT      seconds per run (default 20)
#     JOBS         kernels in parallel (default 2)
#
# Output: OUT/results.tsv (seed, class, status of each configuration) and
# OUT/summary.txt (counts per class).  The kernels (with every output and
# stderr) of ferrocl mismatches, crashes, timeouts and build failures are kept
# in OUT/keep/<class>/<seed>/; others are deleted.
#
# Classes:
#   agree            all three outputs equal
#   mismatch-opt     ferrocl opt differs, ferrocl noopt == PoCL (ferrocl bug)
#   mismatch-noopt   ferrocl noopt differs, ferrocl opt == PoCL (ferrocl bug)
#   refdiff          ferrocl opt == noopt != PoCL, or all three differ
#   crash            a ferrocl run died (signal or non-build error) where PoCL ran
#   timeout          a ferrocl run timed out where PoCL finished
#   buildfail        ferrocl failed to build a kernel PoCL built
#   ref-bad          PoCL itself failed / timed out (kernel not usable)
#
# CLsmith quirk: --barriers kernels can use emi_input without declaring it;
# those seeds are regenerated with --emi as well.
set -u

if [ $# -lt 3 ]; then
    sed -n '2,/^set -u/p' "$0" | sed 's/^# \{0,1\}//' | head -n -1
    exit 2
fi

BUILD=$(cd "$1" && pwd)
MODE=$2
COUNT=$3
FIRST=${4:-1}
HERE=$(cd "$(dirname "$0")/../.." && pwd)
FERROCL_ICD=${FERROCL_ICD:-$HERE/target/release/libferrocl.so}
POCL_ICD=${POCL_ICD:-/etc/OpenCL/vendors/pocl.icd}
OUT=${OUT:-/work/clsmith-runs/$MODE}
TIMEOUT=${TIMEOUT:-20}
JOBS=${JOBS:-2}

case $MODE in
basic) GENFLAGS="" ;;
vectors) GENFLAGS="--vectors" ;;
barriers) GENFLAGS="--barriers" ;;
atomics) GENFLAGS="--atomics" ;;
atomic_reductions) GENFLAGS="--atomic_reductions" ;;
emi) GENFLAGS="--emi" ;;
fake_divergence) GENFLAGS="--fake_divergence" ;;
inter_thread_comm) GENFLAGS="--inter_thread_comm" ;;
*) echo "unknown mode $MODE" >&2; exit 2 ;;
esac

if [ -z "${CLSMITH_SRC:-}" ]; then
    CLSMITH_SRC=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$BUILD/CMakeCache.txt" 2>/dev/null)
fi
for f in "$BUILD/CLSmith" "$BUILD/cl_launcher" "$BUILD/safe_math_macros.h" \
    "$BUILD/cl_safe_math_macros.h" "$CLSMITH_SRC/runtime/CLSmith.h" "$FERROCL_ICD"; do
    [ -e "$f" ] || { echo "missing $f" >&2; exit 2; }
done

mkdir -p "$OUT/include" "$OUT/work" "$OUT/keep"
cp "$BUILD/safe_math_macros.h" "$BUILD/cl_safe_math_macros.h" \
    "$CLSMITH_SRC/runtime/CLSmith.h" "$OUT/include/"
# Private kernel caches, so the campaign neither fills nor reads the user's.
export FERROCL_CACHE_DIR=$OUT/work/ferrocl-cache
export POCL_CACHE_DIR=$OUT/work/pocl-cache
export POCL_KERNEL_CACHE=0
export BUILD OUT TIMEOUT GENFLAGS FERROCL_ICD POCL_ICD MODE

# run_one SEED: generate, run three times, classify; prints one TSV line.
run_one() {
    local seed=$1 d="$OUT/work/$1" cfg
    rm -rf "$d"; mkdir -p "$d"
    if ! (cd "$d" && timeout -k 5 30 "$BUILD/CLSmith" --seed "$seed" $GENFLAGS -o kernel.cl >gen.log 2>&1) \
        || [ ! -s "$d/kernel.cl" ]; then
        printf '%s\tgenfail\t-\t-\t-\n' "$seed"; rm -rf "$d"; return
    fi
    # CLsmith's --barriers alone sometimes emits EMI blocks that read an
    # undeclared emi_input; such a seed is generated again with --emi added.
    if grep -q 'emi_input\[' "$d/kernel.cl" && ! grep -q '\*emi_input' "$d/kernel.cl"; then
        (cd "$d" && timeout -k 5 30 "$BUILD/CLSmith" --seed "$seed" $GENFLAGS --emi -o kernel.cl >gen.log 2>&1)
    fi
    # status: ok | build | crash | timeout | error
    local -A st
    for cfg in opt noopt pocl; do
        local icd=$FERROCL_ICD extra=""
        [ $cfg = pocl ] && icd=$POCL_ICD
        [ $cfg = noopt ] && extra="---disable_opts"
        (cd "$d" && OCL_ICD_VENDORS=$icd timeout -k 5 "$TIMEOUT" \
            "$BUILD/cl_launcher" -f kernel.cl -p 0 -d 0 -i "$OUT/include" \
            ---debug $extra >"$cfg.out" 2>"$cfg.err")
        local rc=$?
        if [ $rc -eq 0 ]; then st[$cfg]=ok
        elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then st[$cfg]=timeout
        elif [ $rc -gt 128 ]; then st[$cfg]=crash
        elif grep -q "Error building program" "$d/$cfg.err"; then st[$cfg]=build
        else st[$cfg]=error; fi
        echo $rc >"$d/$cfg.rc"
    done
    local cls
    if [ "${st[pocl]}" != ok ]; then cls=ref-bad
    elif [ "${st[opt]}" = build ] || [ "${st[noopt]}" = build ]; then cls=buildfail
    elif [ "${st[opt]}" = crash ] || [ "${st[noopt]}" = crash ] \
        || [ "${st[opt]}" = error ] || [ "${st[noopt]}" = error ]; then cls=crash
    elif [ "${st[opt]}" = timeout ] || [ "${st[noopt]}" = timeout ]; then cls=timeout
    else
        local o n p
        o=$(md5sum <"$d/opt.out"); n=$(md5sum <"$d/noopt.out"); p=$(md5sum <"$d/pocl.out")
        if [ "$o" = "$p" ] && [ "$n" = "$p" ]; then cls=agree
        elif [ "$n" = "$p" ]; then cls=mismatch-opt
        elif [ "$o" = "$p" ]; then cls=mismatch-noopt
        else cls=refdiff; fi
    fi
    printf '%s\t%s\t%s\t%s\t%s\n' "$seed" "$cls" "${st[opt]}" "${st[noopt]}" "${st[pocl]}"
    case $cls in
    agree) rm -rf "$d" ;;
    *) rm -rf "$OUT/keep/$cls/$seed"; mkdir -p "$OUT/keep/$cls"
       rm -f "$d/gen.log"; mv "$d" "$OUT/keep/$cls/$seed" ;;
    esac
}
export -f run_one

seq "$FIRST" $((FIRST + COUNT - 1)) | xargs -P "$JOBS" -I{} bash -c 'run_one {}' \
    | tee -a "$OUT/results.tsv"
rm -rf "$FERROCL_CACHE_DIR" "$POCL_CACHE_DIR"

{
    printf '%-20s %s\n' "mode" "$MODE"
    printf '%-20s %s\n' "kernels" "$(wc -l <"$OUT/results.tsv")"
    for c in agree mismatch-opt mismatch-noopt refdiff crash timeout buildfail ref-bad genfail; do
        printf '%-20s %s\n' "$c" "$(awk -F'\t' -v c=$c '$2==c' "$OUT/results.tsv" | wc -l)"
    done
} | tee "$OUT/summary.txt"
