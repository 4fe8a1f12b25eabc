#!/usr/bin/env bash
# The signed path of several builds of the service, side by side: the signed_requests benchmark
# (benches/signed_requests.rs, `--server PATH`) against each binary in turn, in alternating rounds so that a
# slow spell of a shared machine falls on all of them; then, per binary, the medians of its rounds. Each
# round also measures the references in the same run: one RSA-2048 verification as the gate makes it (ring,
# the key read from the certificate each time: the benchmark's own figure) and, once per round, OpenSSL's
# (`openssl speed`, its key read once), and with --prism the same signed GET against a Prism mock of the
# service's own OpenAPI document (unsigned in effect: Prism checks the request's shape, not its signature).
#
#   bash scripts/compare-signed-path.sh [--rounds N] [--prism] [LABEL=BINARY ...]
#
# The first binary is the reference for the rate and CPU ratios. Default: readme=target/release/xs2a-sandbox
# (the README's build: `bash scripts/build-release.sh`) and shipped=target/shipped/release/xs2a-sandbox
# (what ships: `CARGO_TARGET_DIR=target/shipped bash scripts/build-release.sh --ship`). SECONDS_PER_RUN
# (default 8) is each run's load; at 64 connections on 2 cores that is about 100,000 requests, after which
# the server's memory is read (at start, after the load, and idle 3 s later). BENCH=PATH uses a benchmark
# executable already built. --prism installs Prism (@stoplight/prism-cli, the version below) with npm into
# target/prism the first time. The load average is printed before and after; docs/performance.md has the
# figures and says why the ratios, not the absolute figures, are what to compare.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=5
prism=""
binaries=()
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --prism) prism=yes; shift ;;
    *=*) binaries+=("$1"); shift ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
[ ${#binaries[@]} -gt 0 ] || binaries=(readme=target/release/xs2a-sandbox shipped=target/shipped/release/xs2a-sandbox)
for entry in "${binaries[@]}"; do
  [ -x "${entry#*=}" ] || { echo "no binary at ${entry#*=} (${entry%%=*})" >&2; exit 1; }
done
seconds="${SECONDS_PER_RUN:-8}"
PRISM_VERSION=5.14.2

# The benchmark's executable, built in the release profile with the tests' features (what CI builds), so
# that nothing but the benchmark is compiled.
bench="${BENCH:-}"
if [ -z "$bench" ]; then
  bench=$(cargo test --release --locked --workspace --features xs2a-desktop/custom-protocol \
    --bench signed_requests --no-run 2>&1 | sed -n 's/.*Executable .*(\(.*signed_requests-[0-9a-f]*\)).*/\1/p' | tail -1)
fi
[ -x "$bench" ] || { echo "no benchmark executable" >&2; exit 1; }

prism_args=()
prism_pid=""
stop_prism() { [ -z "$prism_pid" ] || kill "$prism_pid" 2>/dev/null || true; }
trap stop_prism EXIT
if [ -n "$prism" ]; then
  prism_bin=target/prism/node_modules/.bin/prism
  if [ ! -x "$prism_bin" ]; then
    mkdir -p target/prism
    npm install --prefix target/prism --no-save --no-audit --no-fund "@stoplight/prism-cli@$PRISM_VERSION" >/dev/null
  fi
  "${binaries[0]#*=}" openapi >target/prism/openapi.json
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "$prism_bin" mock --port "$port" target/prism/openapi.json >target/prism/prism.log 2>&1 &
  prism_pid=$!
  for _ in $(seq 1 300); do
    grep -q "Prism is listening" target/prism/prism.log && break
    kill -0 "$prism_pid" 2>/dev/null || { cat target/prism/prism.log >&2; exit 1; }
    sleep 0.1
  done
  grep -q "Prism is listening" target/prism/prism.log || { echo "Prism did not start" >&2; exit 1; }
  # Prism is node: the process that answers is the one npm's launcher started last.
  node_pid=$(pgrep -P "$prism_pid" -n || echo "$prism_pid")
  prism_args=(--prism "127.0.0.1:$port" --prism-pid "$node_pid")
  echo "Prism $PRISM_VERSION on 127.0.0.1:$port (pid $node_pid), mocking the service's own OpenAPI document"
fi

openssl_verify_us() { # one RSA-2048 verification by `openssl speed`, in µs
  openssl speed -seconds 2 rsa2048 2>/dev/null | awk '/^rsa 2048 bits/ { printf "%.1f", 1e6 / $NF }'
}

run() { # run BINARY [EXTRA...]: one line of figures
  # The binary read whole into the page cache first: the kernel maps the code pages around each fault
  # only from pages already cached, so a binary just built (all cached) would otherwise show several MB
  # more resident code (RssFile) than one partly evicted. Every binary is measured in the same state.
  cat "$1" >/dev/null
  "$bench" --bench --server "$@" --seconds "$seconds" 2>/dev/null |
    awk '/^raw RSA-2048 verify/ { verify = $(NF - 2) }
         /^GET .*signed/ { gsub("/s", "", $NF); rate = $NF }
         /^server CPU per request/ { cpu = $5 }
         /^for comparison, unsigned GET \/health/ { health = $(NF - 3) }
         /^server memory at start/ { start = $(NF - 1) }
         /^server memory after the load/ { after = $7; peak = $11 }
         /^server memory idle/ { idle = $(NF - 1) }
         /^Prism mock/ { prism_rate = $0; sub(/\/s.*/, "", prism_rate); sub(/.* /, "", prism_rate);
                         prism_cpu = "-"; if ($0 ~ /server CPU/) { prism_cpu = $(NF - 3) } }
         END { printf "%s %s %s %s %s %s %s %s %s %s\n", rate, cpu, verify, health, start, after, peak, idle,
               (prism_rate == "" ? "-" : prism_rate), (prism_cpu == "" ? "-" : prism_cpu) }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) printf "%s (range %s-%s)", v[int((NR + 1) / 2)], v[1], v[NR] }'; }

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for entry in "${binaries[@]}"; do
  file -L "${entry#*=}" | sed "s|^|${entry%%=*}: |" | cut -c1-160
done
run "${binaries[0]#*=}" >/dev/null # one uncounted run: the first after a build is slower in every series
declare -A col
add() { col[$1]="${col[$1]:-} $2"; }
for round in $(seq 1 "$rounds"); do
  openssl_us=$(openssl_verify_us)
  add openssl "$openssl_us"
  reference_rate=""
  reference_cpu=""
  first=yes
  for entry in "${binaries[@]}"; do
    label="${entry%%=*}"
    extra=()
    [ -z "$first" ] || extra=("${prism_args[@]}")
    first=""
    read -r rate cpu verify health start after peak idle prism_rate prism_cpu < <(run "${entry#*=}" "${extra[@]}")
    [ -n "$reference_rate" ] || { reference_rate=$rate; reference_cpu=$cpu; }
    ratio() { awk -v a="$1" -v b="$2" "BEGIN { printf \"%.${3:-2}f\", a / b }"; }
    add "$label.rate" "$rate"
    add "$label.rate%" "$(ratio "$rate" "$reference_rate" 3)"
    add "$label.cpu/ref" "$(ratio "$cpu" "$reference_cpu" 3)"
    add "$label.cpu" "$cpu"
    add "$label.verifies" "$(ratio "$cpu" "$verify")"
    add "$label.openssl" "$(ratio "$cpu" "$openssl_us")"
    add "$label.health" "$(ratio "$cpu" "$health")"
    add "$label.start" "$start"
    add "$label.idle" "$idle"
    add "$label.peak" "$peak"
    line="round $round: $label $rate/s, $cpu µs CPU per request = $(ratio "$cpu" "$verify") ring verifies ($verify µs)"
    line="$line = $(ratio "$cpu" "$openssl_us") OpenSSL verifies ($openssl_us µs) = $(ratio "$cpu" "$health") x /health ($health µs);"
    line="$line RSS $start MB at start, $after after the load (peak $peak), $idle idle"
    if [ "$prism_rate" != "-" ]; then
      add prism.times "$(ratio "$rate" "$prism_rate" 1)"
      line="$line; Prism $prism_rate/s (CPU $prism_cpu µs per request): $label at $(ratio "$rate" "$prism_rate" 1) x Prism's rate"
    fi
    echo "$line"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
reference="${binaries[0]%%=*}"
echo "medians of $rounds rounds:"
echo "  one OpenSSL verify: $(tr ' ' '\n' <<<"${col[openssl]}" | grep . | median) µs"
for entry in "${binaries[@]}"; do
  label="${entry%%=*}"
  m() { tr ' ' '\n' <<<"${col[$label.$1]}" | grep . | median; }
  echo "  $label: $(m rate)/s; CPU per request $(m cpu) µs = $(m verifies) ring verifies = $(m openssl) OpenSSL verifies = $(m health) x /health"
  echo "  $label: RSS $(m start) MB at start, $(m peak) MB peak, $(m idle) MB idle after the load"
  [ "$label" = "$reference" ] ||
    echo "  $label against $reference, round by round: rate $(m 'rate%') x, CPU per request $(m 'cpu/ref') x"
done
[ -z "${col[prism.times]:-}" ] ||
  echo "  $reference's signed rate against Prism's in the same rounds: $(tr ' ' '\n' <<<"${col[prism.times]}" | grep . | median) x"
