#!/usr/bin/env bash
# CI for the desktop part, after the main build in .ci/run: the desktop's system packages, the UI build if
# .ci/run has not made it, the release app built once (--all-targets, so the test binary comes with it),
# its unit tests, and the real-window tests under Xvfb (about a minute). Time goes to the two compiles of the
# Tauri tree: the release build (about 5 min on an idle 2-core machine per the trial build; 29 min here while
# other builds shared the cores) and clippy's check of it; XS2A_DESKTOP_LINT=0 skips the latter.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== desktop: %s (%s)\n' "$1" "$(date -u +%H:%M:%S)"; }

step "system packages"
bash scripts/desktop-packages.sh

step "tauri-driver"
export PATH="$HOME/.cargo/bin:$PATH"
command -v tauri-driver >/dev/null || cargo install tauri-driver --locked --version '^2'

step "UI"
[ -f ui/dist/index.html ] || (cd ui && npm ci --no-audit --no-fund && npm run build)

features=(--release --locked -p xs2a-desktop --features custom-protocol)
step "build (release, all targets, once)"
cargo build "${features[@]}" --all-targets

if [ "${XS2A_DESKTOP_LINT:-1}" != 0 ]; then
  step "lint"
  # The dev profile, as .ci/run's clippy: dependencies' check builds are shared with it where features agree.
  cargo clippy --locked -p xs2a-desktop --features custom-protocol --all-targets -- -D warnings
fi

step "unit tests"
cargo test "${features[@]}" --bins

step "real window (Xvfb, tauri-driver, WebKitWebDriver)"
bash scripts/test-desktop.sh --no-build
