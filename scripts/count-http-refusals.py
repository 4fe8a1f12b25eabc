#!/usr/bin/env python3
"""Counts the refusals the HTTP crate builds itself, outside tests, and says where.

The core holds every bank rule (docs/architecture.md): a handler parses HTTP into the core's input and maps
the core's answer or refusal back, so the only refusals crates/http builds are transport ones: a header's,
the JSON body's, the path's or the query's syntax, the body's size and time, no such route, the media type.
Those are built in the transport modules listed below (TRANSPORT); a refusal built anywhere else in the
crate is a rule that belongs to the core (a bank rule) or the workbench crate (a tool's rule).

A refusal built is a call of one of the refusal constructors (`ApiError::format(…)`, `Refusal::new(…)`,
`TppMessage::error(…)`, …); mapping one (`ApiError::from`), an internal failure (`ApiError::internal`) and
adding a warning to an answer are not.

    python3 scripts/count-http-refusals.py            # the counts, per file; exit 0
    python3 scripts/count-http-refusals.py --check    # exit 1 when one is built outside TRANSPORT
    python3 scripts/count-http-refusals.py --self-test
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
HTTP = ROOT / "crates" / "http" / "src"

# The modules whose refusals are transport ones: reading headers, the JSON body, the path and the query,
# the body's size and time, the route table's 404/405 and the media type.
TRANSPORT = {
    "api/error.rs",
    "api/headers.rs",
    "api/json.rs",
    "api/json/",
    "api/limits.rs",
    "api/path.rs",
    "api/query.rs",
    "api/layers.rs",
}

CONSTRUCTOR = re.compile(
    r"\b(?:ApiError|Refusal)::(?!from\b|internal\b)([a-z_]+)\s*\("
    r"|\bTppMessage::error\s*\("
    r"|\bRefusal\s*\{"
)


def code_lines(text):
    """The file's lines outside comments and inline test modules, with their numbers."""
    lines = text.splitlines()
    out = []
    skip_depth = None
    pending_test = False
    depth = 0
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if skip_depth is None and stripped.startswith("#[cfg(test)]"):
            pending_test = True
            continue
        if pending_test and stripped.startswith("mod ") and stripped.endswith("{"):
            skip_depth = depth
            pending_test = False
        elif pending_test and not stripped.startswith("#["):
            pending_test = False
        code = line.split("//", 1)[0]
        depth += code.count("{") - code.count("}")
        if skip_depth is not None:
            if depth <= skip_depth:
                skip_depth = None
            continue
        if stripped.startswith("//"):
            continue
        out.append((number, code))
    return out


def is_test_file(relative):
    return relative.endswith("/tests.rs") or "/tests/" in relative or relative.endswith("_tests.rs")


def is_transport(relative):
    return any(relative == t or (t.endswith("/") and relative.startswith(t)) for t in TRANSPORT)


def count(root=HTTP):
    found = []
    for path in sorted(root.rglob("*.rs")):
        relative = path.relative_to(root).as_posix()
        if is_test_file(relative):
            continue
        for number, code in code_lines(path.read_text()):
            for match in CONSTRUCTOR.finditer(code):
                found.append((relative, number, match.group(0).rstrip("( {"), is_transport(relative)))
    return found


def self_test():
    sample = (
        "fn f() { ApiError::format(\"/x\", \"bad\"); ApiError::from(r); ApiError::internal(e); }\n"
        "// ApiError::format(\"commented\")\n"
        "fn g() { let r = Refusal::new(Code::FormatError, None, \"x\"); }\n"
        "#[cfg(test)]\nmod tests {\n    fn t() { ApiError::format(\"/t\", \"in a test\"); }\n}\n"
    )
    hits = [c for _, c in code_lines(sample) if CONSTRUCTOR.search(c)]
    assert len(hits) == 2, hits
    assert is_transport("api/json/body.rs") and is_transport("api/headers.rs")
    assert not is_transport("api/pis/payments.rs")
    print("count-http-refusals: self-test passed")


def main():
    if "--self-test" in sys.argv:
        self_test()
        return 0
    found = count()
    elsewhere = [f for f in found if not f[3]]
    transport = [f for f in found if f[3]]
    per_file = {}
    for relative, _, _, in_transport in found:
        per_file.setdefault((in_transport, relative), 0)
        per_file[(in_transport, relative)] += 1
    print(f"refusals built in crates/http outside tests: {len(found)}")
    print(f"  in the transport modules: {len(transport)}")
    for (in_transport, relative), n in sorted(per_file.items()):
        if in_transport:
            print(f"    {n:3d}  {relative}")
    print(f"  elsewhere (rules that belong to the core or the workbench crate): {len(elsewhere)}")
    for relative, number, what, _ in elsewhere:
        print(f"    crates/http/src/{relative}:{number}  {what}")
    if "--check" in sys.argv and elsewhere:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
