#!/usr/bin/env bash
# The structure check: import cycles between modules (top-level modules, and the files of each module
# directory) and non-test Rust files over 500 lines. Compiles scripts/check_structure.rs with plain rustc
# (std only, about a second) and runs it from the repository root.
#
#   bash scripts/check-structure.sh                      # the whole tree; exit 1 when it finds something
#   bash scripts/check-structure.sh --only src/batch     # only findings touching files under a prefix
#   bash scripts/check-structure.sh --self-test          # the checker's own unit tests
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [ "${1:-}" = "--self-test" ]; then
  rustc --edition 2021 --test -O -o "$work/check-structure-tests" scripts/check_structure.rs
  "$work/check-structure-tests"
  exit
fi
rustc --edition 2021 -O -o "$work/check-structure" scripts/check_structure.rs
"$work/check-structure" --root . "$@"
