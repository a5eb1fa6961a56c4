#!/usr/bin/env bash
# Install the Debian packages Tumble builds with. As root it runs apt-get; otherwise it prints the
# exact command and stops with status 1 when something is missing.
set -euo pipefail

# Required to build and test; the benchmark peers (libccd, Bullet, ODE) are optional at build time but
# installed here so that one run compares them. GLFW, glad, stb (text, PNG) and cJSON are for the
# demo and scenes; Xvfb and Mesa's software OpenGL let the demo's screenshot tests run headless;
# clang and its sanitizer runtime build the fuzz targets CI runs for a short time. NumPy, Matplotlib,
# pytest, nbconvert and a Jupyter kernel are for the Python package, its tests and its notebook.
# emscripten and chromium build the WebAssembly module and run its page headless (the `web` test,
# docs/web.md; skipped without them).
packages=(build-essential pkg-config meson ninja-build libcglm-dev libcriterion-dev
          libccd-dev libbullet-dev libode-dev libcjson-dev libglfw3-dev python3-glad libstb-dev
          xvfb xauth libgl1-mesa-dri libglx-mesa0 clang libclang-rt-14-dev cmake clang-format
          python3 python3-numpy python3-matplotlib python3-pytest jupyter-nbconvert python3-ipykernel
          emscripten chromium)

missing=()
for p in "${packages[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing+=("$p")
	fi
done

if [ ${#missing[@]} -eq 0 ]; then
	exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
	echo "setup: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq || true
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
	echo "setup: missing Debian packages. Run:"
	echo "  sudo apt-get install -y ${missing[*]}"
	exit 1
fi
