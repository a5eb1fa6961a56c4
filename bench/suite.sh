#!/usr/bin/env bash
# The scene suite: every scene of Box3D's benchmark app, in Tumble (build/bench/tumble-suite) and,
# when a Box3D build is given, in Box3D (bench/box3d_driver.c, compiled here against that build),
# one thread each, processes alternating. Per scene it prints and writes to bench/results/suite.md:
# median ms per step of each engine over the repetitions, their ratio, instructions per step of
# tbWorld_Step / b3World_Step counted by callgrind over a window of steps, peak resident memory of
# each and its ratio, and Tumble's quality checks (pyramids stand, no NaN, nothing through the
# ground, ragdoll joints within 1 cm, cubes inside the drum).
#
# Usage: bench/suite.sh [options] [SCENE...]        (no SCENE: all of them)
#   --build DIR        Tumble release build (default build-rel; made with
#                      `meson setup build-rel --buildtype=release` when missing)
#   --reps N           timed runs of each engine per scene (default 3)
#   --steps N          at most N steps per scene (default: each scene's reference count)
#   --scene-steps S=N  steps of scene S (repeatable), e.g. --scene-steps trees25=60
#   --cg-from K        callgrind window: first instrumented step (default 30, kept inside the run)
#   --cg-steps W       callgrind window length in steps (default 10); --no-callgrind skips it
#   --workers W        timed runs on W worker threads in both engines (default 1; Box3D's own
#                      scheduler); the instruction counts stay one-thread
#   --box3d-src DIR    build Box3D from this source tree into $BOX3D_DIR (default
#                      /tmp/box3d-build) first: cmake, Release, samples and tests off, no network
#   --out FILE         results file (default bench/results/suite.md)
# Environment: BOX3D_DIR, a Box3D CMake build directory (libbox3d.a in src/, libshared.a in
# shared/; its sources are found through its CMakeCache.txt). Without it only Tumble runs.
#
# Example (the run in bench/results/suite.md gives its exact command):
#   BOX3D_DIR=/work/peers/box3d/build bench/suite.sh --reps 3 --scene-steps trees25=60
# A window of a few steps moves with the run's chaos (a change of any bit moves it either way);
# `--cg-from 1 --cg-steps 199` counts the whole run instead, steps 1 to N-1 as the timings
# (bench/results/suite_whole_run.md; callgrind then runs every step of both engines).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=build-rel
reps=3
maxSteps=0
cgFrom=30
cgSteps=10
callgrind=1
workers=1
box3dSrc=""
out="$root/bench/results/suite.md"
declare -A sceneSteps=()
scenes=()
command_line="bench/suite.sh $*"
while [ $# -gt 0 ]; do
	case "$1" in
	--build) build=$2; shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	--steps) maxSteps=$2; shift 2 ;;
	--scene-steps) sceneSteps[${2%%=*}]=${2#*=}; shift 2 ;;
	--cg-from) cgFrom=$2; shift 2 ;;
	--workers) workers=$2; shift 2 ;;
	--cg-steps) cgSteps=$2; shift 2 ;;
	--no-callgrind) callgrind=0; shift ;;
	--box3d-src) box3dSrc=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	-h | --help) sed -n '2,/^set /{/^#/p}' "$0"; exit 0 ;;
	-*) echo "suite.sh: unknown option $1" >&2; exit 2 ;;
	*) scenes+=("$1"); shift ;;
	esac
done
case "$build" in /*) ;; *) build="$root/$build" ;; esac

# Tumble: the release build (LTO) of tumble-suite.
if [ ! -d "$build" ]; then
	meson setup "$build" "$root" --buildtype=release >/dev/null
fi
ninja -C "$build" bench/tumble-suite >/dev/null
tumble="$build/bench/tumble-suite"

# Box3D: optionally built from a source tree, then our driver compiled against the build.
if [ -n "$box3dSrc" ]; then
	BOX3D_DIR=${BOX3D_DIR:-/tmp/box3d-build}
	cmake -S "$box3dSrc" -B "$BOX3D_DIR" -DCMAKE_BUILD_TYPE=Release -DBOX3D_SAMPLES=OFF \
		-DBOX3D_UNIT_TESTS=OFF -DBOX3D_BENCHMARKS=ON -DBOX3D_VALIDATE=OFF -DBOX3D_PROFILE=OFF \
		-DFETCHCONTENT_FULLY_DISCONNECTED=ON >/dev/null
	cmake --build "$BOX3D_DIR" -j "$(nproc)" >/dev/null
fi
box3d=""
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "${BOX3D_DIR:-}" ]; then
	box3d="$work/box3d-suite"
	src=$("$root/bench/box3d_driver.sh" "$BOX3D_DIR" "$box3d")
fi

if [ ${#scenes[@]} -eq 0 ]; then
	mapfile -t scenes < <("$tumble" --list | awk '{print $1}')
fi
have_valgrind=0
if [ $callgrind -eq 1 ] && command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null; then
	have_valgrind=1
fi

# A JSON field of one line (numbers and the checks object are all this needs).
field() { sed -n "s/.*\"$2\": \([^,}]*\).*/\1/p" <<<"$1"; }
median() { sort -g | awk '{a[NR] = $1} END {if (NR == 0) print "nan"; else if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0 && a != "nan" && a != "" && b != "nan") printf "%.2f", a / b; else print "-" }'; }

# Instructions per step inside the step function over steps [from, from + W) of a run of
# from + W steps: instrumentation starts at step `from` (the programs' --callgrind-from), and only
# the step function and what it calls is counted.
instructions() { # program stepFunction scene steps
	local prog=$1 fn=$2 scene=$3 steps=$4
	local w=$cgSteps from=$cgFrom
	if [ $((from + w)) -gt "$steps" ]; then from=$((steps > w ? steps - w : 1)); w=$((steps - from)); fi
	[ "$w" -ge 1 ] || { echo "-"; return; }
	valgrind --tool=callgrind --instr-atstart=no --toggle-collect="$fn" \
		--callgrind-out-file="$work/cg.out" "$prog" "$scene" --steps $((from + w)) \
		--callgrind-from "$from" >"$work/cg.log" 2>&1 || { echo "-"; return; }
	callgrind_annotate "$work/cg.out" 2>/dev/null |
		awk -v w="$w" '/PROGRAM TOTALS/ {gsub(",", "", $1); printf "%.2f", $1 / w / 1e6}'
	echo " $from-$((from + w))"
}

mkdir -p "$(dirname "$out")"
# The header first, then a row as each scene finishes (a long run leaves its rows so far).
{
	echo "# Scene suite: Tumble against Box3D"
	echo
	echo "Written by bench/suite.sh. One thread per engine; each scene's processes alternate"
	echo "(Tumble, Box3D) $reps times and the medians are shown. ms/step is the wall clock of steps"
	echo "1 to N-1 over N-1 (the first step, which finds every pair, is left out as Box3D's app does);"
	echo "Mi/step is millions of instructions per step inside tbWorld_Step / b3World_Step counted by"
	echo "callgrind over the steps of the window column; RSS is the peak resident set (getrusage)."
	echo "Ratios are Tumble over Box3D. Checks are Tumble's (bench/suite_*.c say what each means);"
	echo "counts are at the end of the run (Tumble: pairs whose fat boxes overlap; Box3D's drift is"
	echo "the largest distance of a moving body from where it was after the first step, from its move"
	echo "events: the pyramids' max_box_drift_m measured on Box3D, one step later; Box3D's joint gap"
	echo "is the largest b3Joint_GetLinearSeparation of a moving body's joints, filter joints left out)."
	echo
	echo "- command: \`$command_line\`${BOX3D_DIR:+ with BOX3D_DIR=$BOX3D_DIR}"
	echo "- workers: $workers in each engine's timed runs"
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "- machine: \`$(uname -a)\`"
	echo "- cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores (shared with other jobs)"
	echo "- Tumble: $(git -C "$root" rev-parse --short HEAD), release build (LTO) in $(basename "$build")"
	if [ -n "${BOX3D_DIR:-}" ]; then
		echo "- Box3D: ${BOX3D_REV:-$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo "source $src")}, CMake Release (-O3), BOX3D_VALIDATE off, its scene functions (shared/benchmarks.c) driven by bench/box3d_driver.c"
	fi
	echo
	echo "| scene | steps (of the reference) | Tumble ms/step | Box3D ms/step | ratio | Tumble Mi/step | Box3D Mi/step | window | Tumble MB | Box3D MB | RSS ratio | counts at the end | Tumble checks |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
} >"$out"
printf '%-14s %6s %10s %10s %6s %9s %9s %9s %9s %5s  %s\n' scene steps "tb ms" "b3 ms" ratio \
	"tb Mi" "b3 Mi" "tb MB" "b3 MB" ratio checks
for scene in "${scenes[@]}"; do
	default=$("$tumble" --list | awk -v s="$scene" '$1 == s {print $2}')
	[ -n "$default" ] || { echo "suite.sh: no scene $scene" >&2; exit 2; }
	steps=${sceneSteps[$scene]:-$default}
	if [ "$maxSteps" -gt 0 ] && [ "$steps" -gt "$maxSteps" ]; then steps=$maxSteps; fi
	tbTimes=() b3Times=() tbRss=() b3Rss=() tbLine="" b3Line=""
	for ((r = 0; r < reps; ++r)); do
		tbLine=$("$tumble" "$scene" --steps "$steps" --workers "$workers")
		tbTimes+=("$(field "$tbLine" ms_per_step)") tbRss+=("$(field "$tbLine" peak_rss_kb)")
		if [ -n "$box3d" ]; then
			b3Line=$("$box3d" "$scene" --steps "$steps" --workers "$workers")
			b3Times+=("$(field "$b3Line" ms_per_step)") b3Rss+=("$(field "$b3Line" peak_rss_kb)")
		fi
	done
	tbMs=$(printf '%s\n' "${tbTimes[@]}" | median)
	tbKb=$(printf '%s\n' "${tbRss[@]}" | median)
	b3Ms=nan b3Kb=nan
	if [ -n "$box3d" ]; then
		b3Ms=$(printf '%s\n' "${b3Times[@]}" | median)
		b3Kb=$(printf '%s\n' "${b3Rss[@]}" | median)
	fi
	tbMi="-" b3Mi="-" window=""
	if [ $have_valgrind -eq 1 ]; then
		read -r tbMi window <<<"$(instructions "$tumble" tbWorld_Step "$scene" "$steps")"
		if [ -n "$box3d" ]; then
			read -r b3Mi _ <<<"$(instructions "$box3d" b3World_Step "$scene" "$steps")"
		fi
	fi
	checks=$(sed -n 's/.*"checks": {\([^}]*\)}.*/\1/p' <<<"$tbLine" | sed 's/"//g')
	pass=$(field "$tbLine" pass)
	counts="$(field "$tbLine" bodies) bodies, $(field "$tbLine" contacts) pairs"
	[ -n "$b3Line" ] && counts="$counts / $(field "$b3Line" bodies) bodies, $(field "$b3Line" contacts) contacts, drift $(field "$b3Line" max_drift_from_step_1_m) m"
	if [ -n "$b3Line" ] && grep -q max_joint_gap_m <<<"$tbLine"; then
		# Box3D's joints measured the same way, in a run of its own (the measure slows it).
		gapLine=$("$box3d" "$scene" --steps "$steps" --joint-gaps)
		counts="$counts, joint gap $(field "$gapLine" max_joint_gap_m) m at the end ($(field "$gapLine" max_joint_gap_run_m) m over the run)"
	fi
	tbMB=$(awk -v k="$tbKb" 'BEGIN {printf "%.1f", k / 1024}')
	b3MB=$(awk -v k="$b3Kb" 'BEGIN {if (k == "nan") print "-"; else printf "%.1f", k / 1024}')
	printf '%-14s %6s %10s %10s %6s %9s %9s %9s %9s %5s  %s %s\n' "$scene" "$steps" "$tbMs" \
		"$b3Ms" "$(ratio "$tbMs" "$b3Ms")" "$tbMi" "$b3Mi" "$tbMB" "$b3MB" \
		"$(ratio "$tbKb" "$b3Kb")" "$pass" "$checks"
	echo "| $scene | $steps of $default | $tbMs | $b3Ms | $(ratio "$tbMs" "$b3Ms") | $tbMi | $b3Mi | ${window:--} | $tbMB | $b3MB | $(ratio "$tbKb" "$b3Kb") | $counts | $pass: $checks |" >>"$out"
done

echo "wrote $out"
