#!/usr/bin/env bash
# The arm64 build, checked on an amd64 machine: the cross-built binary run under qemu-user
# (qemu-aarch64-static: --version, `serve` answering /health, a request it signed itself, SIGTERM), then,
# where the kernel's binfmt_misc runs aarch64 programs through qemu, the arm64 image itself with
# `podman run --platform linux/arm64` behind a published port. Says plainly which of the two ran.
#
#   bash scripts/test-container-arm64.sh BINARY   # e.g. target/aarch64-unknown-linux-musl/smoke/xs2a-sandbox
#
# The host's CLI (health, curl's signing headers) is XS2A_SANDBOX_BIN, default target/release/xs2a-sandbox.
# Needs qemu-user-static (and binfmt-support for the image). Prints "N passed, M failed".
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
export CONTAINERS_CONF="${CONTAINERS_CONF:-$root/container/containers.conf}"
binary="${1:?usage: bash scripts/test-container-arm64.sh BINARY}"
host_cli=$(realpath "${XS2A_SANDBOX_BIN:-$root/target/release/xs2a-sandbox}")
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)
work=$(mktemp -d)
server=""
cleanup() {
  [ -z "$server" ] || kill "$server" 2>/dev/null || true
  podman rm -f -v -t 0 xs2a-ci-arm64 >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

source scripts/container-checks.sh
arm() { qemu-aarch64-static "$binary" "$@"; }
# One signed GET with the arm64 binary's own certificate and signature (under qemu): the customers.
signed_get() {
  arm sign --cert-dir "$work/tpp" --url "$1/v1/sandbox/customers" >"$work/headers.txt"
  curl -s -H @"$work/headers.txt" "$1/v1/sandbox/customers"
}

echo "== the arm64 binary under qemu-user"
check "an aarch64 executable" contains "$(file -L "$binary")" "ARM aarch64"
check "--version under qemu-aarch64-static" contains "$(arm --version)" "xs2a-sandbox $version"
arm cert issue --roles PSP_AI,PSP_PI --name "arm64 TPP" --out "$work/tpp" >/dev/null
# qemu itself in the background (not through arm()): $! is then the process the SIGTERM goes to.
qemu-aarch64-static "$binary" serve --ephemeral --port 0 >"$work/serve.out" 2>"$work/serve.err" &
server=$!
tries=0
until grep -q '^workbench:' "$work/serve.out"; do
  tries=$((tries + 1))
  [ "$tries" -lt 300 ] || { cat "$work/serve.err"; break; }
  sleep 0.2
done
base=$(sed -n 's/^xs2a-sandbox listening on \(http[^ ]*\).*/\1/p' "$work/serve.out")
check "serve under qemu answers /health" wait_up "$base"
check "a request signed by the arm64 binary: 200, the customers" contains "$(signed_get "$base")" "Kari Nordmann"
kill -TERM "$server"
set +e
wait "$server"
code=$?
set -e
server=""
check "SIGTERM under qemu: exit 0" test "$code" = 0
check "SIGTERM under qemu: the store closed" contains "$(cat "$work/serve.err")" "stopped, the store closed"
grep -o 'stopped, the store closed, [0-9]* ms after the stop signal' "$work/serve.err" || true

echo "== the arm64 image (podman run --platform linux/arm64)"
binfmt=/proc/sys/fs/binfmt_misc
if [ ! -e "$binfmt/qemu-aarch64" ] && [ "$(id -u)" -eq 0 ]; then
  # Register Debian's qemu-user handler where the kernel lets root (binfmt-support).
  [ -e "$binfmt/register" ] || mount -t binfmt_misc binfmt_misc "$binfmt" 2>/dev/null || true
  update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
fi
if grep -qs '^enabled' "$binfmt/qemu-aarch64"; then
  bash scripts/build-image.sh --arch arm64 --binary "$binary"
  port=$(free_port)
  podman run -d --name xs2a-ci-arm64 --platform linux/arm64 --health-interval=disable \
    -p "127.0.0.1:$port:8080" -e XS2A_MODE=loopback "xs2a-sandbox:$version-arm64" >/dev/null
  check "the image's architecture: arm64" test "$(podman image inspect --format '{{.Architecture}}' "xs2a-sandbox:$version-arm64")" = arm64
  check "the arm64 container answers /health through the published port" wait_up "http://127.0.0.1:$port"
  check "the arm64 container: a signed request, 200" contains "$(signed_get "http://127.0.0.1:$port")" "Kari Nordmann"
  echo "ran: the binary under qemu-aarch64-static, and the arm64 image with podman --platform linux/arm64 (binfmt_misc)"
else
  echo "ran: the binary under qemu-aarch64-static only; podman --platform linux/arm64 did not run (no binfmt_misc handler for aarch64 here)"
fi

finish
