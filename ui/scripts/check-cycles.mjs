// Import cycles between the UI's modules (src/**/*.ts(x), tests left out): every relative import and
// re-export, static or dynamic, resolved to its file; each strongly connected group of more than one file
// is a cycle (e.g. a screen importing app/ internals that import the screen back). Exit 1 on any.
//
//   node scripts/check-cycles.mjs
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "src");

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.(test|spec)\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const files = new Set(sources(root));
const pattern = /(?:import|export)\s[^'"]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function resolve(from, spec) {
  if (!spec.startsWith(".")) return undefined;
  const base = normalize(join(dirname(from), spec));
  return [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")].find(
    (candidate) => files.has(candidate) && existsSync(candidate),
  );
}

const graph = new Map();
for (const file of files) {
  const deps = new Set();
  for (const match of readFileSync(file, "utf8").matchAll(pattern)) {
    const target = resolve(file, match[1] ?? match[2]);
    if (target) deps.add(target);
  }
  graph.set(file, deps);
}

// Tarjan's strongly connected components.
let counter = 0;
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const cycles = [];
function visit(node) {
  index.set(node, counter);
  low.set(node, counter);
  counter += 1;
  stack.push(node);
  onStack.add(node);
  for (const next of graph.get(node)) {
    if (!index.has(next)) {
      visit(next);
      low.set(node, Math.min(low.get(node), low.get(next)));
    } else if (onStack.has(next)) {
      low.set(node, Math.min(low.get(node), index.get(next)));
    }
  }
  if (low.get(node) === index.get(node)) {
    const group = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) cycles.push(group);
  }
}
for (const node of graph.keys()) if (!index.has(node)) visit(node);

if (cycles.length > 0) {
  console.error(`Import cycles in ui/src: ${cycles.length}`);
  for (const group of cycles) {
    console.error(`- ${group.map((f) => relative(root, f)).sort().join(", ")}`);
  }
  process.exit(1);
}
console.log(`ui/src: ${files.size} modules, no import cycles`);
