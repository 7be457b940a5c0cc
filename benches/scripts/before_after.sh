#!/usr/bin/env bash
# Criterion medians of two builds side by side, in one run: the `record`, `execute` and `bundles`
# bench executables of each build in DIR/before/ and DIR/after/ (copied from
# target/release/deps/ after `cargo bench -p criterion-benches --no-run`; `strip --strip-debug` keeps them
# small enough to carry to another machine), run alternately bench by bench.
#
# usage: before_after.sh DIR OUT   -> OUT/medians.txt: "before|after/BENCH/ID MEDIAN_NS" lines
set -euo pipefail
dir=$1
out=$2
mkdir -p "$out"
for bench in record execute bundles; do
  for side in before after; do
    CRITERION_HOME=$out/criterion/$side "$dir/$side/$bench" --bench --noplot \
      --warm-up-time 1 --measurement-time 3 > "$out/$bench.$side.log" 2>&1
  done
done
find "$out/criterion" -path '*/new/estimates.json' | sort | while read -r f; do
  rel=${f#"$out"/criterion/}
  rel=${rel%/new/estimates.json}
  median=$(grep -o '"median":{"confidence_interval":{[^}]*},"point_estimate":[0-9.e+-]*' "$f" \
    | grep -o '[0-9.e+-]*$')
  echo "$rel $median"
done > "$out/medians.txt"
rm -rf "$out/criterion"
