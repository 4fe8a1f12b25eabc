#!/usr/bin/env bash
# Builds the shipped binaries (unless --no-build: release with fat LTO, `build-release.sh --ship`) and bundles them with Tauri's bundler as a Debian package
# and an RPM: the desktop app (/usr/bin/xs2a-desktop, its desktop entry and icons) and the headless
# service and CLI (/usr/bin/xs2a-sandbox). Prints the packages' paths. No AppImage: its bundler downloads
# tools (linuxdeploy and its plugins) from outside the package registries.
#
#   scripts/package-desktop.sh [--no-build]
#
# The bundler is Tauri's CLI from npm, pinned in src-tauri/package-lock.json (installed here with npm ci).
# The configuration is the root tauri.conf.json: the CLI is pointed at the root with TAURI_APP_PATH (paths
# in the configuration are relative to it, as for the app's build script), and `tauri bundle` packages the
# binaries cargo built, so nothing is compiled twice. A small overlay adds what depends on this machine's
# build: the CLI binary's path under the target directory.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

build=1
for arg in "$@"; do
  case "$arg" in
    --no-build) build=0 ;;
    -h | --help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument: $arg (try --help)" >&2; exit 2 ;;
  esac
done

target="${CARGO_TARGET_DIR:-$root/target}"
release="$target/release"

if [ "$build" -eq 1 ]; then
  [ -f ui/dist/index.html ] || (cd ui && npm ci --no-audit --no-fund && npm run build)
  # Both shipped binaries, each in a cargo invocation of its own (build-release.sh says why).
  bash scripts/build-release.sh --ship
fi
for binary in xs2a-desktop xs2a-sandbox; do
  [ -x "$release/$binary" ] || { echo "missing $release/$binary: build first (or drop --no-build)" >&2; exit 1; }
done

[ -x src-tauri/node_modules/.bin/tauri ] || (cd src-tauri && npm ci --no-audit --no-fund)

overlay="$(mktemp --suffix=.json)"
trap 'rm -f "$overlay"' EXIT
cat >"$overlay" <<JSON
{
  "bundle": {
    "active": true,
    "linux": {
      "deb": { "files": { "/usr/bin/xs2a-sandbox": "$release/xs2a-sandbox" } },
      "rpm": { "files": { "/usr/bin/xs2a-sandbox": "$release/xs2a-sandbox" } }
    }
  }
}
JSON

rm -rf "$release/bundle/deb" "$release/bundle/rpm"
# --no-binary-patching: the packaged binary stays byte for byte the one the real-window tests ran (the
# patch only tells Tauri's updater, which this app does not use, which kind of package it came in).
TAURI_APP_PATH="$root" src-tauri/node_modules/.bin/tauri bundle --ci --bundles deb,rpm \
  --no-binary-patching --config "$overlay"

ls -l "$release"/bundle/deb/*.deb "$release"/bundle/rpm/*.rpm
