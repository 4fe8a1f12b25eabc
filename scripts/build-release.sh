#!/usr/bin/env bash
# The release build of the two binaries (xs2a-desktop and xs2a-sandbox in one cargo invocation, so their
# dependencies' features are unified once and the tests' build shares them; with --ship, one at a time),
# preceded by an explicit `cargo fetch --locked`. Every script that builds them goes through here:
# setup-desktop.sh, package-desktop.sh, test-desktop.sh, ci-desktop.sh and tauri-ci.sh (the release workflow).
#
#   scripts/build-release.sh [--ship] [CARGO BUILD ARGS…]     e.g. --target x86_64-pc-windows-gnu
#
#   --ship   what is shipped (the release workflow's packages, package-desktop.sh): the release profile
#            with fat LTO in one codegen unit, set through cargo's environment (CARGO_PROFILE_RELEASE_LTO,
#            _CODEGEN_UNITS) so the binaries land where every tool looks (target/release), each binary in
#            a cargo invocation of its own (below). The sizes in docs/desktop.md are for this build.
#            Without it (the README's first command, CI): the release profile as Cargo.toml has it,
#            without LTO, which the tests' build shares.
#
# Why the fetch: the desktop crate's build script lists the licences of what it links from `cargo metadata
# --offline`, which reads the manifest of every crate in the locked graph, not only those this build
# compiles. A build script must not reach the network itself, so the download is a step of its own here,
# visible and from the registry only.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo fetch --locked
if [ "${1:-}" = --ship ]; then
  shift
  export CARGO_PROFILE_RELEASE_LTO=fat CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1
  # What ships is built one binary at a time: built with the desktop, the headless binary carries the
  # dependency features the desktop's crates turn on (0.5 MB more: docs/desktop.md, "Sizes"). Each
  # binary is LTO-linked once either way; the dependencies whose features differ are compiled twice, a
  # cost of the release workflow only.
  cargo build --release --locked -p xs2a-sandbox --bin xs2a-sandbox "$@"
  cargo build --release --locked -p xs2a-desktop --bin xs2a-desktop --features xs2a-desktop/custom-protocol "$@"
  exit
fi
cargo build --release --locked -p xs2a-desktop -p xs2a-sandbox --bins --features xs2a-desktop/custom-protocol "$@"
