#!/bin/sh
# Every C and C++ source of the tree is as clang-format (the root's .clang-format) writes it.
# TAP output. usage: check_format.sh SOURCE_ROOT CLANG_FORMAT
root=$1 format=$2
cd "$root" || exit 1
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	files=$(git ls-files '*.c' '*.h' '*.cpp' | grep -v '^fuzz/corpus/')
else
	files=$(find collision dynamics engine scene tools demos tests bench fuzz \
		\( -name '*.c' -o -name '*.h' -o -name '*.cpp' \) -not -path 'fuzz/corpus/*')
fi
echo "1..1"
present=""
for f in $files; do
	[ -f "$f" ] && present="$present $f"
done
bad=""
# All files in one run (one process, not one per file); only when it finds something are they
# taken one at a time, to name the ones to format.
# shellcheck disable=SC2086
if ! "$format" --dry-run -Werror $present >/dev/null 2>&1; then
	for f in $present; do
		"$format" --dry-run -Werror "$f" >/dev/null 2>&1 || bad="$bad $f"
	done
	[ -n "$bad" ] || bad=" (clang-format failed on the whole tree)"
fi
if [ -z "$bad" ]; then
	echo "ok 1 - $(echo "$files" | wc -w) files formatted"
else
	echo "not ok 1 - not formatted (run clang-format -i on them):$bad"
fi
