// Tests of the student-facing `np`, one file per module: shapes and joins (grader/np/manipulation.mjs): .T and
// swapaxes, reshape, concatenate, stack, squeeze, expand_dims, split and the joins, repeat, tile, broadcast_to,
// meshgrid. Expected values are hand-computed or NumPy's own results (printed forms as NumPy 1.24 prints them); the
// helpers are in np-assert.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import np from '../../grader/np/index.mjs';
import { list, eq, throwsMsg } from './np-assert.mjs';

test('.T reverses all axes; swapaxes swaps two (the batch pitfall)', () => {
  const B = 2,
    T = 3,
    d = 4;
  const K = np.arange(B * T * d).reshape(B, T, d); // K[b,t,i] = 12b + 4t + i
  const KT = K.T,
    Ks = np.swapaxes(K, -1, -2);
  assert.deepEqual(KT.shape, [d, T, B]);
  assert.deepEqual(Ks.shape, [B, d, T]);
  assert.deepEqual(K.transpose(0, 2, 1).shape, [B, d, T]);
  assert.deepEqual(np.transpose(K, [1, 0, 2]).shape, [T, B, d]);
  for (let b = 0; b < B; b++)
    for (let t = 0; t < T; t++)
      for (let i = 0; i < d; i++) {
        assert.equal(KT.get(i, t, b), 12 * b + 4 * t + i);
        assert.equal(Ks.get(b, i, t), 12 * b + 4 * t + i);
      }
  eq(np.array([[1, 2, 3]]).T, [[1], [2], [3]]);
  // Q @ K.T on a batch is a shape error, the explicit swap works
  const Q = np.ones([B, T, d]);
  throwsMsg(() => np.matmul(Q, KT), 'matmul');
  assert.deepEqual(np.matmul(Q, Ks).shape, [B, T, T]);
});

test('shape functions: reshape, concatenate, stack, squeeze, expand_dims', () => {
  const a = np.arange(6);
  assert.deepEqual(a.reshape(2, -1).shape, [2, 3]);
  assert.deepEqual(np.reshape(a, [-1, 2]).shape, [3, 2]);
  assert.deepEqual(np.array([5]).reshape([]).shape, []);
  const v = a.reshape(2, 3);
  v.set(0, 0, 9);
  assert.equal(a.get(0), 9, 'reshape shares data, like a NumPy view');
  throwsMsg(() => a.reshape(4, 2), 'cannot reshape array of size 6 into shape (4,2)');
  eq(np.concatenate([[[1, 2]], [[3, 4]]]), [
    [1, 2],
    [3, 4],
  ]);
  eq(
    np.concatenate(
      [
        [[1], [2]],
        [[3], [4]],
      ],
      { axis: 1 },
    ),
    [
      [1, 3],
      [2, 4],
    ],
  );
  throwsMsg(
    () => np.concatenate([np.ones([2, 3]), np.ones([2, 4])]),
    'all the input array dimensions except for the concatenation axis must match exactly, but along dimension 1, the array at index 0 has size 3 and the array at index 1 has size 4',
  );
  eq(
    np.stack(
      [
        [1, 2],
        [3, 4],
      ],
      -1,
    ),
    [
      [1, 3],
      [2, 4],
    ],
  );
  assert.deepEqual(np.stack([np.ones([2, 3]), np.ones([2, 3])]).shape, [2, 2, 3]);
  assert.deepEqual(np.expand_dims(np.ones([2, 3]), 1).shape, [2, 1, 3]);
  assert.deepEqual(np.squeeze(np.ones([1, 3, 1])).shape, [3]);
  throwsMsg(() => np.squeeze(np.ones([2, 3]), 0), 'cannot select an axis to squeeze out');
});

test('split, array_split, hstack, vstack, repeat, tile, broadcast_to, meshgrid', () => {
  const x = np.arange(12).reshape(3, 4);
  eq(np.split(x, [1, 3], { axis: 1 }).map(list), [
    [[0], [4], [8]],
    [
      [1, 2],
      [5, 6],
      [9, 10],
    ],
    [[3], [7], [11]],
  ]);
  throwsMsg(() => np.split(np.arange(10), 4), 'array split does not result in an equal division');
  eq(np.array_split(np.arange(10), 4).map(list), [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7],
    [8, 9],
  ]);
  eq(np.hstack([np.arange(2), np.arange(3)]), [0, 1, 0, 1, 2]);
  eq(np.vstack([np.arange(2), np.arange(2)]), [
    [0, 1],
    [0, 1],
  ]);
  eq(np.repeat(np.arange(4).reshape(1, 2, 2, 1), 2, 1).ravel(), [0, 1, 0, 1, 2, 3, 2, 3]);
  eq(x.repeat([1, 0, 2], 0).get(null, 0), [0, 8, 8]);
  eq(np.tile([[1, 2]], [2, 2]), [
    [1, 2, 1, 2],
    [1, 2, 1, 2],
  ]);
  eq(np.broadcast_to(np.arange(3), [2, 3]), [
    [0, 1, 2],
    [0, 1, 2],
  ]);
  throwsMsg(() => np.broadcast_to(np.arange(3), [2, 4]), 'requested shape (2,4)');
  eq(np.meshgrid(np.arange(3), np.arange(2), { indexing: 'ij' })[0], [
    [0, 0],
    [1, 1],
    [2, 2],
  ]);
});
