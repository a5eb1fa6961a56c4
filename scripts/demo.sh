#!/usr/bin/env bash
# The main job, until the GLFW demo lands: build Tumble and answer the sample narrow-phase cases
# with `tumble query` (one result line per case: id hit sd normal witnessA witnessB).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
[ -f build/build.ninja ] || meson setup build >/dev/null
ninja -C build >/dev/null
./build/engine/tumble query tests/data/query_cases.txt "$@"
