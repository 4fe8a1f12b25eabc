#!/usr/bin/env bash
# What the traffic log (or the change journal) costs signed requests: runs the signed_requests benchmark
# with it on and off, alternately (so that a slow spell of a shared machine falls on both), and prints each
# pair's ratio and the median of the ratios (after one uncounted warm-up run).
# Usage: bash scripts/measure-traffic-cost.sh [pairs] [--no-traffic|--no-journal] (default 5, --no-traffic).
set -euo pipefail
cd "$(dirname "$0")/.."
pairs="${1:-5}"
# The switch that turns the measured part off: the traffic log, or the change journal (docs/rewind.md).
off="${2:---no-traffic}"
case "$off" in
  --no-traffic) name="log" ;;
  --no-journal) name="journal" ;;
  *) echo "the second argument is --no-traffic or --no-journal, not $off" >&2; exit 2 ;;
esac
# Seconds of load per run (the benchmark's default is 8); longer runs average out more of a shared
# machine's slow spells.
seconds="${SECONDS_PER_RUN:-8}"
cargo bench --workspace --bench signed_requests --no-run >/dev/null 2>&1
rate() {
  cargo bench --workspace --bench signed_requests -- --seconds "$seconds" "$@" 2>/dev/null |
    awk '/^GET .*signed/ { gsub("/s", "", $NF); rate = $NF }
         /^latency/ { p99 = $6 }
         /^server CPU per request/ { cpu = $5 }
         END { printf "%s %s %s\n", rate, p99, cpu }'
}
# One run first, not counted: the first run after a build is slower in every series seen (the kernel is
# still writing the build's files back), and it would fall on one side of a pair only.
rate >/dev/null
ratios=()
for pair in $(seq 1 "$pairs"); do
  read -r on_rate on_p99 on_cpu < <(rate)
  read -r off_rate off_p99 off_cpu < <(rate "$off")
  ratio=$(awk -v a="$on_rate" -v b="$off_rate" 'BEGIN { printf "%.1f", 100 * a / b }')
  ratios+=("$ratio")
  printf 'pair %d: %s on %s/s (p99 %s ms, %s µs CPU), off %s/s (%s µs CPU): %s %%\n' \
    "$pair" "$name" "$on_rate" "$on_p99" "$on_cpu" "$off_rate" "$off_cpu" "$ratio"
done
printf '%s\n' "${ratios[@]}" | sort -n | awk -v name="$name" '{ r[NR] = $1 } END {
  printf "median of %d pairs: %s on at %s %% of %s off (range %s-%s %%)\n", NR, name, r[int((NR + 1) / 2)], name, r[1], r[NR] }'
