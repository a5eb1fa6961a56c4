#!/usr/bin/env bash
# Tumble's suite scenes at 1 and 2 worker threads (or 1 and W), alternating, REPS runs each: the
# median ms per step of each and the speed-up, written to bench/results/suite_scaling.md with the
# machine, date and command.
# Usage: bench/suite_scaling.sh [--build DIR] [--workers W] [--reps N] [--steps N] [SCENE...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build-rel"
workers=2
reps=3
steps=120
scenes=()
command_line="bench/suite_scaling.sh $*"
while [ $# -gt 0 ]; do
	case "$1" in
	--build) build=$2; shift 2 ;;
	--workers) workers=$2; shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	--steps) steps=$2; shift 2 ;;
	-h | --help) sed -n '2,/^set /{/^#/p}' "$0"; exit 0 ;;
	-*) echo "suite_scaling.sh: unknown option $1" >&2; exit 2 ;;
	*) scenes+=("$1"); shift ;;
	esac
done
[ ${#scenes[@]} -gt 0 ] || scenes=(large_pyramid many_pyramids rain joint_grid junkyard convex_pile)
ninja -C "$build" bench/tumble-suite >/dev/null
suite="$build/bench/tumble-suite"
out="$root/bench/results/suite_scaling.md"
ms() { "$suite" "$1" --steps "$2" --workers "$3" | grep -o '"ms_per_step": [0-9.]*' | awk '{print $2}'; }
median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
{
	echo "# Tumble's suite scenes at 1 and $workers workers"
	echo
	echo "Written by bench/suite_scaling.sh: each scene's runs alternate (1 worker, $workers workers) $reps times;"
	echo "ms/step is the median of the wall clock per step (tumble-suite, release build)."
	echo
	echo "- command: \`$command_line\`"
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "- machine: \`$(uname -a)\`"
	echo "- cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores"
	echo "- Tumble: $(git -C "$root" rev-parse --short HEAD)"
	echo
	echo "| scene | steps | 1 worker ms/step | $workers workers ms/step | speed-up | runs (1 worker / $workers workers) |"
	echo "|---|---|---|---|---|---|"
} >"$out"
for scene in "${scenes[@]}"; do
	one=() many=()
	for ((r = 0; r < reps; ++r)); do
		one+=("$(ms "$scene" "$steps" 1)")
		many+=("$(ms "$scene" "$steps" "$workers")")
	done
	m1=$(printf '%s\n' "${one[@]}" | median)
	mw=$(printf '%s\n' "${many[@]}" | median)
	up=$(awk -v a="$m1" -v b="$mw" 'BEGIN {printf "%.2f", a / b}')
	printf '%-14s %s -> %s ms/step: %sx\n' "$scene" "$m1" "$mw" "$up"
	echo "| $scene | $steps | $m1 | $mw | ${up}x | ${one[*]} / ${many[*]} |" >>"$out"
done
echo "wrote $out"
