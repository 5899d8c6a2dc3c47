// Tests of the student-facing `np`, one file per module: linear algebra (grader/np/linalg.mjs): matmul (1-D
// promotion, batches, broadcasting, errors), dot on N-D arrays, einsum, linalg.norm. Expected values are hand-
// computed or NumPy's own results (printed forms as NumPy 1.24 prints them); the helpers are in np-assert.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import np from '../../grader/np/index.mjs';
import { Rng } from '../../grader/core/prng.mjs';
import { eq, throwsMsg, randn } from './np-assert.mjs';

test('matmul: 2-D, 1-D promotion, batches, broadcasting, errors', () => {
  eq(
    np.matmul(
      [
        [1, 2],
        [3, 4],
      ],
      [
        [5, 6],
        [7, 8],
      ],
    ),
    [
      [19, 22],
      [43, 50],
    ],
  );
  eq(
    np
      .array([
        [1, 2],
        [3, 4],
      ])
      .matmul([1, 1]),
    [3, 7],
  );
  eq(
    np.matmul(
      [1, 1],
      [
        [1, 2],
        [3, 4],
      ],
    ),
    [4, 6],
  );
  assert.equal(np.matmul([1, 2, 3], [4, 5, 6]), 32);
  eq(
    np.dot(
      [
        [1, 0],
        [0, 2],
      ],
      [[3], [4]],
    ),
    [[3], [8]],
  );
  assert.equal(np.matmul(np.arange(4).reshape(2, 2), np.arange(4).reshape(2, 2)).dtype, 'int64');
  throwsMsg(
    () => np.matmul(np.ones([2, 3]), np.ones([4, 5])),
    'matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size 4 is different from 3)',
  );
  throwsMsg(
    () => np.matmul(np.ones([2, 3, 4]), np.ones([3, 4, 5])),
    'operands could not be broadcast together with remapped shapes [original->remapped]: (2,3,4)->(2,newaxis,newaxis) (3,4,5)->(3,newaxis,newaxis)  and requested shape (3,5)',
  );
  throwsMsg(() => np.matmul(np.ones(3), 2), 'Input operand 1 does not have enough dimensions');
  throwsMsg(() => np.dot(np.ones([2, 2, 3]), np.ones([2, 2])), 'not aligned: 3 (dim 2) != 2 (dim 0)');

  // random shapes, odd sizes included, against a plain triple loop with batch broadcasting
  const seed = 7,
    rng = new Rng(seed);
  for (const [as, bs] of [
    [
      [5, 3],
      [3, 7],
    ],
    [
      [2, 1, 3, 5],
      [4, 5, 6],
    ],
    [
      [3, 4, 2],
      [2, 9],
    ],
    [
      [1, 1],
      [1, 1],
    ],
    [
      [2, 3, 64],
      [2, 64, 5],
    ],
  ]) {
    const A = randn(rng, as),
      Bm = randn(rng, bs),
      C = np.matmul(A, Bm);
    const n = as.at(-2),
      k = as.at(-1),
      m = bs.at(-1);
    // batch dims broadcast NumPy-style, aligned at the right
    const ba = as.slice(0, -2),
      bb = bs.slice(0, -2),
      nb = Math.max(ba.length, bb.length);
    const batch = Array.from({ length: nb }, (_, i) =>
      Math.max(ba[i - nb + ba.length] ?? 1, bb[i - nb + bb.length] ?? 1),
    );
    assert.deepEqual(C.shape, [...batch, n, m], `seed ${seed}`);
    const opIndex = (b, bi) => b.map((d, i) => (d === 1 ? 0 : bi[nb - b.length + i]));
    const total = batch.reduce((p, q) => p * q, 1);
    for (let t = 0; t < total; t++) {
      const bi = [];
      for (let r = t, ax = nb - 1; ax >= 0; ax--) {
        bi.unshift(r % batch[ax]);
        r = Math.floor(r / batch[ax]);
      }
      const ai = opIndex(ba, bi),
        bj = opIndex(bb, bi);
      for (let i = 0; i < n; i++)
        for (let j = 0; j < m; j++) {
          let s = 0;
          for (let p = 0; p < k; p++) s += A.get(...ai, i, p) * Bm.get(...bj, p, j);
          assert.ok(
            Math.abs(C.get(...bi, i, j) - s) <= 1e-12 * Math.max(1, Math.abs(s)),
            `seed ${seed} shapes ${as} @ ${bs} at ${bi},${i},${j}`,
          );
        }
    }
  }
});

// Expected values: NumPy 1.24 (/usr/bin/python3), printed with tolist().
test('dot on N-D arrays: the sum over the last axis of a and the second-to-last of b', () => {
  const a = np.arange(24).reshape(2, 3, 4),
    b = np.arange(20).reshape(4, 5),
    c = np.arange(40).reshape(2, 4, 5);
  eq(np.dot(a, b).get(1, 2), [670, 756, 842, 928, 1014]);
  assert.deepEqual(np.dot(a, c).shape, [2, 3, 2, 5]);
  eq(np.dot(a, c).get(1, 2, 1), [2390, 2476, 2562, 2648, 2734]);
  eq(np.dot(a, np.ones(4)).get(0), [6, 22, 38]);
});

test('einsum, linalg.norm', () => {
  const q = np.arange(16).reshape(1, 2, 2, 4);
  eq(np.einsum('bhqd,bhkd->bhqk', q, q), [
    [
      [
        [14, 38],
        [38, 126],
      ],
      [
        [366, 518],
        [518, 734],
      ],
    ],
  ]);
  eq(np.einsum('ii->i', np.eye(2)), [1, 1]);
  assert.equal(np.einsum('i,i', np.arange(3), np.arange(3)), 5);
  throwsMsg(() => np.einsum('ij,jk->ik', np.ones([2, 3]), np.ones([4, 2])), "subscript 'j' has sizes 3 and 4");
  eq(
    np.linalg.norm(
      [
        [1, -2],
        [3, 4],
      ],
      { ord: 1, axis: 1 },
    ),
    [3, 7],
  );
  eq(
    np.linalg.norm(
      [
        [1, -2],
        [3, 4],
      ],
      { ord: Infinity, axis: 0 },
    ),
    [3, 4],
  );
  assert.equal(np.linalg.norm([3, 4]), 5);
});
