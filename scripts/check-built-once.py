#!/usr/bin/env python3
"""Fails when the test build compiled a dependency again that the release build had already made.

.ci/run builds the shipped binaries once (the README's first command), then the tests in the same profile;
every dependency the binaries use must be reused, not compiled a second time with other features (which
is what happens when a dev-dependency turns on a feature: crates/feature-pins/Cargo.toml). Reads cargo's
JSON messages (`--message-format=json-render-diagnostics`) of both builds: a no-op rerun of the release
build, which lists every artifact it holds, and the test build. Prints what the test build compiled that
is not the workspace's own, and exits 1 naming each dependency compiled again.

    scripts/check-built-once.py RELEASE.jsonl TESTS.jsonl
"""

import json
import sys


def artifacts(path):
    """(package id, target name, profile) -> whether every unit of it was fresh, for each non-workspace
    artifact."""
    found = {}
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if not line.startswith("{"):
                continue
            message = json.loads(line)
            if message.get("reason") != "compiler-artifact":
                continue
            package = message["package_id"]
            # The workspace's own crates are path dependencies: rebuilt under the lint wrapper on purpose.
            if package.startswith("path+"):
                continue
            # The profile tells a build-time copy (proc macros and build scripts: opt-level 0) from the
            # one linked into a binary: a crate the release build needs only at build time and a test
            # needs at run time is two compilations by design, not a feature mismatch.
            profile = json.dumps(message["profile"], sort_keys=True)
            key = (package, message["target"]["name"], profile)
            found[key] = found.get(key, True) and message["fresh"]
    return found


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    release, tests = artifacts(sys.argv[1]), artifacts(sys.argv[2])
    compiled = sorted(key for key, fresh in tests.items() if not fresh)
    again = [key for key in compiled if key in release]
    print(f"the test build reused {len(tests) - len(compiled)} dependency artifacts and compiled "
          f"{len(compiled)} only the tests use")
    for package, target, _ in again:
        print(f"compiled again (other features than the release build's): {package} ({target})")
    if again:
        print("a dev-dependency turns on a feature the release build lacks: add it to "
              "crates/feature-pins/Cargo.toml", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
