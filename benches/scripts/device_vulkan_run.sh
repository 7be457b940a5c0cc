#!/bin/bash
# The device run of the Vulkan backend (R-GPU-4..6): loaders, the validation layer, the backend's tests, the
# frame demo and the workload on the backend and on the model alone, thread scaling, the
# workload's recording paths. Packed by device_vulkan_pack.sh; log and PNGs in $OUT.
exec > "$OUT/log.txt" 2>&1
set -x
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
mkdir -p /tmp/vvl && dpkg -x .vvl/*.deb /tmp/vvl
export VK_LAYER_PATH=/tmp/vvl/usr/share/vulkan/explicit_layer.d
export LD_LIBRARY_PATH=/tmp/vvl/usr/lib/x86_64-linux-gnu
ls /usr/local/nvidia/share/vulkan/icd.d/ /usr/share/vulkan/icd.d/ /etc/vulkan/icd.d/ 2>/dev/null
if [ -f /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ]; then
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
set +x
mkdir -p /tmp/bin && tar xJf .devbin/bin.tar.xz -C /tmp/bin && cd /tmp/bin || exit 1
nproc; nvidia-smi --query-gpu=name,driver_version --format=csv
echo "== backend tests (validation layer on)"
for t in r_gpu_*; do echo "-- $t"; ./$t 2>&1 | grep -E "test |test result|panicked|left:|right:|assertion"; done
echo "== frame, validated, small (lists of both semantics; then the barriers scene)"
./frame --backend vulkan --gpu-validation --draws 2000 --frames 1 --bundles off --png "$OUT/fv.png" 2>&1 | grep -E "backend:|execute on|record time"
./frame --backend vulkan --gpu-validation --barriers --draws 2000 --frames 1 --bundles off 2>&1 | grep -E "backend:|execute on|error|refused"
for round in 1 2; do
  echo "== frame 20000 draws, model alone (round $round)"
  ./frame --frames 5 2>&1 | grep -E "execute on|record time|median|bundle"
  echo "== frame 20000 draws, Vulkan backend (round $round)"
  png=""; [ $round = 2 ] && png="--png $OUT/frame.png"
  ./frame --backend vulkan --frames 5 $png 2>&1 | grep -E "backend:|execute on|record time|median|bundle"
done
echo "== workload on the backend, interleaved with the model alone"
./workload --backend vulkan --draws 10000 --runs 11
./workload --backend vulkan --draws 100000 --runs 5
echo "== thread scaling of the frame on the backend (fast lists)"
for th in 1 2 4 8 16; do
  echo "-- threads $th"
  ./frame --backend vulkan --threads $th --semantics fast --bundles off --frames 5 2>&1 | grep -E "execute on|record time|backend: GPU"
done
echo "== speed table: every recording path of the workload (model only), side by side"
timeout 200 ./workload --runs 11
echo done
