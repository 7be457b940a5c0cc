#!/usr/bin/env bash
# The runs the render-bundle workload's figures (docs/performance.md) come from, in one call: the `workload` harness of two builds
# side by side (DIR/before/workload, DIR/after/workload: `cargo build --release -p benches --bin
# workload`, copied and `strip --strip-debug`ped), the scaling over 1, 2, 4, 8 and 16 threads, the
# criterion benches named in BENCHES of both builds alternately (DIR/before/BENCH, DIR/after/BENCH
# from target/release/deps/ after `cargo bench -p criterion-benches --no-run`; a bench missing from one side
# runs on the other alone), and the frame demo's bundle recording at two sizes (DIR/after/frame).
#
# A BENCHES entry is a bench's name, or NAME=FILTER to run only the benchmarks whose id
# contains FILTER (criterion's filter argument).
#
# usage: workload_figures.sh DIR OUT [BENCHES...]
#   -> OUT/workload.txt, OUT/medians.txt ("before|after/GROUP/ID MEDIAN_NS"), OUT/frame.txt
set -euo pipefail
dir=$1
out=$2
shift 2
benches=("$@")
mkdir -p "$out"
{
  for side in before after; do
    echo "== $side"
    "$dir/$side/workload" --runs 21 --threads 1,2,4,8,16
  done
} > "$out/workload.txt" 2>&1
for entry in "${benches[@]}"; do
  bench=${entry%%=*}
  filter=()
  [ "$entry" != "$bench" ] && filter=("${entry#*=}")
  for side in before after; do
    [ -x "$dir/$side/$bench" ] || continue
    CRITERION_HOME=$out/criterion/$side "$dir/$side/$bench" --bench --noplot \
      --warm-up-time 1 --measurement-time 3 "${filter[@]}" > "$out/$bench.$side.log" 2>&1
  done
done
if [ -d "$out/criterion" ]; then
  find "$out/criterion" -path '*/new/estimates.json' | sort | while read -r f; do
    rel=${f#"$out"/criterion/}
    rel=${rel%/new/estimates.json}
    median=$(grep -o '"median":{"confidence_interval":{[^}]*},"point_estimate":[0-9.e+-]*' "$f" \
      | grep -o '[0-9.e+-]*$')
    echo "$rel $median"
  done > "$out/medians.txt"
  rm -rf "$out/criterion"
fi
if [ -x "$dir/after/frame" ]; then
  {
    for draws in 200000 4000000; do
      echo "== frame --draws $draws --semantics fast --frames 1"
      "$dir/after/frame" --draws "$draws" --semantics fast --frames 1
    done
  } > "$out/frame.txt" 2>&1
fi
