#!/usr/bin/env bash
# The suite's scenes at 1 worker and at each of the given worker counts, Tumble and (where a
# box3d-suite binary is given) Box3D, alternating processes REPS times: the median ms per step of
# each, and each count's speed-up over 1 worker, written to a results file with the machine, date
# and command.
# Usage: bench/suite_scaling.sh [--build DIR | --tumble BINARY] [--box3d BINARY] [--workers 2,4,8]
#                               [--reps N] [--steps N] [--out FILE] [--raw FILE] [SCENE...]
#   --build DIR      a release build of Tumble (default build-rel; bench/tumble-suite is built)
#   --tumble BINARY  a tumble-suite binary already built (nothing is built)
#   --box3d BINARY   a box3d-suite binary (bench/suite.sh builds one from a Box3D build)
#   --raw FILE       every run's JSON line appended here (Tumble's has each stage's ms)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build-rel"
suite=""
box3d=""
workers=2
reps=3
steps=120
out="$root/bench/results/suite_scaling.md"
raw=/dev/null
scenes=()
command_line="bench/suite_scaling.sh $*"
while [ $# -gt 0 ]; do
	case "$1" in
	--build) build=$2; shift 2 ;;
	--tumble) suite=$2; shift 2 ;;
	--box3d) box3d=$2; shift 2 ;;
	--workers) workers=$2; shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	--steps) steps=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--raw) raw=$2; shift 2 ;;
	-h | --help) sed -n '2,/^set /{/^#/p}' "$0"; exit 0 ;;
	-*) echo "suite_scaling.sh: unknown option $1" >&2; exit 2 ;;
	*) scenes+=("$1"); shift ;;
	esac
done
[ ${#scenes[@]} -gt 0 ] || scenes=(large_pyramid many_pyramids rain joint_grid junkyard convex_pile)
if [ -z "$suite" ]; then
	ninja -C "$build" bench/tumble-suite >/dev/null
	suite="$build/bench/tumble-suite"
fi
IFS=, read -r -a counts <<<"1,$workers"
ms() { "$1" "$2" --steps "$steps" --workers "$3" | tee -a "$raw" | grep -o '"ms_per_step": [0-9.]*' | awk '{print $2}'; }
median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
engines=(tumble)
[ -z "$box3d" ] || engines+=(box3d)
header="| scene | engine |"
rule="|---|---|"
for w in "${counts[@]}"; do header+=" $w |"; rule+="---|"; done
for w in "${counts[@]:1}"; do header+=" speed-up at $w |"; rule+="---|"; done
{
	echo "# The suite's scenes at 1 to ${counts[-1]} workers"
	echo
	echo "Written by bench/suite_scaling.sh: each scene's processes alternate (engine by engine, count"
	echo "by count) $reps times; ms per step is the median of the wall clock per step over $steps steps"
	echo "(the first left out); speed-up is the 1-worker time over the N-worker time of the same engine."
	echo
	echo "- command: \`$command_line\`"
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "- machine: \`$(uname -srm)\`"
	echo "- cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores"
	echo "- Tumble: ${TUMBLE_REV:-$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)}, tumble-suite"
	[ -z "$box3d" ] || echo "- Box3D: box3d-suite (bench/box3d_driver.c over Box3D's own scenes and scheduler)"
	echo
	echo "$header"
	echo "$rule"
} >"$out"
for scene in "${scenes[@]}"; do
	declare -A runs=()
	for ((r = 0; r < reps; ++r)); do
		for w in "${counts[@]}"; do
			runs[tumble,$w]+="$(ms "$suite" "$scene" "$w") "
			[ -z "$box3d" ] || runs[box3d,$w]+="$(ms "$box3d" "$scene" "$w") "
		done
	done
	for engine in "${engines[@]}"; do
		line="| $scene | $engine |"
		declare -A med=()
		for w in "${counts[@]}"; do
			med[$w]=$(printf '%s\n' ${runs[$engine,$w]} | median)
			line+=" ${med[$w]} |"
		done
		for w in "${counts[@]:1}"; do
			line+=" $(awk -v a="${med[1]}" -v b="${med[$w]}" 'BEGIN {printf "%.2fx", a / b}') |"
		done
		echo "$line" | tee -a "$out"
		unset med
	done
	unset runs
done
echo "wrote $out"
