#!/bin/bash
# The device run of the speed table (docs/performance.md): every row measured in one call, on
# one machine, each harness interleaving its paths in one process. Packed by
# device_vulkan_pack.sh (with `peer` when peer/target/release/peer is built); log and PNGs in $OUT.
#
#   benches/scripts/device_vulkan_pack.sh && cp benches/scripts/device_speed_run.sh .devbin/
#   then on the device, with .gl, .vvl and .devbin carried: bash .devbin/device_speed_run.sh
exec > "$OUT/log.txt" 2>&1
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
mkdir -p /tmp/vvl && dpkg -x .vvl/*.deb /tmp/vvl
export VK_LAYER_PATH=/tmp/vvl/usr/share/vulkan/explicit_layer.d
export LD_LIBRARY_PATH=/tmp/vvl/usr/lib/x86_64-linux-gnu
if [ -f /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ]; then
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
mkdir -p /tmp/bin && tar xJf .devbin/bin.tar.xz -C /tmp/bin && cd /tmp/bin || exit 1
date -u; nproc; grep -m1 "model name" /proc/cpuinfo
nvidia-smi --query-gpu=name,driver_version --format=csv
# The machine runs a process in a fast or a 2x slower mode, at random: each harness runs in three
# processes, so that the absolute rows are seen in both modes (the fast list's ns/draw tells which);
# the ratios are each process's own.
echo "== workload (model side): every path interleaved in rounds, T threads 1..16"
timeout 240 ./workload --runs 11 --threads 1,2,4,8,16
for p in 2 3; do
    echo "== workload (model side), process $p"
    timeout 120 ./workload --runs 11 --threads 1
done
# A one-process-per-binary A/B of an older build against this one, alternating (the ratios are
# each process's own), when the pack carries one as .devbin/workload_before (e.g. the legacy
# row before a recorder change).
if [ -x "$OLDPWD/.devbin/workload_before" ]; then
    cp "$OLDPWD/.devbin/workload_before" ./workload_before
    for p in 1 2 3; do
        for bin in workload_before workload; do
            echo "== A/B, $bin, process $p"
            timeout 120 ./$bin --runs 11 --threads 1 2>&1 | grep -E "^fast list  |^legacy|^ratios"
        done
    done
fi
echo "== workload on the Vulkan backend: model alone, model + backend, raw Vulkan, interleaved (oracle off, then on)"
for p in 1 2 3; do
    echo "-- process $p"
    timeout 120 ./workload --backend vulkan --draws 10000 --runs 11 --no-oracle
done
timeout 120 ./workload --backend vulkan --draws 10000 --runs 5
if [ -x ./peer ]; then
    echo "== peer comparison: this engine, wgpu 30 (noop backend), the naive recorder; T threads 1..16"
    timeout 240 ./peer --runs 11 --threads 1,2,4,8,16
fi
for round in 1 2; do
    echo "== frame demo, 20,000 draws, model alone (round $round)"
    ./frame --frames 5 2>&1 | grep -E "^== |execute on|execute CPU|record time|median|wall"
    echo "== frame demo, 20,000 draws, Vulkan backend, oracle off (round $round)"
    ./frame --backend vulkan --oracle off --frames 5 2>&1 | grep -E "^== |backend:|execute on|execute CPU|record time|median|wall"
done
echo "== frame demo, 20,000 draws, Vulkan backend, oracle on"
./frame --backend vulkan --frames 3 2>&1 | grep -E "^== |backend:|oracle|execute CPU"
echo "== frame demo on the backend, fast lists, threads 1..16"
for th in 1 2 4 8 16; do
    echo "-- threads $th"
    ./frame --backend vulkan --oracle off --threads $th --semantics fast --bundles off --frames 5 2>&1 \
        | grep -E "execute on|execute CPU|record time|backend: GPU"
done
echo "== backend tests on the GPU (validation layer on)"
for t in r_gpu_*; do echo "-- $t"; timeout 60 ./$t 2>&1 | grep -E "test result|panicked|FAILED"; done
echo done
