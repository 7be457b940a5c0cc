#!/usr/bin/env bash
# Instructions per iteration of the count_record, count_execute and count_bundles mixes, as docs/performance.md
# quotes them: each binary run under cachegrind for N = 1 and N = 11 iterations, the difference
# divided by 10 (deterministic, so one run is enough).
#
#   cargo build --release -p benches --example count_record --example count_execute \
#       --example count_bundles --example count_workload
#   benches/scripts/count_instructions.sh target/release/examples
set -euo pipefail
dir=${1:-target/release/examples}
irefs() {
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1 \
        | sed -n 's/.*I *refs: *//p' | tr -d ','
}
per() { local a b; a=$(irefs "$@" 1); b=$(irefs "$@" 11); echo $(((b - a) / 10)); }
# The same with the context after the iterations (count_record's capture modes).
per_on() { local ctx=$1 a b; shift; a=$(irefs "$@" 1 "$ctx"); b=$(irefs "$@" 11 "$ctx"); echo $(((b - a) / 10)); }
for mix in "full fast" "full legacy" "draws fast" "draws legacy" "state fast" "state legacy"; do
    # shellcheck disable=SC2086 # the mix is two arguments
    echo "count_record $mix $(per "$dir/count_record" $mix)"
done
# The capture (R-CAP-1): idle (one branch a call) and capturing (every call kept, its
# lists in the context's arena), on the one-call `binds` (three one-slot binds a step) and the
# full mix; 30,000 and 33,941 calls an iteration.
for mix in "binds fast" "full fast"; do
    for ctx in capture_idle capturing; do
        # shellcheck disable=SC2086
        echo "count_record $mix $ctx $(per_on "$ctx" "$dir/count_record" $mix)"
    done
done
for mode in "detached 1000" "detached 100" "consume" "bundles"; do
    # shellcheck disable=SC2086
    echo "count_execute $mode $(per "$dir/count_execute" $mode)"
done
for mode in bundles long list "run fast" "run legacy"; do
    # 100,000 draws an iteration: divide by it for the cost per draw. `run`: the workload
    # harness's list rows (record, finish, execute detached, drop).
    # shellcheck disable=SC2086 # `run` modes are two arguments
    echo "count_bundles $mode $(per "$dir/count_bundles" $mode)"
done
for mode in capture-idle capturing fast legacy probe consume; do
    # The workload harness's rows: the capture's (R-CAP-1: the render workload's fast list of
    # 10,000 draws recorded, finished and dropped on a capture's deferred context), the fast and
    # legacy lists, the append probe, and the GPU model consuming the fast list; divide by 10,000.
    echo "count_workload $mode $(per "$dir/count_workload" $mode)"
done
