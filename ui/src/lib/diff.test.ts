// The line+character diff the inspector uses to compare signing strings.
import { describe, expect, it } from "vitest";
import { diffChars, diffLines, sameText, splitLines } from "./diff";

const text = (segments: { text: string; changed: boolean }[] | null) =>
  (segments ?? []).map((s) => (s.changed ? `[${s.text}]` : s.text)).join("");

describe("diffChars", () => {
  it("marks only the characters that differ", () => {
    const [l, r] = diffChars("date: Mon, 01 Jun 2026 12:00:00 GMT", "date: Mon, 01 Jun 2026 12:01:00 GMT");
    expect(text(l)).toBe("date: Mon, 01 Jun 2026 12:0[0]:00 GMT");
    expect(text(r)).toBe("date: Mon, 01 Jun 2026 12:0[1]:00 GMT");
  });

  it("handles one side empty", () => {
    const [l, r] = diffChars("", "abc");
    expect(l).toEqual([]);
    expect(r).toEqual([{ text: "abc", changed: true }]);
  });
});

describe("diffLines", () => {
  it("keeps equal lines as same and pairs a changed line", () => {
    const a = "date: X\ndigest: SHA-256=abc\nx-request-id: 1";
    const b = "date: X\ndigest: SHA-256=abd\nx-request-id: 1";
    const rows = diffLines(a, b);
    expect(rows.map((r) => r.kind)).toEqual(["same", "changed", "same"]);
    expect(text(rows[1]!.left)).toBe("digest: SHA-256=ab[c]");
    expect(text(rows[1]!.right)).toBe("digest: SHA-256=ab[d]");
    expect(rows[1]!.leftLine).toBe(2);
  });

  it("shows a header missing from one side as a removed line", () => {
    const sandbox = "date: X\ndigest: D\nx-request-id: 1\npsu-id: 12345678901";
    const client = "date: X\ndigest: D\nx-request-id: 1";
    const rows = diffLines(sandbox, client);
    expect(rows.map((r) => r.kind)).toEqual(["same", "same", "same", "removed"]);
    expect(rows[3]!.right).toBeNull();
    expect(rows[3]!.leftLine).toBe(4);
  });

  it("shows an extra line as added, with line numbers on its side only", () => {
    const rows = diffLines("a\nc", "a\nb\nc");
    expect(rows.map((r) => r.kind)).toEqual(["same", "added", "same"]);
    expect(rows[1]).toMatchObject({ leftLine: null, rightLine: 2 });
  });

  it("pairs runs in order and leaves the surplus as removals", () => {
    const rows = diffLines("x1\nx2\nx3\nend", "y1\nend");
    expect(rows.map((r) => r.kind)).toEqual(["changed", "removed", "removed", "same"]);
  });

  it("treats CRLF and a final newline as line breaks only", () => {
    expect(splitLines("a\r\nb\n")).toEqual(["a", "b"]);
    expect(diffLines("a\r\nb\n", "a\nb").every((r) => r.kind === "same")).toBe(true);
    expect(sameText("a\r\nb\n", "a\nb")).toBe(true);
    expect(sameText("a", "b")).toBe(false);
  });

  it("compares identical texts as all same", () => {
    expect(diffLines("", "")).toEqual([
      { kind: "same", left: [{ text: "", changed: false }], right: [{ text: "", changed: false }], leftLine: 1, rightLine: 1 },
    ]);
  });
});

describe("bounds", () => {
  const randomText = (n: number, seed: number) => {
    let x = seed;
    return Array.from({ length: n }, () => {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      // The high bits: a power-of-two modulus leaves the low bits of this generator a short cycle.
      return "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[Math.floor((x / 2 ** 31) * 64)];
    }).join("");
  };

  it("marks the one differing character of a long line (a certificate pasted whole)", () => {
    const certificate = randomText(2_400, 1);
    const edited = `${certificate.slice(0, 1_200)}${certificate[1_200] === "x" ? "y" : "x"}${certificate.slice(1_201)}`;
    const [l, r] = diffChars(certificate, edited);
    expect(l.filter((s) => s.changed).map((s) => s.text.length)).toEqual([1]);
    expect(r.filter((s) => s.changed).map((s) => s.text.length)).toEqual([1]);
  });

  it("marks two lines with little in common whole instead of by scattered characters", () => {
    const [l, r] = diffChars(randomText(200, 2), randomText(200, 3));
    expect(l).toEqual([{ text: randomText(200, 2), changed: true }]);
    expect(r).toEqual([{ text: randomText(200, 3), changed: true }]);
  });

  it("pairs the lines of texts with nothing in common in order, each marked whole", () => {
    const a = Array.from({ length: 300 }, (_, i) => randomText(60, 10 + i)).join("\n");
    const b = Array.from({ length: 300 }, (_, i) => randomText(60, 1_000 + i)).join("\n");
    const rows = diffLines(a, b);
    expect(rows).toHaveLength(300);
    expect(rows.every((row) => row.kind === "changed")).toBe(true);
    expect(rows[299]).toMatchObject({ leftLine: 300, rightLine: 300 });
    expect(rows.every((row) => row.left?.length === 1 && row.left[0]?.changed)).toBe(true);
  });
});
