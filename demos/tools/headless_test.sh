#!/bin/sh
# The demo without a display, in TAP: one line saying there is no display, then the headless run's
# summary ending in the `tumble run --json` object of the falling boxes scene; with --threads 3
# the same state hash as with one thread.
# usage: headless_test.sh DEMO
demo=$1
echo "1..2"
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
hash1=$(echo "$log" | tail -n 1 | grep -oE '"state_hash": "[0-9a-f]+"')
log3=$(env -u DISPLAY -u WAYLAND_DISPLAY "$demo" --steps 120 --threads 3 2>&1)
hash3=$(echo "$log3" | tail -n 1 | grep -oE '"state_hash": "[0-9a-f]+"')
if [ -n "$hash1" ] && [ "$hash1" = "$hash3" ]; then
	echo "ok 2 - --threads 3 steps the same bits ($hash3)"
else
	echo "not ok 2 - --threads 3 gave '$hash3', one thread '$hash1'"
fi
