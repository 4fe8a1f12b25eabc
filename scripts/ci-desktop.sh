#!/usr/bin/env bash
# CI for the desktop part, after the main build in .ci/run: the desktop's system packages, the UI build if
# .ci/run has not made it, the release app built once (--all-targets, so the test binary comes with it),
# its unit tests, and the real-window test under Xvfb. About 6-8 min of a 2-core machine on a cold cache,
# most of it the release build of the Tauri tree.
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

step "lint"
# The dev profile, as .ci/run's clippy: the dependencies' check builds are shared with it where features agree.
cargo clippy --locked -p xs2a-desktop --features custom-protocol --all-targets -- -D warnings

step "unit tests"
cargo test "${features[@]}" --bins

step "real window (Xvfb, tauri-driver, WebKitWebDriver)"
bash scripts/test-desktop.sh --no-build
