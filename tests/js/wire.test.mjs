// The sandbox boundary's codec (grader/wire/codec.mjs): the trusted side's decoder fed raw replies
// that no honest guest sends (the attack fixtures cannot reach it once the guest encodes safely), and
// the guest's encoder fed forged values; packed arrays both ways.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  PACK_MIN,
  decodeResponse,
  decodeRequest,
  encodeRequest,
  encodeValue,
  InvalidValue,
} from '../../grader/wire/codec.mjs';
import { LIMITS } from '../../grader/limits.mjs';
import np, { NDArray } from '../../grader/np/index.mjs';

const reply = (value, extra = {}) => JSON.stringify({ ok: true, value, output: '', ...extra });
const nd = (o) => ({ $array: { dtype: 'float64', shape: [2], data: [1, 2], ...o } });
const rejected = (text, opts) => {
  const r = decodeResponse(text, opts);
  assert.deepEqual([r.ok, r.kind, r.reason], [false, 'invalid', 'reply'], `accepted: ${text.slice(0, 120)}`);
};

test('decodeResponse: a well-formed array comes back as typed data of exactly its shape', () => {
  const r = decodeResponse(
    reply([
      nd({}),
      { $array: { dtype: 'bool', shape: [1, 2], data: [true, false] } },
      { $number: '-Infinity' },
      null,
      'hi',
    ]),
  );
  assert.equal(r.ok, true);
  const [a, b, inf, n, s] = r.value;
  assert.ok(a.$array.data instanceof Float64Array);
  assert.deepEqual([...a.$array.data], [1, 2]);
  assert.ok(b.$array.data instanceof Uint8Array);
  assert.deepEqual([...b.$array.data], [1, 0]);
  assert.deepEqual([inf, n, s], [-Infinity, null, 'hi']);
});

test('decodeResponse: every malformed array is refused before anything is allocated', () => {
  for (const bad of [
    nd({ shape: null }),
    nd({ shape: 7 }),
    nd({ shape: [-2] }),
    nd({ shape: [1.5] }),
    nd({ shape: ['2'] }),
    nd({ shape: [2 ** 30, 2 ** 30] }),
    nd({ shape: [3] }),
    nd({ data: { length: 2 } }),
    nd({ data: '12' }),
    nd({ data: [1, '2'] }),
    nd({ data: [1, { $number: 'bogus' }] }),
    nd({ dtype: 'float32' }),
    nd({ extra: 1 }),
    { $array: { dtype: 'bool', shape: [2], data: [1, 0] } },
    { $array: null },
    { $array: nd({}).$array, more: 1 },
    { $number: 'Infinity', x: 1 },
    { $number: 'inf' },
    { $undef: false },
    { $other: 'Map' },
    { anything: 1 },
    Array.from({ length: LIMITS.depth + 2 }).reduce((v) => [v], 1),
  ])
    rejected(reply(bad));
});

test('decodeResponse: the element budget holds across the whole value', () => {
  const half = {
    $array: { dtype: 'float64', shape: [LIMITS.elements / 2 + 1], data: new Array(LIMITS.elements / 2 + 1).fill(0) },
  };
  rejected(reply([half, half]));
});

test('decodeResponse: replies that are not responses are refused', () => {
  for (const text of [
    '',
    'not json',
    '[]',
    '{"ok":"yes"}',
    '{"ok":true}',
    '{"ok":false,"kind":"explode"}',
    '{"ok":false,"kind":"error","line":-1}',
    '{"ok":false,"kind":"invalid","reason":"nope"}',
    'null',
  ])
    rejected(text);
  rejected(JSON.stringify({ ok: true, functions: ['softmax', 'evil'], error: null }), { functions: ['softmax'] });
});

test('decodeResponse: student text is capped between code points, well-formed, escaped and without host frames', () => {
  const long = '😀'.repeat(LIMITS.message); // 2 units each: the cap falls on a pair boundary or inside one
  const r = decodeResponse(
    JSON.stringify({
      ok: false,
      kind: 'error',
      message: `x${long}`,
      output: 'a\x1b[2Jb\uD800c\n    at f (file:///work/main/grader/x.mjs:1:2)\n    at g (submission.js:3:4)',
    }),
  );
  assert.ok(r.message.length <= LIMITS.message);
  assert.ok(r.message.isWellFormed());
  assert.equal(r.output, 'a\\x1b[2Jb\uFFFDc\n    at g (submission.js:3:4)');
});

test('encodeValue: a forged np array, a Proxy and replaced internals cannot choose the wire format', () => {
  const enc = (v) => encodeValue(v, NDArray.parts);
  const fake = Object.create(NDArray.prototype);
  Object.assign(fake, { dtype: 'float64', shape: [1], data: { length: 2e8 } });
  assert.deepEqual(enc(fake), { $other: 'object' }, 'NDArray.prototype without the brand is an object');
  assert.deepEqual(enc(new Proxy(np.zeros([2]), {})), { $other: 'object' }, 'a Proxy carries no brand');
  const replaced = np.zeros([2]);
  replaced.data = { length: 2e8 };
  assert.throws(
    () => enc(replaced),
    (e) => e instanceof InvalidValue && e.reason === 'ndarray',
  );
  const lying = np.zeros([2]);
  lying.shape = [3];
  assert.throws(
    () => enc(lying),
    (e) => e instanceof InvalidValue && e.reason === 'ndarray',
  );
  const mapped = [1, 2];
  mapped.map = () => ({ $array: { data: { length: 2e8 } } });
  mapped.toJSON = () => 'forged';
  assert.deepEqual(enc(mapped), [1, 2]);
  assert.throws(
    () => enc(new Array(2 ** 32 - 1)),
    (e) => e.reason === 'too_long' && e.detail === 2 ** 32 - 1,
  );
  assert.deepEqual(
    enc({ $array: { shape: [1], data: [1] } }),
    { $other: 'object' },
    'a plain object never reads as an array',
  );
  assert.deepEqual(enc(np.array([[1, NaN]])), {
    $array: { dtype: 'float64', shape: [1, 2], data: [1, { $number: 'NaN' }] },
  });
});

test('packed arrays: PACK_MIN elements or more cross as base64 of their bytes, both ways, non-finite values and bools included', () => {
  const n = PACK_MIN + 5;
  const a = np.array(
    Array.from({ length: n }, (_, i) => (i === 0 ? NaN : i === 1 ? -Infinity : i === 2 ? Infinity : i * 0.1 - 7)),
  );
  const enc = encodeValue(a, NDArray.parts);
  assert.equal(typeof enc.$array.data, 'string', 'packed');
  const back = decodeResponse(JSON.stringify({ ok: true, value: enc, output: '' }));
  assert.ok(back.value.$array.data instanceof Float64Array);
  assert.deepEqual(Array.from(back.value.$array.data), Array.from(a.data));
  const mask = np.array(Array.from({ length: n }, (_, i) => i % 3 === 0));
  const bools = decodeResponse(JSON.stringify({ ok: true, value: encodeValue(mask, NDArray.parts), output: '' })).value
    .$array;
  assert.deepEqual([bools.dtype, Array.from(bools.data)], ['bool', Array.from(mask.data)]);
  // Host → guest: encodeRequest packs a tensor's list, decodeRequest hands typed data to makeArray.
  const text = encodeRequest({
    op: 'call',
    name: 'f',
    args: [
      { $array: { dtype: 'float64', shape: [n], data: Array.from(a.data) } },
      { $array: { dtype: 'float64', shape: [2], data: [1, 2] } },
    ],
  });
  const seen = [];
  decodeRequest(text, (nd) => {
    seen.push(nd);
    return null;
  });
  assert.ok(seen[0].data instanceof Float64Array && Object.is(seen[0].data[0], NaN) && seen[0].data[1] === -Infinity);
  assert.deepEqual(Array.from(seen[0].data), Array.from(a.data));
  assert.deepEqual(seen[1].data, [1, 2], 'small arrays stay lists');
  // Anything but exactly the bytes of the shape is refused.
  const good = enc.$array.data;
  for (const data of [good.slice(4), `${good}AAAA`, `!${good.slice(1)}`, good.replace(/^.{4}/, 'A==A'), '']) {
    const r = decodeResponse(
      JSON.stringify({ ok: true, value: { $array: { dtype: 'float64', shape: [n], data } }, output: '' }),
    );
    assert.equal(r.reason, 'reply', data.slice(0, 12));
  }
  const two = encodeValue(np.array(Array.from({ length: n }, () => 1)), NDArray.parts).$array.data; // bytes of 1.0: not a bool
  assert.equal(
    decodeResponse(
      JSON.stringify({
        ok: true,
        value: { $array: { dtype: 'bool', shape: [n], data: two.slice(0, 4 * Math.ceil(n / 3)) } },
        output: '',
      }),
    ).reason,
    'reply',
  );
});

test('a plain typed array returned by student code stays a list of numbers, however long', () => {
  const v = encodeValue(new Float64Array(PACK_MIN + 1).fill(0.5), NDArray.parts);
  assert.ok(Array.isArray(v) && v.length === PACK_MIN + 1 && v[0] === 0.5);
});
