#!/usr/bin/env bash
# The container image's own figures (docs/performance.md, "The container image"), each beside the native
# binary's measured in the same run, in alternating rounds: the image's uncompressed size; the start, from
# `podman run -d` (or the binary's launch) to the first answer of /health from the host; the stop, from
# SIGTERM to the process gone with the store closed (the service's own figure and the host's, podman wait
# included); the resident memory once started and after 200 signed requests. The load average is printed
# before and after: on a shared machine, the ratios are what to compare.
#
#   bash scripts/measure-image.sh [ROUNDS] [--image NAME] [--native BINARY]
#
# ROUNDS defaults to 5; the image to xs2a-sandbox:<version>-amd64 (bash scripts/build-image.sh), the native
# binary to target/release/xs2a-sandbox (which also signs the requests). Containers are named
# xs2a-measure-… and removed.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
export CONTAINERS_CONF="${CONTAINERS_CONF:-$root/container/containers.conf}"
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)
rounds=5
image="xs2a-sandbox:$version-amd64"
native="$root/target/release/xs2a-sandbox"
while [ $# -gt 0 ]; do
  case "$1" in
    --image) image="$2"; shift 2 ;;
    --native) native=$(realpath "$2"); shift 2 ;;
    [0-9]*) rounds="$1"; shift ;;
    *) echo "measure-image.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
work=$(mktemp -d)
native_pid=""
cleanup() {
  [ -z "$native_pid" ] || kill "$native_pid" 2>/dev/null || true
  podman rm -f -t 0 xs2a-measure >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
now_ms() { echo $(($(date +%s%N) / 1000000)); }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# Polls /health every 10 ms (at most 3000 tries) and prints the milliseconds since $1.
until_healthy() {
  local started="$1" url="$2" tries=0
  until [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$url/health")" = 200 ]; do
    tries=$((tries + 1))
    [ "$tries" -lt 3000 ] || { echo "never answered" >&2; return 1; }
    sleep 0.01
  done
  echo $(($(now_ms) - started))
}
rss_mb() { awk '/^VmRSS:/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }
# 200 signed GETs of the customers, one after another (what the memory after a little use is taken after).
some_requests() {
  "$native" sign --cert-dir "$work/tpp" --url "$1/v1/sandbox/customers" >"$work/headers.txt"
  for _ in $(seq 1 200); do curl -s -o /dev/null -H @"$work/headers.txt" "$1/v1/sandbox/customers"; done
}
"$native" cert issue --roles PSP_AI,PSP_PI --name "Measuring TPP" --out "$work/tpp" >/dev/null

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "image $image: $(podman image inspect --format '{{.Size}}' "$image" | awk '{ printf "%d bytes uncompressed (%.1f MB)", $1, $1 / 1e6 }')"
echo "native $native: $(stat -c %s "$native" | awk '{ printf "%.1f MB", $1 / 1e6 }')"
for round in $(seq 1 "$rounds"); do
  # The native binary: an empty data directory of its own, the test CA trusted as the image is told to.
  port=$(free_port)
  rm -rf "$work/data" && mkdir "$work/data"
  started=$(now_ms)
  "$native" serve --port "$port" --data "$work/data" --trust-test-ca >"$work/native.out" 2>"$work/native.err" &
  native_pid=$!
  native_start=$(until_healthy "$started" "http://127.0.0.1:$port")
  native_idle=$(rss_mb "$native_pid")
  some_requests "http://127.0.0.1:$port"
  native_used=$(rss_mb "$native_pid")
  started=$(now_ms)
  kill -TERM "$native_pid"
  wait "$native_pid" || true
  native_stop_host=$(($(now_ms) - started))
  native_stop=$(grep -o '[0-9]* ms after the stop signal' "$work/native.err" | cut -d' ' -f1)
  native_pid=""

  # The image: a new container on an anonymous volume, the port published on 127.0.0.1.
  port=$(free_port)
  started=$(now_ms)
  podman run -d --name xs2a-measure --health-interval=disable -p "127.0.0.1:$port:8080" "$image" \
    serve --trust-test-ca >/dev/null 2>&1
  image_start=$(until_healthy "$started" "http://127.0.0.1:$port")
  pid=$(podman inspect --format '{{.State.Pid}}' xs2a-measure)
  image_idle=$(rss_mb "$pid")
  some_requests "http://127.0.0.1:$port"
  image_used=$(rss_mb "$pid")
  started=$(now_ms)
  podman kill --signal TERM xs2a-measure >/dev/null
  podman wait --interval 10ms xs2a-measure >/dev/null
  image_stop_host=$(($(now_ms) - started))
  image_stop=$(podman logs xs2a-measure 2>&1 | grep -o '[0-9]* ms after the stop signal' | cut -d' ' -f1)
  podman rm -f -v -t 0 xs2a-measure >/dev/null 2>&1

  echo "round $round: start native $native_start ms, image $image_start ms ($(awk -v a="$image_start" -v b="$native_start" 'BEGIN { printf "%.1f", a / b }') x);" \
    "stop (the service's own) native $native_stop ms, image $image_stop ms; stop (host, SIGTERM to gone) native $native_stop_host ms, image $image_stop_host ms;" \
    "RSS started native $native_idle MB, image $image_idle MB; after 200 signed GETs native $native_used MB, image $image_used MB"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
