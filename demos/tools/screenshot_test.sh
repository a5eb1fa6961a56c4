#!/bin/sh
# A screenshot test in TAP: run tumble-demo under xvfb-run (Mesa's software OpenGL), check that it
# showed the expected debugger step, then check the picture with png_check.
# usage: screenshot_test.sh XVFB_RUN DEMO PNG_CHECK OUT.png STAGE [demo args...] -- [check args...]
# XVFB_RUN empty: skipped (scripts/setup.sh installs xvfb). STAGE empty: no step check.
xvfb=$1 demo=$2 check=$3 out=$4 stage=$5
shift 5
demoArgs=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
	demoArgs="$demoArgs $1"
	shift
done
[ $# -gt 0 ] && shift
echo "1..1"
if [ -z "$xvfb" ]; then
	echo "ok 1 # SKIP xvfb-run is not installed (scripts/setup.sh installs xvfb)"
	exit 0
fi
rm -f "$out"
# Under AddressSanitizer: Mesa's GL driver is unloaded (dlclose) before LeakSanitizer reports, so
# its allocations show up from an unknown module and cannot be suppressed by name. Leaks are left
# to the Criterion suites (the GL-free code); memory errors and UBSan stay on here.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS
# shellcheck disable=SC2086 # demoArgs are plain words
log=$("$xvfb" -a -s "-screen 0 1280x800x24" "$demo" --screenshot "$out" --frames 5 \
	--size 1280x720 $demoArgs 2>&1)
rc=$?
echo "$log" | sed 's/^/# /'
if [ $rc -ne 0 ]; then
	echo "not ok 1 - tumble-demo exited with status $rc"
	exit 1
fi
if [ -n "$stage" ] && ! echo "$log" | grep -q "debugger step [0-9]* of [0-9]*: $stage iteration"; then
	echo "not ok 1 - the demo did not show a $stage step"
	exit 1
fi
result=$("$check" "$out" "$@")
rc=$?
echo "$result" | sed 's/^/# /'
if [ $rc -ne 0 ]; then
	echo "not ok 1 - $out looks blank or lacks the expected colours"
	exit 1
fi
echo "ok 1 - $out"
