#!/usr/bin/env bash
# The `tauriScript` of .github/workflows/release.yml: tauri-action runs `<script> build [ARGS]`, and this
# answers it the way this repository builds (see scripts/package-desktop.sh): cargo builds both shipped
# binaries of the workspace, then Tauri's CLI bundles them from the root tauri.conf.json
# (TAURI_APP_PATH). `--target universal-apple-darwin` builds both macOS architectures and joins them with
# lipo. Any other command goes to the CLI unchanged.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
tauri=("$root/src-tauri/node_modules/.bin/tauri")
[ -x "${tauri[0]}" ] || (cd src-tauri && npm ci --no-audit --no-fund)

if [ "${1:-}" != build ]; then
  exec env TAURI_APP_PATH="$root" "${tauri[@]}" "$@"
fi
shift
target=""
pass=()
while [ $# -gt 0 ]; do
  case "$1" in
    --target | -t) target="$2"; pass+=("$1" "$2"); shift 2 ;;
    *) pass+=("$1"); shift ;;
  esac
done

[ -f ui/dist/index.html ] || (cd ui && npm ci --no-audit --no-fund && npm run build)
# What ships: fat LTO (scripts/build-release.sh).
build() { bash scripts/build-release.sh --ship "$@"; }
target_dir="${CARGO_TARGET_DIR:-$root/target}"
case "$target" in
  "") build ;;
  universal-apple-darwin)
    build --target aarch64-apple-darwin
    build --target x86_64-apple-darwin
    mkdir -p "$target_dir/universal-apple-darwin/release"
    for binary in xs2a-desktop xs2a-sandbox; do
      lipo -create -output "$target_dir/universal-apple-darwin/release/$binary" \
        "$target_dir/aarch64-apple-darwin/release/$binary" "$target_dir/x86_64-apple-darwin/release/$binary"
    done
    ;;
  *) build --target "$target" ;;
esac
TAURI_APP_PATH="$root" "${tauri[@]}" bundle "${pass[@]}"
