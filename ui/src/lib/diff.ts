// A small line-then-character diff for comparing two signing strings side by side: lines matched by their
// longest common subsequence, and each pair of lines that differ compared again character by character, so
// the inspector can mark the exact characters the client signed differently. Inputs are a few short lines;
// an LCS table is plenty (and a cap keeps a pasted novel from freezing the page).

export interface Segment {
  text: string;
  /** This part differs from the other side. */
  changed: boolean;
}

export type RowKind = "same" | "changed" | "removed" | "added";

/** One row of the side-by-side view: `left` from the first text, `right` from the second. */
export interface DiffRow {
  kind: RowKind;
  left: Segment[] | null;
  right: Segment[] | null;
  /** 1-based line numbers, null on the side the row is missing from. */
  leftLine: number | null;
  rightLine: number | null;
}

/** Above this many cells of an LCS table the comparison falls back to marking whole lines. */
const MAX_CELLS = 4_000_000;

type Op = ["same" | "del" | "ins", number, number];

/** The edit script between two sequences (same/del/ins with indexes into a and b). */
function lcsScript<T>(a: readonly T[], b: readonly T[], eq: (x: T, y: T) => boolean): Op[] | null {
  const n = a.length;
  const m = b.length;
  if ((n + 1) * (m + 1) > MAX_CELLS) return null;
  // table[i][j] = LCS length of a[i..] and b[j..], flat for speed.
  const w = m + 1;
  const table = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * w + j] = eq(a[i] as T, b[j] as T)
        ? (table[(i + 1) * w + j + 1] as number) + 1
        : Math.max(table[(i + 1) * w + j] as number, table[i * w + j + 1] as number);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (eq(a[i] as T, b[j] as T)) ops.push(["same", i++, j++]);
    else if ((table[(i + 1) * w + j] as number) >= (table[i * w + j + 1] as number)) ops.push(["del", i++, j]);
    else ops.push(["ins", i, j++]);
  }
  while (i < n) ops.push(["del", i++, j]);
  while (j < m) ops.push(["ins", i, j++]);
  return ops;
}

function pushSegment(list: Segment[], text: string, changed: boolean) {
  const last = list[list.length - 1];
  if (last && last.changed === changed) last.text += text;
  else list.push({ text, changed });
}

/** Two lines compared character by character: the segments of each, the differing ones marked. */
export function diffChars(a: string, b: string): [Segment[], Segment[]] {
  const left: Segment[] = [];
  const right: Segment[] = [];
  const ca = [...a];
  const cb = [...b];
  const ops = lcsScript(ca, cb, (x, y) => x === y);
  if (!ops) return [[{ text: a, changed: true }], [{ text: b, changed: true }]];
  for (const [op, i, j] of ops) {
    if (op === "same") {
      pushSegment(left, ca[i] as string, false);
      pushSegment(right, cb[j] as string, false);
    } else if (op === "del") pushSegment(left, ca[i] as string, true);
    else pushSegment(right, cb[j] as string, true);
  }
  return [left, right];
}

/** Splits a text into lines; CRLF counts as one line break, and a final newline adds no empty line. */
export function splitLines(text: string): string[] {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/**
 * The rows of a side-by-side comparison. Runs of removed and added lines are paired in order as "changed"
 * rows (compared by character); the lines left over are plain removals or additions.
 */
export function diffLines(a: string, b: string): DiffRow[] {
  const la = splitLines(a);
  const lb = splitLines(b);
  const ops = lcsScript(la, lb, (x, y) => x === y) ?? [
    ...la.map((_, i): Op => ["del", i, 0]),
    ...lb.map((_, j): Op => ["ins", la.length, j]),
  ];
  const rows: DiffRow[] = [];
  let dels: number[] = [];
  let ins: number[] = [];
  const flush = () => {
    const pairs = Math.min(dels.length, ins.length);
    for (let k = 0; k < pairs; k++) {
      const i = dels[k] as number;
      const j = ins[k] as number;
      const [left, right] = diffChars(la[i] as string, lb[j] as string);
      rows.push({ kind: "changed", left, right, leftLine: i + 1, rightLine: j + 1 });
    }
    for (const i of dels.slice(pairs)) {
      rows.push({ kind: "removed", left: [{ text: la[i] as string, changed: true }], right: null, leftLine: i + 1, rightLine: null });
    }
    for (const j of ins.slice(pairs)) {
      rows.push({ kind: "added", left: null, right: [{ text: lb[j] as string, changed: true }], leftLine: null, rightLine: j + 1 });
    }
    dels = [];
    ins = [];
  };
  for (const [op, i, j] of ops) {
    if (op === "same") {
      flush();
      const text = la[i] as string;
      rows.push({ kind: "same", left: [{ text, changed: false }], right: [{ text: lb[j] as string, changed: false }], leftLine: i + 1, rightLine: j + 1 });
    } else if (op === "del") dels.push(i);
    else ins.push(j);
  }
  flush();
  return rows;
}

/** Whether two texts differ once line endings are set aside. */
export function sameText(a: string, b: string): boolean {
  return splitLines(a).join("\n") === splitLines(b).join("\n");
}
