#!/usr/bin/env bash
# What the container image's static (musl) binary costs the signed path against the glibc build: the
# comparison of scripts/compare-signed-path.sh with these two binaries by default (the first one given is
# the reference).
#
#   bash scripts/measure-image-throughput.sh [ROUNDS] [LABEL=BINARY ...]
#
# ROUNDS defaults to 5. The binaries default to glibc=target/release/xs2a-sandbox and
# musl=target/x86_64-unknown-linux-musl/release/xs2a-sandbox (bash scripts/build-image.sh builds it).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-5}"
shift || true
binaries=("$@")
[ ${#binaries[@]} -gt 0 ] || binaries=(glibc=target/release/xs2a-sandbox musl=target/x86_64-unknown-linux-musl/release/xs2a-sandbox)
exec bash scripts/compare-signed-path.sh --rounds "$rounds" "${binaries[@]}"
