#!/usr/bin/env bash
# The main command: build Tumble, then run the GLFW demo on the falling boxes scene. On a desktop
# it opens a window; without a display (a server, CI) tumble-demo says so in one line and runs the
# same scene headless, printing the `tumble run` summary. Arguments go to tumble-demo
# (a scene name or file, --debugger, --help, ...).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
[ -f build/build.ninja ] || meson setup build >/dev/null
ninja -C build >/dev/null
if [ ! -x build/demos/tumble-demo ]; then
	echo "demo.sh: tumble-demo was not built (GLFW, glad or stb missing: see scripts/setup.sh)" >&2
	exit 1
fi
exec ./build/demos/tumble-demo "$@"
