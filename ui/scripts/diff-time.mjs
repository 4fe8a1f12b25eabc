// Times the inspector's signing-string comparison (src/lib/diff.ts, run on every keystroke into the paste
// box) over what it meets: a signing string with one character and one line wrong, a long header value, a
// pasted page with a few lines changed, and pasted texts with nothing in common (where the edit cap gives
// up and marks whole lines). Given a second module (e.g. an older commit's diff.ts), it times both in the
// same run, alternating, and prints each one's median, what each marks, and the ratio of the other's time to
// this one's.
//
//   node scripts/diff-time.mjs [OTHER_DIFF_TS]      (git show main:ui/src/lib/diff.ts > /tmp/diff-main.ts)
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { loadavg } from "node:os";
import ts from "typescript";

const ui = join(dirname(fileURLToPath(import.meta.url)), "..");
// Inside node_modules, so that the transpiled modules resolve their own imports (the `diff` package).
const scratch = join(ui, "node_modules", ".cache", "diff-time");
mkdirSync(scratch, { recursive: true });

/** Loads a TypeScript module by transpiling it next to the UI's packages. */
async function load(path, name) {
  const js = ts.transpileModule(readFileSync(path, "utf8"), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
  }).outputText;
  const out = join(scratch, `${name}.mjs`);
  writeFileSync(out, js);
  return import(pathToFileURL(out).href);
}

// Deterministic inputs (a small linear congruential generator): the same texts on every run.
let seed = 42;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const randomText = (n) => Array.from({ length: n }, () => letters[Math.floor(random() * letters.length)]).join("");
const change = (text, at) => text.slice(0, at) + (text[at] === "x" ? "y" : "x") + text.slice(at + 1);

const signing = [
  "(request-target): post /v1/payments/instant-norwegian-domestic-credit-transfers-straks",
  "host: 127.0.0.1:8080",
  "date: Mon, 01 Jun 2026 12:00:00 GMT",
  `digest: SHA-256=${randomText(43)}=`,
  "x-request-id: 99391c7e-ad88-49ec-a2ad-99ddcb1f7721",
  "psu-id: 12345678901",
  "tpp-redirect-uri: https://tpp.example/callback?state=1",
].join("\n");
const signingClient = signing
  .split("\n")
  .map((line) => (line.startsWith("digest") ? change(line, 30) : line))
  .filter((line) => !line.startsWith("psu-id"))
  .join("\n");
const certificate = randomText(2_400);
const page = Array.from({ length: 1_000 }, () => randomText(60));
const pageEdited = page.map((line, i) => (i % 100 === 7 ? change(line, 20) : line));
const unrelated = (n) => [Array.from({ length: n }, () => randomText(60)).join("\n"), Array.from({ length: n }, () => randomText(60)).join("\n")];
const [apart1000a, apart1000b] = unrelated(1_000);
const [apart2000a, apart2000b] = unrelated(2_000);

const CASES = [
  ["signing string: 7 lines, one character and one line differ", signing, signingClient],
  ["one 2,400-character line, one character differs", certificate, change(certificate, 1_200)],
  ["pasted page: 1,000 lines of 60, 10 lines differ", page.join("\n"), pageEdited.join("\n")],
  ["1,000 lines against 1,000 others", apart1000a, apart1000b],
  ["2,000 lines against 2,000 others", apart2000a, apart2000b],
];

/** Median milliseconds of one `diffLines(a, b)`, over at least `minMs` of calls and 5 samples. */
function time(module, a, b, minMs = 400) {
  const samples = [];
  const end = performance.now() + minMs;
  while (samples.length < 5 || performance.now() < end) {
    const start = performance.now();
    module.diffLines(a, b);
    samples.push(performance.now() - start);
  }
  samples.sort((x, y) => x - y);
  return samples[Math.floor(samples.length / 2)];
}

const current = await load(join(ui, "src", "lib", "diff.ts"), "current");
const otherPath = process.argv[2];
const other = otherPath ? await load(otherPath, `other-${basename(otherPath, ".ts")}`) : null;

const fmt = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`);
console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}; median of one diffLines call`);
for (const [name, a, b] of CASES) {
  // Warm both, then alternate so that load changes fall on both alike.
  time(current, a, b, 100);
  if (other) time(other, a, b, 100);
  const mine = [];
  const theirs = [];
  for (let round = 0; round < 3; round++) {
    mine.push(time(current, a, b));
    if (other) theirs.push(time(other, a, b));
  }
  const median = (list) => [...list].sort((x, y) => x - y)[1];
  // What each marks: rows that differ, and characters marked as differing (fewer is more precise).
  const marks = (module) => {
    const rows = module.diffLines(a, b);
    const chars = rows
      .flatMap((r) => [...(r.left ?? []), ...(r.right ?? [])])
      .reduce((n, s) => n + (s.changed ? s.text.length : 0), 0);
    const differing = rows.filter((r) => r.kind !== "same").length;
    return `${differing} row${differing === 1 ? "" : "s"}, ${chars} characters marked`;
  };
  if (other) {
    const ratio = median(theirs) / median(mine);
    console.log(`${name}: ${fmt(median(mine))} (${marks(current)}); ${basename(otherPath)}: ${fmt(median(theirs))} (${marks(other)}); ratio ${ratio.toFixed(2)}`);
  } else {
    console.log(`${name}: ${fmt(median(mine))} (${marks(current)})`);
  }
}
