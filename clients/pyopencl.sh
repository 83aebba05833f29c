#!/usr/bin/env bash
# Runs PyOpenCL's own test suite (the test/ directory of its sdist, same
# version as the installed wheel) on ferrocl, or on any other ICD.
#
#   bash clients/pyopencl.sh [pytest args...]
#
# Environment:
#   FERROCL_LIB  the ICD library to test (default target/release/libferrocl.so);
#                e.g. FERROCL_LIB=/etc/OpenCL/vendors/pocl.icd for PoCL
#   CLIENTS_DIR  where the venv, the sdist and the results go (default
#                target/clients)
#   TIMEOUT      seconds per test before pytest-timeout fails it (default 300)
#
# Exits with pytest's status: non-zero when a test fails.
set -euo pipefail
cd "$(dirname "$0")/.."

# Pinned versions, dependencies included (pip freeze of a working venv).
# platformdirs stays below 4.4: later ones ignore a relative XDG_CACHE_HOME,
# as the XDG spec says, which PyOpenCL's test_xdg_cache_home sets (it fails
# there on PoCL too). pyopencl's wheel bundles ocl-icd's loader.
PYOPENCL_VERSION=2026.1.4
PINS=(
  "pyopencl==$PYOPENCL_VERSION" pytools==2026.1.1 platformdirs==4.3.8
  siphash24==1.9 typing_extensions==4.16.0 numpy==2.4.6
  mako==1.4.3 markupsafe==3.0.4
  pytest==9.2.0 pytest-timeout==2.4.0 pluggy==1.7.0 iniconfig==2.3.1
  packaging==26.4 pygments==2.21.0
  scipy==1.17.1 pyfmmlib==2026.1  # test_clmath.py's Bessel and Hankel tests
)

LIB=${FERROCL_LIB:-$PWD/target/release/libferrocl.so}
DIR=${CLIENTS_DIR:-$PWD/target/clients}
TIMEOUT=${TIMEOUT:-300}
VENV=$DIR/venv
SRC=$DIR/pyopencl-$PYOPENCL_VERSION

[ -e "$LIB" ] || { echo "no $LIB: run cargo build --release first" >&2; exit 2; }
mkdir -p "$DIR"

if [ ! -x "$VENV/bin/pytest" ] || [ "$(cat "$VENV/pins" 2>/dev/null)" != "${PINS[*]}" ]; then
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check "${PINS[@]}"
  echo "${PINS[*]}" > "$VENV/pins"
fi

if [ ! -d "$SRC/test" ]; then
  # The sdist only (its metadata is prepared in an isolated build
  # environment, nothing is compiled).
  "$VENV/bin/pip" download -q --disable-pip-version-check --no-deps \
    --no-binary pyopencl "pyopencl==$PYOPENCL_VERSION" -d "$DIR"
  tar -xzf "$DIR/pyopencl-$PYOPENCL_VERSION.tar.gz" -C "$DIR" \
    "pyopencl-$PYOPENCL_VERSION/test"
fi

# A fresh PyOpenCL binary cache per run (it keys on the platform's version
# strings, not on the library's build); ferrocl's own cache stays where it is.
export FERROCL_CACHE_DIR=${FERROCL_CACHE_DIR-${XDG_CACHE_HOME:-$HOME/.cache}/ferrocl}
export XDG_CACHE_HOME=$DIR/cache
rm -rf "$XDG_CACHE_HOME"
# An error of the binary cache (other than a build failure) is raised as is:
# unset, PyOpenCL 2026.1.4 ends in a KeyError for this very variable.
export PYOPENCL_CACHE_FAILURE_FATAL=1

# ocl-icd (bundled in the wheel, and Debian's) reads OCL_ICD_VENDORS (a
# library or an .icd file); the Khronos loader reads OCL_ICD_FILENAMES.
export OCL_ICD_VENDORS=$LIB
case $LIB in *.icd) export OCL_ICD_FILENAMES=$(cat "$LIB") ;; *) export OCL_ICD_FILENAMES=$LIB ;; esac
# Every platform the loader shows (here just the one) and all its devices.
unset PYOPENCL_TEST PYOPENCL_CTX

cd "$SRC/test"
exec "$VENV/bin/python" -m pytest -p no:cacheprovider -ra \
  --timeout="$TIMEOUT" --junitxml="$DIR/pyopencl.xml" "$@"
