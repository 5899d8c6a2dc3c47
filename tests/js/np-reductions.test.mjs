// Tests of the student-facing `np`, one file per module: reductions (grader/np/reductions.mjs): axis, negative axis,
// keepdims, both calling conventions; cumsum. Expected values are hand-computed or NumPy's own results (printed
// forms as NumPy 1.24 prints them); the helpers are in np-assert.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import np from '../../grader/np/index.mjs';
import { eq, throwsMsg } from './np-assert.mjs';

test('reductions: axis, negative axis, keepdims, both calling conventions', () => {
  const a = np.array([
    [1, 2, 3],
    [4, 5, 6],
  ]);
  assert.equal(np.sum(a), 21);
  eq(np.sum(a, 0), [5, 7, 9]);
  eq(np.sum(a, -1), [6, 15]);
  eq(np.sum(a, -1, true), [[6], [15]]);
  eq(np.sum(a, { axis: -1, keepdims: true }), [[6], [15]]);
  eq(a.sum(-1, true), [[6], [15]]);
  eq(a.sum({ axis: 0, keepdims: true }), [[5, 7, 9]]);
  eq(np.sum(a, null, true), [[21]]);
  eq(np.max(a, 1), [3, 6]);
  eq(a.min(0), [1, 2, 3]);
  eq(np.mean(a, 0), [2.5, 3.5, 4.5]);
  eq(np.argmax(a, -1), [2, 2]);
  assert.equal(np.argmax(a), 5);
  assert.equal(np.argmax(a, 0).dtype, 'int64');
  const b = np.arange(24).reshape(2, 3, 4);
  // b[i,j,k] = 12i + 4j + k; summing over i and k leaves 60 + 32j
  eq(np.sum(b, [0, 2]), [60, 92, 124]);
  eq(np.max(b, 1, true).shape, [2, 1, 4]);
  eq(np.max(b, 1), [
    [8, 9, 10, 11],
    [20, 21, 22, 23],
  ]);
  // NaN propagates through max; argmax points at the first NaN
  assert.ok(Number.isNaN(np.max([1, NaN, 3])));
  eq(
    np.argmax(
      np.array([
        [1, 3, 3],
        [NaN, 0, 5],
      ]),
      1,
    ),
    [1, 0],
  );
  assert.equal(np.std([1, 2, 3, 4]), Math.sqrt(1.25));
  eq(
    np.var(
      [
        [1, 2],
        [3, 5],
      ],
      0,
    ),
    [1, 2.25],
  );
  assert.equal(np.sum(np.array([true, true, false])), 2);
  assert.equal(np.any([false, true]), true);
  assert.equal(np.all([false, true]), false);
  throwsMsg(() => np.sum(a, 2), 'axis 2 is out of bounds for array of dimension 2');
  throwsMsg(() => np.max(np.zeros(0)), 'zero-size array to reduction operation maximum which has no identity');
  throwsMsg(() => np.sum(a, { axs: 1 }), "unknown option 'axs'");
});

test('cumsum', () => {
  const c = np.cumsum(
    [
      [true, false],
      [true, true],
    ],
    0,
  );
  assert.equal(c.dtype, 'int64');
  eq(c, [
    [1, 0],
    [2, 1],
  ]);
});
