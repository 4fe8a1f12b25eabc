#!/usr/bin/env bash
# The browser end-to-end tests: starts the built service headless (ephemeral, a free port), serving the built
# UI at /workbench, and runs the Playwright tests in Debian's chromium against its tokenised URL.
# Needs: a built binary (BIN or XS2A_SANDBOX_BIN, default target/debug/xs2a-sandbox), ui/node_modules and ui/dist, /usr/bin/chromium.
# Screenshots go to SHOTS (default target/screenshots). UI_DIST serves another build of the UI (e.g. an older
# commit's, to see which tests it fails).
set -euo pipefail
cd "$(dirname "$0")/.."

bin="${BIN:-${XS2A_SANDBOX_BIN:-target/debug/xs2a-sandbox}}"
shots="${SHOTS:-$PWD/target/screenshots}"
log="$(mktemp)"
mkdir -p "$shots"

# The UI the binary serves: this checkout's ui/dist (or UI_DIST), whatever tree the binary was built from.
export XS2A_UI_DIST="${UI_DIST:-$PWD/ui/dist}"
"$bin" serve --ephemeral --port 0 >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -f "$log"' EXIT

url=""
for _ in $(seq 1 100); do
  url="$(sed -n 's/^workbench: //p' "$log")"
  [ -n "$url" ] && break
  kill -0 "$server" 2>/dev/null || { cat "$log"; echo "the service did not start" >&2; exit 1; }
  sleep 0.1
done
[ -n "$url" ] || { cat "$log"; echo "the service printed no workbench URL" >&2; exit 1; }
echo "service: $url"

cd ui
XS2A_WORKBENCH_URL="$url" XS2A_SANDBOX_BIN="$(cd .. && realpath "$bin")" XS2A_SCREENSHOTS="$shots" \
  npx playwright test "$@"
