// The work count (grader/tracks/work.mjs): the counter and np's charges, the JavaScript track's ticks as
// prepareSource inserts them (lines and the student's columns kept, its names refused), and in the
// Node sandbox: an endless loop stopped at exactly its budget in units, whatever the student's code
// catches or tries to rebind; a heavy but correct call that passes, counting the same units every
// time; reports carrying `work`. The Python track the same: its loops, comprehensions and function entries
// ticked by a line-keeping rewrite, an endless loop stopped at its budget whatever `except` catches, the
// same units in a fresh sandbox and in one that already ran other requests. The page gives the same
// verdicts and units: tests/browser/work.test.mjs. And a plain array larger than the memory budget refused
// when fill or Array.from is asked for it (the page: tests/fixtures/sandbox/array-fill in tests/browser/).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createWork,
  countNp,
  WorkStop,
  CALL_UNITS,
  ACCESS_UNITS,
  ELEMENT_UNITS,
  ENTRY_UNITS,
} from '../../grader/tracks/work.mjs';
import { np as realNp } from '../../grader/np/index.mjs';
import { NodeSandbox } from '../../grader/hosts/node/sandbox.mjs';
import { trackNamed } from '../../grader/tracks/index.mjs';
import { grade } from '../../grader/core/grade.mjs';
import { loadExercise } from '../../grader/hosts/node/exercise.mjs';
import { loadCore } from '../../wasm/index.mjs';
import { LIMITS } from '../../grader/limits.mjs';
import { WORK_SOURCES, PY_WORK_SOURCES } from '../fixtures/work.mjs';
import { tickLoops } from '../../grader/tracks/python/rewrite.mjs';
import { TICK_UNITS } from '../../grader/tracks/python/bridge.mjs';

const js = trackNamed('js');
const python = trackNamed('python');

test('the counter: charges add up; past the budget every charge throws, until the request ends', () => {
  const w = createWork();
  w.start(10);
  w.charge(4);
  for (let i = 0; i < 6; i++) w.tick();
  assert.equal(w.over(), false);
  w.start(10);
  w.charge(2);
  w.tick();
  w.tick();
  assert.throws(() => w.enter(), WorkStop, `an entry is ${ENTRY_UNITS} units`);
  assert.equal(w.end(), 4 + ENTRY_UNITS);
  w.start(10);
  w.charge(4);
  for (let i = 0; i < 6; i++) w.tick();
  assert.throws(() => w.tick(), WorkStop);
  assert.throws(() => w.charge(0), WorkStop, 'sticky: a caught stop does not let the code go on');
  assert.equal(w.over(), true);
  assert.equal(w.end(), 11);
  w.charge(1000); // between requests nothing is bounded
  w.start(Infinity);
  w.charge(5);
  assert.equal(w.end(), 5);
});

test('np charges: the call, the elements handed and answered; matmul by its inner dimension; element access by what it reads', async () => {
  // A private engine instance: countNp wraps the one it is given, once.
  const { np, NDArray } = await import(`../../grader/np/index.mjs?work-test`);
  assert.notEqual(np, realNp);
  const w = createWork();
  countNp(np, NDArray, w);
  countNp(np, NDArray, w); // once per engine
  const a = np.ones([10]),
    b = np.ones([10]);
  w.start(Infinity);
  np.add(a, b);
  assert.equal(w.end(), CALL_UNITS + ELEMENT_UNITS * (20 + 10));
  w.start(Infinity);
  a.add(b); // a method: the array's own elements too
  assert.equal(w.end(), CALL_UNITS + ELEMENT_UNITS * (20 + 10));
  const m = np.ones([8, 16]),
    n = np.ones([16, 4]);
  w.start(Infinity);
  np.matmul(m, n);
  assert.equal(w.end(), CALL_UNITS + ELEMENT_UNITS * (128 + 64 + 32) + 32 * (16 / 4));
  w.start(Infinity);
  m.get(1, 2);
  assert.equal(w.end(), ACCESS_UNITS, 'one element read: the access only');
  w.start(Infinity);
  np.concatenate([a, b]);
  assert.equal(w.end(), CALL_UNITS + ELEMENT_UNITS * (20 + 20), 'arrays inside a list argument');
  assert.equal(np.add.name, realNp.add.name, 'names kept');
  assert.ok(np.ndarray === NDArray && a instanceof np.ndarray, 'classes are not wrapped');
  // A minified bundle (the page's) renames functions: a capital is no sign of a class, its source is.
  const K = class {};
  const fake = { Xe: () => 1, K };
  countNp(fake, NDArray, w);
  w.start(Infinity);
  fake.Xe();
  assert.equal(w.end(), CALL_UNITS, 'a function named with a capital is counted');
  assert.equal(fake.K, K, 'a class is not wrapped');
});

test('JavaScript ticks: lines kept, directives first, every loop and function body ticked, the student columns given back (in stack frames a text quotes too)', () => {
  const src = [
    '"use strict";',
    'function f(x) { for (let i = 0; i < 3; i++) x += i; while (x > 0) { x--; } return x; }',
    'const g = (a) => a.map((y) => y * 2);',
    'do { g([1]); } while (false);',
  ].join('\n');
  const p = js.prepareSource(src);
  assert.ok(p.ok);
  assert.equal(p.source, src, 'source: the student text, for reading');
  assert.equal(p.run.split('\n').length, 4);
  assert.ok(p.run.startsWith('"use strict";const __attnlab_t=__attnlab_tick,__attnlab_e=__attnlab_enter;'), p.run);
  // loops: f's for and while, the do-while; functions: f, g, the arrow g hands to map
  assert.equal((p.run.match(/__attnlab_t\(\)/g) ?? []).length, 3, p.run);
  assert.equal((p.run.match(/__attnlab_e\(\)/g) ?? []).length, 3, p.run);
  const line2 = p.run.split('\n')[1];
  const col = line2.indexOf('x--') + 1; // where an error in `x--` would be reported in the ticked line
  assert.equal(p.columnOf(2, col), src.split('\n')[1].indexOf('x--') + 1);
  assert.equal(p.columnOf(3, 1), 1);
  // a stack frame quoted in a text (an error message built from a stack, printed output): the student's column
  const student = src.split('\n')[1].indexOf('x--') + 1;
  assert.equal(
    p.studentText(`TypeError: t\n    at f (submission.js:2:${col})\n    at g (other.js:2:${col})`),
    `TypeError: t\n    at f (submission.js:2:${student})\n    at g (other.js:2:${col})`,
  );
  for (const bad of [
    'let __attnlab_tick = 1;',
    'function f(__attnlab_t) {}',
    'var __attnlab_e;',
    'with (Math) { f(); }',
  ]) {
    const r = js.prepareSource(bad);
    assert.equal(r.ok, false, bad);
    assert.match(r.error.message, /a name the grader uses|with is not available/);
  }
  assert.ok(
    js.prepareSource('globalThis.__attnlab_t = 1; const o = { __attnlab_e: 2 };').ok,
    'properties are no bindings',
  );
});

const core = await loadCore();
const exercise = await loadExercise('sdpa');
const budget = (ms) => ms * js.workPerMs;

async function inSandbox(source, fn, args, timeoutMs) {
  const p = js.prepareSource(source);
  assert.ok(p.ok, p.error?.message);
  const sandbox = await NodeSandbox.create({ track: js });
  try {
    const load = await sandbox.load(p.run, { functions: [fn], timeoutMs: 2000 });
    assert.equal(load.error, null);
    return await sandbox.call(fn, args, { timeoutMs });
  } finally {
    await sandbox.close();
  }
}

test('Node: an endless loop (or a sort past its budget) is stopped at exactly its budget in units, whatever it catches or rebinds', async () => {
  for (const [name, source] of Object.entries(WORK_SOURCES.endless)) {
    const r = await inSandbox(source, 'f', [], 200);
    assert.equal(r.ok, false, name);
    assert.equal(r.kind, 'timeout', `${name}: ${r.message}`);
    assert.equal(r.work, budget(200), name);
  }
});

// fill's arguments: whole, from an index, from the end, a range, out of range, fractions, NaN and
// infinities, an empty range, strings, undefined (the built-in's own answers are the expected values).
const FILLS = [
  [7],
  [7, 1],
  [7, -2],
  [7, 1, -1],
  [7, -10, 2],
  [7, 2.7, 4.2],
  [7, NaN, Infinity],
  [7, 3, 1],
  [7, '1', '3'],
  [7, undefined, 2],
];

test('Node: a plain array larger than the whole memory budget is refused when filled or made by Array.from (MemoryError, kind memory, its line); smaller ones fill as the built-in does', async () => {
  const source = [
    'function fills(cases) { return cases.map((args) => new Array(5).fill(0).fill(...args)); }',
    'function once() { let n = 0; const at = { valueOf() { n++; return 1; } }; const a = [0, 0, 0].fill(2, at, at); return [n, a.length]; }',
    'function partial() { return new Array(1e8).fill(1, 0, 10).length + Array.from({ length: 3 }).length; }',
    'function filled() {',
    '  return new Array(1e8).fill(0).length;',
    '}',
    'function from() {',
    '  return Array.from({ length: 1e8 }).length;',
    '}',
  ].join('\n');
  assert.deepEqual(
    (await inSandbox(source, 'fills', [FILLS], 1000)).value,
    FILLS.map((args) => new Array(5).fill(0).fill(...args)),
  );
  assert.deepEqual((await inSandbox(source, 'once', [], 1000)).value, [2, 3], 'each argument converted once');
  assert.equal((await inSandbox(source, 'partial', [], 1000)).value, 1e8 + 3, 'what is written counts, not the length');
  for (const [fn, line] of [
    ['filled', 5],
    ['from', 8],
  ]) {
    const r = await inSandbox(source, fn, [], 1000);
    assert.equal(r.kind, 'memory', `${fn}: ${r.message}`);
    assert.match(r.message, /^MemoryError: an array of shape \(100000000,\) needs 763 MiB, more than the 512 MiB/);
    assert.equal(r.line, line, fn);
  }
});

test('Node: a heavy but correct call passes, counting the same units every time', async () => {
  const a = await inSandbox(WORK_SOURCES.heavy, 'f', [], 1000);
  const b = await inSandbox(WORK_SOURCES.heavy, 'f', [], 1000);
  assert.equal(a.ok, true, a.message);
  assert.deepEqual(a.value, b.value);
  assert.equal(a.work, b.work);
  assert.ok(a.work > 1e6 && a.work < budget(1000) / 4, `${a.work} units: heavy, and under a quarter of its budget`);
});

test('reports carry `work`, the same for the same submission; a JavaScript endless function is a timeout by the count', async () => {
  const graded = async (source) => {
    const sandbox = await NodeSandbox.create({ track: js });
    try {
      return await grade({ exercise, source, track: js, sandbox, core, lang: 'en' });
    } finally {
      await sandbox.close();
    }
  };
  const [one, two] = [await graded(WORK_SOURCES.sdpaLoops), await graded(WORK_SOURCES.sdpaLoops)];
  assert.equal(one.status, 'pass');
  assert.ok(Number.isSafeInteger(one.work) && one.work > 0);
  assert.equal(one.work, two.work);
  const endless = await graded(WORK_SOURCES.sdpaEndless);
  const t = endless.tests.find((x) => x.status !== 'pass');
  assert.match(t.message, /ran for 1000 ms without finishing, and again for 2000 ms/);
  // the two calls stopped by the count: exactly 1000 + 2000 ms of budget in units among the work
  assert.ok(endless.work >= budget(3000), `${endless.work}`);
  assert.ok(LIMITS.workBackstop >= 2);
});

test("wire: a reply's work is a safe non-negative integer, or the reply is refused", async () => {
  const { decodeResponse } = await import('../../grader/wire/codec.mjs');
  const ok = (work) => JSON.stringify({ ok: true, value: 1, output: '', work });
  assert.equal(decodeResponse(ok(12)).work, 12);
  assert.equal(decodeResponse(JSON.stringify({ ok: false, kind: 'timeout', message: 'timeout', work: 5 })).work, 5);
  assert.equal('work' in decodeResponse(JSON.stringify({ ok: true, value: 1, output: '' })), false);
  for (const bad of [-1, 1.5, '3', null, 2 ** 60]) {
    const r = decodeResponse(ok(bad));
    assert.deepEqual([r.ok, r.kind, r.reason], [false, 'invalid', 'reply'], String(bad));
  }
});

test('Python ticks: every for (statements and comprehensions), while and function entry ticked, lines and indentation kept, the names refused', () => {
  const src = [
    'def f(n):',
    '    """doc"""',
    '    s = [x * 2 for x in range(n) if x for y in (1, 2)]',
    '    for i, j in zip(s,',
    '                    s):',
    '        while i < 3 and j:',
    '            i += 1',
    '    return {k: v for k, v in d.items()}, sum(x for x in [y for y in s])',
    'def g(x): return x',
    'def h(x):',
    '    if x > (1,',
    '            2)[0]:',
    '        return 1',
    '    t = f"{[x for x in y]}"',
    '    for x in 1, 2: pass',
  ].join('\n');
  const out = tickLoops(src);
  assert.equal(
    out,
    [
      'def f(n):',
      '    __attnlab_te__(); """doc"""',
      '    s = [x * 2 for x in __attnlab_tk__((range(n))) if x for y in __attnlab_tk__(((1, 2)))]',
      '    for i, j in __attnlab_tk__((zip(s,',
      '                    s))):',
      '        while __attnlab_tw__() and (i < 3 and j):',
      '            i += 1',
      '    return {k: v for k, v in __attnlab_tk__((d.items()))}, sum(x for x in __attnlab_tk__(([y for y in __attnlab_tk__((s))])))',
      'def g(x): __attnlab_te__(); return x',
      'def h(x):',
      '    if __attnlab_te__() and (x > (1,',
      '            2)[0]):',
      '        return 1',
      '    t = f"{[x for x in y]}"',
      '    for x in __attnlab_tk__((1, 2)): pass',
    ].join('\n'),
  );
  const p = python.prepareSource(src);
  assert.ok(p.ok);
  assert.equal(p.run, out, 'run: what the hosts load');
  assert.equal(p.source, src, 'source: the student text, for reading');
  assert.equal(p.declarations.split('\n').length, src.split('\n').length);
  for (const name of ['__attnlab_tk__', '__attnlab_tw__', '__attnlab_te__']) {
    const r = python.prepareSource(`x = 1\ndef f():\n    ${name} = 1\n`);
    assert.equal(r.ok, false, name);
    assert.deepEqual([r.error.line, r.error.column], [3, 5]);
    assert.match(r.error.message, /a name the grader uses/);
  }
});

async function inPySandbox(source, fn, args, timeoutMs, sandbox = null) {
  const p = python.prepareSource(source);
  assert.ok(p.ok, p.error?.message);
  const own = !sandbox;
  sandbox ??= await NodeSandbox.create({ track: python });
  try {
    const load = await sandbox.load(p.run, { functions: [fn], timeoutMs: 4000 });
    assert.equal(load.error, null);
    return await sandbox.call(fn, args, { timeoutMs });
  } finally {
    if (own) await sandbox.close();
  }
}

test('Node, Python: an endless loop is stopped at exactly its budget in units, whatever `except` catches; the realm is kept', async () => {
  const budgetPy = (ms) => ms * python.workPerMs;
  for (const [name, source] of Object.entries(PY_WORK_SOURCES.endless)) {
    const sandbox = await NodeSandbox.create({ track: python });
    try {
      const r = await inPySandbox(source, 'f', [], 400, sandbox);
      assert.deepEqual([r.ok, r.kind], [false, 'timeout'], `${name}: ${r.message}`);
      assert.equal(r.work, budgetPy(400), `${name}: ${r.work} units, ${r.cpuMs} ms`);
      const again = await sandbox.call('f', [], { timeoutMs: 200 });
      assert.deepEqual([again.kind, again.work], ['timeout', budgetPy(200)], `${name}: the same realm, again`);
    } finally {
      await sandbox.close();
    }
  }
});

test('Node, Python: a heavy but correct call passes, counting the same units fresh and in a realm that ran other requests', async () => {
  const a = await inPySandbox(PY_WORK_SOURCES.heavy, 'f', [], 4000);
  const sandbox = await NodeSandbox.create({ track: python });
  try {
    await inPySandbox(PY_WORK_SOURCES.endless.np, 'f', [], 100, sandbox);
    await inPySandbox(PY_WORK_SOURCES.solution, 'softmax', [realNp.ones([4, 5])], 1000, sandbox);
    const b = await inPySandbox(PY_WORK_SOURCES.heavy, 'f', [], 4000, sandbox);
    assert.equal(a.ok, true, a.message);
    assert.deepEqual(a.value, b.value);
    assert.equal(a.work, b.work, 'the same units in a warmed realm as in a fresh one');
    assert.ok(a.work > 200000 * TICK_UNITS && a.work < (4000 * python.workPerMs) / 4, `${a.work} units`);
  } finally {
    await sandbox.close();
  }
});

test('reports carry `work` on the Python track too, the same for the same submission; an endless causal_mask is a timeout by the count', async () => {
  const graded = async (source) => {
    const sandbox = await NodeSandbox.create({ track: python });
    try {
      return await grade({ exercise, source, track: python, sandbox, core, lang: 'en' });
    } finally {
      await sandbox.close();
    }
  };
  const [one, two] = [await graded(PY_WORK_SOURCES.sdpaLoops), await graded(PY_WORK_SOURCES.sdpaLoops)];
  assert.equal(one.status, 'pass');
  assert.ok(Number.isSafeInteger(one.work) && one.work > 0);
  assert.equal(one.work, two.work);
  const endless = await graded(PY_WORK_SOURCES.sdpaEndless);
  const t = endless.tests.find((x) => x.status !== 'pass');
  assert.match(t.message, /ran for 4000 ms without finishing, and again for 8000 ms/);
  assert.ok(endless.work >= 12000 * python.workPerMs, `${endless.work}`);
});

test('Node, Python: a tick rebound through globals() is put back at the next request, which counts as before', async () => {
  const src = [
    'def g():',
    "    globals()['__attnlab_' + 'tw__'] = lambda: True",
    '',
    'def f():',
    '    n = 0',
    '    while n < 1000:',
    '        n += 1',
    '    return n',
    '',
  ].join('\n');
  const p = python.prepareSource(src);
  const sandbox = await NodeSandbox.create({ track: python });
  try {
    await sandbox.load(p.run, { functions: ['f', 'g'], timeoutMs: 4000 });
    const before = await sandbox.call('f', [], { timeoutMs: 1000 });
    assert.equal((await sandbox.call('g', [], { timeoutMs: 1000 })).ok, true);
    const after = await sandbox.call('f', [], { timeoutMs: 1000 });
    assert.deepEqual([after.value, after.work], [before.value, before.work]);
    assert.ok(before.work >= 1000 * TICK_UNITS, `${before.work}`);
  } finally {
    await sandbox.close();
  }
});
