#!/bin/sh
# The demo without a display, in TAP: one line saying there is no display, then the headless run's
# summary ending in the `tumble run --json` object of the falling boxes scene.
# usage: headless_test.sh DEMO
demo=$1
echo "1..1"
log=$(env -u DISPLAY -u WAYLAND_DISPLAY "$demo" --steps 120 2>&1)
rc=$?
echo "$log" | sed 's/^/# /'
if [ $rc -ne 0 ]; then
	echo "not ok 1 - tumble-demo exited with status $rc"
	exit 1
fi
if [ "$(echo "$log" | grep -c 'no display')" -ne 1 ]; then
	echo "not ok 1 - no one-line notice that there is no display"
	exit 1
fi
if ! echo "$log" | tail -n 1 | grep -q '^{"scene": "falling_boxes", "bodies": 101, "steps": 120,.*"nan": false'; then
	echo "not ok 1 - the last line is not the falling boxes summary"
	exit 1
fi
echo "ok 1 - headless falling boxes"
