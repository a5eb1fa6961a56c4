#!/usr/bin/env bash
# Compiles bench/box3d_driver.c (Box3D's own benchmark scenes, driven as tumble-suite drives
# Tumble's) against a Box3D CMake build, for the scripts that compare the two engines.
#
# Usage: bench/box3d_driver.sh BOX3D_DIR OUT
#   BOX3D_DIR  a Box3D CMake build directory (libbox3d.a in src/, libshared.a in shared/; its
#              sources are found through its CMakeCache.txt)
#   OUT        the program to write
# Prints the Box3D source directory (for the callers' results headers).
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: bench/box3d_driver.sh BOX3D_DIR OUT" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$1 out=$2
src=$(sed -n 's/^box3d_SOURCE_DIR:STATIC=//p' "$dir/CMakeCache.txt" 2>/dev/null || true)
[ -n "$src" ] || { echo "box3d_driver.sh: no box3d_SOURCE_DIR in $dir/CMakeCache.txt" >&2; exit 1; }
cc -std=gnu17 -O2 -DNDEBUG -I"$src/include" -I"$src/shared" "$root/bench/box3d_driver.c" \
	"$dir/shared/libshared.a" "$dir/src/libbox3d.a" -lm -lpthread -o "$out"
echo "$src"
