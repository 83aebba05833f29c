#!/usr/bin/env bash
# ferrocl cts-subset runner.
#
# Compiles every cts-subset/<suite>/*.c into $CTS_BUILD_DIR (default
# /tmp/ferrocl-cts-build), runs each program with a timeout and counts the
# PASS/FAIL lines.  A program that fails to compile, crashes, times out or
# exits non-zero without printing a FAIL line counts as one failure named after
# the program.  Every FAIL (and SKIP) line is echoed; the last line is exactly
# "N passed, N failed"; exit status is 0 iff nothing failed.
#
# The OpenCL driver is whatever the ICD loader picks, e.g.
#   OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd bash cts-subset/run.sh
#   OCL_ICD_VENDORS=/work/main/target/release/libferrocl.so bash cts-subset/run.sh
# Optional: CTS_TIMEOUT (seconds per program, default 300), CC, CTS_FILTER
# (regex on the program path, e.g. "events/"), CTS_VERBOSE=1 (every failed
# check on stderr, not just the first), CTS_NOFORK=1.
set -u

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="${CTS_BUILD_DIR:-/tmp/ferrocl-cts-build}"
tmo="${CTS_TIMEOUT:-300}"
cc="${CC:-cc}"
filter="${CTS_FILTER:-}"
mkdir -p "$build" || exit 2

passed=0
failed=0

fail_prog() { # name reason
    echo "FAIL $1: $2"
    failed=$((failed + 1))
}

# Build the harness once.
if ! "$cc" -O1 -Wall -Werror -DCL_TARGET_OPENCL_VERSION=300 -I"$here/common" \
        -c "$here/common/harness.c" -o "$build/harness.o" 2>"$build/harness.log"; then
    cat "$build/harness.log" >&2
    fail_prog "common/harness" "does not compile"
    echo "$passed passed, $failed failed"
    exit 1
fi

for src in "$here"/*/*.c; do
    rel="${src#"$here"/}"
    case "$rel" in common/*) continue ;; esac
    if [ -n "$filter" ] && ! [[ "$rel" =~ $filter ]]; then continue; fi
    name="${rel%.c}"
    exe="$build/${name//\//_}"
    log="$exe.out"
    if ! "$cc" -O1 -Wall -Werror -DCL_TARGET_OPENCL_VERSION=300 -I"$here/common" \
            "$src" "$build/harness.o" -o "$exe" -lOpenCL -lpthread -lm 2>"$exe.cc.log"; then
        cat "$exe.cc.log" >&2
        fail_prog "$name" "does not compile"
        continue
    fi
    timeout -k 5 "$tmo" "$exe" >"$log" 2>"$exe.err"
    rc=$?
    p=$(grep -c '^PASS ' "$log")
    f=$(grep -c '^FAIL ' "$log")
    passed=$((passed + p))
    failed=$((failed + f))
    grep -E '^(FAIL|SKIP) ' "$log"
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
        fail_prog "$name" "timed out after ${tmo}s"
    elif [ "$rc" -gt 128 ]; then
        fail_prog "$name" "crashed (signal $((rc - 128)))"
    elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        fail_prog "$name" "exited with status $rc without a FAIL line"
    fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
