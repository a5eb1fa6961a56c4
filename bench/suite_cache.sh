#!/usr/bin/env bash
# Where a step's time goes beyond its instructions: the suite's scenes in Tumble and Box3D under
# callgrind's cache and branch model (valgrind --cache-sim=yes --branch-sim=yes), one thread, over
# the same window of steps. Per scene and engine it writes, per step: instructions, first-level
# instruction-cache misses (I1), first-level data-cache misses (D1, reads and writes), last-level
# misses (LL, the model's last cache: a miss there goes to memory) and mispredicted conditional
# branches, with the ratios Tumble over Box3D; then each engine's functions with the most D1
# misses. The model is the host's caches as valgrind sees them (its second level is not
# modelled: a D1 miss that the real L2 would hold is counted with the ones it would not). The
# counts are exact and repeatable, as instructions are; what a miss costs is the machine's.
#
# Usage: bench/suite_cache.sh [options] SCENE...
#   --build DIR    Tumble release build (default build-rel; made with
#                  `meson setup build-rel --buildtype=release` when missing)
#   --from K       first step of the window (default 150)
#   --steps W      window length in steps (default 10)
#   --top N        functions listed per engine and scene (default 6)
#   --out FILE     results file (default bench/results/suite_cache.md)
# Environment: BOX3D_DIR, a Box3D CMake build directory (as bench/suite.sh takes it). Without it
# only Tumble's counts are written.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=build-rel
from=150
window=10
top=6
out="$root/bench/results/suite_cache.md"
scenes=()
command_line="bench/suite_cache.sh $*"
while [ $# -gt 0 ]; do
	case "$1" in
	--build) build=$2; shift 2 ;;
	--from) from=$2; shift 2 ;;
	--steps) window=$2; shift 2 ;;
	--top) top=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	-h | --help) sed -n '2,/^set /{/^#/p}' "$0"; exit 0 ;;
	-*) echo "suite_cache.sh: unknown option $1" >&2; exit 2 ;;
	*) scenes+=("$1"); shift ;;
	esac
done
[ ${#scenes[@]} -gt 0 ] || { echo "suite_cache.sh: name the scenes (tumble-suite --list)" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "suite_cache.sh: valgrind is needed" >&2; exit 1; }
case "$build" in /*) ;; *) build="$root/$build" ;; esac
if [ ! -d "$build" ]; then
	meson setup "$build" "$root" --buildtype=release >/dev/null
fi
ninja -C "$build" bench/tumble-suite >/dev/null
tumble="$build/bench/tumble-suite"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
box3d=""
if [ -n "${BOX3D_DIR:-}" ]; then
	box3d="$work/box3d-suite"
	"$root/bench/box3d_driver.sh" "$BOX3D_DIR" "$box3d" >/dev/null
fi

# The window's totals of one run: "Ir I1mr D1mr D1mw DLmr DLmw Bcm" (callgrind's event order:
# Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim), then its functions by D1 misses.
measure() { # program stepFunction scene tag
	local prog=$1 fn=$2 scene=$3 tag=$4
	valgrind --tool=callgrind --cache-sim=yes --branch-sim=yes --instr-atstart=no \
		--toggle-collect="$fn" --callgrind-out-file="$work/$tag.out" "$prog" "$scene" \
		--steps $((from + window)) --callgrind-from "$from" >"$work/$tag.log" 2>&1 || return 1
	awk '/^totals:/ {print $2, $5, $6, $7, $9, $10, $12}' "$work/$tag.out"
}
per_step() { awk -v w="$window" -v x="$1" 'BEGIN { printf "%.3f", x / w / 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
top_functions() { # tag
	callgrind_annotate --inclusive=no --sort=D1mr,D1mw --show=D1mr,D1mw,Ir "$work/$1.out" \
		2>/dev/null | awk -v n="$top" '/file:function/ {f = 1; next} f && NF > 3 && n-- > 0' |
		sed -e 's/ \[[^]]*\]$//' -e 's|[^ ]*/work/[^/]*/||' | sed 's/^/    /'
}

mkdir -p "$(dirname "$out")"
{
	echo "# The suite's scenes under a cache model: Tumble against Box3D"
	echo
	echo "Written by bench/suite_cache.sh. Each engine's step function (tbWorld_Step,"
	echo "b3World_Step) over steps $from to $((from + window - 1)) under callgrind's cache and branch"
	echo "model, one thread; millions per step. I1: first-level instruction-cache misses; D1:"
	echo "first-level data-cache misses, reads and writes; LL: misses of the model's last level"
	echo "(to memory); branches: mispredicted conditional branches. Ratios are Tumble over Box3D."
	echo "The model has no second level: a D1 miss that a real L2 holds counts the same."
	echo
	echo "- command: \`$command_line\`${BOX3D_DIR:+ with BOX3D_DIR=$BOX3D_DIR}"
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "- machine: \`$(uname -a)\`"
	echo "- cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores"
	echo "- Tumble: $(git -C "$root" rev-parse --short HEAD), tumble-suite in $(basename "$build")"
	echo "- valgrind: $(valgrind --version)"
	echo
	echo "| scene | engine | Mi/step | I1 M/step | D1 M/step | LL M/step | branches M/step |"
	echo "|---|---|---|---|---|---|---|"
} >"$out"
lists=""
for scene in "${scenes[@]}"; do
	read -r ir i1 d1r d1w llr llw bcm < <(measure "$tumble" tbWorld_Step "$scene" tumble) ||
		{ echo "suite_cache.sh: tumble-suite $scene failed" >&2; exit 1; }
	row="| $scene | tumble | $(per_step "$ir") | $(per_step "$i1") | $(per_step $((d1r + d1w))) | $(per_step $((llr + llw))) | $(per_step "$bcm") |"
	echo "$row" | tee -a "$out"
	lists+=$'\n'"$scene, Tumble:"$'\n'"$(top_functions tumble)"$'\n'
	if [ -n "$box3d" ]; then
		read -r bir bi1 bd1r bd1w bllr bllw bbcm < <(measure "$box3d" b3World_Step "$scene" box3d) ||
			{ echo "suite_cache.sh: box3d-suite $scene failed" >&2; exit 1; }
		echo "| $scene | box3d | $(per_step "$bir") | $(per_step "$bi1") | $(per_step $((bd1r + bd1w))) | $(per_step $((bllr + bllw))) | $(per_step "$bbcm") |" | tee -a "$out"
		echo "| $scene | ratio | $(ratio "$ir" "$bir") | $(ratio "$i1" "$bi1") | $(ratio $((d1r + d1w)) $((bd1r + bd1w))) | $(ratio $((llr + llw)) $((bllr + bllw))) | $(ratio "$bcm" "$bbcm") |" | tee -a "$out"
		lists+=$'\n'"$scene, Box3D:"$'\n'"$(top_functions box3d)"$'\n'
	fi
done
{
	echo
	echo "## Functions with the most D1 misses (misses read, written, instructions; the window)"
	echo "$lists"
} >>"$out"
echo "written: $out"
