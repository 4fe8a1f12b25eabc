#!/usr/bin/env bash
# Instructions the server spends per request, counted by callgrind: a figure that does not move with the
# machine's load (unlike time on a shared machine), for finding and proving savings on the signed path.
# For the traffic log on and off, the release server runs under valgrind; after a warm-up, N signed
# GET /v1/sandbox/customers are sent one after another, then N unsigned GET /health (the HTTP stack's
# floor), each batch counted in a dump of its own over every thread of the server (the log's writer
# included). The reference, from the same dump: ring's RSA verification (one per signed request).
# Usage: bash scripts/count-instructions.sh [requests] (default 2000). Needs valgrind.
# KEEP=DIR keeps the callgrind files there (for callgrind_annotate) instead of deleting them.
set -euo pipefail
cd "$(dirname "$0")/.."
requests="${1:-2000}"
target="${CARGO_TARGET_DIR:-target}"
cargo bench --bench signed_requests --no-run >/dev/null 2>&1
bench=$(cargo bench --bench signed_requests --no-run --message-format=json 2>/dev/null |
  grep -o '"executable":"[^"]*signed_requests[^"]*"' | cut -d'"' -f4 | tail -1)
server="$target/release/xs2a-sandbox"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The instruction total of one dump file.
total() { awk '/^(summary|totals):/ && !found { print $2; found = 1 }' "$1"; }
# Inclusive instructions of the first function whose name matches the pattern.
inclusive() {
  callgrind_annotate --inclusive=yes --threshold=100 "$1" 2>/dev/null |
    awk -v pattern="$2" '!found && $0 ~ pattern { gsub(",", "", $1); print $1; found = 1 }'
}

count() {
  local label="$1"
  shift
  local dir="$work/$label"
  mkdir -p "$dir"
  valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$dir/callgrind.out" \
    "$server" serve --addr 127.0.0.1:0 --data "$dir/data" "$@" >"$dir/stdout" 2>"$dir/valgrind.log" &
  local pid=$!
  until grep -q 'http://' "$dir/stdout" 2>/dev/null; do sleep 0.5; done
  local authority
  authority=$(grep -o 'http://[^ ]*' "$dir/stdout" | head -1 | sed 's|http://||')
  callgrind_control -i on "$pid" >/dev/null 2>&1
  # Warm-up, not counted: the certificate's first parse and chain check, the allocator's first pages.
  "$bench" --drive "$authority" --requests 200
  "$bench" --drive "$authority" --requests 200 --health
  sleep 3
  callgrind_control -z "$pid" >/dev/null 2>&1
  "$bench" --drive "$authority" --requests "$requests"
  sleep 3 # the log's writer stores the last entries
  callgrind_control -d signed "$pid" >/dev/null 2>&1
  "$bench" --drive "$authority" --requests "$requests" --health
  sleep 3
  callgrind_control -d health "$pid" >/dev/null 2>&1
  # The same wait with no requests: what the idle server's own threads cost (not subtracted above).
  sleep 3
  callgrind_control -d idle "$pid" >/dev/null 2>&1
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  local signed health idle verify
  signed=$(total "$dir/callgrind.out.1")
  health=$(total "$dir/callgrind.out.2")
  idle=$(total "$dir/callgrind.out.3")
  verify=$(inclusive "$dir/callgrind.out.1" 'VerificationAlgorithm for ring::rsa::RsaParameters')
  awk -v label="$label" -v n="$requests" -v s="$signed" -v h="$health" -v i="$idle" -v v="$verify" 'BEGIN {
    printf "%s: signed GET %.0f instructions per request, /health %.0f, one RSA verify %.0f; ", label, s / n, h / n, v / n
    printf "signed = %.2f x one verify, %.2f x /health; above /health %.0f = %.2f x one verify (idle server over the 3 s wait: %.0f)\n",
      s / v, s / h, (s - h) / n, (s - h) / v, i
  }'
  if [ -n "${KEEP:-}" ]; then
    mkdir -p "$KEEP"
    cp "$dir"/callgrind.out.* "$KEEP/" 2>/dev/null 2>&1
    for f in "$KEEP"/callgrind.out.[0-9]*; do mv "$f" "$KEEP/$label.${f##*.}"; done
  fi
}

echo "$requests requests per batch; $(uptime)"
count log-on
count log-off --no-traffic
