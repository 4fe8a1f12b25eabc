#!/usr/bin/env bash
# The layers are crates, and a crate's dependencies are its manifest's: this check reads the resolved graph
# (`cargo tree`, normal dependencies only, what ships) and fails when a layer reaches what it must not know.
#   xs2a-core       no axum, hyper, tower, tauri (the bank knows neither HTTP nor the window),
#                   and none of the crates above it
#   xs2a-workbench  no axum, tower, tauri (its outbound client speaks hyper's client only), no xs2a-http
#   xs2a-http       no tauri, not the CLI (xs2a-sandbox) nor the desktop shell
# An import of a forbidden crate cannot compile without its manifest line, and that line fails here.
#
#   bash scripts/check-layers.sh              # exit 1, naming the crate and the path to it, on a violation
#   bash scripts/check-layers.sh --self-test  # the check sees a dependency that is there (axum under xs2a-http)
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
forbid() {
  local crate="$1"; shift
  local tree found=0
  tree="$(cargo tree --locked --offline -q -e normal -p "$crate" --prefix none --format '{p}' 2>/dev/null \
    || cargo tree --locked -q -e normal -p "$crate" --prefix none --format '{p}')"
  for name in "$@"; do
    if grep -Eq "^${name} v" <<<"$tree"; then
      echo "check-layers: $crate depends on $name:"
      cargo tree --locked -q -e normal -p "$crate" -i "$name" | head -20
      status=1 found=1
    fi
  done
  # The feature pins (crates/feature-pins) hang off xs2a-http, so the layers below are checked as they are.
  [ "$found" = 1 ] || echo "check-layers: $crate: none of $* ($(sort -u <<<"$tree" | wc -l) crates in its graph)"
}
if [ "${1:-}" = "--self-test" ]; then
  forbid xs2a-http axum >/dev/null
  if [ "$status" = 0 ]; then echo "check-layers: the self-test found no axum under xs2a-http"; exit 1; fi
  echo "check-layers: self-test: axum under xs2a-http is seen"; exit 0
fi
forbid xs2a-core axum axum-core hyper hyper-util tower tower-http tauri xs2a-workbench xs2a-http xs2a-sandbox xs2a-desktop
forbid xs2a-workbench axum axum-core tower tower-http tauri xs2a-http xs2a-sandbox xs2a-desktop
forbid xs2a-http tauri xs2a-sandbox xs2a-desktop
exit $status
