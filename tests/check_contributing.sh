#!/bin/sh
# The commands of CONTRIBUTING.md's first sh block run and succeed: each is taken as written, with
# the build directory `build` replaced by this test's. TAP output.
# usage: check_contributing.sh SOURCE_ROOT BUILD_DIR
root=$1 build=$2
cd "$root" || exit 1
commands=$(awk '/^```sh$/ { inside = 1; next } inside && /^```$/ { exit } inside { print }' CONTRIBUTING.md |
	sed 's/[[:space:]]*#.*$//' | grep -v '^[[:space:]]*$')
count=$(echo "$commands" | wc -l)
echo "1..$count"
n=0
echo "$commands" | while IFS= read -r line; do
	n=$((n + 1))
	cmd=$(echo "$line" | sed "s#-C build #-C $build #; s#^build/#$build/#")
	if out=$(sh -c "$cmd" 2>&1 </dev/null); then
		echo "ok $n - $line"
	else
		echo "not ok $n - $line"
		echo "$out" | tail -n 10 | sed 's/^/# /'
	fi
done
