#!/usr/bin/env bash
# The kernel corpus side by side: ferrocl, PoCL and Intel's CPU runtime in
# one sitting, a table of per-kernel ratios and their geometric mean.
#
#   bash benches/corpus/run.sh [run.py args: --only SUBSTR --rounds N --json F]
#
# Environment:
#   FERROCL_LIB    ferrocl's library (default target/release/libferrocl.so)
#   POCL_ICD       PoCL's .icd file (default /etc/OpenCL/vendors/pocl.icd;
#                  `apt-get install pocl-opencl-icd` provides it)
#   INTEL_OCL_LIB  Intel's libintelocl.so (column left out when unset), e.g.
#                  from `pip install intel-opencl-rt intel-cmplr-lib-rt` in a
#                  venv outside the project: <venv>/lib/libintelocl.so
#   CORPUS_DIR     where the venv goes (default target/corpus)
set -euo pipefail
cd "$(dirname "$0")/../.."
DIR=${CORPUS_DIR:-$PWD/target/corpus}
VENV=$DIR/venv
# pyopencl's wheel bundles ocl-icd's loader, which reads OCL_ICD_VENDORS.
PINS=(pyopencl==2026.1.4 pytools==2026.1.1 platformdirs==4.3.8 siphash24==1.9
  typing_extensions==4.16.0 numpy==2.4.6)
if [ ! -x "$VENV/bin/python" ] || [ "$(cat "$VENV/pins" 2>/dev/null)" != "${PINS[*]}" ]; then
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check "${PINS[@]}"
  echo "${PINS[*]}" > "$VENV/pins"
fi
export CORPUS_TMP=$DIR
exec "$VENV/bin/python" benches/corpus/run.py "$@"
