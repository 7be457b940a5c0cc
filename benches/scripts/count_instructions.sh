#!/usr/bin/env bash
# Instructions per iteration of the count_record, count_execute and count_bundles mixes, as docs/performance.md
# quotes them: each binary run under cachegrind for N = 1 and N = 11 iterations, the difference
# divided by 10 (deterministic, so one run is enough).
#
#   cargo build --release -p benches --example count_record --example count_execute \
#       --example count_bundles
#   benches/scripts/count_instructions.sh target/release/examples
set -euo pipefail
dir=${1:-target/release/examples}
irefs() {
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1 \
        | sed -n 's/.*I *refs: *//p' | tr -d ','
}
per() { local a b; a=$(irefs "$@" 1); b=$(irefs "$@" 11); echo $(((b - a) / 10)); }
for mix in "full fast" "full legacy" "draws fast" "draws legacy" "state fast" "state legacy"; do
    # shellcheck disable=SC2086 # the mix is two arguments
    echo "count_record $mix $(per "$dir/count_record" $mix)"
done
for mode in "detached 1000" "detached 100" "consume"; do
    # shellcheck disable=SC2086
    echo "count_execute $mode $(per "$dir/count_execute" $mode)"
done
for mode in bundles long list; do
    # 100,000 draws an iteration: divide by it for the cost per draw.
    echo "count_bundles $mode $(per "$dir/count_bundles" $mode)"
done
