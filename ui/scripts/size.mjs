// Prints the gzipped size of the built JavaScript (ui/dist, after `npm run build`) and fails when the
// total passes the budget: 400 KB gzipped.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";

const BUDGET = 400 * 1024;
const dist = new URL("../dist/", import.meta.url).pathname;

/** @param {string} dir @returns {string[]} */
function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

/** @type {string[]} */
let list;
try {
  list = files(dist).filter((f) => f.endsWith(".js"));
} catch {
  console.error("ui/dist is missing: run `npm run build` first.");
  process.exit(1);
}

let total = 0;
for (const file of list.sort()) {
  const raw = readFileSync(file);
  const gz = gzipSync(raw, { level: 9 }).length;
  total += gz;
  console.log(`${relative(dist, file).padEnd(44)} ${(raw.length / 1024).toFixed(1).padStart(8)} KB ${(gz / 1024).toFixed(1).padStart(8)} KB gz`);
}
console.log(`${"total JavaScript".padEnd(44)} ${"".padStart(11)} ${(total / 1024).toFixed(1).padStart(8)} KB gz (budget ${BUDGET / 1024} KB)`);
if (total > BUDGET) {
  console.error("Over budget.");
  process.exit(1);
}
