#!/usr/bin/env bash
# Sets up the desktop workbench on a fresh Debian 12 machine and opens it: system packages (build and test
# sets), a Rust toolchain if there is none, the UI build (npm ci && npm run build in ui/), the release app,
# then starts it. With --no-open it stops after building; with --serve it starts the headless service
# instead (target/release/xs2a-sandbox serve: the same sandbox and workbench UI on http://127.0.0.1:8080,
# no window), for a machine without a display or a test run. The app is target/release/xs2a-desktop (or under
# $CARGO_TARGET_DIR); its data lives in ~/.local/share/no.sandbox.xs2a.workbench.
set -euo pipefail
cd "$(dirname "$0")/.."

open=1
for arg in "$@"; do
  case "$arg" in
    --no-open) open=0 ;;
    --serve) open=serve ;;
    -h | --help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument: $arg (try --help)" >&2; exit 2 ;;
  esac
done

step() { printf '\n== %s (%s)\n' "$1" "$(date -u +%H:%M:%S)"; }

step "system packages"
bash scripts/desktop-packages.sh

step "toolchain"
if ! command -v cargo >/dev/null 2>&1 && [ -x "$HOME/.cargo/bin/cargo" ]; then
  export PATH="$HOME/.cargo/bin:$PATH"
fi
if ! command -v cargo >/dev/null 2>&1; then
  # Debian's rustc is too old for this project (rust-version 1.89): the stable toolchain from rustup.
  curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
  export PATH="$HOME/.cargo/bin:$PATH"
fi
cargo --version
if ! command -v node >/dev/null 2>&1 || ! node -e '
  const [a, b] = process.versions.node.split(".").map(Number);
  process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)'; then
  echo "The UI build needs Node.js >= 20.19 (Debian 12 ships 18): install it, e.g. from https://github.com/nodesource/distributions, and run this again." >&2
  exit 1
fi
node --version

step "UI (npm ci, npm run build)"
(cd ui && npm ci --no-audit --no-fund && npm run build)

step "release build"
# Both binaries in one invocation, as CI builds them (what ships is built one at a time: build-release.sh --ship).
bash scripts/build-release.sh
app="${CARGO_TARGET_DIR:-$PWD/target}/release/xs2a-desktop"
echo "built $app"

if [ "$open" = serve ]; then
  step "serving headless (Ctrl+C ends it)"
  exec "${CARGO_TARGET_DIR:-$PWD/target}/release/xs2a-sandbox" serve
fi
if [ "$open" = 1 ]; then
  if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    echo "No display here (DISPLAY/WAYLAND_DISPLAY unset): start $app from a desktop session." >&2
    exit 0
  fi
  step "opening the workbench"
  exec "$app"
fi
