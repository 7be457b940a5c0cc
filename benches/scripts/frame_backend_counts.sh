#!/usr/bin/env bash
# Instructions per draw of the Vulkan backend's translation of the frame demo's draws (R-GPU-6):
# `frame --backend vulkan` under cachegrind on lavapipe at two draw counts, each function's own
# instructions (cg_annotate --threshold=0, summed by function name: what the compiler inlined
# counts in its caller), the difference divided by the draws that differ, grouped by who runs it.
# Only the frame's execute phase depends on the draw count beyond recording, which the model-only
# groups show; lavapipe's own code (no symbols, JIT) is its own group.
#
#   CARGO_PROFILE_RELEASE_DEBUG=1 cargo build --release -p benches --features benches/vulkan --bin frame
#   benches/scripts/frame_backend_counts.sh target/release/frame [LOW HIGH] [EXTRA FRAME ARGS...]
#
# Never more than ~4,000 draws on lavapipe (a frame of 20,000 takes minutes under cachegrind).
set -euo pipefail
bin=$1
low=${2:-1000}
high=${3:-2000}
extra=("${@:4}")
out=$(mktemp -d)
run() {
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$out/cg.$1" \
        "$bin" --backend vulkan --draws "$1" --frames 1 --threads 1 --semantics fast \
        --bundles off --gpu inline "${extra[@]}" >"$out/log.$1" 2>&1 || { cat "$out/log.$1"; exit 1; }
    cg_annotate --threshold=0 --auto=no --show-percs=no "$out/cg.$1" \
        | awk '/^ *[0-9,]+ +[^ ]+:/ { n=$1; gsub(",", "", n); f=$2; sub(/^[^:]*:/, "", f); s[f]+=n }
               END { for (f in s) print s[f] "\t" f }' >"$out/fn.$1"
}
run "$low"
run "$high"
# The draws that differ: the oracle's count where it is on, else the frames' draws.
draws=$(( (high - low) * 2 ))
echo "per draw over $draws draws (two frames: the warm-up and the timed one)"
awk -F'\t' -v d="$draws" '
    FNR == NR { a[$2] = $1; next }
    { b[$2] = $1 }
    END {
        for (f in b) diff[f] = b[f] - a[f]
        for (f in a) if (!(f in b)) diff[f] = -a[f]
        for (f in diff) {
            g = "other (std, the recorder, the demo)"
            if (f ~ /vulkan_backend/) g = "the backend (vulkan_backend::)"
            else if (f ~ /^\?\?\?$|lvp_|llvm|LLVM|^0x/) g = "lavapipe and LLVM (no symbols or C)"
            else if (f ~ /backend_command|backend_draw|DrawChanges/) g = "the hand-over (backend_command, backend_draw)"
            else if (f ~ /Draw::graphics|Stages|StageView|Draw::stages|Draw::vertex_buffers/) g = "the record accessors"
            else if (f ~ /^executor::/) g = "the model (executor::)"
            else if (f ~ /malloc|free|realloc|memcpy|memmove|memset/) g = "libc (malloc, free, memcpy)"
            else if (f ~ /hashbrown|hash|Hash/) g = "hashing (not inlined)"
            s[g] += diff[f]; t += diff[f]
        }
        for (g in s) printf "%12.1f  %s\n", s[g] / d, g
        printf "%12.1f  whole process\n", t / d
    }' "$out/fn.$low" "$out/fn.$high" | sort -k2
echo "top functions (per draw):"
awk -F'\t' -v d="$draws" 'FNR == NR { a[$2] = $1; next } { x = ($1 - a[$2]) / d; if (x > 5 || x < -5) printf "%10.1f  %s\n", x, $2 }' \
    "$out/fn.$low" "$out/fn.$high" | sort -rn | head -60
grep -h "backend:\|execute" "$out/log.$high" | head -20
rm -rf "$out"
