#!/usr/bin/env bash
# NumPy's operations through dpnp (Intel's NumPy on SYCL, from PyPI) on
# ferrocl and, beside it, Intel's CPU runtime: one process per operation
# and runtime, in turn, then a table of ms and ratios (issue 17: dpnp users'
# CPU path). Not part of `make test`; the venv (about 1.5 GB with oneMKL)
# goes to target/dpnp.
#
#   bash benches/dpnp/run.sh [operation ...]
#
# Environment:
#   FERROCL_LIB    ferrocl's library (default target/release/libferrocl.so)
#   INTEL_OCL_LIB  Intel's libintelocl.so (column left out when unset), e.g.
#                  from `pip install intel-opencl-rt intel-cmplr-lib-rt` in a
#                  venv outside the project: <venv>/lib/libintelocl.so
#   DPNP_DIR       where the venv goes (default target/dpnp)
set -euo pipefail
cd "$(dirname "$0")/../.."
DIR=${DPNP_DIR:-$PWD/target/dpnp}
VENV=$DIR/venv
FERROCL_LIB=${FERROCL_LIB:-$PWD/target/release/libferrocl.so}
PINS=(dpnp==0.20.0 dpctl==0.22.1)
if [ ! -x "$VENV/bin/python" ] || [ "$(cat "$VENV/pins" 2>/dev/null)" != "${PINS[*]}" ]; then
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check "${PINS[@]}"
  echo "${PINS[*]}" > "$VENV/pins"
fi
OPS=("$@")
if [ ${#OPS[@]} -eq 0 ]; then
  mapfile -t OPS < <(grep -o '^    "[a-z_0-9]*":' benches/dpnp/ops.py | tr -d ' ":')
fi
# The SYCL runtime's own loader (Khronos') reads OCL_ICD_FILENAMES; the
# wheel's libraries (libsvml) are found through LD_LIBRARY_PATH.
one() { # library extra-lib-dir op
  ONEAPI_DEVICE_SELECTOR=opencl:cpu SYCL_CACHE_PERSISTENT=0 OCL_ICD_FILENAMES="$1" \
    FERROCL_CACHE_DIR="$DIR/cache" LD_LIBRARY_PATH="$2$VENV/lib" \
    timeout 600 "$VENV/bin/python" benches/dpnp/ops.py "$3" 2>/dev/null | tail -1 | awk '{print $2}'
}
ratios=()
echo "| operation | ferrocl ms | Intel ms | Intel / ferrocl |"
echo "|---|---|---|---|"
for op in "${OPS[@]}"; do
  f=$(one "$FERROCL_LIB" "" "$op")
  i=""
  if [ -n "${INTEL_OCL_LIB:-}" ]; then
    i=$(one "$INTEL_OCL_LIB" "$(dirname "$INTEL_OCL_LIB"):" "$op")
  fi
  ratio=$(python3 -c "import sys
try: print(f'{float(sys.argv[2]) / float(sys.argv[1]):.2f}x')
except Exception: print('')" "${f:-x}" "${i:-x}")
  echo "| $op | ${f:-FAIL} | ${i:-} | $ratio |"
  [ -n "$ratio" ] && ratios+=("${ratio%x}")
done
if [ ${#ratios[@]} -gt 0 ]; then
  python3 -c "import math, sys
r = [float(x) for x in sys.argv[1:]]
print(f'geometric mean of (Intel / ferrocl) over {len(r)} operations: '
      f'{math.exp(sum(map(math.log, r)) / len(r)):.2f}x')" "${ratios[@]}"
fi
