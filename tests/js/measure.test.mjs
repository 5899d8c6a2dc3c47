// Measuring what a call into student code builds (grader/tracks/measure.mjs over np's creation hook,
// grader/np/index.mjs watchArrays): new buffers counted, views and arguments not, the largest array
// with the student's line in both tracks (JavaScript from the stack, Python by a second run stopped at
// that array), the reply checked by the wire's decoder, and ctx.measure in a pack's test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import np, { watchArrays } from '../../grader/np/index.mjs';
import { measureCall, noteBuffer, noteList } from '../../grader/tracks/measure.mjs';
import { createOutput } from '../../grader/tracks/guest-kit.mjs';
import { decodeResponse } from '../../grader/wire/codec.mjs';
import { toWire } from '../../grader/core/tensor.mjs';
import { NodeSandbox } from '../../grader/hosts/node/sandbox.mjs';
import { TRACKS } from '../../grader/tracks/index.mjs';

const isReal = np.ndarray.parts;

test('np: the creation hook sees every array while watched, nothing after', () => {
  const seen = [];
  const a = np.ones([2, 3]);
  watchArrays(
    (data, shape, dtype) => seen.push([shape.join('x'), dtype, data.length]),
    () => {
      np.add(a, 1);
      np.reshape(a, [3, 2]); // a view: seen by the hook, with a's data
    },
  );
  np.zeros([5]);
  assert.deepEqual(
    seen.map((s) => s[0]),
    ['2x3', '3x2'],
  );
});

test('measureCall: new buffers counted, views and arguments not; the largest with its line', () => {
  const Q = np.ones([4, 8]),
    K = np.ones([6, 8]);
  const output = createOutput();
  const run = () => {
    const flat = np.reshape(Q, [-1]); // a view of an argument
    const s = np.matmul(Q, np.swapaxes(K, -1, -2)); // swapaxes copies here: (8, 6), then s (4, 6)
    np.expand_dims(s, 0); // a view of s
    return { ok: true, value: flat.size + s.size };
  };
  const res = measureCall(run, { args: [Q, K], isReal, lineOf: () => 7, output });
  assert.equal(res.ok, true);
  assert.deepEqual(
    { ...res.measured, kept: undefined },
    {
      arrays: 2,
      bytes: (48 + 24) * 8,
      largest: { shape: [8, 6], dtype: 'float64', bytes: 384, line: 7 },
      kept: undefined,
    },
  );
  // The swapped copy's last use is matmul reading it, before s is made: one of them alive at a time.
  assert.deepEqual(res.measured.kept.np, { bytes: 48 * 8, line: 7, loaded: 0 });
});

test('measureCall: without a line, a largest array over the limit is found by a second run stopped there', () => {
  const output = createOutput();
  let runs = 0;
  const run = () => {
    runs++;
    output.write(`run ${runs}\n`);
    try {
      np.ones([3]);
      np.ones([10, 10]); // the largest: array 1
      np.ones([4]);
      return { ok: true, value: 1 };
    } catch (e) {
      return { ok: false, kind: 'error', message: String(e), line: e.name === 'MeasureStop' ? 12 : null };
    }
  };
  const res = measureCall(run, { limit: 50, args: [], isReal, output });
  assert.equal(runs, 2);
  assert.deepEqual(res.measured.largest, { shape: [10, 10], dtype: 'float64', bytes: 800, line: 12 });
  assert.equal(res.measured.arrays, 3);
  assert.equal(output.take(), 'run 1\n', 'the second run prints nothing');
  // A cache the first run filled (one array fewer the second time) does not shift the stop.
  let cached = false;
  const withCache = () => {
    try {
      if (!cached) {
        np.ones([2]);
        cached = true;
      }
      np.ones([10, 10]);
      return { ok: true, value: 1 };
    } catch (e) {
      return { ok: false, kind: 'error', message: String(e), line: e.name === 'MeasureStop' ? 21 : null };
    }
  };
  assert.equal(measureCall(withCache, { limit: 50, args: [], isReal, output }).measured.largest.line, 21);
  // Under the limit: no second run, no line.
  runs = 0;
  assert.equal(measureCall(run, { limit: 100, args: [], isReal, output }).measured.largest.line, null);
  assert.equal(runs, 1);
});

test('wire: a measured reply is checked field by field', () => {
  const reply = (measured) => JSON.stringify({ ok: true, value: 1, output: '', measured });
  const none = { bytes: 0, line: null };
  const kept = { np: { bytes: 32, line: 3, loaded: 16 }, typed: none, lists: { bytes: 8, line: 4 }, heap: none };
  const good = { arrays: 2, bytes: 16, largest: { shape: [2, 1], dtype: 'float64', bytes: 16, line: 3 }, kept };
  assert.deepEqual(decodeResponse(reply(good)).measured, good);
  assert.deepEqual(decodeResponse(reply({ arrays: 0, bytes: 0, largest: null, kept })).measured, {
    arrays: 0,
    bytes: 0,
    largest: null,
    kept,
  });
  for (const bad of [
    { arrays: -1, bytes: 0, largest: null, kept },
    { arrays: 0, bytes: 0, largest: null },
    { arrays: 0, bytes: 0, largest: null, kept: { ...kept, heap: { bytes: -1, line: null } } },
    { arrays: 0, bytes: 0, largest: null, kept: { ...kept, np: { bytes: 8, line: null, loaded: 9 } } },
    { arrays: 0, bytes: 0, largest: null, kept: { ...kept, typed: { bytes: 8, line: null, loaded: 0 } } },
    { arrays: 0, bytes: 0, largest: null, kept: { ...kept, extra: none } },
    { arrays: 1, bytes: 0, largest: { shape: 'x', dtype: 'float64', bytes: 0, line: 1 } },
    { ...good, extra: 1 },
    { arrays: 1, bytes: 8, largest: { ...good.largest, line: 0 } },
    { arrays: 1, bytes: 8, largest: { ...good.largest, dtype: 'float32' } },
  ]) {
    const r = decodeResponse(reply(bad));
    assert.equal(r.ok, false);
    assert.equal(r.reason, 'reply');
  }
});

test('kept.np: arrays alive from their making to their last use, arrays made before the call from its start', () => {
  const output = createOutput();
  const Q = np.ones([4, 8]);
  const before = np.zeros([16, 8]); // made "at load time"
  const unit = 32 * 8;
  // Four blocks of Q's size, each dropped after one use: one or two alive at once.
  const dropped = () => {
    let acc = np.zeros([4, 8]);
    for (let b = 0; b < 4; b++) acc = np.add(acc, np.multiply(Q, b));
    return { ok: true, value: acc.size };
  };
  // The same blocks kept in a list for a second pass: all four alive at once.
  const keptBlocks = () => {
    const blocks = [];
    for (let b = 0; b < 4; b++) blocks.push(np.multiply(Q, b));
    let acc = np.zeros([4, 8]);
    for (const x of blocks) acc = np.add(acc, x);
    return { ok: true, value: acc.size };
  };
  // An array made before the call, filled and read in it: alive for the whole call.
  const filled = () => {
    np.setitem(before, np.slice(0, 4), np.slice(null), Q);
    return { ok: true, value: np.sum(before.getitem(np.slice(0, 4))) };
  };
  const peak = (run) => measureCall(run, { args: [Q], isReal, output }).measured.kept.np;
  assert.ok(peak(dropped).bytes <= 3 * unit, JSON.stringify(peak(dropped)));
  assert.ok(peak(keptBlocks).bytes >= 5 * unit, JSON.stringify(peak(keptBlocks)));
  const f = peak(filled);
  assert.equal(f.loaded, before.data.byteLength);
  assert.ok(f.bytes >= before.data.byteLength && f.bytes < before.data.byteLength + 2 * unit, JSON.stringify(f));
  assert.equal(peak(() => ({ ok: true, value: 1 })).bytes, 0, 'nothing touched, nothing kept');
});

test('kept.typed and kept.lists: what the guest noted, np buffers told apart, structures walked once', () => {
  const output = createOutput();
  const run = () => {
    const a = np.ones([10]); // np's: not a typed array of the call's own
    noteBuffer(a.data);
    const own = new Float64Array(40);
    noteBuffer(own);
    noteBuffer(new ArrayBuffer(16));
    const rows = [];
    for (let i = 0; i < 3; i++) rows.push(new Array(5).fill(i));
    noteList(rows);
    noteList(rows); // once
    noteList(rows[0]);
    return { ok: true, value: 1 };
  };
  const { kept } = measureCall(run, { isReal, lineOf: () => 9, output }).measured;
  assert.deepEqual(kept.typed, { bytes: 320, line: 9 });
  assert.deepEqual(kept.lists, { bytes: 8 * (3 + 15), line: 9 });
  noteList([1, 2]); // unmeasured: nothing happens
});

const T = 64,
  d = 8;
const input = (shape, k) => ({
  data: Float64Array.from({ length: shape[0] * shape[1] }, (_, i) => Math.sin(i * k)),
  shape,
  dtype: 'float64',
});
const ARGS = [input([T, d], 1), input([T, d], 2), input([T, d], 3)].map(toWire);
const SOURCES = {
  js: [
    'function naive(Q, K, V) {',
    '  const flat = np.reshape(Q, [-1]);',
    '  const s = np.divide(np.matmul(Q, np.swapaxes(K, -1, -2)), 8);',
    '  const w = np.exp(np.subtract(s, np.max(s, -1, true)));',
    '  return np.matmul(np.divide(w, np.sum(w, -1, true)), V);',
    '}',
    'function rows(Q, K, V) {',
    '  const out = np.zeros(Q.shape);',
    '  for (let i = 0; i < Q.shape[0]; i++) out.set(i, np.matmul(Q.get(i), V.getitem(np.slice(0, 8), np.slice(null))));',
    '  return out;',
    '}',
    'function held(Q, K, V) {',
    '  const n = 4 * Q.shape[0];',
    '  const S = new Float64Array(n * n);',
    '  const rows = [];',
    '  for (let i = 0; i < n; i++) {',
    '    const row = [];',
    '    for (let j = 0; j < n; j++) row.push(j);',
    '    rows.push(row);',
    '  }',
    '  return S.length + rows.length;',
    '}',
  ].join('\n'),
  python: [
    'import numpy as np',
    'def naive(Q, K, V):',
    '    flat = Q.reshape(-1)',
    '    s = Q @ K.T / 8',
    '    w = np.exp(s - s.max(axis=-1, keepdims=True))',
    '    return (w / w.sum(axis=-1, keepdims=True)) @ V',
    'def rows(Q, K, V):',
    '    out = np.zeros(Q.shape)',
    '    for i in range(Q.shape[0]):',
    '        out[i] = Q[i] @ V[:8]',
    '    return out',
    'def held(Q, K, V):',
    '    n = 4 * Q.shape[0]',
    '    rows = [[float(j) for j in range(n)] for i in range(n)]',
    '    return len(rows)',
    'def loop(Q, K, V):',
    '    for i in range(2000):',
    '        x = Q + 1',
    '        y = Q.max()',
    '    return 1',
  ].join('\n'),
};

for (const track of [TRACKS.js, TRACKS.python]) {
  test(`${track.name}: the naive attention's (T, T) scores are named with their line; a row loop builds nothing that large`, async () => {
    const sb = await NodeSandbox.create({ track });
    try {
      const load = await sb.load(SOURCES[track.name], { functions: ['naive', 'rows', 'held'], timeoutMs: 5000 });
      assert.deepEqual(load.functions.sort(), ['held', 'naive', 'rows']);
      const naive = await sb.call('naive', ARGS, { timeoutMs: 20000, measure: { limit: T * d } });
      assert.equal(naive.ok, true, naive.message);
      assert.deepEqual(naive.measured.largest, {
        shape: [T, T],
        dtype: 'float64',
        bytes: T * T * 8,
        line: track.name === 'js' ? 3 : 4,
      });
      assert.ok(naive.measured.bytes >= 4 * T * T * 8, `every (T, T) array is counted: ${naive.measured.bytes}`);
      const rows = await sb.call('rows', ARGS, { timeoutMs: 20000, measure: { limit: T * d } });
      assert.equal(rows.ok, true, rows.message);
      assert.ok(rows.measured.largest.shape.reduce((a, b) => a * b) <= T * d, JSON.stringify(rows.measured.largest));
      assert.ok(rows.measured.arrays >= T, 'each row builds arrays of its own');
      // What the calls keep at once: the naive one a (T, T) array (each of its (T, T) temporaries is
      // dropped once the next is made from it), the row loop out and one row's worth.
      assert.ok(naive.measured.kept.np.bytes >= T * T * 8, JSON.stringify(naive.measured.kept));
      assert.ok(rows.measured.kept.np.bytes <= 4 * T * d * 8, JSON.stringify(rows.measured.kept));
      // An (n, n) matrix outside np, n = 4T: a typed array and plain arrays (JavaScript), Python lists of floats.
      const held = await sb.call('held', ARGS, { timeoutMs: 20000, measure: { limit: T * d } });
      assert.equal(held.ok, true, held.message);
      const k = held.measured.kept,
        n = 4 * T;
      if (track.name === 'js') {
        assert.deepEqual(k.typed, { bytes: n * n * 8, line: 14 });
        // The outer list reaches LIST_MIN (n) at its last push: noted there, with every row it holds.
        assert.deepEqual(k.lists, { bytes: (n + n * n) * 8, line: 19 });
        assert.equal(k.heap.bytes, 0);
      } else {
        assert.ok(k.heap.bytes >= n * n * 16, JSON.stringify(k)); // a float object and a slot each
        assert.equal(k.typed.bytes + k.lists.bytes, 0);
        // What the interpreter's glue keeps for each call into numpy is not the student's: a loop of
        // 4000 calls that keeps nothing keeps (almost) nothing.
        const loop = await sb.call('loop', ARGS, { timeoutMs: 60000, measure: { limit: T * d } });
        assert.equal(loop.ok, true, loop.message);
        assert.ok(loop.measured.kept.heap.bytes < 16384, JSON.stringify(loop.measured.kept));
      }
      const plain = await sb.call('naive', ARGS, { timeoutMs: 20000 });
      assert.equal(plain.measured, undefined, 'nothing measured unless asked');
    } finally {
      await sb.close();
    }
  });
}

test("grade(): ctx.measure in a test, a test's own timeout_ms, --timeout-ms over both, and a function confirmed endless not called again", async () => {
  const { grade } = await import('../../grader/core/grade.mjs');
  const spec = {
    slug: 'probe',
    functions: ['scores', 'spin', 'spin2'],
    seed: 1,
    timeout_ms: 100,
    tasks: [],
    tests: [
      { id: 'measured', task_id: 1, name: { en: 'm', ru: 'm' }, test_code: '' },
      { id: 'pack_limit', task_id: 1, name: { en: 'p', ru: 'p' }, test_code: '' },
      { id: 'own_limit', task_id: 1, name: { en: 'o', ru: 'o' }, test_code: '', timeout_ms: 300 },
      { id: 'again', task_id: 1, name: { en: 'a', ru: 'а' }, test_code: '' },
    ],
  };
  const seen = {};
  const suite = {
    async measured(ctx) {
      seen.m = await ctx.measure('scores', [{ data: new Float64Array(12), shape: [3, 4], dtype: 'float64' }], {
        limit: 4,
      });
    },
    async pack_limit(ctx) {
      await ctx.call('spin');
    },
    async own_limit(ctx) {
      await ctx.call('spin2');
    },
    async again(ctx) {
      await ctx.call('spin'); // confirmed endless in pack_limit: not called again
    },
  };
  const source =
    'function scores(x) {\n  const s = np.matmul(x, np.swapaxes(x, 0, 1));\n  return 1;\n}\nfunction spin() { for (;;) {} }\nfunction spin2() { for (;;) {} }\n';
  const run = async (timeoutMs) => {
    const sandbox = await NodeSandbox.create({ track: TRACKS.js });
    try {
      return await grade({
        exercise: { spec, suite, messages: {} },
        source,
        track: TRACKS.js,
        sandbox,
        core: { flavour: 'baseline' },
        lang: 'en',
        timeoutMs,
      });
    } finally {
      await sandbox.close();
    }
  };
  const r = await run(undefined);
  assert.deepEqual(seen.m.value, 1);
  assert.deepEqual([seen.m.arrays, seen.m.largest.shape, seen.m.largest.line], [2, [4, 3], 2]); // swapaxes copies (4, 3), then s (3, 3)
  assert.match(r.tests[1].message, /ran for 100 ms without finishing, and again for 200 ms/);
  assert.match(r.tests[2].message, /ran for 300 ms without finishing, and again for 600 ms/);
  assert.deepEqual(
    [r.tests[3].status, r.tests[3].message],
    [
      'error',
      'Not run: `spin` did not finish in the test “p”, so it is not called again (look for a loop that never ends).',
    ],
  );
  const given = await run(150);
  assert.match(given.tests[1].message, /ran for 150 ms without finishing/);
  assert.match(given.tests[2].message, /ran for 150 ms without finishing/);
  assert.match(given.tests[3].message, /^Not run: `spin` did not finish/);
});
