// Assertions shared by the np tests (tests/js/np*.test.mjs): arrays compared as nested lists, within a
// relative tolerance, errors by a piece of their message; random inputs from the shared seeded Rng.
import assert from 'node:assert/strict';
import np, { NDArray } from '../../grader/np/index.mjs';

export const list = (a) => (a instanceof NDArray ? a.tolist() : a);
export const eq = (a, expected, msg) => assert.deepStrictEqual(list(a), expected, msg);
export const close = (actual, expected, tol = 1e-12, msg = '') => {
  const a = [list(actual)].flat(Infinity),
    e = [expected].flat(Infinity);
  assert.equal(a.length, e.length, msg);
  a.forEach((v, i) =>
    assert.ok(Math.abs(v - e[i]) <= tol * Math.max(1, Math.abs(e[i])), `${msg} [${i}] ${v} != ${e[i]}`),
  );
};
export const throwsMsg = (f, text) =>
  assert.throws(f, (e) => e.message.includes(text) || assert.fail(`message was: ${e.message}`));
export const randn = (rng, shape) => np.array(Array.from(rng.normals(shape.reduce((p, q) => p * q, 1)))).reshape(shape);
