#!/usr/bin/env bash
# The real-window tests: the release app under Xvfb, started by tauri-driver + WebKitWebDriver and driven
# with fantoccini through the payment journey (src-tauri/tests/real_window.rs) and through the inspector and
# the flow view with an external signed client (src-tauri/tests/real_window_traffic.rs), through the two
# tasks that need native parts, the SCA window from the SCA screen's list and a snapshot through the native
# save and open dialogs (src-tauri/tests/real_window_tasks.rs), then the desktop
# program from outside (src-tauri/tests/desktop_program.rs: first start, SIGTERM within a second, a second
# launch, the window's place kept). All ignored in a plain `cargo test`; run one after the other, inside a
# D-Bus session bus (dbus-run-session: the single-instance lock is a D-Bus name). The tests themselves are
# built as .ci/run builds every test (release profile, the workspace's features), so they share every
# dependency with the app they drive, the release build, XS2A_DESKTOP_BIN. Builds the UI and the app first unless --no-build.
# Screenshots: target/screenshots/desktop-*.png.
set -euo pipefail
cd "$(dirname "$0")/.."

build=1
for arg in "$@"; do
  case "$arg" in
    --no-build) build=0 ;;
    *) echo "unknown argument: $arg" >&2; exit 2 ;;
  esac
done

target="${CARGO_TARGET_DIR:-$PWD/target}"

command -v WebKitWebDriver >/dev/null || { echo "WebKitWebDriver missing: bash scripts/desktop-packages.sh" >&2; exit 1; }
command -v xvfb-run >/dev/null || { echo "xvfb-run missing: bash scripts/desktop-packages.sh" >&2; exit 1; }
command -v dbus-run-session >/dev/null || { echo "dbus-run-session missing: bash scripts/desktop-packages.sh" >&2; exit 1; }
if ! command -v tauri-driver >/dev/null; then
  export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$HOME/.cargo/bin:$PATH"
  command -v tauri-driver >/dev/null || cargo install tauri-driver --locked --version '^2'
fi

if [ "$build" -eq 1 ]; then
  [ -f ui/dist/index.html ] || (cd ui && npm ci --no-audit --no-fund && npm run build)
  bash scripts/build-release.sh
fi

mkdir -p target/screenshots
export XS2A_DESKTOP_BIN="$target/release/xs2a-desktop"
export XS2A_SCREENSHOTS="$PWD/target/screenshots"
dbus-run-session -- xvfb-run -a -s "-screen 0 1280x800x24" \
  cargo test --release --locked --workspace --features xs2a-desktop/custom-protocol --test real_window --test real_window_traffic --test real_window_tasks --test desktop_program \
  -- --include-ignored --test-threads=1 --nocapture
ls target/screenshots/desktop-*.png
