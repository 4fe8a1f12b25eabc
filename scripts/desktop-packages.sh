#!/usr/bin/env bash
# Installs the Debian 12 packages the desktop app needs, those not installed yet: the build set (WebKitGTK 4.1,
# GTK 3 and friends, for `cargo build -p xs2a-desktop`) and, unless --build-only, the test set (Xvfb,
# WebKitWebDriver, chromium, ImageMagick for screenshots, a D-Bus session bus for the single-instance lock,
# rpm and desktop-file-utils to check the packages), as a trial Tauri build on these machines listed them.
set -euo pipefail

BUILD=(build-essential pkg-config libssl-dev file curl ca-certificates
  libwebkit2gtk-4.1-dev libgtk-3-dev libayatana-appindicator3-dev librsvg2-dev libxdo-dev)
TEST=(xvfb xauth webkit2gtk-driver chromium chromium-driver imagemagick xdotool x11-utils fonts-dejavu-core
  dbus-daemon rpm desktop-file-utils)

wanted=("${BUILD[@]}")
[ "${1:-}" = "--build-only" ] || wanted+=("${TEST[@]}")

missing=()
for package in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "system packages: all present"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "missing packages (${missing[*]}) and no apt-get: install their equivalents by hand" >&2
  exit 1
fi
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
echo "system packages: installing ${missing[*]}"
as_root apt-get update -qq
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
