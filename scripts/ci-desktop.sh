#!/usr/bin/env bash
# CI for the desktop part, after the main build in .ci/run: the desktop's system packages, the UI build if
# .ci/run has not made it, the shipped binaries built ONCE in release (xs2a-desktop and xs2a-sandbox, in one
# cargo invocation), the real-window and desktop-program tests against that build under Xvfb, the .deb and
# .rpm bundled from the same binaries, the installed-package test, and the sizes. The tests' own binaries
# are the ones .ci/run built in the same release profile with the workspace's features (so nothing
# rebuilds); they drive the release app through XS2A_DESKTOP_BIN. Each step prints its time.
#
#   scripts/ci-desktop.sh     XS2A_DESKTOP_LINT=0 skips clippy of the desktop crate (.ci/run lints it)
set -euo pipefail
cd "$(dirname "$0")/.."

step_started=$(date +%s)
step() {
  local now
  now=$(date +%s)
  [ -n "${step_name:-}" ] && printf '== desktop: %s took %d s\n' "$step_name" $((now - step_started))
  step_name="$1"
  step_started=$now
  [ -n "$1" ] && printf '\n== desktop: %s (%s)\n' "$1" "$(date -u +%H:%M:%S)"
  return 0
}
ci_started=$(date +%s)

step "system packages"
bash scripts/desktop-packages.sh

step "tauri-driver"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$HOME/.cargo/bin:$PATH"
command -v tauri-driver >/dev/null || cargo install tauri-driver --locked --version '^2'

step "UI"
[ -f ui/dist/index.html ] || (cd ui && npm ci --no-audit --no-fund && npm run build)

step "release build of the binaries (once; a no-op after .ci/run's test build, which made them too)"
# Under .ci/run, with its clippy wrapper still set: the wrapper is part of what cargo compares, and the
# test build made these binaries with it.
bash scripts/build-release.sh

if [ "${XS2A_DESKTOP_LINT:-1}" != 0 ]; then
  step "lint"
  cargo clippy --locked --workspace --all-targets -- -D warnings
fi

step "real window and desktop program (Xvfb, D-Bus session, tauri-driver, WebKitWebDriver)"
bash scripts/test-desktop.sh --no-build

step "package (.deb, .rpm) from the same binaries"
bash scripts/package-desktop.sh --no-build

step "the installed package"
bash scripts/test-package.sh

step "sizes (of this build, without LTO; what ships is measured by the release workflow)"
bash scripts/measure-sizes.sh

step ""
printf '== desktop: all steps took %d s\n' $(($(date +%s) - ci_started))
