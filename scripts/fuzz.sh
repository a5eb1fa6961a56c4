#!/usr/bin/env bash
# Build the libFuzzer targets (fuzz/) with clang, AddressSanitizer and UndefinedBehaviorSanitizer,
# and run each one for N seconds (default 30), as many at once as the machine has cores
# (FUZZ_JOBS to choose): each target gets its N seconds on a core of its own.
#   scripts/fuzz.sh [seconds]        e.g. scripts/fuzz.sh 1200 for a long run
#   FUZZ_TARGETS="narrow cast" scripts/fuzz.sh 60      only some targets
#   FUZZ_KEEP_GOING=1 scripts/fuzz.sh 1200   record every finding and go on (libFuzzer -fork=1)
# New inputs go to build-fuzz/corpus/<target> (the seeds in fuzz/corpus stay as they are);
# findings to build-fuzz/artifacts/. Ends with "N passed, N failed" (a target fails on a finding).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

seconds=${1:-30}
dir=${FUZZ_BUILD_DIR:-build-fuzz}
targets=${FUZZ_TARGETS:-"scene query_line narrow cast"}

if ! command -v clang >/dev/null; then
	echo "fuzz.sh: clang is needed (apt-get install clang libclang-rt-14-dev)"
	echo "0 passed, 1 failed"
	exit 1
fi
# Debug information: line tables only, what the sanitizers' reports name lines from.
if [ ! -f "$dir/build.ninja" ]; then
	CC=clang meson setup "$dir" -Dfuzz=true -Dtests=false -Dbench=disabled -Ddemo=disabled \
		--buildtype=debugoptimized -Db_sanitize=address,undefined -Db_lundef=false \
		-Dc_args="-fno-sanitize-recover=undefined -gline-tables-only" \
		-Dc_link_args=-fno-sanitize-recover=undefined >"$dir.setup.log" 2>&1 || {
		cat "$dir.setup.log"
		echo "0 passed, 1 failed"
		exit 1
	}
fi
ninja -C "$dir" >"$dir.build.log" 2>&1 || {
	cat "$dir.build.log"
	echo "0 passed, 1 failed"
	exit 1
}

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1

# One target's run, its exit status left in $dir/fuzz_<target>.rc.
fuzz_one() {
	local t=$1
	local corpus="$dir/corpus/$t"
	mkdir -p "$corpus" "$dir/artifacts"
	local args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
		-artifact_prefix="$dir/artifacts/$t-")
	# Seeds: fuzz/corpus/<target>, and for the scene loader the bundled scenes and the reliability
	# reproducers themselves (read in place, never copied).
	local seeds=("fuzz/corpus/$t")
	case $t in
	scene)
		args+=(-max_len=8192)
		seeds+=(scenes tests/data/reliability)
		;;
	*) args+=(-max_len=2048) ;;
	esac
	[ -f "fuzz/dict/$t.dict" ] && args+=(-dict="fuzz/dict/$t.dict")
	[ -n "${FUZZ_KEEP_GOING:-}" ] && args+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
	"$dir/fuzz/fuzz_$t" "${args[@]}" "$corpus" "${seeds[@]}" >"$dir/fuzz_$t.log" 2>&1
	echo $? >"$dir/fuzz_$t.rc"
}

# At most $jobs targets at once: with every slot taken, the next waits for one to end.
running=0
for t in $targets; do
	rm -f "$dir/fuzz_$t.rc"
	if [ "$running" -ge "$jobs" ]; then
		wait -n 2>/dev/null || true
		running=$((running - 1))
	fi
	fuzz_one "$t" &
	running=$((running + 1))
done
wait

# The reports, in the targets' order.
passed=0
failed=0
for t in $targets; do
	log="$dir/fuzz_$t.log"
	rc=$(cat "$dir/fuzz_$t.rc" 2>/dev/null || echo 1)
	runs=$(grep -oE "stat::number_of_executed_units: *[0-9]+" "$log" | grep -oE "[0-9]+$" | tail -1)
	# -fork mode reports "#<executions>: cov: ..." lines instead, and findings as crash files.
	[ -z "$runs" ] && runs=$(grep -oE "^#[0-9]+: cov" "$log" | grep -oE "[0-9]+" | tail -1)
	if [ -n "${FUZZ_KEEP_GOING:-}" ] && ls "$dir/artifacts/$t-"* >/dev/null 2>&1; then
		rc=1
	fi
	if [ "$rc" -eq 0 ]; then
		passed=$((passed + 1))
		echo "fuzz_$t: ok, ${runs:-?} executions in $seconds s"
	else
		failed=$((failed + 1))
		echo "fuzz_$t: FINDING after ${runs:-?} executions (log $log):"
		grep -E "ERROR|fuzz check failed|assertion failed|runtime error|Test unit written" "$log" |
			head -n 10
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
