// Tests of the student-facing `np`, one file per module: np's printed forms (grader/np/format.mjs): print() and
// NumPy 1.24's repr. Expected values are hand-computed or NumPy's own results (printed forms as NumPy 1.24 prints
// them); the helpers are in np-assert.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import np from '../../grader/np/index.mjs';

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
