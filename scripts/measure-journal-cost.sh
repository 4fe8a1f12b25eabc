#!/usr/bin/env bash
# What the change journal costs a durable write, in figures a loaded machine does not move: instructions
# per POST of a transaction (callgrind, every thread of the server, the flusher's included) and bytes the
# server writes per POST (/proc/PID/io), each with the journal on and with `--no-journal`. Time-based
# figures: `cargo bench --bench durable_writes`.
# Usage: bash scripts/measure-journal-cost.sh [posts] (default 400). Needs valgrind and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
posts="${1:-400}"
target="${CARGO_TARGET_DIR:-target}"
cargo build --workspace --locked --profile bench --bin xs2a-sandbox >/dev/null 2>&1
bin="$(realpath "$target/release/xs2a-sandbox")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

start() { # DIR [serve args]: starts the server (under valgrind when WRAP is set), prints its authority
  local dir="$1"
  shift
  mkdir -p "$dir"
  ${WRAP:-} "$bin" serve --addr 127.0.0.1:0 --data "$dir/data" "$@" >"$dir/stdout" 2>"$dir/stderr" &
  echo $! >"$dir/pid"
  until grep -q 'http://' "$dir/stdout" 2>/dev/null; do sleep 0.3; done
  grep -o 'http://[^ ]*' "$dir/stdout" | head -1 | sed 's|http://||'
}

instructions() { # LABEL [serve args]
  local label="$1" dir="$work/cg-$1"
  shift
  local authority pid
  authority=$(WRAP="valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=$dir/cg.out" start "$dir" "$@")
  pid=$(cat "$dir/pid")
  callgrind_control -i on "$pid" >/dev/null 2>&1
  python3 scripts/post_transactions.py "$bin" "$authority" 100 # warm-up, not counted
  sleep 2
  callgrind_control -z "$pid" >/dev/null 2>&1
  python3 scripts/post_transactions.py "$bin" "$authority" "$posts"
  sleep 2
  callgrind_control -d posts "$pid" >/dev/null 2>&1
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  awk -v n="$posts" '/^(summary|totals):/ { print int($2 / n); exit }' "$dir/cg.out.1"
}

bytes() { # LABEL [serve args]
  local label="$1" dir="$work/io-$1"
  shift
  local authority pid before after
  authority=$(start "$dir" "$@")
  pid=$(cat "$dir/pid")
  python3 scripts/post_transactions.py "$bin" "$authority" 100
  sleep 1
  before=$(awk '/^wchar/ { print $2 }' "/proc/$pid/io")
  python3 scripts/post_transactions.py "$bin" "$authority" "$((posts * 2))"
  sleep 1 # the flusher's last flush
  after=$(awk '/^wchar/ { print $2 }' "/proc/$pid/io")
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  echo $(((after - before) / (posts * 2)))
}

echo "$posts posts per count; $(uptime)"
on=$(instructions on)
off=$(instructions off --no-journal)
awk -v on="$on" -v off="$off" 'BEGIN { printf "instructions per POST: journal on %d, off %d: the journal costs %.1f %%\n", on, off, (on - off) * 100 / off }'
on=$(bytes on)
off=$(bytes off --no-journal)
awk -v on="$on" -v off="$off" 'BEGIN { printf "bytes written per POST (the traffic log included): journal on %d, off %d: +%d\n", on, off, on - off }'
