#!/usr/bin/env bash
# Thread scaling of the step on this machine: a release build, then bench/thread_bench over the
# large pyramid (5,050 boxes) and a rain of 4,000 cubes at 1 and the given worker counts (default
# 2,4,8,16): ms per step, speed-up, the state hashes compared, and per stage the serial fraction
# with Amdahl's prediction (docs/threads.md).
#   scripts/thread_scaling.sh [2,4,8,16] [STEPS]
set -euo pipefail
cd "$(dirname "$0")/.."
workers=${1:-2,4,8,16}
steps=${2:-120}
if [ ! -d build-release ]; then
	meson setup build-release --buildtype=release -Ddemo=disabled -Dtests=false >/dev/null
fi
ninja -C build-release bench/thread_bench >/dev/null
echo "cores: $(nproc), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
build-release/bench/thread_bench --workers "$workers" --steps "$steps" --repeat 3 \
	--out build-release/thread_scaling.csv
echo "CSV: build-release/thread_scaling.csv"
