#!/usr/bin/env bash
# Install the Debian packages stepcheck needs to build, test and run its rig,
# when they are missing. As root with apt-get, else through sudo.
set -euo pipefail
pkgs=(build-essential cmake pkg-config git python3
      libwebsockets-dev libjansson-dev libpng-dev libcmocka-dev
      chromium chromium-headless-shell chromium-driver openjdk-17-jre-headless valgrind
      xvfb x11vnc websockify novnc xpra x11-utils x11-apps josm gpsprune imagemagick
      fonts-noto-core fonts-dejavu-core curl abigail-tools xinput)
# fonts-noto-core: JOSM depends on fonts-noto anyway; its UI font (Java's
# Dialog -> fontconfig sans-serif) resolves to Noto Sans, the font the builtin
# "josm" scale-bar glyph set was learned from. Named here so it is explicit.
# xpra (3.1.3 on bookworm, HTML5 client in /usr/share/xpra/www): the rig's
# second transport, examples/josm/rig.sh --transport xpra; x11-utils: its
# xwininfo finds JOSM's window on an xpra display. x11-apps: xlogo, the
# non-JOSM program tests/cli/rig.sh starts with examples/rig/rig.sh.
# gpsprune: the Swing map viewer tests/e2e/gpsprune.sh drives through that rig.
# chromium-driver (chromedriver) and openjdk-17-jre-headless (/usr/bin/java on
# bookworm; default-jre-headless depends on it): the Selenium Grid 4 test, whose
# server jar scripts/grid.sh fetches with npm (Debian's npm when none is there).
# abigail-tools: abidw/abidiff, the ABI check (scripts/abi-check.sh).
# xinput: scripts/xpra-trace.py records what reaches each rig display.
command -v npm >/dev/null 2>&1 || pkgs+=(npm)
[ "${SC_DEPS_EXTRA:-}" ] && pkgs+=($SC_DEPS_EXTRA)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "deps: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q >/dev/null
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
