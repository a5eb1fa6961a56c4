#!/usr/bin/env bash
# The test command: set up dependencies, build twice (normal, and with AddressSanitizer +
# UndefinedBehaviorSanitizer), run every Criterion suite in both, and end with the totals.
set -uo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh || exit 1

passed=0
failed=0

# run_build DIR SUITES [meson setup options...]: set up, build and test one build directory, all
# suites when SUITES is empty, and add its TAP results to the totals.
run_build() {
	local dir=$1
	local suites=$2
	shift 2
	if [ ! -f "$dir/build.ninja" ]; then
		meson setup "$dir" "$@" >"$dir.setup.log" 2>&1 || {
			cat "$dir.setup.log"
			echo "meson setup $dir failed"
			return 1
		}
	fi
	# With named suites only their test programs are built (and what they link).
	local targets=""
	for s in $suites; do targets="$targets tests/test_$s"; done
	# shellcheck disable=SC2086
	ninja -C "$dir" $targets >"$dir.build.log" 2>&1 || {
		cat "$dir.build.log"
		echo "build $dir failed"
		return 1
	}
	# shellcheck disable=SC2086
	# --logbase: a log of this run's own (a suite that runs meson test itself, as the CONTRIBUTING
	# check does, writes the default testlog.txt).
	meson test -C "$dir" --print-errorlogs --num-processes 2 --logbase ci $suites >"$dir.test.log" 2>&1
	local rc=$?
	tail -n 12 "$dir.test.log"
	[ $rc -eq 0 ] || grep -E "^not ok|FAIL|\[FAIL\]" "$dir.test.log" | head -n 40
	# Count TAP results of every suite (meson keeps them in the test log).
	local p f
	p=$(grep -acE "^ok( |$)" "$dir/meson-logs/ci.txt" || true)
	f=$(grep -acE "^not ok( |$)" "$dir/meson-logs/ci.txt" || true)
	if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi # a crashed suite counts as a failure
	passed=$((passed + p))
	failed=$((failed + f))
	echo "$dir${suites:+ ($suites)}: $p passed, $f failed"
}

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# -Dwerror=true: warnings fail the project's own builds (meson.build leaves it off for users).
run_build build "" --buildtype=debugoptimized -Dwerror=true || failed=$((failed + 1))
# The sanitizer build is optimised (-O2 -g): it checks the code users run, in a fraction of a
# -O0 build's time; UBSan and ASan instrument it all the same.
run_build build-san "" --buildtype=debugoptimized -Dwerror=true -Db_sanitize=address,undefined \
	-Dc_args=-fno-sanitize-recover=undefined -Dc_link_args=-fno-sanitize-recover=undefined \
	-Dbench=disabled || failed=$((failed + 1))

# The plain scalar solver (-Dsimd=scalar) must compute the same bits as the SIMD build: the
# determinism test's stored hash holds for both (and the stacking figures with it).
run_build build-scalar "world_stacking rolling contact_solver" --buildtype=release -Dsimd=scalar \
	-Ddemo=disabled -Dbench=disabled || failed=$((failed + 1))

# The threaded step under ThreadSanitizer (scripts/tsan.sh: clang, -fsanitize=thread; the rain and
# the pyramid at 1, 2, 4 and 8 workers, no race reported).
tsan_out=$(./scripts/tsan.sh 2>&1)
echo "$tsan_out" | tail -n 3
tp=$(echo "$tsan_out" | tail -n 1 | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
tf=$(echo "$tsan_out" | tail -n 1 | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
passed=$((passed + ${tp:-0}))
failed=$((failed + ${tf:-1}))

# The libFuzzer targets (fuzz/), 10 s each on a clean clone: no crash, sanitizer report, hang or
# NaN on what they find (scripts/fuzz.sh; longer runs are in the README).
fuzz_seconds=${TB_FUZZ_SECONDS:-10}
if [ "$fuzz_seconds" -gt 0 ]; then
	fuzz_out=$(./scripts/fuzz.sh "$fuzz_seconds" 2>&1)
	echo "$fuzz_out" | tail -n 8
	fp=$(echo "$fuzz_out" | tail -n 1 | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
	ff=$(echo "$fuzz_out" | tail -n 1 | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
	passed=$((passed + ${fp:-0}))
	failed=$((failed + ${ff:-1}))
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
