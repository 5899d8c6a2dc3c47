// grade-batch's similarity (grader/batch/similarity.mjs, issue 32 item 1) on a generated class of 300:
// honest submissions built from a small stock of statements (so much of their code is common, as in a
// real class), the starter handed in unchanged by several, and planted copies: a cluster of renamed copies
// with their functions reordered and comments changed, three copies of all-common code that differ only
// in a comment, and five identical files. Every planted cluster must come out as one cluster of exactly
// its members; every pair above the threshold is kept (no cut at 50); the starter is no evidence.
// Run: node --test tests/js/similarity.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { similarPairs, clustersOf } from '../../grader/batch/similarity.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const STARTER = readFileSync(`${ROOT}exercises/sdpa/starter.js`, 'utf8');

function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const OPS = ['matmul', 'transpose', 'exp', 'max', 'sum', 'where', 'divide', 'subtract', 'sqrt', 'multiply', 'add'];
const AXES = ['', ', -1', ', { axis: -1, keepdims: true }', ', 0', ', [0, 2, 1]'];

/** A program of three functions, each of 6–14 statements drawn from the stock with names of its own. */
function program(r, names = (k) => `v${k}`) {
  const fn = (name) => {
    const n = 6 + Math.floor(r() * 9),
      lines = [`function ${name}(q, k, v) {`];
    for (let i = 0; i < n; i++) {
      const op = OPS[Math.floor(r() * OPS.length)],
        ax = AXES[Math.floor(r() * AXES.length)];
      const a = i ? names(Math.floor(r() * i)) : 'q';
      lines.push(`  const ${names(i)} = np.${op}(${a}${op === 'matmul' ? ', k' : ''}${ax});`);
    }
    lines.push(`  return ${names(n - 1)};`, '}');
    return lines.join('\n');
  };
  return ['causal_mask', 'softmax', 'attention'].map(fn);
}
const renamed = (fns, tag) =>
  fns
    .map((f) => f.replace(/\bv(\d+)\b/g, `${tag}_$1`).replace(/\(q, k, v\)/g, '(query, key, value)'))
    .map((f) => f.replace(/\bq\b/g, 'query').replace(/, k([,)])/g, ', key$1'));

test('similarity on a class of 300: planted clusters found whole, every pair kept, common code and the starter no evidence', () => {
  const r = rng(7);
  const subs = [];
  const add = (student, source) => subs.push({ student, track: 'js', source });
  // Honest students; 40 of them also write the all-common function of cluster B below.
  const common = ['function attention(q, k, v) {', '  const s = np.matmul(q, k);', '  return s;', '}'].join('\n');
  for (let i = 0; i < 270; i++)
    add(`honest-${String(i).padStart(3, '0')}`, program(r).join('\n\n') + (i % 7 === 0 ? `\n\n${common}\n` : ''));
  // The starter unchanged, five times.
  for (let i = 0; i < 5; i++) add(`starter-${i}`, STARTER);
  // Cluster A: an honest student's program and 4 copies, renamed, reordered, re-commented.
  const original = program(rng(99));
  add('orig-A', original.join('\n\n'));
  const orders = [
    [2, 1, 0],
    [1, 0, 2],
    [0, 2, 1],
    [2, 0, 1],
  ];
  orders.forEach((o, k) =>
    add(`copy-A${k}`, `// my own work ${k}\n` + o.map((i) => renamed(original, `x${k}`)[i]).join(`\n// part ${k}\n`)),
  );
  // Cluster B: code that more than a tenth of the class wrote (its fingerprints are all common), three
  // copies that differ only in a comment.
  for (let i = 0; i < 3; i++) add(`copy-B${i}`, `// B ${i}: comments differ\n${common}\n`);
  // Cluster C: five identical files.
  const same = program(rng(1234)).join('\n\n');
  for (let i = 0; i < 5; i++) add(`copy-C${i}`, same);
  assert.equal(subs.length, 270 + 5 + 5 + 3 + 5);

  const pairs = similarPairs(subs, { js: STARTER });
  const clusters = clustersOf(pairs);
  const of = (prefix) => subs.map((s) => s.student).filter((s) => s.startsWith(prefix));
  const clusterOf = (name) => clusters.find((c) => c.members.includes(name));
  const A = ['orig-A', ...of('copy-A')],
    B = of('copy-B'),
    C = of('copy-C');
  assert.deepEqual(clusterOf('orig-A')?.members, A.sort(), 'the renamed, reordered copies are one cluster');
  assert.deepEqual(
    clusterOf('copy-B0')?.members,
    B,
    'copies that differ in a comment are one cluster, common code or not',
  );
  assert.equal(clusterOf('copy-B0').kind, 'near');
  assert.deepEqual(clusterOf('copy-C0')?.members, C, 'five identical files are one cluster');
  assert.equal(clusterOf('copy-C0').kind, 'exact');
  assert.equal(clusterOf('copy-C0').evidence.kind, 'exact');
  // Every pair inside the planted clusters is kept (10 for the five identical files: no cut).
  const inside = (set) => pairs.filter((p) => set.includes(p.a) && set.includes(p.b)).length;
  assert.equal(inside(C), 10);
  assert.equal(inside(B), 3);
  assert.ok(inside(A) >= 4, `cluster A holds ${inside(A)} pairs`);
  // The starter handed in unchanged is no copy of anyone.
  for (const s of of('starter-')) assert.equal(clusterOf(s), undefined, `${s} is in a cluster`);
  // Honest students, who share the stock's statements by chance, are never exact or near copies, and few of
  // their 36 315 pairs pass the threshold at all, all of them weaker than every planted copy.
  const honest = pairs.filter((p) => p.a.startsWith('honest') && p.b.startsWith('honest'));
  const show = JSON.stringify(honest.map(({ a, b, kind, score, shared }) => [a, b, kind, score, shared]));
  assert.ok(honest.length < 10 && honest.every((p) => p.kind === 'similar' && p.score < 0.9), show);
  // Exact copies first, then near ones, then the rest, each by score.
  const rank = { exact: 0, near: 1, similar: 2 };
  for (let i = 1; i < pairs.length; i++) assert.ok(rank[pairs[i - 1].kind] <= rank[pairs[i].kind]);
});
