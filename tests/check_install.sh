#!/bin/sh
# Tumble as a user gets it: `meson install` into a scratch root, then the README's hello.c built
# against it twice, with pkg-config (tumble.pc) and with CMake (find_package(tumble), target
# tumble::tumble), and run: both print what the in-tree build prints. TAP output.
# usage: check_install.sh BUILD_DIR SOURCE_ROOT EXPECTED_EXE
build=$1 root=$2 expected_exe=$3
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
echo "1..3"
if meson install -C "$build" --no-rebuild --destdir "$scratch/root" >"$scratch/install.log" 2>&1; then
	echo "ok 1 - meson install"
else
	echo "not ok 1 - meson install failed"
	sed 's/^/# /' "$scratch/install.log" | tail -n 20
fi
prefix=$(meson introspect "$build" --buildoptions |
	python3 -c 'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))')
libdir=$(meson introspect "$build" --buildoptions |
	python3 -c 'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "libdir"))')
case $libdir in /*) ;; *) libdir=$prefix/$libdir ;; esac
installed=$scratch/root$prefix
want=$("$expected_exe")

# pkg-config: the sysroot variable points its -I and -L at the scratch root.
cflags=$(PKG_CONFIG_PATH="$scratch/root$libdir/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$scratch/root" \
	pkg-config --cflags --libs tumble 2>"$scratch/pc.log")
if cc -o "$scratch/hello_pc" "$root/tests/readme_hello.c" $cflags >>"$scratch/pc.log" 2>&1 &&
	got=$(LD_LIBRARY_PATH="$scratch/root$libdir" "$scratch/hello_pc") && [ "$got" = "$want" ]; then
	echo "ok 2 - pkg-config: hello.c builds and prints '$got'"
else
	echo "not ok 2 - pkg-config: hello.c did not build or printed '${got:-}' (want '$want')"
	sed 's/^/# /' "$scratch/pc.log" | tail -n 20
fi

# CMake: find_package(tumble) from the installed package files.
got=""
if cmake -S "$root/tests/cmake_consumer" -B "$scratch/cmake" -DCMAKE_PREFIX_PATH="$installed" \
	>"$scratch/cmake.log" 2>&1 && cmake --build "$scratch/cmake" >>"$scratch/cmake.log" 2>&1 &&
	got=$(LD_LIBRARY_PATH="$scratch/root$libdir" "$scratch/cmake/hello") && [ "$got" = "$want" ]; then
	echo "ok 3 - CMake: find_package(tumble) builds hello.c, which prints '$got'"
else
	echo "not ok 3 - CMake: hello.c did not build or printed '${got:-}' (want '$want')"
	sed 's/^/# /' "$scratch/cmake.log" | tail -n 20
fi
