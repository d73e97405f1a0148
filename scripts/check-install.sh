#!/usr/bin/env bash
# Install the library into a temporary prefix and build examples/harness
# against it twice: through find_package(stepcheck) and through pkg-config.
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
[ -x "$tmp/cmake/harness" ] && [ -x "$tmp/harness-pc" ] || { echo "install: harness not built"; exit 1; }
echo "install: ok (find_package and pkg-config builds of examples/harness)"
