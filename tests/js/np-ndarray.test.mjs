// Tests of the student-facing `np`, one file per module: NDArray and the conversion of what students pass
// (grader/np/ndarray.mjs): dtype inference and ragged input, tolist/item/get/at/set, row indexing and iteration, JS
// operators refused. Expected values are hand-computed or NumPy's own results (printed forms as NumPy 1.24 prints
// them); the helpers are in np-assert.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import np from '../../grader/np/index.mjs';
import { list, eq, throwsMsg } from './np-assert.mjs';

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
