#!/usr/bin/env bash
# The layers are crates (README, Layout): cl, compiler, sched and core each
# depend only on those below them, so cargo refuses an upward use among
# them. What is left to check is inside the main crate: the API layer must
# not reach up into the entry-point table or the ICD glue (entry_points,
# icd), which sit above it.
set -euo pipefail
cd "$(dirname "$0")/.."

# The crate:: modules the API layer may name.
allowed="api cl compiler core sched"

status=0
while IFS= read -r file; do
    for used in $(grep -o 'crate::[a-z_]*' "$file" | sed 's/crate:://' | sort -u); do
        case " $allowed " in *" $used "*) continue ;; esac
        echo "$file: the api layer uses crate::$used, a layer above it" >&2
        status=1
    done
done < <(find src/api -name '*.rs' | sort)
# And each layer crate's manifest names only the crates below it.
check_deps() {
    local manifest=$1 allowed=$2
    for dep in $(grep -o '^ferrocl-[a-z]*' "$manifest" | sort -u); do
        case " $allowed " in *" $dep "*) continue ;; esac
        echo "$manifest: depends on $dep, a layer above it" >&2
        status=1
    done
}
check_deps src/cl/Cargo.toml ""
check_deps src/compiler/Cargo.toml ""
check_deps src/sched/Cargo.toml "ferrocl-cl ferrocl-compiler"
check_deps src/core/Cargo.toml "ferrocl-cl ferrocl-compiler ferrocl-sched"
[ "$status" = 0 ] && echo "layers point one way"
exit "$status"
