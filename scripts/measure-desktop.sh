#!/usr/bin/env bash
# Figures of the release app under Xvfb: time from launch to the window showing live data, and the whole
# app's PSS (the app plus its WebKit child processes, Pss from /proc/PID/smaps_rollup).
#
# "Live data" is the app's own line `xs2a-desktop: ready after N ms`: the main window's init script reports
# once the UI has shown the session's details (its first API answer) and the event stream is "Live"
# (src-tauri/src/window.rs). This script times launch to that line from outside; the app's N is from its
# own start. Each run gets a fresh HOME (a first start: the store is created and seeded). The first run warms
# the disk cache; all runs are printed.
#
#   scripts/measure-desktop.sh [--runs N] [--settle SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."

runs=3
settle=5
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --settle) settle="$2"; shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done

if [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s "-screen 0 1280x800x24" "$0" --runs "$runs" --settle "$settle"
fi

app="${XS2A_DESKTOP_BIN:-${CARGO_TARGET_DIR:-$PWD/target}/release/xs2a-desktop}"
[ -x "$app" ] || { echo "build the app first (scripts/setup-desktop.sh --no-open): $app" >&2; exit 1; }

# The process and all its descendants.
tree() {
  echo "$1"
  local child
  for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do tree "$child"; done
}

pss_kb() {
  awk '/^Pss:/ { print $2 }' "/proc/$1/smaps_rollup" 2>/dev/null || echo 0
}

for run in $(seq 1 "$runs"); do
  home="$(mktemp -d)"
  mkdir -p "$home/.local/share" "$home/.config" "$home/.cache" "$home/runtime"
  chmod 700 "$home/runtime"
  log="$home/app.log"
  : >"$log"
  start=$(date +%s%N)
  HOME="$home" XDG_DATA_HOME="$home/.local/share" XDG_CONFIG_HOME="$home/.config" \
    XDG_CACHE_HOME="$home/.cache" XDG_RUNTIME_DIR="$home/runtime" "$app" >"$log" 2>&1 &
  pid=$!
  until grep -q "ready after" "$log"; do
    if ! kill -0 "$pid" 2>/dev/null; then cat "$log" >&2; echo "the app ended before it was ready" >&2; exit 1; fi
    if [ $(( ($(date +%s%N) - start) / 1000000000 )) -ge 30 ]; then
      cat "$log" >&2; echo "not ready within 30 s" >&2; kill -TERM "$pid"; exit 1
    fi
    sleep 0.005
  done
  ready_ms=$(( ($(date +%s%N) - start) / 1000000 ))
  own_ms=$(sed -n 's/.*ready after \([0-9]*\) ms.*/\1/p' "$log")
  service_ms=$(sed -n 's/.*service up after \([0-9]*\) ms.*/\1/p' "$log")
  sleep "$settle"
  total=0
  detail=""
  for p in $(tree "$pid"); do
    kb=$(pss_kb "$p")
    total=$((total + kb))
    detail="$detail $(cat "/proc/$p/comm" 2>/dev/null || echo "?"):$((kb / 1024))MB"
  done
  printf 'run %d: window live %d ms after launch (app: service up at %s ms, UI live at %s ms from its start); PSS %d MB after %ss:%s\n' \
    "$run" "$ready_ms" "$service_ms" "$own_ms" $((total / 1024)) "$settle" "$detail"
  kill -TERM "$pid"
  wait "$pid" || true
  if [ -f "$home/.local/share/no.sandbox.xs2a.workbench/instance.json" ]; then
    echo "  warning: the store was not closed cleanly on SIGTERM" >&2
  fi
  rm -rf "$home"
done
