// Tests of the student-facing `np`, one file per module: sorting along an axis (grader/np/sorting.mjs): argsort with
// NaN, sort, take_along_axis, partition. Expected values are hand-computed or NumPy's own results (printed forms as
// NumPy 1.24 prints them); the helpers are in np-assert.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import np from '../../grader/np/index.mjs';
import { eq } from './np-assert.mjs';

test('argsort, sort, take_along_axis, partition', () => {
  eq(np.argsort([3, NaN, 1, 2]), [2, 3, 0, 1]);
  eq(
    np.sort(
      [
        [3, 1],
        [0, -1],
      ],
      0,
    ),
    [
      [0, -1],
      [3, 1],
    ],
  );
  eq(
    np.take_along_axis(
      np.array([
        [10, 30, 20],
        [5, 1, 7],
      ]),
      np.array([[2], [0]]).astype('int64'),
      1,
    ),
    [[20], [5]],
  );
  assert.equal(np.partition([5, 1, 4, 2], 2).get(2), 4);
});
