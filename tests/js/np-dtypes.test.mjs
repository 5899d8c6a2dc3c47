// Tests of the student-facing `np`, one file per module: the dtype rules (grader/np/dtypes.mjs): NumPy 2's promotion
// with JS numbers as weak scalars. Expected values are hand-computed or NumPy's own results (printed forms as NumPy
// 1.24 prints them); the helpers are in np-assert.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import np from '../../grader/np/index.mjs';
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
