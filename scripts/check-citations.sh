#!/usr/bin/env bash
# Counts mentions of "SPEC.md" in tracked files outside docs/ and fails when there are more than a ceiling.
# SPEC.md (the bank's interface as the project received it) is not in the repository, so a citation of it
# leads nowhere for anyone who clones the repository: code cites docs/interface.md and docs/reference/*.md.
# The ceiling only ever comes down; at 0 every rule in the code points to a page in the repository.
#
#   bash scripts/check-citations.sh                 # the tree against the ceiling below
#   bash scripts/check-citations.sh --ceiling N     # against another ceiling
#   bash scripts/check-citations.sh --self-test     # proves a count above the ceiling fails, and at it passes
set -euo pipefail
cd "$(dirname "$0")/.."
ceiling=0

# The mentions under `root` (a git work tree), docs/ and this script excluded.
count_mentions() {
  git -C "$1" grep -I -o -F "SPEC.md" -- . ':(exclude)docs/' ':(exclude)scripts/check-citations.sh' \
    | wc -l | tr -d ' '
}

# Exit 0 when `count` is at most `limit`, else 1; says which.
judge() {
  local count="$1" limit="$2"
  echo "SPEC.md mentions outside docs/: $count (ceiling $limit)"
  if [ "$count" -gt "$limit" ]; then
    echo "check-citations: $count mentions of SPEC.md outside docs/ exceed the ceiling of $limit;" \
      "cite docs/interface.md or docs/reference/*.md#section instead" >&2
    return 1
  fi
}

if [ "${1:-}" = "--self-test" ]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  git -C "$work" init -q
  mkdir -p "$work/src" "$work/docs"
  printf '// see SPEC.md rule 1\n// SPEC.md again, SPEC.md twice on a line\n' >"$work/src/a.rs"
  printf 'SPEC.md in docs is not counted\n' >"$work/docs/b.md"
  git -C "$work" add -A
  found="$(count_mentions "$work")"
  [ "$found" = 3 ] || { echo "self-test: counted $found mentions, expected 3" >&2; exit 1; }
  if judge "$found" 2 >/dev/null 2>&1; then
    echo "self-test: 3 mentions passed a ceiling of 2" >&2
    exit 1
  fi
  judge "$found" 3 >/dev/null || { echo "self-test: 3 mentions failed a ceiling of 3" >&2; exit 1; }
  echo "check-citations self-test: ok (3 > 2 fails, 3 <= 3 passes, docs/ not counted)"
  exit 0
fi
if [ "${1:-}" = "--ceiling" ]; then
  ceiling="$2"
fi
judge "$(count_mentions .)" "$ceiling"
