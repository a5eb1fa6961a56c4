#!/bin/sh
# `tumble query --trace ID FILE` in TAP: every line is one JSON object (checked by python3's json
# when present), iterations first, then one {"result": ...} line; an unknown id fails with status 1.
# usage: trace_cli_test.sh TUMBLE CASES_FILE ID
tumble=$1 cases=$2 id=$3
echo "1..3"
out=$("$tumble" query --trace "$id" "$cases")
rc=$?
steps=$(echo "$out" | grep -c '^{"stage":"\(gjk\|epa\|uepa\)","iteration":')
last=$(echo "$out" | tail -n 1)
if [ $rc -eq 0 ] && [ "$steps" -ge 1 ] && [ "$steps" -eq $(($(echo "$out" | wc -l) - 1)) ] &&
	echo "$last" | grep -q "^{\"result\":{\"id\":$id,"; then
	echo "ok 1 - $steps iterations then the result"
else
	echo "not ok 1 - unexpected output (status $rc):"
	echo "$out" | sed 's/^/# /' | cut -c1-200
fi
if command -v python3 >/dev/null 2>&1; then
	if echo "$out" | python3 -c 'import json, sys; [json.loads(l) for l in sys.stdin]'; then
		echo "ok 2 - every line is JSON"
	else
		echo "not ok 2 - a line is not JSON"
	fi
else
	echo "ok 2 # SKIP python3 not found"
fi
"$tumble" query --trace 999999999 "$cases" >/dev/null 2>&1
rc=$?
if [ $rc -eq 1 ]; then
	echo "ok 3 - an unknown id fails"
else
	echo "not ok 3 - an unknown id gave status $rc"
fi
