#!/usr/bin/env python3
"""The licences of what the container image holds, as one SPDX expression (its
`org.opencontainers.image.licenses` label): the project's own, every crate compiled into the binary (the
normal dependencies of the xs2a-sandbox package for the image's target, proc-macros left out: they run at
build time only), every npm package bundled into the UI the binary embeds (ui/package-lock.json, dev
packages left out), and the C library the binary carries or is packaged with.

Usage: cargo metadata --format-version 1 --locked --filter-platform TRIPLE |
       python3 container/licences.py --libc musl|glibc [--lockfile ui/package-lock.json]
"""

import argparse
import json
import re
import sys

# The C library's own licence: musl is linked in statically; a glibc binary is packaged with Debian's
# libc, libm and libgcc_s (libgcc: GPL-3.0 with the GCC runtime exception).
LIBC = {
    "musl": ["MIT"],
    "glibc": ["LGPL-2.1-or-later", "GPL-3.0-or-later WITH GCC-exception-3.1"],
}


def normalised(expression):
    """One crate's licence field as SPDX: the old `A/B` form is `A OR B`."""
    return re.sub(r"\s*/\s*", " OR ", expression.strip())


def crate_licences(metadata):
    packages = {p["id"]: p for p in metadata["packages"]}
    nodes = {n["id"]: n for n in metadata["resolve"]["nodes"]}
    root = next(p["id"] for p in metadata["packages"] if p["name"] == "xs2a-sandbox")
    seen, stack = set(), [root]
    while stack:
        current = stack.pop()
        if current in seen:
            continue
        seen.add(current)
        for dep in nodes[current]["deps"]:
            if any(kind["kind"] is None for kind in dep["dep_kinds"]):
                stack.append(dep["pkg"])
    licences = set()
    for package_id in seen:
        package = packages[package_id]
        if any("proc-macro" in target["kind"] for target in package["targets"]):
            continue
        if not package.get("license"):
            sys.exit(f"{package['name']} {package['version']} declares no SPDX licence")
        licences.add(normalised(package["license"]))
    return licences


def ui_licences(lockfile):
    with open(lockfile, encoding="utf-8") as handle:
        lock = json.load(handle)
    licences = set()
    for path, package in lock.get("packages", {}).items():
        if not path or package.get("dev") or package.get("devOptional"):
            continue
        if not package.get("license"):
            sys.exit(f"{path} declares no licence in {lockfile}")
        licences.add(normalised(package["license"]))
    return licences


def expression(licences):
    """AND of every licence, each compound one in parentheses, sorted for a stable label."""
    parts = sorted(f"({l})" if " " in l else l for l in licences)
    return " AND ".join(parts)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--libc", choices=sorted(LIBC), required=True)
    parser.add_argument("--lockfile", default="ui/package-lock.json")
    args = parser.parse_args()
    licences = crate_licences(json.load(sys.stdin))
    licences |= ui_licences(args.lockfile)
    licences |= set(LIBC[args.libc])
    print(expression(licences))


if __name__ == "__main__":
    main()
