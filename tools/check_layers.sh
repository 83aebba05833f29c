#!/usr/bin/env bash
# Checks that the layers of the main crate use only the layers below them
# (README, Layout): entry_points/icd -> api -> core -> sched -> compiler,
# with cl (the C definitions) beneath all. ferrocl-compiler is a crate of its
# own, so cargo already refuses its upward uses; inside the main crate this
# script does. The edges the workspace split still has to remove are listed
# below, file by file: a new upward use anywhere else fails.
set -euo pipefail
cd "$(dirname "$0")/.."

# layer: the crate:: modules it may name.
declare -A allowed=(
    [api]="api cl compiler core"
    [core]="cl compiler core sched"
    [sched]="cl compiler sched"
)
# Known upward uses, to be removed (issue 15): the scheduler drives core's
# event graph and kernel launches.
known=(
    "src/sched/device_queue.rs core"
    "src/sched/here.rs core"
    "src/sched/mod.rs core"
    "src/sched/ndrange.rs core"
    "src/sched/pool.rs core"
    "src/sched/ndrange/tests.rs core"
    "src/sched/ndrange/tests.rs entry_points"
    "src/sched/tests.rs core"
)

status=0
for layer in "${!allowed[@]}"; do
    while IFS= read -r file; do
        for used in $(grep -o 'crate::[a-z_]*' "$file" | sed 's/crate:://' | sort -u); do
            case " ${allowed[$layer]} " in *" $used "*) continue ;; esac
            if printf '%s\n' "${known[@]}" | grep -qx "$file $used"; then
                continue
            fi
            echo "$file: the $layer layer uses crate::$used, a layer above it" >&2
            status=1
        done
    done < <(find "src/$layer" -name '*.rs' | sort)
done
[ "$status" = 0 ] && echo "layers point one way (known exceptions: ${#known[@]})"
exit "$status"
