// Tests of the student-facing `np`, one file per module: element-wise functions (grader/np/elementwise.mjs):
// broadcasting and its error, where and a masked softmax, round, predicates and comparisons, floor_divide and
// remainder, logaddexp, nan_to_num, erf. Expected values are hand-computed or NumPy's own results (printed forms as
// NumPy 1.24 prints them); the helpers are in np-assert.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import np from '../../grader/np/index.mjs';
import { list, eq, close, throwsMsg } from './np-assert.mjs';

test('broadcasting: values, methods and the NumPy error message', () => {
  eq(
    np.add(
      [
        [1, 2, 3],
        [4, 5, 6],
      ],
      [10, 20, 30],
    ),
    [
      [11, 22, 33],
      [14, 25, 36],
    ],
  );
  eq(np.multiply([[1], [2], [3]], [1, 10]), [
    [1, 10],
    [2, 20],
    [3, 30],
  ]);
  eq(np.subtract(10, [1, 2]), [9, 8]);
  eq(
    np
      .array([
        [1, 2],
        [3, 4],
      ])
      .div(np.array([[1], [2]])),
    [
      [1, 2],
      [1.5, 2],
    ],
  );
  eq(np.array([1, 2]).sub(1).mul(2).pow(2), [0, 4]);
  // (2, 1, 3) with (4, 1): (2, 4, 3)
  const a = np.arange(6).reshape(2, 1, 3),
    b = np.multiply(np.arange(4).reshape(4, 1), 100);
  const c = np.add(a, b);
  assert.deepEqual(c.shape, [2, 4, 3]);
  assert.equal(c.get(1, 3, 2), 5 + 300);
  assert.equal(c.get(0, 2, 1), 1 + 200);
  throwsMsg(
    () => np.add(np.ones([2, 3]), np.ones(4)),
    'add: operands could not be broadcast together with shapes (2,3) (4,)',
  );
  throwsMsg(
    () => np.ones([2, 3]).mul(np.ones([3, 2])),
    'operands could not be broadcast together with shapes (2,3) (3,2)',
  );
  eq(np.equal([1, 2, NaN], [1, 3, NaN]), [true, false, false]);
  eq(np.logical_and([true, true, false], [true, false, false]), [true, false, false]);
  eq(np.logical_or([true, false], false), [true, false]);
  eq(np.logical_not([true, false]), [false, true]);
  eq(np.maximum([1, NaN, -3], 0), [1, NaN, 0]);
});

test('where, -inf and a masked softmax giving exact zeros', () => {
  const mask = np.tril(np.ones([3, 3], 'bool'));
  const scores = np.array([
    [1, 2, 3],
    [4, 5, 6],
    [7, 8, 9],
  ]);
  const s = np.where(mask, scores, -np.inf);
  eq(s, [
    [1, -Infinity, -Infinity],
    [4, 5, -Infinity],
    [7, 8, 9],
  ]);
  const e = np.exp(np.subtract(s, np.max(s, -1, true)));
  const w = np.divide(e, np.sum(e, -1, true));
  assert.equal(w.get(0, 0), 1);
  assert.equal(w.get(0, 1), 0);
  assert.equal(w.get(1, 2), 0);
  close(w.get(1), [1 / (1 + Math.E), Math.E / (1 + Math.E), 0]);
  eq(np.where([true, false], 1, [5, 6]), [1, 6]);
  // the mask broadcasts over a batch
  assert.deepEqual(np.where(mask, np.zeros([2, 3, 3]), -1).shape, [2, 3, 3]);
  throwsMsg(
    () => np.where(np.ones([2, 3]), np.ones(2), 0),
    'operands could not be broadcast together with shapes (2,3) (2,) ()',
  );
  eq(
    np
      .where([
        [0, 1],
        [1, 0],
      ])
      .map(list),
    [
      [0, 1],
      [1, 0],
    ],
  );
});

test("round is NumPy's (half to even, via x*10^d)", () => {
  eq(np.round([0.5, 1.5, 2.5, -0.5, -1.5]), [0, 2, 2, -0, -2]);
  eq(np.round([0.125, 2.675], 2), [0.12, 2.68]);
  assert.equal(np.round(1234.5678, -2), 1200);
  assert.equal(np.round(np.array([[0.1964, 0.8036]]), { decimals: 3 }).toString(), '[[0.196 0.804]]');
  assert.equal(np.array([1.23456]).round(2).get(0), 1.23);
});

test('predicates and comparisons of whole arrays', () => {
  eq(np.isnan([1, NaN, Infinity]), [false, true, false]);
  eq(np.isinf([1, NaN, -Infinity]), [false, false, true]);
  eq(np.isfinite([1, NaN, -Infinity]), [true, false, false]);
  assert.equal(np.allclose([1, 2], [1 + 1e-9, 2]), true);
  assert.equal(np.allclose([1, 2], [1.001, 2]), false);
  assert.equal(np.allclose([-Infinity, 0], [-Infinity, 0]), true);
  assert.equal(np.allclose([NaN], [NaN]), false);
  assert.equal(np.allclose([NaN], [NaN], { equal_nan: true }), true);
  assert.equal(np.array_equal([[1, 2]], np.array([[1, 2]])), true);
  assert.equal(np.array_equal([1, 2], [[1, 2]]), false);
});

test("floor_divide and remainder follow Python (floored, the divisor's sign), int division by zero is 0", () => {
  const a = np.array([7, -7]).astype('int64');
  assert.deepEqual(np.floor_divide(a, 2).tolist(), [3, -4]);
  assert.deepEqual(np.remainder(a, 3).tolist(), [1, 2]);
  assert.deepEqual(np.mod(np.array([7.5, -7.5]), 2).tolist(), [1.5, 0.5]);
  assert.deepEqual(np.floor_divide(a, 0).tolist(), [0, 0]);
  assert.equal(np.floor_divide(a, 2).dtype, 'int64');
});

test('logaddexp, nan_to_num, erf', () => {
  close(np.logaddexp([1], [2]), [2.313261687518223]);
  eq(np.logaddexp([-Infinity, Infinity], [-Infinity, 1]), [-Infinity, Infinity]);
  eq(np.nan_to_num([NaN, Infinity, -Infinity]), [0, Number.MAX_VALUE, -Number.MAX_VALUE]);
  close(np.erf(0.5), 0.5204998778130465, 1e-15);
});
