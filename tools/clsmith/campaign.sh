#!/usr/bin/env bash
# Differential fuzzing of ferrocl with CLsmith's random OpenCL C kernels.
#
# Each kernel runs in three configurations and their outputs are compared:
#   ref    the reference implementation (REF: PoCL or Intel's CPU runtime),
#          run first; when it crashes, the second reference (REF2) takes its
#          place; when neither gives an output, or the first fails to build
#          the kernel or times out, the kernel is not usable and ferrocl is
#          not run at all
#   opt    ferrocl, default build options
#   noopt  ferrocl, -cl-opt-disable (cl_launcher's ---disable_opts)
# When ferrocl's output differs from the reference, the second reference
# (REF2) runs too and decides whether ferrocl or the reference is wrong.
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
#   tools/clsmith/campaign.sh table RESULTS_DIR...
#   MODE: basic vectors barriers atomics atomic_reductions emi
#         fake_divergence inter_thread_comm
#         all (--vectors --barriers --atomics --atomic_reductions --emi,
#              the CLsmith paper's ALL mode)
#   `table` prints a Markdown table with one row per results directory (the
#   OUT of earlier runs), named after the directory.
#   Environment:
#     FERROCL_ICD  ferrocl for OCL_ICD_VENDORS (default: target/release/libferrocl.so)
#     REF          first reference: pocl (default) or intel
#     REF2         second reference, run only to settle a difference: intel
#                  (default when REF=pocl), pocl (default when REF=intel) or none
#     POCL_ICD     PoCL for OCL_ICD_VENDORS (default: /etc/OpenCL/vendors/pocl.icd)
#     INTEL_ICD    vendors directory or .icd file for Intel's CPU runtime
#                  (default: /work/intel-icd)
#     INTEL_LIB    directory put in front of LD_LIBRARY_PATH when Intel's
#                  runtime runs (default: /work/venv-intel/lib)
#     OUT          results directory (default: /work/clsmith-runs/MODE), keep it
#                  outside the repository
#     TIMEOUT      seconds per run (default 20)
#     JOBS         kernels in parallel (default 2)
#     DEADLINE     epoch seconds; seeds not started by then are skipped (and
#                  not recorded), so a campaign can be stopped on time
#
# Output: OUT/results.tsv (seed, class, status of opt, noopt, ref, ref2, and
# the name of the reference whose output counted) and OUT/summary.txt
# (counts per class).
# The kernels (with every output and stderr) of every class except agree and
# ref-bad are kept in OUT/keep/<class>/<seed>/; others are deleted.
# A status is ok, build (build failure), crash (signal), error (other
# failure), timeout, or - (not run).
#
# Classes:
#   agree            ferrocl opt, ferrocl noopt and the reference agree
#   mismatch-opt     ferrocl opt differs, noopt == reference (ferrocl bug)
#   mismatch-noopt   ferrocl noopt differs, opt == reference (ferrocl bug)
#   mismatch-both    opt and noopt both differ from the reference, and the
#                    second reference agrees with the first (ferrocl bug)
#   refdiff          the references disagree with each other, or opt and
#                    noopt agree against the reference with no usable second
#                    reference (a reference bug or undefined behaviour)
#   crash            a ferrocl run died (signal or non-build error)
#   timeout          a ferrocl run timed out where the reference finished
#   buildfail        ferrocl failed to build a kernel the reference built
#   ref-bad          the reference failed or timed out (kernel not usable)
#   genfail          CLsmith failed to generate a kernel
#
# CLsmith quirk: --barriers kernels can use emi_input without declaring it;
# those seeds are regenerated with --emi as well.
set -u

CLASSES="agree mismatch-opt mismatch-noopt mismatch-both refdiff crash timeout buildfail ref-bad genfail"

if [ "${1:-}" = table ]; then
    shift
    echo "| mode | run | agree | ferrocl mismatch (opt / noopt / both) | crash | ferrocl timeout | build failure | reference disagreement | reference unusable | generator failed |"
    echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    for dir in "$@"; do
        awk -F'\t' -v mode="$(basename "$dir")" '
            { n[$2]++; total++ }
            END {
                printf "| %s | %d | %d | %d (%d / %d / %d) | %d | %d | %d | %d | %d | %d |\n", mode, total,
                    n["agree"], n["mismatch-opt"] + n["mismatch-noopt"] + n["mismatch-both"],
                    n["mismatch-opt"], n["mismatch-noopt"], n["mismatch-both"], n["crash"],
                    n["timeout"], n["buildfail"], n["refdiff"], n["ref-bad"], n["genfail"]
            }' "$dir/results.tsv"
    done
    exit 0
fi

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
INTEL_ICD=${INTEL_ICD:-/work/intel-icd}
INTEL_LIB=${INTEL_LIB:-/work/venv-intel/lib}
REF=${REF:-pocl}
case $REF in
pocl) REF2=${REF2:-intel} ;;
intel) REF2=${REF2:-pocl} ;;
*) echo "REF must be pocl or intel" >&2; exit 2 ;;
esac
case $REF2 in pocl | intel | none) ;; *) echo "REF2 must be pocl, intel or none" >&2; exit 2 ;; esac
OUT=${OUT:-/work/clsmith-runs/$MODE}
TIMEOUT=${TIMEOUT:-20}
JOBS=${JOBS:-2}
DEADLINE=${DEADLINE:-}

case $MODE in
basic) GENFLAGS="" ;;
vectors) GENFLAGS="--vectors" ;;
barriers) GENFLAGS="--barriers" ;;
atomics) GENFLAGS="--atomics" ;;
atomic_reductions) GENFLAGS="--atomic_reductions" ;;
emi) GENFLAGS="--emi" ;;
fake_divergence) GENFLAGS="--fake_divergence" ;;
inter_thread_comm) GENFLAGS="--inter_thread_comm" ;;
all) GENFLAGS="--vectors --barriers --atomics --atomic_reductions --emi" ;;
*) echo "unknown mode $MODE" >&2; exit 2 ;;
esac

if [ -z "${CLSMITH_SRC:-}" ]; then
    CLSMITH_SRC=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$BUILD/CMakeCache.txt" 2>/dev/null)
fi
for f in "$BUILD/CLSmith" "$BUILD/cl_launcher" "$BUILD/safe_math_macros.h" \
    "$BUILD/cl_safe_math_macros.h" "$CLSMITH_SRC/runtime/CLSmith.h" "$FERROCL_ICD"; do
    [ -e "$f" ] || { echo "missing $f" >&2; exit 2; }
done
for r in $REF $REF2; do
    case $r in
    pocl) [ -e "$POCL_ICD" ] || { echo "missing $POCL_ICD" >&2; exit 2; } ;;
    intel) [ -e "$INTEL_ICD" ] || { echo "missing $INTEL_ICD" >&2; exit 2; } ;;
    esac
done

mkdir -p "$OUT/include" "$OUT/work" "$OUT/keep"
cp "$BUILD/safe_math_macros.h" "$BUILD/cl_safe_math_macros.h" \
    "$CLSMITH_SRC/runtime/CLSmith.h" "$OUT/include/"
# Private kernel caches, so the campaign neither fills nor reads the user's.
export FERROCL_CACHE_DIR=$OUT/work/ferrocl-cache
export POCL_CACHE_DIR=$OUT/work/pocl-cache
export POCL_KERNEL_CACHE=0
export BUILD OUT TIMEOUT GENFLAGS FERROCL_ICD POCL_ICD INTEL_ICD INTEL_LIB REF REF2 MODE DEADLINE

# launch DIR CFG: runs cl_launcher on DIR/kernel.cl in configuration CFG
# (opt, noopt, pocl or intel) and prints its status.
launch() {
    local d=$1 cfg=$2 icd=$FERROCL_ICD extra="" lib=${LD_LIBRARY_PATH:-} rc
    case $cfg in
    noopt) extra="---disable_opts" ;;
    pocl) icd=$POCL_ICD ;;
    intel) icd=$INTEL_ICD lib=$INTEL_LIB${lib:+:$lib} ;;
    esac
    (cd "$d" && LD_LIBRARY_PATH=$lib OCL_ICD_VENDORS=$icd timeout -k 5 "$TIMEOUT" \
        "$BUILD/cl_launcher" -f kernel.cl -p 0 -d 0 -i "$OUT/include" \
        ---debug $extra >"$cfg.out" 2>"$cfg.err")
    rc=$?
    echo $rc >"$d/$cfg.rc"
    if [ $rc -eq 0 ]; then echo ok
    elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then echo timeout
    elif [ $rc -gt 128 ]; then echo crash
    elif grep -q "Error building program" "$d/$cfg.err"; then echo build
    else echo error; fi
}

# run_one SEED: generate, run, classify; prints one TSV line.
run_one() {
    local seed=$1 d="$OUT/work/$1"
    if [ -n "$DEADLINE" ] && [ "$(date +%s)" -ge "$DEADLINE" ]; then return; fi
    rm -rf "$d"; mkdir -p "$d"
    if ! (cd "$d" && timeout -k 5 30 "$BUILD/CLSmith" --seed "$seed" $GENFLAGS -o kernel.cl >gen.log 2>&1) \
        || [ ! -s "$d/kernel.cl" ]; then
        printf '%s\tgenfail\t-\t-\t-\t-\t%s\n' "$seed" "$REF"; rm -rf "$d"; return
    fi
    # CLsmith's --barriers alone sometimes emits EMI blocks that read an
    # undeclared emi_input; such a seed is generated again with --emi added.
    if grep -q 'emi_input\[' "$d/kernel.cl" && ! grep -q '\*emi_input' "$d/kernel.cl"; then
        (cd "$d" && timeout -k 5 30 "$BUILD/CLSmith" --seed "$seed" $GENFLAGS --emi -o kernel.cl >gen.log 2>&1)
    fi
    local ref opt=- noopt=- ref2=- cls refname=$REF decider=$REF2
    ref=$(launch "$d" "$REF")
    # A reference that crashes (or fails other than in its build) is
    # replaced by the second one, which then has no one to check it.
    if { [ "$ref" = crash ] || [ "$ref" = error ]; } && [ "$REF2" != none ]; then
        ref2=$(launch "$d" "$REF2")
        [ "$ref2" = ok ] && refname=$REF2 decider=none
    fi
    if [ "$ref" != ok ] && [ "$refname" = "$REF" ]; then
        cls=ref-bad
    else
        opt=$(launch "$d" opt)
        noopt=$(launch "$d" noopt)
        if [ "$opt" = build ] || [ "$noopt" = build ]; then cls=buildfail
        elif [ "$opt" = crash ] || [ "$noopt" = crash ] \
            || [ "$opt" = error ] || [ "$noopt" = error ]; then cls=crash
        elif [ "$opt" = timeout ] || [ "$noopt" = timeout ]; then cls=timeout
        else
            local o n r r2=""
            o=$(md5sum <"$d/opt.out"); n=$(md5sum <"$d/noopt.out"); r=$(md5sum <"$d/$refname.out")
            if [ "$o" = "$r" ] && [ "$n" = "$r" ]; then cls=agree
            else
                if [ "$decider" != none ]; then
                    ref2=$(launch "$d" "$decider")
                    [ "$ref2" = ok ] && r2=$(md5sum <"$d/$decider.out")
                fi
                if [ -n "$r2" ] && [ "$r2" != "$r" ]; then cls=refdiff
                elif [ "$n" = "$r" ]; then cls=mismatch-opt
                elif [ "$o" = "$r" ]; then cls=mismatch-noopt
                elif [ -n "$r2" ]; then cls=mismatch-both
                else cls=refdiff; fi
            fi
        fi
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$seed" "$cls" "$opt" "$noopt" "$ref" "$ref2" "$refname"
    case $cls in
    agree | ref-bad) rm -rf "$d" ;;
    *) rm -rf "$OUT/keep/$cls/$seed"; mkdir -p "$OUT/keep/$cls"
       rm -f "$d/gen.log"; mv "$d" "$OUT/keep/$cls/$seed" ;;
    esac
}
export -f launch run_one

seq "$FIRST" $((FIRST + COUNT - 1)) | xargs -P "$JOBS" -I{} bash -c 'run_one {}' \
    | tee -a "$OUT/results.tsv"
rm -rf "$FERROCL_CACHE_DIR" "$POCL_CACHE_DIR"

{
    printf '%-20s %s\n' "mode" "$MODE"
    printf '%-20s %s\n' "kernels" "$(wc -l <"$OUT/results.tsv")"
    for c in $CLASSES; do
        printf '%-20s %s\n' "$c" "$(awk -F'\t' -v c=$c '$2==c' "$OUT/results.tsv" | wc -l)"
    done
} | tee "$OUT/summary.txt"
