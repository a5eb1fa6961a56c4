#!/usr/bin/env bash
# The `tumble` tool under clang's MemorySanitizer (reads of uninitialised memory), run on the
# query-file and scene-file reproducers in tests/data/reliability/.
#   scripts/msan.sh [CJSON_SOURCE_DIR]
# MemorySanitizer needs every byte the program reads to come from instrumented code, so cJSON is
# compiled from source with the engine (Debian: `apt-get source cjson`, which needs a deb-src line;
# or CJSON_SRC pointing at a directory holding cJSON.c and cJSON.h). Criterion, GLFW and the other
# libraries are not instrumented, so only the tool is checked, not the test suites. Not part of
# scripts/test.sh: it needs the cJSON source, which a fresh machine does not have.
# Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."

cjson=${1:-${CJSON_SRC:-}}
if [ -z "$cjson" ] || [ ! -f "$cjson/cJSON.c" ]; then
	echo "msan.sh: give the directory of cJSON's source (cJSON.c, cJSON.h): scripts/msan.sh DIR"
	echo "0 passed, 1 failed"
	exit 1
fi
if ! command -v clang >/dev/null; then
	echo "msan.sh: clang is needed"
	echo "0 passed, 1 failed"
	exit 1
fi

out=build-msan
mkdir -p "$out/obj" "$out/include/tumble"
version=$(grep -oE "version: *'[0-9.]+'" meson.build | grep -oE "[0-9.]+" | head -1)
IFS=. read -r major minor patch <<<"$version"
sed -e "s/@TB_VERSION_MAJOR@/$major/" -e "s/@TB_VERSION_MINOR@/$minor/" \
	-e "s/@TB_VERSION_PATCH@/$patch/" -e "s/@TB_VERSION_STRING@/$version/" \
	collision/include/tumble/version.h.in >"$out/include/tumble/version.h"
cp "$cjson/cJSON.h" "$out/include/"

flags=(-std=c11 -O1 -g -fno-omit-frame-pointer -fsanitize=memory -fsanitize-memory-track-origins=2
	-Wall -Wextra -Werror -Wno-unused-command-line-argument
	-I"$out/include" -Icollision/include -Icollision/src -Icollision/internal
	-Idynamics/include -Idynamics/src -Idynamics/internal -Iengine/include -Iengine/src -Iscene/include -Iscene/src -Itools
	'-DTB_SCENES_SOURCE_DIR="scenes"' '-DTB_SCENES_INSTALL_DIR="scenes"')
sources=(collision/src/*.c dynamics/src/*.c engine/src/*.c scene/src/*.c tools/query_file.c tools/json_write.c tools/tumble_main.c
	tools/run_command.c)
objects=()
for s in "${sources[@]}"; do
	o="$out/obj/$(echo "$s" | tr / _).o"
	clang "${flags[@]}" -c "$s" -o "$o" || {
		echo "0 passed, 1 failed"
		exit 1
	}
	objects+=("$o")
done
clang -std=c11 -O1 -g -fsanitize=memory -fsanitize-memory-track-origins=2 -w -c "$cjson/cJSON.c" \
	-o "$out/obj/cJSON.o" || {
	echo "0 passed, 1 failed"
	exit 1
}
clang -fsanitize=memory "${objects[@]}" "$out/obj/cJSON.o" -lm -o "$out/tumble" || {
	echo "0 passed, 1 failed"
	exit 1
}

passed=0
failed=0
export MSAN_OPTIONS=halt_on_error=1
check() {
	local name=$1
	shift
	# A refused input is fine (exit status 1 with a message); a sanitizer report or a crash is not.
	"$@" >"$out/$name.log" 2>&1
	local rc=$?
	if [ $rc -gt 1 ] || grep -q "Sanitizer" "$out/$name.log"; then
		echo "FAIL $name (exit status $rc)"
		tail -30 "$out/$name.log"
		failed=$((failed + 1))
	else
		echo "ok   $name"
		passed=$((passed + 1))
	fi
}
for q in tests/data/reliability/*.txt tests/data/query_cases.txt; do
	for algo in gjk-epa uepa; do
		check "query_$(basename "$q" .txt)_$algo" "$out/tumble" query --algo "$algo" "$q"
	done
done
for s in tests/data/reliability/*.json; do
	case $(basename "$s") in
	rain_80000.json) continue ;; # 80,000 bodies: minutes under MemorySanitizer, nothing new
	esac
	check "run_$(basename "$s" .json)" "$out/tumble" run "$s" --steps 120
done
for s in scenes/*.json; do
	check "scene_$(basename "$s" .json)" "$out/tumble" run "$s" --steps 60
done
# The libFuzzer targets under MemorySanitizer (libFuzzer supports it), replaying their seeds and
# whatever scripts/fuzz.sh runs have added to build-fuzz/corpus/.
lib_objects=()
for o in "${objects[@]}"; do
	case $o in *tumble_main.c.o | *run_command.c.o) ;; *) lib_objects+=("$o") ;; esac
done
for t in scene query_line narrow cast; do
	clang "${flags[@]}" -fsanitize=fuzzer "fuzz/fuzz_$t.c" "${lib_objects[@]}" "$out/obj/cJSON.o" -lm \
		-o "$out/fuzz_$t" || {
		failed=$((failed + 1))
		continue
	}
	inputs=(fuzz/corpus/$t/*)
	[ -d "build-fuzz/corpus/$t" ] && inputs+=(build-fuzz/corpus/$t/*)
	check "fuzz_${t}_replay_${#inputs[@]}_inputs" "$out/fuzz_$t" -runs=1 "${inputs[@]}"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
