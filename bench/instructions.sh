#!/usr/bin/env bash
# Instructions per step of Tumble's tbWorld_Step, counted by callgrind (repeatable on a shared
# machine, unlike seconds). Usage: bench/instructions.sh [BUILD_DIR] [SCENE FROM TO]...
# Default: the pyramid of base 20 settled (steps 600-720), the rain of 1000 falling (120-240) and
# settled (600-720). Build with --buildtype=release for figures comparable with the issue's.
set -euo pipefail
build=${1:-build-release}
shift || true
bench="$build/bench/world_bench"
if ! command -v valgrind >/dev/null; then
	echo "instructions.sh: valgrind not found (apt-get install valgrind)"
	exit 1
fi
[ -x "$bench" ] || { echo "instructions.sh: $bench not built"; exit 1; }
windows=("$@")
if [ ${#windows[@]} -eq 0 ]; then
	windows=(pyramid20 600 720 rain1000 120 240 rain1000 600 720)
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '%-10s %-10s %14s %10s\n' scene steps "instr/step" "M/step"
for ((i = 0; i < ${#windows[@]}; i += 3)); do
	scene=${windows[i]} from=${windows[i + 1]} to=${windows[i + 2]}
	# Instrumentation starts at step `from` (callgrind.h in world_bench); only tbWorld_Step and
	# what it calls is collected.
	valgrind --tool=callgrind --instr-atstart=no --toggle-collect=tbWorld_Step \
		--callgrind-out-file="$out/cg.out" "$bench" --callgrind "$scene" "$from" "$to" \
		>"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
	total=$(callgrind_annotate "$out/cg.out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
	per=$((total / (to - from)))
	printf '%-10s %-10s %14d %10.2f\n' "$scene" "$from-$to" "$per" "$(awk -v p="$per" 'BEGIN { print p / 1e6 }')"
done
