#!/usr/bin/env bash
# The threaded suite under clang's ThreadSanitizer (data races between the step's workers): builds
# build-tsan with -fsanitize=thread and runs tests/tsan_threads.c (1, 2, 4 and 8 workers,
# the built-in pool). Any report fails the run (halt_on_error).
#   scripts/tsan.sh
# Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

if ! command -v clang >/dev/null; then
	echo "tsan.sh: clang is needed"
	echo "0 passed, 1 failed"
	exit 1
fi
# Debug information: line tables only, what the sanitizers' reports name lines from.
if [ ! -d build-tsan ]; then
	CC=clang meson setup build-tsan -Db_sanitize=thread -Db_lundef=false -Ddemo=disabled \
		-Dbench=disabled -Dbuildtype=debugoptimized -Dc_args=-gline-tables-only >/dev/null || {
		echo "tsan.sh: meson setup failed"
		echo "0 passed, 1 failed"
		exit 1
	}
fi
if ! ninja -C build-tsan tests/tsan_threads >/dev/null; then
	echo "tsan.sh: build failed"
	echo "0 passed, 1 failed"
	exit 1
fi
# Criterion's process arena does not start under ThreadSanitizer (Snaipe/Criterion issue 274), so
# the threaded step runs from a plain program: the rain and pyramid at 1, 2, 4 and 8 workers.
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1"
if build-tsan/tests/tsan_threads; then
	echo "1 passed, 0 failed"
else
	echo "tsan.sh: ThreadSanitizer or the test failed (above)"
	echo "0 passed, 1 failed"
	exit 1
fi
