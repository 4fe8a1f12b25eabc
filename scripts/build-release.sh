#!/usr/bin/env bash
# The one release build of the shipped binaries (xs2a-desktop and xs2a-sandbox in one cargo invocation,
# so their dependencies' features are unified once), preceded by an explicit `cargo fetch --locked`.
# Every script that builds what ships goes through here: setup-desktop.sh, package-desktop.sh,
# test-desktop.sh, ci-desktop.sh and tauri-ci.sh.
#
#   scripts/build-release.sh [CARGO BUILD ARGS…]     e.g. --target x86_64-pc-windows-gnu
#
# Why the fetch: the desktop crate's build script lists the licences of what it links from `cargo metadata
# --offline`, which reads the manifest of every crate in the locked graph, not only those this build
# compiles. A build script must not reach the network itself, so the download is a step of its own here,
# visible and from the registry only.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo fetch --locked
cargo build --release --locked -p xs2a-desktop -p xs2a-sandbox --bins --features xs2a-desktop/custom-protocol "$@"
