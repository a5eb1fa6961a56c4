#!/usr/bin/env bash
# The test command: set up dependencies, build twice (normal, and with AddressSanitizer +
# UndefinedBehaviorSanitizer), run every Criterion suite once, and end with the totals. Each suite
# runs in the sanitizer build, which is optimised as the normal one is and so computes the same
# bits; the normal build compiles everything but the Criterion test programs with warnings as
# errors and runs the suites the sanitizer build does not define (the install check, Python, the
# browser). TB_TEST_FULL=1 builds and runs every suite in the normal build too (a longer run than
# CI's).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

./scripts/setup.sh || exit 1

passed=0
failed=0

# setup_build DIR [meson setup options...]: set up one build directory unless it is already.
setup_build() {
	local dir=$1
	shift
	[ -f "$dir/build.ninja" ] && return 0
	meson setup "$dir" "$@" >"$dir.setup.log" 2>&1 || {
		cat "$dir.setup.log"
		echo "meson setup $dir failed"
		return 1
	}
}

# build_targets DIR TARGETS: build the named targets of DIR, all when TARGETS is empty.
build_targets() {
	# shellcheck disable=SC2086
	ninja -C "$1" $2 >"$1.build.log" 2>&1 || {
		cat "$1.build.log"
		echo "build $1 failed"
		return 1
	}
}

# test_build DIR TESTS [OPTION]: run the named tests of DIR (every test when TESTS is empty; OPTION
# for meson test, e.g. --no-rebuild) and add their TAP results to the totals.
test_build() {
	local dir=$1
	local tests=$2
	local extra=${3:-}
	local started=$SECONDS
	# --logbase: a log of this run's own (a suite that runs meson test itself, as the CONTRIBUTING
	# check does, writes the default testlog.txt).
	# shellcheck disable=SC2086
	meson test -C "$dir" --print-errorlogs --num-processes 2 --logbase ci $extra $tests >"$dir.test.log" 2>&1
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
	echo "$dir${tests:+ ($tests)}: $p passed, $f failed (tests $((SECONDS - started)) s)"
}

# run_build DIR SUITES [meson setup options...]: set up, build and test one build directory, all
# suites when SUITES is empty (with named suites only their test programs are built, and what
# they link).
run_build() {
	local dir=$1
	local suites=$2
	shift 2
	setup_build "$dir" "$@" || return 1
	local targets=""
	for s in $suites; do targets="$targets tests/test_$s"; done
	build_targets "$dir" "$targets" || return 1
	test_build "$dir" "$suites"
}

# targets_but_tests DIR: every build target of DIR but the Criterion test programs (tests/test_*),
# as ninja names them.
targets_but_tests() {
	python3 - "$1" <<'PY'
import json, os, subprocess, sys
d = sys.argv[1]
out = subprocess.run(["meson", "introspect", "--targets", d], capture_output=True, text=True)
root = os.path.realpath(d)
names = []
for t in json.loads(out.stdout or "[]"):
    if t["name"].startswith("test_") and os.path.basename(os.path.dirname(t["defined_in"])) == "tests":
        continue
    names += [os.path.relpath(os.path.realpath(f), root) for f in t["filename"]]
print(" ".join(names))
PY
}

# add_script_totals OUTPUT LINES: print the last LINES of a script's OUTPUT and add the totals of
# its last line, `N passed, N failed` (one failure when that line is missing).
add_script_totals() {
	echo "$1" | tail -n "$2"
	local last p f
	last=$(echo "$1" | tail -n 1)
	p=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
	f=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-1}))
}

# tests_only_in A B: the names of the tests build directory A defines and B does not.
tests_only_in() {
	python3 - "$1" "$2" <<'PY'
import json, subprocess, sys
def names(d):
    out = subprocess.run(["meson", "introspect", "--tests", d], capture_output=True, text=True)
    return {t["name"] for t in json.loads(out.stdout or "[]")}
print(" ".join(sorted(names(sys.argv[1]) - names(sys.argv[2]))))
PY
}

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# -Dwerror=true: warnings fail the project's own builds (meson.build leaves it off for users).
# It builds everything but the Criterion test programs, which the sanitizer build compiles with
# the same warnings and runs (TB_TEST_FULL=1: everything).
plain_ok=1
plain_targets=""
if setup_build build --buildtype=debugoptimized -Dwerror=true; then
	[ "${TB_TEST_FULL:-0}" = 1 ] || plain_targets=$(targets_but_tests build)
	build_targets build "$plain_targets" || plain_ok=0
else
	plain_ok=0
fi
[ "$plain_ok" -eq 1 ] || failed=$((failed + 1))
# The sanitizer build is optimised (-O2) as the normal one is: it checks the code users run, in a
# fraction of a -O0 build's time; UBSan and ASan instrument it all the same. Line tables (-g1) are
# what the sanitizers' reports name lines from. GCC's check of block-scoped locals used after their
# block (use-after-scope) is left to the fuzz build: clang's AddressSanitizer there keeps it on, and
# GCC's version of it multiplies the time to compile the solver's inlined rows.
run_build build-san "" --buildtype=debugoptimized -Dwerror=true -Db_sanitize=address,undefined \
	-Dc_args="-fno-sanitize-recover=undefined -g1 -fno-sanitize-address-use-after-scope" \
	-Dc_link_args=-fno-sanitize-recover=undefined -Dbench=disabled || failed=$((failed + 1))
# The threaded step under ThreadSanitizer (scripts/tsan.sh: clang, -fsanitize=thread; the rain and
# the pyramid at 1, 2, 4 and 8 workers, no race reported) runs beside what follows, which leaves
# cores idle between its steps (one-worker runs, a browser page, links). Its result is read last.
./scripts/tsan.sh >build-tsan.log 2>&1 &
tsan_pid=$!

# The normal build runs what the sanitizer build cannot (or every suite, with TB_TEST_FULL=1).
if [ "$plain_ok" -eq 1 ]; then
	if [ "${TB_TEST_FULL:-0}" = 1 ]; then
		test_build build ""
	else
		plain_tests=$(tests_only_in build build-san)
		[ -n "$plain_tests" ] && test_build build "$plain_tests" --no-rebuild
	fi
fi

# The plain scalar solver (-Dsimd=scalar) must compute the same bits as the SIMD build: the
# determinism test's stored hash holds for both (and the stacking figures with it).
run_build build-scalar "world_stacking rolling contact_solver" --buildtype=release -Dsimd=scalar \
	-Ddemo=disabled -Dbench=disabled || failed=$((failed + 1))

# The libFuzzer targets (fuzz/), 10 s each on a clean clone: no crash, sanitizer report, hang or
# NaN on what they find (scripts/fuzz.sh; longer runs are in the README).
fuzz_seconds=${TB_FUZZ_SECONDS:-10}
if [ "$fuzz_seconds" -gt 0 ]; then
	add_script_totals "$(./scripts/fuzz.sh "$fuzz_seconds" 2>&1)" 8
fi

# ThreadSanitizer's run, started after the sanitizer build.
wait "$tsan_pid"
add_script_totals "$(cat build-tsan.log)" 3

# CI allows ten minutes: the whole run's time, for whoever adds the next suite.
echo "the test command took $SECONDS s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
