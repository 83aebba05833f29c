#!/usr/bin/env bash
# Checks that builtins/lib is what the generators in builtins/gen produce
# today: runs them in a scratch copy and compares, leaving the tree alone.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cp -r "$here" "$scratch/gen"
mkdir "$scratch/lib"
(cd "$scratch/gen" && for g in gen_*.py; do python3 "$g" >/dev/null; done)
if ! diff -r -q "$scratch/lib" "$here/../lib"; then
    echo "builtins/lib differs from what builtins/gen generates:" \
         "run 'cd builtins/gen && for g in gen_*.py; do python3 \$g; done' and commit lib/" >&2
    exit 1
fi
echo "builtins/lib matches its generators"
