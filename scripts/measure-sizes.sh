#!/usr/bin/env bash
# Prints the sizes of the binaries and packages against their targets: the headless binary, the desktop
# binary and the Debian package, with the RPM beside them, and as the reference measured in the same run,
# the size of the UI the desktop binary embeds (ui/dist). Run after scripts/package-desktop.sh (or a
# release build, for the binaries alone). MB are 10^6 bytes. For each binary, what it is made of: its
# largest sections (code, read-only data with the embedded UI, unwinding tables). Exits non-zero when a
# target is missed.
#
#   scripts/measure-sizes.sh            the release profile as built by the README's first command and CI,
#                                       without LTO: its own ceilings (headless < 26 MB, desktop < 35 MB,
#                                       .deb < 22 MB), which catch growth between releases. Raised from
#                                       23/33/20 when the code became a workspace of crates
#                                       (docs/architecture.md): without LTO each crate instantiates the
#                                       generics it uses (serde's, axum's) in its own code, so the headless
#                                       binary went 21.9 → 24.3 MB, the desktop one 31.1 → 32.9 MB and the
#                                       .deb holding both 18.5 → 20.2 MB as CI builds them
#   scripts/measure-sizes.sh --shipped  what ships (scripts/build-release.sh --ship, fat LTO; the release
#                                       workflow runs this): the targets (< 20, < 30, < 20 MB)
set -euo pipefail
cd "$(dirname "$0")/.."
release="${CARGO_TARGET_DIR:-$PWD/target}/release"
mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1000000 }'; }

missed=0
report() { # name, file, target in MB
  local name="$1" file="$2" limit="$3" bytes verdict
  if [ ! -f "$file" ]; then
    printf '%-22s (not built: %s)\n' "$name" "$file"
    return
  fi
  bytes=$(stat -c %s "$file")
  if [ "$bytes" -lt $((limit * 1000000)) ]; then verdict="under the $limit MB target"; else verdict="OVER the $limit MB target"; missed=1; fi
  printf '%-22s %9s  %s  (%s)\n' "$name" "$(mb "$bytes")" "$verdict" "${file#"$PWD"/}"
}

headless_limit=26 desktop_limit=35 deb_limit=22
case "${1:-}" in
  --shipped) headless_limit=20 desktop_limit=30 deb_limit=20 ;;
  "") ;;
  *) echo "usage: $0 [--shipped]" >&2; exit 2 ;;
esac

ui_bytes=$(du -sb ui/dist 2>/dev/null | cut -f1 || echo 0)
report "headless xs2a-sandbox" "$release/xs2a-sandbox" "$headless_limit"
report "desktop xs2a-desktop" "$release/xs2a-desktop" "$desktop_limit"
report "Debian package" "$(ls "$release"/bundle/deb/xs2a-sandbox_*_amd64.deb 2>/dev/null | head -1)" "$deb_limit"
rpm_file="$(ls "$release"/bundle/rpm/xs2a-sandbox-*.rpm 2>/dev/null | head -1)"
[ -n "$rpm_file" ] && printf '%-22s %9s  (%s)\n' "RPM" "$(mb "$(stat -c %s "$rpm_file")")" "${rpm_file#"$PWD"/}"
printf '%-22s %9s  (ui/dist, embedded in both binaries; the reference)\n' "UI bundle" "$(mb "$ui_bytes")"
for binary in xs2a-sandbox xs2a-desktop; do
  [ -f "$release/$binary" ] || continue
  size -A "$release/$binary" | awk -v name="$binary" '
    $1 == ".text" { text = $2 } $1 == ".rodata" { ro = $2 } $1 == ".eh_frame" || $1 == ".gcc_except_table" { unwind += $2 }
    END { printf "  %s: code %.1f MB, read-only data %.1f MB, unwinding tables %.1f MB\n", name, text / 1e6, ro / 1e6, unwind / 1e6 }'

  if readelf -S "$release/$binary" 2>/dev/null | grep -q '\.debug_info'; then
    echo "warning: $binary carries debug info (release profile: debug = false, strip = \"symbols\")" >&2
    missed=1
  fi
done
exit "$missed"
