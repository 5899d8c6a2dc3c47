// The grader's own contract: CLI arguments, formats and exit codes (DESIGN.md), source preparation,
// the comparison rules, and the conversion of student values into arrays.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli } from './cli.mjs';
import { writeFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareSource } from '../../grader/tracks/js/source.mjs';
import { compare } from '../../grader/core/compare.mjs';
import { toTensor, reverseAxes, swapLast2, tensor } from '../../grader/core/tensor.mjs';

const SOLUTION = new URL('../../exercises/sdpa/solution.js', import.meta.url).pathname;
const STARTER = new URL('../../exercises/sdpa/starter.js', import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), 'attnlab-'));
// SwiftShader (from Debian's chromium) is the GPU of these machines unless the caller chose another.
const file = (name, text) => {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
};

test('solution: 7/7, exit 0, a valid Exercism v3 document with status pass', () => {
  const r = cli('grade', SOLUTION, '--format', 'json');
  assert.equal(r.status, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  assert.equal(doc.version, 3);
  assert.equal(doc.status, 'pass');
  assert.equal(doc.message, undefined);
  assert.deepEqual(doc.tests.map((t) => t.name).length, 7);
  for (const t of doc.tests) {
    assert.equal(t.status, 'pass');
    assert.equal(typeof t.test_code, 'string');
    assert.ok([1, 2, 3, 4].includes(t.task_id));
  }
});

test('starter: status fail, every test says not implemented, no stack trace, exit 1', () => {
  const r = cli('grade', STARTER, '--format', 'json', '--lang', 'en');
  assert.equal(r.status, 1);
  const doc = JSON.parse(r.stdout);
  assert.equal(doc.status, 'fail');
  for (const t of doc.tests) {
    assert.equal(t.status, 'fail');
    assert.match(t.message, /not implemented/);
    assert.doesNotMatch(t.message, /\bat .*:\d+:\d+/);
  }
});

test('text report: Russian by default, names the seed; --lang en switches', () => {
  const ru = cli('grade', SOLUTION);
  assert.equal(ru.status, 0);
  assert.match(ru.stdout, /Пройдено тестов: 7 из 7/);
  assert.match(ru.stdout, /сид 2017/);
  assert.doesNotMatch(ru.stdout, /\x1b\[/, 'no colour when stdout is not a terminal');
  const en = cli('grade', SOLUTION, '--lang', 'en', '--seed', '5');
  assert.match(en.stdout, /\n7 of 7 tests passed \(seed 5\)\n$/, 'the summary line names no backend');
  assert.match(
    cli('grade', SOLUTION, '--lang', 'en', '--seed', '5', '--verbose').stdout,
    /7 of 7 tests passed \(seed 5; fast path simd\)/,
  );
});

test('gradescope: per-test score and max_score, total score', () => {
  const r = cli('grade', STARTER, '--format', 'gradescope');
  const doc = JSON.parse(r.stdout);
  assert.equal(doc.score, 0);
  assert.equal(doc.tests.length, 7);
  for (const t of doc.tests) {
    assert.equal(t.max_score, 1);
    assert.equal(t.score, 0);
    assert.equal(t.status, 'failed');
  }
  const ok = JSON.parse(cli('grade', SOLUTION, '--format', 'gradescope').stdout);
  assert.equal(ok.score, 7);
});

test('--backend picks the fast path of the large hidden case: plain WASM, and WebGPU (SwiftShader)', () => {
  const wasm = cli('grade', SOLUTION, '--lang', 'en', '--backend', 'wasm', '--verbose');
  assert.equal(wasm.status, 0, wasm.stdout + wasm.stderr);
  assert.match(wasm.stdout, /7 of 7 tests passed \(seed 2017; fast path wasm\)/);
  const gpu = cli('grade', SOLUTION, '--lang', 'en', '--backend', 'webgpu', '--verbose');
  assert.equal(gpu.status, 0, gpu.stdout + gpu.stderr);
  assert.match(gpu.stdout, /fast path webgpu\)/);
});

test('syntax error: status error with line and column, exit 1', () => {
  // the parser stops at line 3's `}`; the mistake is np.tril's `(` on line 2, column 17, never closed
  const p = file('syntax.js', 'function causal_mask(T) {\n  return np.tril(np.ones([T, T])\n}\n');
  const r = cli('grade', p, '--format', 'json', '--lang', 'en');
  assert.equal(r.status, 1);
  const doc = JSON.parse(r.stdout);
  assert.equal(doc.status, 'error');
  assert.match(doc.message, /line 2, column 17: this `\(` is never closed/);
});

test('bad invocations exit 2 with a message on stderr', () => {
  for (const args of [
    [],
    ['grade'],
    ['grade', join(tmp, 'missing.js')],
    ['grade', SOLUTION, '--format', 'xml'],
    ['grade', SOLUTION, '--lang', 'de'],
    ['grade', SOLUTION, '--seed', 'abc'],
    ['grade', SOLUTION, '--exercise', 'nope'],
    ['grade', SOLUTION, '--bogus'],
    ['frobnicate', SOLUTION],
    ['grade', SOLUTION, '--backend', 'cuda'],
  ]) {
    const r = cli(...args);
    assert.equal(r.status, 2, `${args.join(' ')} → ${r.status}`);
    assert.match(r.stderr, /attnlab: .+\n/);
    assert.equal(r.stdout, '');
  }
});

test('a top-level error while loading is reported, and functions declared before it still grade', () => {
  const src = readFileSync(SOLUTION, 'utf8') + '\nprint(undefinedThing.shape)\n';
  const r = cli('grade', file('toplevel.js', src), '--lang', 'en');
  assert.equal(r.status, 0);
  assert.match(r.stdout, /stopped with an error at line \d+: ReferenceError: undefinedThing is not defined/);
});

test('export, export default and arrow functions in const are all found', () => {
  const src = readFileSync(SOLUTION, 'utf8')
    .replace('function causal_mask(T)', 'export function causal_mask(T)')
    .replace('function softmax(x) {', 'export const softmax = (x) => {')
    .replace(/\n}\n\nfunction attention/, '\n};\n\nfunction attention');
  const r = cli('grade', file('exports.js', src), '--lang', 'en');
  assert.equal(r.status, 0, r.stdout);
});

test('prepareSource: exports blanked in place, imports refused with their position', () => {
  const p = prepareSource('export function f() {}\nexport default function g() {}\nconst h = 1;\nexport { h };\n');
  assert.equal(p.ok, true);
  assert.equal(p.source, '       function f() {}\n               function g() {}\nconst h = 1;\n             \n');
  const i = prepareSource('\n  import x from "numpy";\n');
  assert.deepEqual({ ok: i.ok, line: i.error.line, column: i.error.column }, { ok: false, line: 2, column: 3 });
  assert.ok(
    prepareSource('const a = 010; function f(x) { return arguments.callee; }').ok,
    'sloppy-only code is accepted as a script',
  );
  // `with` is sloppy-only too, but refused: its object could stand in for the work count's ticks (tests/js/work.test.mjs)
});

test('compare: allclose tolerance, NaN never equal, infinities must match in sign, shape and dtype first', () => {
  const f = (a, shape = [a.length]) => tensor(Float64Array.from(a), shape);
  assert.ok(compare(f([1, 2]), f([1 + 1e-6, 2])).ok);
  assert.equal(compare(f([1, 2]), f([1.001, 2])).reason, 'values');
  assert.equal(compare(f([NaN]), f([NaN])).ok, false);
  assert.equal(compare(f([NaN]), f([NaN]), { equalNan: true }).ok, true);
  assert.equal(compare(f([-Infinity]), f([-Infinity])).ok, true);
  assert.equal(compare(f([Infinity]), f([-Infinity])).ok, false);
  assert.equal(compare(f([Infinity, 0]), f([1, 0])).reason, 'nonfinite');
  assert.equal(compare(f([1, 2]), f([1, 2], [2, 1])).reason, 'shape');
  assert.equal(compare(tensor(Uint8Array.of(1), [1], 'bool'), f([1])).reason, 'dtype');
  const r = compare(f([0, 0, 0, 5], [2, 2]), f([0, 0, 1, 1], [2, 2]));
  assert.deepEqual([r.index, r.count, r.maxAbsErr], [[1, 0], 2, 4]);
});

test('toTensor: nested lists, np arrays inside lists, and the ways a value is not an array', () => {
  assert.deepEqual(
    toTensor([
      [1, 2],
      [3, 4],
    ]).tensor.shape,
    [2, 2],
  );
  assert.equal(toTensor([[true, false]]).tensor.dtype, 'bool');
  const nd = { $array: { dtype: 'float64', shape: [2], data: [1, 2] } };
  assert.deepEqual(Array.from(toTensor([nd, nd]).tensor.data), [1, 2, 1, 2]);
  assert.equal(toTensor([[1, 2], [3]]).error, 'ragged');
  assert.equal(toTensor([1, true]).error, 'mixed');
  assert.equal(toTensor(['a']).error, 'element');
  assert.equal(toTensor({ $other: 'Map' }).error, 'not-array');
});

test('axis moves: .T reverses every axis, swapLast2 only the last two', () => {
  const t = tensor(
    Float64Array.from({ length: 24 }, (_, i) => i),
    [2, 3, 4],
  );
  const r = reverseAxes(t);
  assert.deepEqual(r.shape, [4, 3, 2]);
  assert.equal(r.data[1 * 6 + 2 * 2 + 1], t.data[1 * 12 + 2 * 4 + 1]); // r[1,2,1] = t[1,2,1]
  const s = swapLast2(t);
  assert.deepEqual(s.shape, [2, 4, 3]);
  assert.equal(s.data[1 * 12 + 3 * 3 + 2], t.data[1 * 12 + 2 * 4 + 3]); // s[1,3,2] = t[1,2,3]
});

test("an explained np error: English keeps NumPy's words, Russian gives the type and line and explains in Russian", () => {
  const sub = new URL('../../exercises/sdpa/fixtures/softmax-no-keepdims/submission.js', import.meta.url).pathname;
  const msg = (lang) =>
    JSON.parse(cli('grade', sub, '--format', 'json', '--lang', lang).stdout).tests.find((t) =>
      t.name.startsWith('Softmax'),
    ).message;
  const en = msg('en'),
    ru = msg('ru');
  assert.match(
    en,
    /ValueError: subtract: operands could not be broadcast together with shapes \(4,5\) \(4,\)\. A max or sum lost its axis/,
  );
  assert.match(ru, /^В `softmax` возникла ошибка ValueError \(строка \d+\)\. У максимума или суммы пропала ось/);
  // No English word left: only code spans, shapes, the error's type and NumPy's names.
  assert.doesNotMatch(ru.replace(/`[^`]*`/g, '').replace(/ValueError/g, ''), /[A-Za-z]{3,}/);
});

// grade()'s onTest (the page's progress): each entry as it is graded, in order, and which earlier test
// a "same cause" / "same error" reference points to (flash's scale-twice fixture says one cause in
// several tests: its expected_results.json).
test('grade(): onTest sees every entry in order, with sameAs naming the test a reference points to', async () => {
  const [{ grade }, { loadExercise }, { NodeSandbox }, { loadCore }, { TRACKS }, { say }] = await Promise.all([
    import('../../grader/core/grade.mjs'),
    import('../../grader/hosts/node/exercise.mjs'),
    import('../../grader/hosts/node/sandbox.mjs'),
    import('../../wasm/index.mjs'),
    import('../../grader/tracks/index.mjs'),
    import('../../grader/core/messages.mjs'),
  ]);
  const root = new URL('../../exercises/flash/', import.meta.url).pathname;
  const exercise = await loadExercise('flash');
  const source = readFileSync(join(root, 'fixtures/scale-twice/submission.js'), 'utf8');
  const sandbox = await NodeSandbox.create({ track: TRACKS.js });
  const seen = [];
  let report;
  try {
    report = await grade({
      exercise,
      source,
      track: TRACKS.js,
      sandbox,
      core: await loadCore(),
      lang: 'en',
      onTest: (e, info) => seen.push({ e, ...info }),
    });
  } finally {
    await sandbox.close();
  }
  assert.deepEqual(
    seen.map((s) => s.e),
    report.tests,
  );
  assert.deepEqual(
    seen.map((s) => s.index),
    report.tests.map((_, i) => i),
  );
  const [before, after] = say('en', 'cause.same', { test: '\0' }).split('\0');
  const referring = seen.filter((s) => s.e.message?.includes(before));
  assert.ok(referring.length >= 1, 'the fixture has a cause said once and referred to');
  for (const s of seen) {
    const quoted = s.e.message?.includes(before) ? s.e.message.split(before)[1].split(after)[0] : null;
    if (!quoted) {
      assert.equal(s.sameAs, null, s.e.id);
      continue;
    }
    const first = report.tests.findIndex((x) => x.name === quoted);
    assert.ok(first >= 0 && first < s.index, `${s.e.id} refers to an earlier test`);
    assert.equal(s.sameAs, report.tests[first].id, s.e.id);
  }
});

// Billing (grader/hosts/node/sandbox.mjs): a call that needs a new child is billed the reload it
// caused (here a top level that works ~0.6 s of CPU here: 6 times the floor asserted, so that a faster
// machine still reads it above the 10 ms ticks' noise), a call in the same child only its own work; the
// CPU time is the whole child's. An accounting check (the same work on both sides), not a speed one.
test('NodeSandbox bills a call the reload into a new child it needed, and only its own work otherwise', async () => {
  const [{ NodeSandbox }, { TRACKS }] = await Promise.all([
    import('../../grader/hosts/node/sandbox.mjs'),
    import('../../grader/tracks/index.mjs'),
  ]);
  const source = `let s = 0;
for (let i = 0; i < 6e8; i++) s += i % 7;
function f(x) { return x + 1; }`;
  const sandbox = await NodeSandbox.create({ track: TRACKS.js });
  try {
    if (sandbox.clock !== 'cpu') return; // no /proc: the wall clock is billed, nothing to compare
    const load = await sandbox.load(source, { functions: ['f'], timeoutMs: 60000 });
    assert.equal(load.ok, true);
    // what its start resolved to, not a promise of it: a request sent at once relies on it (its pid known)
    assert.equal(sandbox.child.isReady, true);
    assert.ok(load.cpuMs >= 100, `the top level's work is billed to the load (${load.cpuMs} ms)`);
    const same = await sandbox.call('f', [1], { timeoutMs: 60000 });
    assert.deepEqual([same.ok, same.value], [true, 2]);
    const fresh = await sandbox.call('f', [2], { timeoutMs: 60000, fresh: true });
    assert.deepEqual([fresh.ok, fresh.value, sandbox.processes], [true, 3, 2]);
    assert.ok(fresh.cpuMs >= load.cpuMs / 2, `the reload is billed to the call (${fresh.cpuMs} of ${load.cpuMs} ms)`);
    assert.ok(same.cpuMs < load.cpuMs / 2, `a call in the same child is billed its own work (${same.cpuMs} ms)`);
  } finally {
    await sandbox.close();
  }
});
