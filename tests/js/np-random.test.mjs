// Tests of the student-facing `np`, one file per module: np.random (grader/np/random.mjs): seeded from the shared
// Rng, choice. Expected values are hand-computed or NumPy's own results (printed forms as NumPy 1.24 prints them);
// the helpers are in np-assert.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import np from '../../grader/np/index.mjs';
import { Rng } from '../../grader/core/prng.mjs';
import { eq, throwsMsg } from './np-assert.mjs';

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

test('choice: with and without replacement, with p', () => {
  const rng = np.random.default_rng(3);
  assert.deepEqual([...new Set(rng.choice(4, [4], false).tolist())].sort(), [0, 1, 2, 3]);
  eq(rng.choice([7, 8, 9], [3], true, [0, 1, 0]), [8, 8, 8]);
  throwsMsg(() => rng.choice(3, [4], false), 'Cannot take a larger sample than population');
});
