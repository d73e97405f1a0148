#!/usr/bin/env bash
# Install the library into a temporary prefix and build examples/harness
# against it twice: through find_package(stepcheck) and through pkg-config;
# then a third time with stepcheck as a subproject (add_subdirectory) on a
# pkg-config search path that has no cmocka, as an embedding project sees it.
# Usage: scripts/check-install.sh BUILD_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: check-install.sh BUILD_DIR}
tmp=$(mktemp -d /tmp/sc-install-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$root/$build" --prefix "$tmp/prefix" >/dev/null
for f in lib/libstepcheck.so lib/libstepcheck.a include/stepcheck.h \
         lib/cmake/stepcheck/stepcheckConfig.cmake lib/pkgconfig/stepcheck.pc bin/stepcheck; do
  [ -e "$tmp/prefix/$f" ] || { echo "install: missing $f"; exit 1; }
done
"$tmp/prefix/bin/stepcheck" --version >/dev/null
# find_package
cmake -S "$root/examples/harness" -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/cmake" >/dev/null
# pkg-config
PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig" make -s -C "$root/examples/harness" \
  -f Makefile.pkgconfig OUT="$tmp/harness-pc" >/dev/null
# add_subdirectory, without cmocka: every .pc file the system has but cmocka's
mkdir -p "$tmp/pc" "$tmp/sub"
for d in $(pkg-config --variable pc_path pkg-config | tr : ' '); do
  [ -d "$d" ] || continue
  for pc in "$d"/*.pc; do
    [ -e "$pc" ] && [ "$(basename "$pc")" != cmocka.pc ] && ln -sf "$pc" "$tmp/pc/"
  done
done
cat >"$tmp/sub/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.20)
project(embeds_stepcheck C)
add_subdirectory("$root" stepcheck)
add_executable(harness "$root/examples/harness/harness.c")
target_link_libraries(harness PRIVATE stepcheck::stepcheck_static)
EOF
! PKG_CONFIG_LIBDIR="$tmp/pc" pkg-config --exists cmocka || { echo "install: cmocka still visible"; exit 1; }
PKG_CONFIG_LIBDIR="$tmp/pc" cmake -S "$tmp/sub" -B "$tmp/sub/build" >"$tmp/sub.log" 2>&1 ||
  { cat "$tmp/sub.log"; echo "install: add_subdirectory consumer did not configure"; exit 1; }
grep -q "^STEPCHECK_TESTS:BOOL=OFF" "$tmp/sub/build/CMakeCache.txt" || { echo "install: tests on in a subproject"; exit 1; }
cmake --build "$tmp/sub/build" -j2 >"$tmp/sub.log" 2>&1 ||
  { tail -20 "$tmp/sub.log"; echo "install: add_subdirectory consumer did not build"; exit 1; }
[ -x "$tmp/cmake/harness" ] && [ -x "$tmp/harness-pc" ] && [ -x "$tmp/sub/build/harness" ] ||
  { echo "install: harness not built"; exit 1; }
echo "install: ok (find_package, pkg-config and add_subdirectory builds of examples/harness)"
