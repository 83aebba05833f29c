#!/usr/bin/env bash
# many_cores.sh IMPL: the corpus for one implementation (ferrocl or pocl) on
# a many-core machine without network, packed by ../shared/many-cores/:
#
#   pip download --only-binary=:all: --python-version 3.12 \
#     --platform manylinux_2_28_x86_64 --implementation cp --no-deps \
#     -d WHEELS pyopencl==2026.1.4 pytools==2026.1.1 platformdirs==4.3.8 \
#     siphash24==1.9 typing_extensions==4.16.0
#   ../shared/many-cores/pack.sh benches/corpus/many_cores.sh WHEELS/*.whl
#   there: bash .devcarry/on-device.sh 'many_cores.sh ferrocl'
#          (a PoCL pack: on-device.sh pocl 'many_cores.sh pocl')
#
# The wheels (found beside this script, in .devcarry/bin) are unpacked for
# the machine's python3, which must have numpy (the H200 hosts lent here
# have Python 3.12 and numpy 2.5). The library measured is the one
# on-device.sh selects (OCL_ICD_VENDORS). Records and table go to
# $R/corpus-IMPL.json and .txt; `run.py --from` on the files of several
# runs merged prints the side-by-side table. SECONDS_PER_CASE (default 0.3)
# as run.py's --seconds.
set -euo pipefail
impl=${1:?ferrocl or pocl}
R=${R:-/tmp/results}
bin=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$bin/../.." && pwd)
py=/tmp/corpus-python
mkdir -p "$py" "$R" /tmp/corpus
for w in "$bin"/*.whl; do python3 -m zipfile -e "$w" "$py"; done
export PYTHONPATH=$py CORPUS_TMP=/tmp/corpus
case $impl in
ferrocl) export FERROCL_LIB=$OCL_ICD_VENDORS ;;
pocl) export POCL_ICD=$OCL_ICD_VENDORS ;;
*) echo "many_cores.sh: ferrocl or pocl, not $impl" >&2; exit 2 ;;
esac
python3 "$repo/benches/corpus/run.py" --impls "$impl" --seconds "${SECONDS_PER_CASE:-0.3}" \
    --json "$R/corpus-$impl.json" > "$R/corpus-$impl.txt" 2>&1
tail -5 "$R/corpus-$impl.txt"
