// Tests of the student-facing `np`, one file per module: creation (grader/np/creation.mjs):
// zeros/ones/full/eye/arange/linspace, tril/triu with k, batches and 1-D input, tri and the triangles' indices.
// Expected values are hand-computed or NumPy's own results (printed forms as NumPy 1.24 prints them); the helpers
// are in np-assert.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import np from '../../grader/np/index.mjs';
import { list, eq, throwsMsg } from './np-assert.mjs';

test('creation functions', () => {
  eq(np.zeros([2, 2]), [
    [0, 0],
    [0, 0],
  ]);
  eq(np.ones(3, 'bool'), [true, true, true]);
  eq(np.ones([2], { dtype: np.bool_ }), [true, true]);
  eq(np.full([2], -Infinity), [-Infinity, -Infinity]);
  assert.equal(np.full([1], true).dtype, 'bool');
  eq(np.eye(3, 4, 1), [
    [0, 1, 0, 0],
    [0, 0, 1, 0],
    [0, 0, 0, 1],
  ]);
  const r = np.arange(3);
  assert.equal(r.dtype, 'int64');
  eq(r, [0, 1, 2]);
  eq(np.arange(5, 0, -2), [5, 3, 1]);
  eq(np.arange(0, 1, 0.25), [0, 0.25, 0.5, 0.75]);
  assert.equal(np.arange(0, 1, 0.25).dtype, 'float64');
  eq(np.linspace(0, 1, 5), [0, 0.25, 0.5, 0.75, 1]);
  eq(np.zeros_like(np.arange(2)), [0, 0]);
  assert.equal(np.ones_like(np.array([true])).dtype, 'bool');
  throwsMsg(() => np.zeros([2, -1]), 'negative dimensions are not allowed');
});

test('tril / triu with k, batches and 1-D input', () => {
  const o = np.ones([3, 4]);
  eq(np.tril(o), [
    [1, 0, 0, 0],
    [1, 1, 0, 0],
    [1, 1, 1, 0],
  ]);
  eq(np.tril(o, 1), [
    [1, 1, 0, 0],
    [1, 1, 1, 0],
    [1, 1, 1, 1],
  ]);
  eq(np.tril(o, { k: -1 }), [
    [0, 0, 0, 0],
    [1, 0, 0, 0],
    [1, 1, 0, 0],
  ]);
  eq(np.triu(o, 1), [
    [0, 1, 1, 1],
    [0, 0, 1, 1],
    [0, 0, 0, 1],
  ]);
  eq(np.triu(o, -1), [
    [1, 1, 1, 1],
    [1, 1, 1, 1],
    [0, 1, 1, 1],
  ]);
  eq(np.tril([1, 2, 3]), [
    [1, 0, 0],
    [1, 2, 0],
    [1, 2, 3],
  ]);
  const t = np.tril(np.ones([2, 2, 2], 'bool'));
  assert.equal(t.dtype, 'bool');
  eq(t, [
    [
      [true, false],
      [true, true],
    ],
    [
      [true, false],
      [true, true],
    ],
  ]);
});

test('tri and its indices', () => {
  eq(np.tri(2, 3, 1), [
    [1, 1, 0],
    [1, 1, 1],
  ]);
  eq(np.triu_indices(3, 1).map(list), [
    [0, 0, 1],
    [1, 2, 2],
  ]);
});
