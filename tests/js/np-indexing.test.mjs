// Tests of the student-facing `np`, one file per module: general indexing (grader/np/indexing.mjs): getitem and
// setitem with NumPy's rules. Expected values are hand-computed or NumPy's own results (printed forms as NumPy 1.24
// prints them); the helpers are in np-assert.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import np from '../../grader/np/index.mjs';

test("getitem: integers, slices with steps, Ellipsis, newaxis, masks and integer arrays (NumPy's rules)", () => {
  const a = np.arange(24).reshape(2, 3, 4);
  assert.deepEqual(a.getitem(1, np.slice(null, null, -1), np.slice(1, 3)).tolist(), [
    [21, 22],
    [17, 18],
    [13, 14],
  ]);
  assert.deepEqual(a.getitem(np.Ellipsis, null, 0).shape, [2, 3, 1]);
  assert.deepEqual(a.getitem([0, 1], np.slice(null), [2, 3]).tolist(), [
    [2, 6, 10],
    [15, 19, 23],
  ]);
  assert.deepEqual(a.getitem(0, np.slice(null), [2, 3]).shape, [2, 3], 'separated advanced indices go first');
  assert.deepEqual(a.getitem(np.greater(a, 20)).tolist(), [21, 22, 23]);
  assert.equal(a.getitem(1, 2, 3), 23);
  assert.deepEqual(
    np
      .arange(10)
      .getitem(np.slice(8, 2, -2))
      .tolist(),
    [8, 6, 4],
  );
  assert.deepEqual(np.arange(10).getitem(np.slice(-3)).tolist(), [0, 1, 2, 3, 4, 5, 6]);
  assert.throws(() => a.getitem(5), { name: 'IndexError', message: /index 5 is out of bounds for axis 0 with size 2/ });
  assert.throws(() => a.getitem(0, 0, 0, 0), { name: 'IndexError', message: /too many indices/ });
  assert.throws(() => a.getitem(np.array([true, false, true])), {
    name: 'IndexError',
    message: /boolean index did not match/,
  });
  assert.throws(() => a.getitem(np.array([0.5])), { name: 'IndexError', message: /integer \(or boolean\) type/ });
  assert.throws(() => a.getitem(np.Ellipsis, np.Ellipsis), { name: 'IndexError', message: /single ellipsis/ });
});

test('setitem: in place, the value broadcast and cast; masks; a block through slices', () => {
  const s = np.zeros([3, 3]);
  assert.equal(s.setitem(np.tril(np.ones([3, 3], { dtype: 'bool' })), -1), s);
  assert.deepEqual(s.tolist(), [
    [-1, 0, 0],
    [-1, -1, 0],
    [-1, -1, -1],
  ]);
  s.setitem(np.slice(null), 1, [7, 8, 9]);
  assert.deepEqual(s.getitem(np.slice(null), 1).tolist(), [7, 8, 9]);
  const i = np.zeros([2, 2], 'int64');
  i.setitem(0, 2.9);
  assert.deepEqual(
    i.tolist(),
    [
      [2, 2],
      [0, 0],
    ],
    'cast to the target dtype',
  );
  assert.throws(() => s.setitem(0, [1, 2]), {
    name: 'ValueError',
    message: /could not broadcast input array from shape \(2,\) into shape \(3,\)/,
  });
});
