// Tests of the student-facing `np`, one file per module: the dtype rules (grader/np/dtypes.mjs): NumPy 2's promotion
// with JS numbers as weak scalars. Expected values are hand-computed or NumPy's own results (printed forms as NumPy
// 1.24 prints them); the helpers are in np-assert.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import np from '../../grader/np/index.mjs';
import { promote } from '../../grader/np/dtypes.mjs';
import { eq, throwsMsg } from './np-assert.mjs';

test('dtype promotion follows NumPy (JS numbers are weak scalars)', () => {
  const mask = np.tril(np.ones([2, 2], 'bool'));
  const m1 = np.multiply(mask, 1);
  assert.equal(m1.dtype, 'int64');
  eq(m1, [
    [1, 0],
    [1, 1],
  ]);
  assert.equal(np.add(np.arange(3), 1).dtype, 'int64');
  assert.equal(np.add(np.arange(3), 1.5).dtype, 'float64');
  assert.equal(np.divide(np.arange(3), 1).dtype, 'float64');
  assert.equal(np.add(np.arange(3), np.array([true, true, false])).dtype, 'int64');
  assert.equal(np.add(mask, mask).dtype, 'int64');
  assert.equal(np.add(np.arange(3), np.array([1, 2, 3])).dtype, 'float64');
  assert.equal(np.less(np.arange(3), 1).dtype, 'bool');
  assert.equal(np.maximum(mask, mask).dtype, 'bool');
  assert.equal(np.exp(np.arange(2)).dtype, 'float64');
  assert.equal(np.where(mask, np.arange(2), -Infinity).dtype, 'float64');
  throwsMsg(() => np.power(np.arange(3), -1), 'Integers to negative integer powers are not allowed');
  eq(np.power(np.array([2, 4]), -1), [0.5, 0.25]);
  // all-scalar calls give JS scalars
  assert.equal(np.sqrt(16), 4);
  assert.equal(np.add(1, 2), 3);
  assert.equal(np.greater(2, 1), true);
});

// NumPy's np.result_type for each pair of the three dtypes (hand-written from NumPy 1.24).
const RESULT_TYPE = [
  ['bool', 'bool', 'bool'],
  ['bool', 'int64', 'int64'],
  ['bool', 'float64', 'float64'],
  ['int64', 'int64', 'int64'],
  ['int64', 'float64', 'float64'],
  ['float64', 'float64', 'float64'],
];

test("promote is NumPy's result_type, and the engine's functions of two arrays follow it", () => {
  const of = (dtype) => np.ones([2], dtype);
  for (const [a, b, want] of RESULT_TYPE) {
    for (const [p, q] of [
      [a, b],
      [b, a],
    ]) {
      assert.equal(promote(p, q), want, `promote(${p}, ${q})`);
      assert.equal(np.concatenate([of(p), of(q)]).dtype, want, `concatenate ${p} ${q}`);
      assert.equal(np.maximum(of(p), of(q)).dtype, want, `maximum ${p} ${q}`);
      assert.equal(np.where([true, false], of(p), of(q)).dtype, want, `where ${p} ${q}`);
      assert.equal(np.matmul(of(p), of(q)).constructor, want === 'bool' ? Boolean : Number, `matmul ${p} ${q}`);
    }
  }
  assert.equal(promote('int64', 'bool', 'float64', 'bool'), 'float64');
  assert.equal(promote(), 'bool');
});
