#!/usr/bin/env bash
# Packs what `device_vulkan_run.sh` runs on a device machine (no Rust toolchain there): the
# release `frame` and `workload` with the Vulkan feature and the backend's test binaries,
# stripped, into .devbin/bin.tar.xz (a folder .git/info/exclude should ignore). The loader and
# the validation layer travel as Debian packages in .gl/ and .vvl/ (see the device machine's
# README, "Headless rendering"; `apt-get download vulkan-validationlayers` into .vvl/).
#
#   benches/scripts/device_vulkan_pack.sh && cp benches/scripts/device_vulkan_run.sh .devbin/
#   then on the device, with .gl, .vvl and .devbin carried: bash .devbin/device_vulkan_run.sh
set -euo pipefail
cargo build -q --release -p benches --features vulkan --bin frame --bin workload
work=$(mktemp -d)
cp target/release/frame target/release/workload "$work/"
cargo test -q --release -p vulkan-backend --no-run --message-format=json 2>/dev/null \
    | python3 -c '
import json, shutil, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") \
            and m["target"]["name"].startswith("r_gpu"):
        shutil.copy(m["executable"], sys.argv[1] + "/" + m["target"]["name"])
' "$work"
# The peer comparison (its own workspace, built by hand: cargo build --release --manifest-path
# peer/Cargo.toml), when it is there.
[ -x peer/target/release/peer ] && cp peer/target/release/peer "$work/"
strip "$work"/*
mkdir -p .devbin
tar cJf .devbin/bin.tar.xz -C "$work" .
rm -rf "$work"
ls -l .devbin/bin.tar.xz
