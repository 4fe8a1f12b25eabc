#!/usr/bin/env bash
# The OpenAPI document seen from outside: writes it with `xs2a-sandbox openapi`, validates it as OpenAPI
# 3.1 (swagger-parser), generates TypeScript types from it (openapi-typescript) and compiles a typed client
# that calls every area (tests/openapi-client/client.ts). Needs a built binary (XS2A_SANDBOX_BIN, else the debug
# one, built if missing) and Node.js.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"
# XS2A_SANDBOX_BIN: a binary already built (.ci/run: the release one); else the debug one, built if missing.
bin="${XS2A_SANDBOX_BIN:-$target/debug/xs2a-sandbox}"
[ -x "$bin" ] || cargo build --locked --bin xs2a-sandbox
document="$(cd "$target" && pwd)/openapi.json"
"$bin" openapi --out "$document"
cd tests/openapi-client
npm ci --no-audit --no-fund --loglevel=error
node check.mjs "$document"
