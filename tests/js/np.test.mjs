// Tests of the student-facing `np` (grader/np). Expected values are hand-computed or NumPy's own
// results (printed forms as NumPy 1.24 prints them); random inputs come from the shared seeded Rng and
// are checked against plain loops written here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import np, { NDArray } from '../../grader/np/index.mjs';
import { Rng } from '../../grader/core/prng.mjs';

const list = (a) => (a instanceof NDArray ? a.tolist() : a);
const eq = (a, expected, msg) => assert.deepStrictEqual(list(a), expected, msg);
const close = (actual, expected, tol = 1e-12, msg = '') => {
  const a = [list(actual)].flat(Infinity),
    e = [expected].flat(Infinity);
  assert.equal(a.length, e.length, msg);
  a.forEach((v, i) =>
    assert.ok(Math.abs(v - e[i]) <= tol * Math.max(1, Math.abs(e[i])), `${msg} [${i}] ${v} != ${e[i]}`),
  );
};
const throwsMsg = (f, text) =>
  assert.throws(f, (e) => e.message.includes(text) || assert.fail(`message was: ${e.message}`));
const randn = (rng, shape) => np.array(Array.from(rng.normals(shape.reduce((p, q) => p * q, 1)))).reshape(shape);

test('array: dtype inference, nesting, ragged and bad elements', () => {
  const a = np.array([
    [1, 2, 3],
    [4, 5, 6],
  ]);
  assert.equal(a.dtype, 'float64');
  assert.deepEqual(a.shape, [2, 3]);
  assert.equal(a.ndim, 2);
  assert.equal(a.size, 6);
  assert.ok(a.data instanceof Float64Array);
  const m = np.array([
    [true, false],
    [false, true],
  ]);
  assert.equal(m.dtype, 'bool');
  assert.ok(m.data instanceof Uint8Array);
  eq(m, [
    [true, false],
    [false, true],
  ]);
  eq(np.array([np.array([1, 2]), [3, 4]]), [
    [1, 2],
    [3, 4],
  ]);
  assert.deepEqual(np.array([]).shape, [0]);
  eq(np.array([0, 2, 0.5], 'bool'), [false, true, true]);
  assert.equal(np.array([1.7, -1.7], { dtype: 'int64' }).dtype, 'int64');
  eq(np.array([1.7, -1.7], 'int64'), [1, -1]); // casting truncates toward zero, as NumPy
  throwsMsg(
    () => np.array([[1, 2], [3]]),
    'setting an array element with a sequence. The requested array has an inhomogeneous shape after 1 dimensions. The detected shape was (2,) + inhomogeneous part.',
  );
  throwsMsg(() => np.array([1, 'a']), 'element [1] is a string');
  throwsMsg(() => np.zeros([2, 2], 'float16'), "unsupported dtype 'float16'");
  assert.equal(np.zeros([2], 'float32').dtype, 'float64'); // an accepted name, computed in float64
  // array() copies, asarray() does not
  assert.notEqual(np.array(a), a);
  assert.equal(np.asarray(a), a);
});

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

test('printing matches NumPy print()', () => {
  const cases = [
    [np.tril(np.ones([3, 3], 'bool')), '[[ True False False]\n [ True  True False]\n [ True  True  True]]'],
    [
      np.array([
        [true, false],
        [true, true],
      ]),
      '[[ True False]\n [ True  True]]',
    ],
    [
      np.array([
        [1, 0, 0],
        [0.196, 0.804, 0],
        [0.248, 0.248, 0.503],
      ]),
      '[[1.    0.    0.   ]\n [0.196 0.804 0.   ]\n [0.248 0.248 0.503]]',
    ],
    [
      np.array([
        [10, 0],
        [1.956, 8.044],
        [5, 5],
      ]),
      '[[10.     0.   ]\n [ 1.956  8.044]\n [ 5.     5.   ]]',
    ],
    [np.array([0, -Infinity]), '[  0. -inf]'],
    [np.array([NaN, 1.5, -Infinity]), '[ nan  1.5 -inf]'],
    [np.array([1e-5, 1]), '[1.e-05 1.e+00]'],
    [np.array([1.5e-5, 1]), '[1.5e-05 1.0e+00]'],
    [np.array([1 / 3, 2 / 3, -1]), '[ 0.33333333  0.66666667 -1.        ]'],
    [np.array([0.1, 0.2, 0.30000000000000004]), '[0.1 0.2 0.3]'],
    [np.array([1, 1000]), '[   1. 1000.]'],
    [np.array([1, 1001]), '[1.000e+00 1.001e+03]'],
    [np.arange(-5, 5), '[-5 -4 -3 -2 -1  0  1  2  3  4]'],
    [np.arange(12).reshape(3, 4), '[[ 0  1  2  3]\n [ 4  5  6  7]\n [ 8  9 10 11]]'],
    [np.ones([2, 2, 2]), '[[[1. 1.]\n  [1. 1.]]\n\n [[1. 1.]\n  [1. 1.]]]'],
    [np.arange(2000), '[   0    1    2 ... 1997 1998 1999]'],
    [np.arange(10, 35), '[10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33\n 34]'], // 75 columns
    [
      np.linspace(0, 1, 30),
      '[0.         0.03448276 0.06896552 0.10344828 0.13793103 0.17241379\n' +
        ' 0.20689655 0.24137931 0.27586207 0.31034483 0.34482759 0.37931034\n' +
        ' 0.4137931  0.44827586 0.48275862 0.51724138 0.55172414 0.5862069\n' +
        ' 0.62068966 0.65517241 0.68965517 0.72413793 0.75862069 0.79310345\n' +
        ' 0.82758621 0.86206897 0.89655172 0.93103448 0.96551724 1.        ]',
    ],
    [np.array(1.5), '1.5'],
    [np.zeros([2, 0]), '[]'],
  ];
  for (const [a, s] of cases) {
    assert.equal(a.toString(), s);
    assert.equal(`${a}`, s);
  }
  assert.equal(a2s(np.arange(3)), '[0 1 2]');
  function a2s(a) {
    return a[Symbol.for('nodejs.util.inspect.custom')]();
  }
});

test("round is NumPy's (half to even, via x*10^d)", () => {
  eq(np.round([0.5, 1.5, 2.5, -0.5, -1.5]), [0, 2, 2, -0, -2]);
  eq(np.round([0.125, 2.675], 2), [0.12, 2.68]);
  assert.equal(np.round(1234.5678, -2), 1200);
  assert.equal(np.round(np.array([[0.1964, 0.8036]]), { decimals: 3 }).toString(), '[[0.196 0.804]]');
  assert.equal(np.array([1.23456]).round(2).get(0), 1.23);
});

test('tolist, item, get / at / set, iteration', () => {
  const a = np.arange(6).reshape(2, 3);
  eq(a, [
    [0, 1, 2],
    [3, 4, 5],
  ]);
  assert.equal(np.array(3).tolist(), 3);
  assert.equal(a.get(1, 2), 5);
  assert.equal(a.get(-1, -1), 5);
  eq(a.get(1), [3, 4, 5]);
  eq(a.at(-2), [0, 1, 2]);
  eq(a.get(null, 1), [1, 4]);
  assert.equal(np.array([true]).get(0), true);
  assert.equal(np.array([[7]]).item(), 7);
  throwsMsg(() => a.item(), 'can only convert an array of size 1');
  throwsMsg(() => a.get(2), 'index 2 is out of bounds for axis 0 with size 2');
  throwsMsg(() => a.get(0, 0, 0), 'too many indices for array: array is 2-dimensional, but 3 were indexed');
  const b = np.zeros([2, 3]);
  b.set(0, 1, 5).set(1, null, [1, 2, 3]);
  eq(b, [
    [0, 5, 0],
    [1, 2, 3],
  ]);
  b.set(np.greater(b, 1), -1);
  eq(b, [
    [0, -1, 0],
    [1, -1, -1],
  ]);
  throwsMsg(() => b.set(0, [1, 2]), 'could not broadcast input array from shape (2,) into shape (3,)');
  eq([...np.arange(3)], [0, 1, 2]);
  eq([...a].map(list), [
    [0, 1, 2],
    [3, 4, 5],
  ]);
  assert.equal(JSON.stringify(np.array([[1, 2]])), '[[1,2]]');
});

test('JS operators on arrays fail loudly instead of concatenating strings', () => {
  const a = np.ones([2, 2]);
  throwsMsg(() => a + 1, 'JavaScript operators and Math functions do not work on arrays');
  throwsMsg(() => a * a, 'do not work on arrays');
  throwsMsg(() => a < 1, 'do not work on arrays');
  assert.equal(np.array([2]) * 3, 6);
  assert.equal(np.sum(np.ones([2, 2]), null, true) + 1, 5);
  assert.equal(String(a), '[[1. 1.]\n [1. 1.]]');
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

test('random: seeded from the shared Rng', () => {
  const x = np.random.default_rng(42).standard_normal([2, 3]);
  const y = np.random.default_rng(42).standard_normal([2, 3]);
  assert.deepEqual(x.shape, [2, 3]);
  eq(x, y.tolist());
  const r = new Rng(42);
  eq(x, [
    [r.normal(), r.normal(), r.normal()],
    [r.normal(), r.normal(), r.normal()],
  ]);
  assert.equal(typeof np.random.default_rng(1).random(), 'number');
});

// Last: the sandbox deep-freezes the realm's built-ins and `np` before student code runs.
test('np keeps working after everything it exposes is frozen', () => {
  const seen = new Set();
  const freeze = (o) => {
    if (o === null || (typeof o !== 'object' && typeof o !== 'function') || seen.has(o)) return;
    seen.add(o);
    Object.freeze(o);
    for (const k of Reflect.ownKeys(o)) {
      const d = Object.getOwnPropertyDescriptor(o, k);
      if ('value' in d) freeze(d.value);
      else {
        freeze(d.get);
        freeze(d.set);
      }
    }
    freeze(Object.getPrototypeOf(o));
  };
  freeze(np);
  const x = np.random.default_rng(3).standard_normal([2, 4, 4]);
  const s = np.where(np.tril(np.ones([4, 4], 'bool')), np.matmul(x, np.swapaxes(x, -1, -2)), -np.inf);
  const e = np.exp(s.sub(s.max(-1, true)));
  close(
    np.sum(e.div(e.sum(-1, true)), -1).tolist(),
    [
      [1, 1, 1, 1],
      [1, 1, 1, 1],
    ],
    1e-12,
  );
  const z = np.zeros([2, 2]).set(0, 0, 1);
  assert.equal(z.get(0, 0), 1);
  assert.equal(z.toString(), '[[1. 0.]\n [0. 0.]]');
});

// ---------------------------------------------------------------- general indexing, floor_divide, repr

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

test("floor_divide and remainder follow Python (floored, the divisor's sign), int division by zero is 0", () => {
  const a = np.array([7, -7]).astype('int64');
  assert.deepEqual(np.floor_divide(a, 2).tolist(), [3, -4]);
  assert.deepEqual(np.remainder(a, 3).tolist(), [1, 2]);
  assert.deepEqual(np.mod(np.array([7.5, -7.5]), 2).tolist(), [1.5, 0.5]);
  assert.deepEqual(np.floor_divide(a, 0).tolist(), [0, 0]);
  assert.equal(np.floor_divide(a, 2).dtype, 'int64');
});

test("repr: NumPy 1.24's array(...) form", async () => {
  const { arrayRepr } = await import('../../grader/np/format.mjs');
  const r = (a) => arrayRepr(a.data, a.shape, a.dtype);
  assert.equal(r(np.eye(2)), 'array([[1., 0.],\n       [0., 1.]])');
  assert.equal(r(np.zeros([0])), 'array([], dtype=float64)');
  assert.equal(r(np.zeros([2, 0])), 'array([], shape=(2, 0), dtype=float64)');
  assert.equal(r(np.array(1)), 'array(1.)');
  assert.equal(r(np.array([true, false])), 'array([ True, False])');
  assert.equal(r(np.array(true)), 'array(True)');
  assert.equal(r(np.arange(2000)), 'array([   0,    1,    2, ..., 1997, 1998, 1999])');
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

test('split, array_split, hstack, vstack, repeat, tile, broadcast_to, meshgrid, tri and its indices', () => {
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
  eq(np.tri(2, 3, 1), [
    [1, 1, 0],
    [1, 1, 1],
  ]);
  eq(np.triu_indices(3, 1).map(list), [
    [0, 0, 1],
    [1, 2, 2],
  ]);
});

test('cumsum, argsort, sort, take_along_axis, partition, logaddexp, nan_to_num, einsum, linalg.norm, choice', () => {
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
  close(np.logaddexp([1], [2]), [2.313261687518223]);
  eq(np.logaddexp([-Infinity, Infinity], [-Infinity, 1]), [-Infinity, Infinity]);
  eq(np.nan_to_num([NaN, Infinity, -Infinity]), [0, Number.MAX_VALUE, -Number.MAX_VALUE]);
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
  close(np.erf(0.5), 0.5204998778130465, 1e-15);
  const rng = np.random.default_rng(3);
  assert.deepEqual([...new Set(rng.choice(4, [4], false).tolist())].sort(), [0, 1, 2, 3]);
  eq(rng.choice([7, 8, 9], [3], true, [0, 1, 0]), [8, 8, 8]);
  throwsMsg(() => rng.choice(3, [4], false), 'Cannot take a larger sample than population');
});
