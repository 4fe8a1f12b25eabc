#!/usr/bin/env bash
# Renders the app's icon set from its drawings in src-tauri/icons/source/: icon-small.svg (a 32-unit grid
# for 16, 24 and 32 px, where the large drawing's thin lines would blur) and icon.svg (48 px and up).
# Writes the PNG sizes the Linux packages install (hicolor 16-256 and icon.png at 512), icon.ico (Windows,
# 16-256) and icon.icns (macOS). The outputs are committed; run this after changing a drawing.
# Needs Debian's librsvg2-bin (rsvg-convert), imagemagick (convert) and icnsutils (png2icns).
set -euo pipefail
cd "$(dirname "$0")/../src-tauri/icons"

for tool in rsvg-convert convert png2icns; do
  command -v "$tool" >/dev/null || { echo "$tool missing: apt-get install librsvg2-bin imagemagick icnsutils" >&2; exit 1; }
done

render() { rsvg-convert --width "$2" --height "$2" "source/$1" --output "$3"; }

for size in 16 24 32; do render icon-small.svg "$size" "${size}x${size}.png"; done
for size in 48 64 128 256; do render icon.svg "$size" "${size}x${size}.png"; done
render icon.svg 512 icon.png

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
convert 16x16.png 24x24.png 32x32.png 48x48.png 64x64.png 128x128.png 256x256.png icon.ico
render icon.svg 1024 "$work/1024.png"
png2icns icon.icns 16x16.png 32x32.png 48x48.png 128x128.png 256x256.png icon.png "$work/1024.png" >/dev/null
ls -l ./*.png icon.ico icon.icns
