#!/usr/bin/env bash
# Schema-driven fuzzing of the service's OpenAPI document (schemathesis from PyPI, pinned): starts the built
# binary (XS2A_SANDBOX_BIN, else the debug one) on an ephemeral store, generates requests for every operation of `xs2a-sandbox openapi`, each one
# signed by the bundled test TPP (fixtures/certs/aisp-pisp) and each workbench API call carrying the
# operator token (scripts/fuzz_openapi_hooks.py), and fails on any 5xx or any answer outside the document
# (a status it does not declare, a body or header against its schema, a content type it does not name).
# Bounded: a time budget (FUZZ_SECONDS, 120 by default) that the fuzzing phase fills, a fixed seed.
#
#   bash scripts/fuzz-openapi.sh                 # the default budget
#   FUZZ_SECONDS=600 bash scripts/fuzz-openapi.sh  # a longer budget (fuzzing repeats until it is spent)
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
target="${CARGO_TARGET_DIR:-target}"
target="$(mkdir -p "$target" && cd "$target" && pwd)"
# XS2A_SANDBOX_BIN: a binary already built (.ci/run: the release one); else the debug one, built if missing.
bin="${XS2A_SANDBOX_BIN:-$target/debug/xs2a-sandbox}"
[ -x "$bin" ] || cargo build --locked --bin xs2a-sandbox

schemathesis_version=4.32.5
cryptography_version=50.0.2
venv="$target/fuzz-venv"
if ! "$venv/bin/schemathesis" --version 2>/dev/null | grep -q "$schemathesis_version"; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check \
    "schemathesis==$schemathesis_version" "cryptography==$cryptography_version"
fi

work="$(mktemp -d)"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
token="fuzz-$(python3 -c 'import secrets; print(secrets.token_hex(16))')"
"$bin" serve --ephemeral --port "$port" --operator-token "$token" >"$work/serve.log" 2>&1 &
server=$!
cleanup() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
for _ in $(seq 1 100); do
  curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
  sleep 0.1
done
curl -fsS "http://127.0.0.1:$port/health" >/dev/null || { cat "$work/serve.log"; exit 1; }
"$bin" openapi --out "$work/openapi.json"

# Event streams never end: schemathesis reads a few events and stops (max-stream-events below is not
# a CLI option, so the config file carries it with the other settings).
cat >"$work/schemathesis.toml" <<EOF
max-redirects = 0
max-stream-events = 2
request-timeout = 10
EOF

export XS2A_FUZZ_BIN="$bin" XS2A_FUZZ_CERT_DIR="$root/fixtures/certs/aisp-pisp" XS2A_OPERATOR_TOKEN="$token"
export PYTHONPATH="$root/scripts${PYTHONPATH:+:$PYTHONPATH}" SCHEMATHESIS_HOOKS=fuzz_openapi_hooks
cd "$work"
"$venv/bin/schemathesis" --no-color --config-file "$work/schemathesis.toml" run \
  "$work/openapi.json" --url "http://127.0.0.1:$port" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance \
  --phases examples,fuzzing \
  --max-examples "${FUZZ_EXAMPLES:-8}" \
  --workers 2 \
  --seed "${FUZZ_SEED:-21}" \
  --max-time "${FUZZ_SECONDS:-120}"
