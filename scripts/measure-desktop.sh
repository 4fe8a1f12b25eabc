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
#   scripts/measure-desktop.sh [--runs N] [--settle SECONDS] [--requests N] [--inspector]
#
# --requests N: once the window is live, N signed GET /v1/sandbox/customers (the bundled aisp-pisp
# certificate, 32 at a time, with curl) go to the app's port, so each one lands in the traffic log; PSS is
# read after them (and the settle time). Needs target/release/xs2a-sandbox (or XS2A_SANDBOX_BIN) for the
# `sign` command. The window stays on its first screen unless --inspector: then the inspector is opened
# (Alt+5, with xdotool) before the requests, so its list follows all of them live.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=3
settle=5
requests=0
inspector=0
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --settle) settle="$2"; shift 2 ;;
    --requests) requests="$2"; shift 2 ;;
    --inspector) inspector=1; shift ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done

if [ -z "${DISPLAY:-}" ]; then
  extra=()
  [ "$inspector" -eq 1 ] && extra=(--inspector)
  exec xvfb-run -a -s "-screen 0 1280x800x24" "$0" --runs "$runs" --settle "$settle" --requests "$requests" "${extra[@]}"
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
  if [ "$inspector" -eq 1 ]; then
    command -v xdotool >/dev/null || { echo "--inspector needs xdotool (apt-get install xdotool)" >&2; exit 1; }
    window=$(xdotool search --sync --onlyvisible --name "xs2a-sandbox workbench" | head -1)
    xdotool windowfocus --sync "$window" 2>/dev/null || true
    xdotool key --window "$window" alt+5
    sleep 1
  fi
  if [ "$requests" -gt 0 ]; then
    sandbox="${XS2A_SANDBOX_BIN:-${CARGO_TARGET_DIR:-$PWD/target}/release/xs2a-sandbox}"
    base=$(sed -n 's/.*sandbox listening on \(http[^ ]*\).*/\1/p' "$log" | head -1)
    url="$base/v1/sandbox/customers"
    "$sandbox" sign --cert-dir fixtures/certs/aisp-pisp --url "$url" >"$home/headers.txt"
    sent_at=$(date +%s%N)
    # One curl, many transfers: the signed headers stay valid for the 60 s the Date allows.
    awk -v url="$url" -v n="$requests" \
      'BEGIN { for (i = 0; i < n; i++) { print "url = " url; print "output = /dev/null" } }' >"$home/urls.txt"
    curl -s --no-progress-meter --parallel --parallel-max 32 -H @"$home/headers.txt" -K "$home/urls.txt"
    printf '  %d signed requests sent in %d ms\n' "$requests" $(( ($(date +%s%N) - sent_at) / 1000000 ))
  fi
  sleep "$settle"
  total=0
  detail=""
  for p in $(tree "$pid"); do
    kb=$(pss_kb "$p")
    total=$((total + kb))
    detail="$detail $(cat "/proc/$p/comm" 2>/dev/null || echo "?"):$((kb / 1024))MB"
  done
  if [ "$inspector" -eq 1 ]; then
    # Evidence that the inspector was the screen measured (and that it followed the requests).
    mkdir -p target/screenshots
    command -v import >/dev/null && import -window root target/screenshots/measure-inspector.png 2>/dev/null || true
    printf '  (inspector open: target/screenshots/measure-inspector.png)\n'
  fi
  printf 'run %d: window live %d ms after launch (app: service up at %s ms, UI live at %s ms from its start); PSS %d MB after %ss:%s\n' \
    "$run" "$ready_ms" "$service_ms" "$own_ms" $((total / 1024)) "$settle" "$detail"
  kill -TERM "$pid"
  wait "$pid" || true
  if [ -f "$home/.local/share/no.sandbox.xs2a.workbench/instance.json" ]; then
    echo "  warning: the store was not closed cleanly on SIGTERM" >&2
  fi
  rm -rf "$home"
done
