#!/usr/bin/env bash
# What barriers and hazard validation cost, in one run: recording a barrier (the `calls` bench), the GPU model's response
# per barrier (the `execute` bench's gpu_model group) and the frame demo's execution under
# validation off / on / hazards (seven runs of each, interleaved).
#
# usage: barrier_costs.sh DIR OUT   DIR holds the `calls` and `execute` bench executables (from
#        target/release/deps/ after `cargo bench -p criterion-benches --no-run`) and `frame`
#        (target/release/frame); OUT receives calls.txt, execute.txt and frame.{off,on,hazards}.txt
set -uo pipefail
dir=$1
out=$2
mkdir -p "$out"
CRITERION_HOME=$out/criterion "$dir/calls" --bench --noplot --warm-up-time 1 --measurement-time 3 \
  'calls/(texture_barrier|set_constant_buffers|draw_indexed)/' > "$out/calls.txt" 2>&1
CRITERION_HOME=$out/criterion "$dir/execute" --bench --noplot --warm-up-time 1 --measurement-time 3 \
  gpu_model > "$out/execute.txt" 2>&1
rm -rf "$out/criterion"
for round in 1 2 3 4 5 6 7; do
  for v in off on hazards; do
    "$dir/frame" --draws 20000 --frames 9 --semantics fast --bundles off --barriers \
      --validation $v >> "$out/frame.$v.txt" 2>&1
  done
done
