#!/bin/sh
# The shared library exports exactly the documented public API: every dynamic symbol libtumble
# defines is declared TB_API in an installed header with a `///` comment right above it, and
# every TB_API declaration of those headers is exported. TAP output.
# usage: check_exports.sh LIBTUMBLE.so HEADER...
lib=$1
shift
exported=$(nm -D --defined-only "$lib" | awk '$2 == "T" { print $3 }' | sort)
# "name documented" or "name undocumented" for each TB_API declaration of the headers.
declared=$(awk '
	/^TB_API / {
		line = $0
		sub(/\(.*/, "", line)
		n = split(line, words, /[ *]+/)
		print words[n], (previous ~ /^[ \t]*\/\/\//) ? "documented" : "undocumented"
	}
	{ previous = $0 }
' "$@" | sort)
count=$(echo "$exported" | wc -l)
echo "1..3"
echo "# $count functions exported"
missing=$(echo "$exported" | while read -r name; do
	echo "$declared" | grep -q "^$name " || echo "$name"
done)
if [ -z "$missing" ]; then
	echo "ok 1 - every exported function is declared in an installed header"
else
	echo "not ok 1 - exported but not in the public headers: $(echo $missing)"
fi
undocumented=$(echo "$declared" | awk '$2 == "undocumented" { print $1 }')
if [ -z "$undocumented" ]; then
	echo "ok 2 - every public function has a /// comment"
else
	echo "not ok 2 - no /// comment: $(echo $undocumented)"
fi
hidden=$(echo "$declared" | awk '{ print $1 }' | while read -r name; do
	echo "$exported" | grep -qx "$name" || echo "$name"
done)
if [ -z "$hidden" ]; then
	echo "ok 3 - every public declaration is exported"
else
	echo "not ok 3 - declared TB_API but not exported: $(echo $hidden)"
fi
