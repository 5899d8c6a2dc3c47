// The import graph of grader/, web/, tools/ and server/ (static `import … from`, `export … from`, and import()
// of a string literal), read from the source text, against the rules of grader/README.md (Structure):
// - no cycle inside grader/, between its modules or between its rooms (core, wire, hosts, tracks, np, …);
// - grader/core imports no host and no track (the entry gives it the tracks); a track imports no host;
// - web/, tools/ and server/ reach the grader only through grader/index.mjs, the page's code (web/src, and
//   web/csp.mjs which it bundles) only through grader/browser.mjs; wasm/ only through its public
//   entries; tools/ no test helper (tests/fixtures/, the fixtures' data and their listing, excepted).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SKIP = new Set(['node_modules', 'dist']);

/** The JavaScript files under `dir` (repo-relative): .mjs/.js, and extensionless scripts run by node. */
function sources(dir) {
  const out = [];
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    if (SKIP.has(e.name)) continue;
    const p = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...sources(p));
    else if (
      /\.m?js$/.test(e.name) ||
      (!e.name.includes('.') && readFileSync(join(ROOT, p), 'utf8').startsWith('#!/usr/bin/env node'))
    )
      out.push(p);
  }
  return out;
}

/**
 * The specifiers a module imports. Comment lines and template literals are dropped first: a template
 * is text a program writes (a generated suite.mjs, a script for a browser page), not an import of its own.
 */
export function specifiersOf(text) {
  const code = text.replace(/`(?:\\[\s\S]|[^`\\])*`/g, '``').replace(/^\s*(?:\/\/|\*|\/\*).*$/gm, '');
  const found = [];
  for (const m of code.matchAll(/^\s*(?:import|export)\s+(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]/gm)) found.push(m[1]);
  for (const m of code.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(m[1]);
  return found;
}

/** { file → [repo-relative targets] } for the relative imports of `files`; throws on one that names no file. */
function graphOf(files) {
  const graph = new Map();
  for (const f of files) {
    const targets = [];
    for (const s of specifiersOf(readFileSync(join(ROOT, f), 'utf8'))) {
      if (!s.startsWith('.')) continue; // a package, node:, or a bundler's virtual module
      const abs = resolve(ROOT, dirname(f), s.replace(/\?.*$/, ''));
      if (!existsSync(abs) || !statSync(abs).isFile()) throw new Error(`${f} imports ${s}, which is no file`);
      targets.push(relative(ROOT, abs));
    }
    graph.set(f, targets);
  }
  return graph;
}

/** A cycle of `graph` (Map node → [nodes]) as a list of nodes from the first to itself, or null. */
export function findCycle(graph) {
  const state = new Map(); // 1: on the path, 2: done
  const path = [];
  const visit = (n) => {
    if (state.get(n) === 2) return null;
    if (state.get(n) === 1) return [...path.slice(path.indexOf(n)), n];
    state.set(n, 1);
    path.push(n);
    for (const m of graph.get(n) ?? []) {
      const c = visit(m);
      if (c) return c;
    }
    path.pop();
    state.set(n, 2);
    return null;
  };
  for (const n of graph.keys()) {
    const c = visit(n);
    if (c) return c;
  }
  return null;
}

/** grader/'s room of a file: its folder under grader/ (hosts/node, hosts/browser), or the file itself at the top. */
const roomOf = (f) => {
  const parts = f.split('/').slice(1);
  if (parts.length === 1) return parts[0];
  return parts[0] === 'hosts' ? `hosts/${parts[1]}` : parts[0];
};

const GRADER = graphOf(sources('grader'));
const WEB = graphOf([
  ...sources('web/src'),
  ...readdirSync(join(ROOT, 'web'))
    .filter((f) => f.endsWith('.mjs'))
    .map((f) => `web/${f}`),
]);
const TOOLS = graphOf(sources('tools'));
const SERVER = graphOf(sources('server'));

test('the checker finds a cycle where there is one, and reads every kind of import', () => {
  assert.deepEqual(
    findCycle(
      new Map([
        ['a', ['b']],
        ['b', ['c']],
        ['c', ['a']],
      ]),
    ),
    ['a', 'b', 'c', 'a'],
  );
  assert.equal(
    findCycle(
      new Map([
        ['a', ['b', 'c']],
        ['b', ['c']],
        ['c', []],
      ]),
    ),
    null,
  );
  const text =
    "import a from './a.mjs';\nimport {\n  b,\n} from \"./b.mjs\";\nexport { c } from './c.mjs';\nimport './d.mjs';\n" +
    // eslint-disable-next-line no-template-curly-in-string -- the parser under test must skip a template literal's import
    "const e = await import('./e.mjs');\n// import f from './f.mjs';\nconst g = `import h from './h.mjs'`;\nimport(`./${x}.mjs`);\n";
  assert.deepEqual(specifiersOf(text), ['./a.mjs', './b.mjs', './c.mjs', './d.mjs', './e.mjs']);
  assert.ok(GRADER.size > 30 && WEB.size > 10 && TOOLS.size > 10 && SERVER.size > 5, 'the folders were read');
});

test('no import cycle inside grader/: between modules, and between rooms', () => {
  const modules = new Map([...GRADER].map(([f, ts]) => [f, ts.filter((t) => t.startsWith('grader/'))]));
  assert.equal(findCycle(modules)?.join(' → ') ?? null, null);
  const rooms = new Map();
  for (const [f, ts] of modules) {
    const from = roomOf(f);
    if (!rooms.has(from)) rooms.set(from, new Set());
    for (const t of ts) if (roomOf(t) !== from) rooms.get(from).add(roomOf(t));
  }
  assert.equal(findCycle(new Map([...rooms].map(([r, s]) => [r, [...s]])))?.join(' → ') ?? null, null);
});

test('grader/core imports no host, no track, and nothing above it (batch, the CLI, the entries)', () => {
  const bad = [...GRADER]
    .filter(([f]) => f.startsWith('grader/core/'))
    .flatMap(([f, ts]) =>
      ts.filter((t) => !/^grader\/(core|wire)\/|^grader\/limits\.mjs$/.test(t)).map((t) => `${f} → ${t}`),
    );
  assert.deepEqual(bad, []);
});

test('a track imports no host, in any of its modules (.mjs and .js: the worker guests too)', () => {
  // The hosts import the tracks (the browser host's worker shell gets its guest from the build, by a
  // specifier of no file), never the reverse: a track is one folder that nothing outside names.
  const tracks = [...GRADER].filter(([f]) => f.startsWith('grader/tracks/'));
  assert.ok(tracks.some(([f]) => f.endsWith('.js')) && tracks.some(([f]) => f.endsWith('.mjs')), 'both kinds read');
  const bad = tracks.flatMap(([f, ts]) => ts.filter((t) => t.startsWith('grader/hosts/')).map((t) => `${f} → ${t}`));
  assert.deepEqual(bad, []);
});

test('web/, tools/ and server/ reach grader/ only through its entries, wasm/ only through its public ones; tools/ no test helper', () => {
  const WASM = /^wasm\/(index\.mjs|webgpu\/(index|browser|backend)\.mjs)$/;
  const page = (f) => f.startsWith('web/src/') || f === 'web/csp.mjs'; // bundled into the page
  const bad = [];
  for (const [f, ts] of [...WEB, ...TOOLS, ...SERVER]) {
    for (const t of ts) {
      const ok = t.startsWith('grader/')
        ? t === 'grader/browser.mjs' || (!page(f) && t === 'grader/index.mjs')
        : t.startsWith('wasm/')
          ? WASM.test(t)
          : t.startsWith('tests/')
            ? f.startsWith('tools/') && !f.startsWith('tools/benchmark/') && t.startsWith('tests/fixtures/')
            : t.startsWith('web/') || t.startsWith('tools/') || (f.startsWith('server/') && t.startsWith('server/'));
      if (!ok) bad.push(`${f} → ${t}`);
    }
  }
  assert.deepEqual(bad, []);
});
