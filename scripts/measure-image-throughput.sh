#!/usr/bin/env bash
# What the container image's static (musl) binary costs the signed path against the glibc build: the
# signed_requests benchmark (benches/signed_requests.rs, `--server PATH`) against each binary in turn, in
# alternating rounds (so that a slow spell of a shared machine falls on all of them), then each round's
# ratio to the glibc binary and the median of the ratios. The load average is printed before and after:
# the ratios, not the absolute figures, are what to compare (docs/performance.md).
#
#   bash scripts/measure-image-throughput.sh [ROUNDS] [LABEL=BINARY ...]
#
# ROUNDS defaults to 5. The binaries default to glibc=target/release/xs2a-sandbox and
# musl=target/x86_64-unknown-linux-musl/release/xs2a-sandbox (bash scripts/build-image.sh builds it); the
# first one given is the reference. SECONDS_PER_RUN (default 8) is each run's load.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-5}"
shift || true
binaries=("$@")
[ ${#binaries[@]} -gt 0 ] || binaries=(glibc=target/release/xs2a-sandbox musl=target/x86_64-unknown-linux-musl/release/xs2a-sandbox)
seconds="${SECONDS_PER_RUN:-8}"
# The benchmark's executable, built in the release profile with the tests' features (what CI builds), so
# that nothing but the benchmark is compiled.
bench=$(cargo test --release --locked --workspace --features xs2a-desktop/custom-protocol \
  --bench signed_requests --no-run 2>&1 | sed -n 's/.*Executable .*(\(.*signed_requests-[0-9a-f]*\)).*/\1/p' | tail -1)
[ -x "$bench" ] || { echo "no benchmark executable" >&2; exit 1; }
run() { # run BINARY: "rate cpu_us verify_us peak_rss_mb" of one run
  "$bench" --bench --server "$1" --seconds "$seconds" 2>/dev/null |
    awk '/^raw RSA-2048 verify/ { verify = $(NF - 2) }
         /^GET .*signed/ { gsub("/s", "", $NF); rate = $NF }
         /^server CPU per request/ { cpu = $5 }
         /^server memory/ { peak = $(NF - 1) }
         END { printf "%s %s %s %s\n", rate, cpu, verify, peak }'
}
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for entry in "${binaries[@]}"; do
  file -L "${entry#*=}" | sed "s|^|${entry%%=*}: |" | cut -c1-160
done
run "${binaries[0]#*=}" >/dev/null # one uncounted run: the first after a build is slower in every series
declare -A ratios cpu_ratios
for round in $(seq 1 "$rounds"); do
  line="round $round:"
  reference_rate=""
  reference_cpu=""
  for entry in "${binaries[@]}"; do
    label="${entry%%=*}"
    read -r rate cpu verify peak < <(run "${entry#*=}")
    [ -n "$reference_rate" ] || { reference_rate=$rate; reference_cpu=$cpu; }
    ratio=$(awk -v a="$rate" -v b="$reference_rate" 'BEGIN { printf "%.1f", 100 * a / b }')
    ratios[$label]="${ratios[$label]:-} $ratio"
    cpu_ratios[$label]="${cpu_ratios[$label]:-} $(awk -v a="$cpu" -v b="$reference_cpu" 'BEGIN { printf "%.2f", a / b }')"
    line="$line $label $rate/s ($cpu µs CPU = $(awk -v c="$cpu" -v v="$verify" 'BEGIN { printf "%.2f", c / v }') verifies, peak RSS $peak MB) $ratio %;"
  done
  echo "$line"
done
for entry in "${binaries[@]:1}"; do
  label="${entry%%=*}"
  tr ' ' '\n' <<<"${ratios[$label]}" | grep . | sort -n | awk -v label="$label" -v ref="${binaries[0]%%=*}" '
    { r[NR] = $1 } END { printf "median of %d rounds: %s at %s %% of %s'"'"'s rate (range %s-%s %%)\n", NR, label, r[int((NR + 1) / 2)], ref, r[1], r[NR] }'
  tr ' ' '\n' <<<"${cpu_ratios[$label]}" | grep . | sort -n | awk -v label="$label" -v ref="${binaries[0]%%=*}" '
    { r[NR] = $1 } END { printf "median of %d rounds: %s takes %s x %s'"'"'s server CPU per request (range %s-%s)\n", NR, label, r[int((NR + 1) / 2)], ref, r[1], r[NR] }'
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
