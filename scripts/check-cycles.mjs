// Fails when a module of src/ imports itself through others: an import cycle, type-only imports
// included (a type-only cycle is still two files that cannot be understood one without the other).
// A dynamic `import()` is not counted: it is how bin.ts and the start-up path load a part on demand,
// and it runs after both modules are loaded. Part of `npm run lint` (docs/architecture.md, "Layers
// and import boundaries").
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

// The folder to check: src/ of this checkout, or the one given (test/release/cycles.test.ts).
const srcDir = path.resolve(process.argv[2] ?? path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'src'));
const root = path.dirname(srcDir);

function sourceFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, {withFileTypes: true})) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (/\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** The file a relative specifier names: `./x.js` is `./x.ts` or `./x.tsx` on disk. */
function resolve(from, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), specifier);
  const stem = base.replace(/\.(m?js|jsx)$/, '');
  for (const candidate of [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, path.join(base, 'index.ts')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** Static imports and re-exports, type-only ones too, and `import('…')` in type positions. */
function importsOf(file) {
  const text = fs.readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const specifiers = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      specifiers.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers.map((s) => resolve(file, s)).filter((f) => f !== null);
}

const files = sourceFiles(srcDir);
const graph = new Map(files.map((f) => [f, importsOf(f)]));

// Tarjan's strongly connected components: every component of more than one file (or a file that
// imports itself) holds a cycle.
let counter = 0;
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const components = [];
function connect(v) {
  index.set(v, counter);
  low.set(v, counter);
  counter++;
  stack.push(v);
  onStack.add(v);
  for (const w of graph.get(v) ?? []) {
    if (!graph.has(w)) continue;
    if (!index.has(w)) {
      connect(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) {
      low.set(v, Math.min(low.get(v), index.get(w)));
    }
  }
  if (low.get(v) === index.get(v)) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(component);
  }
}
for (const f of files) if (!index.has(f)) connect(f);

/** One concrete cycle inside a component, for the message: a shortest way back to the start. */
function cycleIn(component) {
  const members = new Set(component);
  const start = [...component].sort()[0];
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift();
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const chain = [v];
        for (let p = previous.get(v); p !== null; p = previous.get(p)) chain.unshift(p);
        return [...chain, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

const rel = (f) => path.relative(root, f);
if (components.length > 0) {
  console.error(`Import cycles in ${rel(srcDir)}/ (type-only imports count; docs/architecture.md, "Layers and import boundaries"):`);
  for (const component of components) {
    console.error(`  ${cycleIn(component).map(rel).join(' → ')}${component.length > 2 ? `  (${component.length} files in this knot)` : ''}`);
  }
  process.exit(1);
}
console.log(`No import cycles among ${files.length} files of ${rel(srcDir)}/.`);
