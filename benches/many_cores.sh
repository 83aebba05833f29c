#!/usr/bin/env bash
# many_cores.sh [LIB...]: issue 14's figures at 1, 2, 4, 8 and 16 cores
# (taskset -c 0, 0-1, 0-3, 0-7, 0-15; sets beyond the machine's CPUs are
# skipped) for the OpenCL library OCL_ICD_VENDORS names, and for each LIB
# named on the command line beside it (a .so, or a .so.gz unpacked to /tmp
# first: ferrocl's main branch, say). Libraries alternate within each round,
# so a burst of load hits them alike. Figures:
#   kernel_chain_us_per_kernel   2,000 kernels of 64 work-items chained by
#                                events on an out-of-order queue
#   kernel_launch_us_per_kernel  10,000 empty kernels (global size 1), clFinish
#   kernel_roundtrip_us          enqueue + clFinish of an empty kernel
#   kernel_roundtrip_busy_us     the same with every allowed core busy with
#                                another process
#   ooo_chain_marker_us_per_cmd, roundtrip_us   the same without a kernel
#   vadd_gbps, stream_add_gbps   vector add of 64 Mi floats; plain C on the
#                                same cores (higher is better)
#   sgemm_naive_gflops           naive SGEMM 1024 (higher is better)
#   kernel_roundtrip_N_us        enqueue + clFinish of a kernel of N = 4 Ki,
#                                64 Ki, 1 Mi work-items (kernel_sizes_bench)
# Needs sched_bench, kernels_bench and kernel_sizes_bench on PATH (built
# with -march=x86-64-v3).
# Writes the raw output and summary.md (medians over rounds) to $R
# (default /tmp/results). MANY_CORES_ROUNDS (default 3), MANY_CORES_SETS
# (default "0 0-1 0-3 0-7 0-15"), MANY_CORES_SCHED (sched_bench's groups,
# default "kernel_chain kernel_launch kernel_roundtrip kernel_roundtrip_busy chain_marker
# roundtrip"; leave chain_marker out for PoCL 3.1, which hangs on it until
# the 10 s watchdog), MANY_CORES_KERNELS (kernels_bench's, default "vadd
# sgemm_naive").
set -u
R=${R:-/tmp/results}
mkdir -p "$R"
rounds=${MANY_CORES_ROUNDS:-3}
sets=${MANY_CORES_SETS:-"0 0-1 0-3 0-7 0-15"}
sched_groups=${MANY_CORES_SCHED:-"kernel_chain kernel_launch kernel_roundtrip kernel_roundtrip_busy chain_marker roundtrip"}
kernel_groups=${MANY_CORES_KERNELS:-"vadd sgemm_naive"}
cpus=$(nproc --all)

libs=("${OCL_ICD_VENDORS:?OCL_ICD_VENDORS names the library to measure}")
for l in "$@"; do
    case $l in
    *.gz) out=/tmp/$(basename "${l%.gz}"); gunzip -c "$l" > "$out" && libs+=("$out") ;;
    *) libs+=("$l") ;;
    esac
done
# A label per library: its file name without directory and extension.
label() { basename "$1" | sed 's/\.so.*//; s/\.icd$//'; }

echo "# $(date -u) cores: $cpus; $(grep -m1 'model name' /proc/cpuinfo)" | tee "$R/info.txt"
for l in "${libs[@]}"; do echo "# library $(label "$l"): $l" | tee -a "$R/info.txt"; done

for round in $(seq "$rounds"); do
    for set in $sets; do
        last=${set#*-}
        if [ "$last" -ge "$cpus" ]; then continue; fi
        for l in "${libs[@]}"; do
            lab=$(label "$l")
            echo "round $round, cpus $set, $lab" >&2
            out=$R/raw.$lab.$set.$round.txt
            OCL_ICD_VENDORS=$l OCL_ICD_FILENAMES=$l taskset -c "$set" \
                sched_bench $sched_groups > "$out" 2>&1
            OCL_ICD_VENDORS=$l OCL_ICD_FILENAMES=$l KERNEL_BENCH_VADD_MI=64 \
                timeout 300 taskset -c "$set" kernels_bench $kernel_groups >> "$out" 2>&1
            OCL_ICD_VENDORS=$l OCL_ICD_FILENAMES=$l timeout 60 taskset -c "$set" \
                kernel_sizes_bench >> "$out" 2>&1
        done
    done
done

# summary.md: one table per library, a row per figure, a column per set.
{
    for l in "${libs[@]}"; do
        lab=$(label "$l")
        echo "## $lab (median of $rounds rounds)"
        echo
        header="| figure |"; rule="|---|"
        for set in $sets; do
            [ "${set#*-}" -ge "$cpus" ] && continue
            header="$header $set |"; rule="$rule---|"
        done
        echo "$header"; echo "$rule"
        for fig in kernel_chain_us_per_kernel kernel_launch_us_per_kernel kernel_roundtrip_us kernel_roundtrip_busy_us \
            ooo_chain_marker_us_per_cmd roundtrip_us vadd_gbps stream_add_gbps sgemm_naive_gflops \
            kernel_roundtrip_4096_us kernel_roundtrip_65536_us kernel_roundtrip_1048576_us; do
            row="| $fig |"
            for set in $sets; do
                [ "${set#*-}" -ge "$cpus" ] && continue
                m=$(cat "$R"/raw."$lab"."$set".*.txt 2>/dev/null |
                    awk -v f="$fig" '$1 == f && $2 != "NA" { print $2 }' | sort -g |
                    awk '{ v[NR] = $1 } END { if (NR == 0) print "NA";
                          else if (NR % 2) print v[(NR + 1) / 2];
                          else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
                row="$row $m |"
            done
            echo "$row"
        done
        echo
    done
} > "$R/summary.md"
cat "$R/summary.md"
