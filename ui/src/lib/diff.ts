// The side-by-side comparison of two signing strings: lines matched by jsdiff (Myers' algorithm, the `diff`
// package), and each pair of lines that differ compared again character by character, so the inspector can
// mark the exact characters the client signed differently. This module only shapes jsdiff's changes into
// the rows the view draws (a run of removed lines paired in order with the added ones that follow it).
import { diffArrays, diffChars as charChanges } from "diff";

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

// Myers' algorithm is quick where two texts are alike (the case here: a signing string with a character or a
// line wrong) and slow where they have little in common, so each comparison gives up past a bound and marks
// whole lines instead: typing into the paste box must never freeze the page (scripts/diff-time.mjs).
/** Past this many lines inserted and removed, the lines are paired in order instead of matched. */
const MAX_LINE_EDITS = 100;
/** Past this many characters inserted and removed, a pair of lines is marked whole: they are not alike. */
const MAX_CHAR_EDITS = 64;
/** Characters inserted and removed over one whole comparison; once spent, the remaining pairs are marked whole. */
const CHAR_EDIT_BUDGET = 1_024;

function pushSegment(list: Segment[], text: string, changed: boolean) {
  const last = list[list.length - 1];
  if (last && last.changed === changed) last.text += text;
  else list.push({ text, changed });
}

/** Both lines marked whole. */
const whole = (a: string, b: string): [Segment[], Segment[]] => [
  a ? [{ text: a, changed: true }] : [],
  b ? [{ text: b, changed: true }] : [],
];

/** Two lines compared character by character, or null past `maxEdits`; with how many characters differ. */
function compareChars(a: string, b: string, maxEdits: number): { sides: [Segment[], Segment[]]; edits: number } | null {
  const changes = charChanges(a, b, { maxEditLength: maxEdits });
  if (!changes) return null;
  const left: Segment[] = [];
  const right: Segment[] = [];
  let edits = 0;
  for (const change of changes) {
    if (change.added || change.removed) edits += change.count;
    if (!change.added) pushSegment(left, change.value, change.removed);
    if (!change.removed) pushSegment(right, change.value, change.added);
  }
  return { sides: [left, right], edits };
}

/** Two lines compared character by character: the segments of each, the differing ones marked. */
export function diffChars(a: string, b: string): [Segment[], Segment[]] {
  return compareChars(a, b, MAX_CHAR_EDITS)?.sides ?? whole(a, b);
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
  // Past the cap every line of one side is paired with the other's in order, each compared by character.
  const changes = diffArrays(la, lb, { maxEditLength: MAX_LINE_EDITS }) ?? [
    { value: la, added: false, removed: true, count: la.length },
    { value: lb, added: true, removed: false, count: lb.length },
  ];
  const rows: DiffRow[] = [];
  let budget = CHAR_EDIT_BUDGET;
  const pairChars = (a: string, b: string): [Segment[], Segment[]] => {
    const cap = Math.min(MAX_CHAR_EDITS, budget);
    const compared = cap > 0 ? compareChars(a, b, cap) : null;
    budget -= compared ? compared.edits : cap;
    return compared?.sides ?? whole(a, b);
  };
  let dels: number[] = [];
  let ins: number[] = [];
  const flush = () => {
    const pairs = Math.min(dels.length, ins.length);
    for (let k = 0; k < pairs; k++) {
      const i = dels[k] as number;
      const j = ins[k] as number;
      const [left, right] = pairChars(la[i] as string, lb[j] as string);
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
  let i = 0;
  let j = 0;
  for (const change of changes) {
    for (let k = 0; k < change.value.length; k++) {
      if (change.removed) dels.push(i++);
      else if (change.added) ins.push(j++);
      else {
        flush();
        rows.push({ kind: "same", left: [{ text: la[i] as string, changed: false }], right: [{ text: lb[j] as string, changed: false }], leftLine: i + 1, rightLine: j + 1 });
        i++;
        j++;
      }
    }
  }
  flush();
  return rows;
}

/** Whether two texts differ once line endings are set aside. */
export function sameText(a: string, b: string): boolean {
  return splitLines(a).join("\n") === splitLines(b).join("\n");
}
