#!/bin/sh
# The README's "Getting started" program: tests/readme_hello.c is the README's `hello.c` to the
# character, it builds against libtumble (meson, as pkg-config would), and it prints what the
# README says it prints. TAP output. usage: check_readme_hello.sh README HELLO_SOURCE HELLO_EXE
readme=$1 source=$2 exe=$3
echo "1..2"
block=$(awk '/^A first program, `hello.c`:/ { found = 1; next }
	found && /^```c$/ { inside = 1; next }
	inside && /^```$/ { exit }
	inside { print }' "$readme")
if [ "$block" = "$(cat "$source")" ]; then
	echo "ok 1 - the README's hello.c is tests/readme_hello.c"
else
	echo "not ok 1 - the README's hello.c and tests/readme_hello.c differ"
fi
said=$(grep -m1 '^# Tumble .*: the ball rests at y = ' "$readme" | sed 's/^# Tumble [^:]*: //')
got=$("$exe" | sed 's/^Tumble [^:]*: //')
if [ -n "$said" ] && [ "$said" = "$got" ]; then
	echo "ok 2 - it prints '$got', as the README says"
else
	echo "not ok 2 - it prints '$got', the README says '$said'"
fi
