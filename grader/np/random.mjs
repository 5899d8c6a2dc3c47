// np.random.default_rng(seed): a Generator over the PRNG shared with the C++ reference
// (grader/core/prng.mjs); its numbers differ from NumPy's PCG64 stream.
import { Rng } from '../core/prng.mjs';
import { ValueError } from './errors.mjs';
import { sizeOf } from './shapes.mjs';
import { NDArray, asarray, normShape, parseArgs, take, scalarOut } from './ndarray.mjs';
import { arange } from './creation.mjs';

// Captured once, at load: the sandbox freezes the realm later, but np must not depend on what students do.
const { floor, abs, sqrt } = Math;
const { isInteger } = Number;

class Generator {
  constructor(seed) {
    this._rng = new Rng(seed ?? 0);
  }
  _fill(where, size, f) {
    if (size === undefined || size === null) return f();
    const shape = normShape(size, where),
      out = new Float64Array(sizeOf(shape));
    for (let i = 0; i < out.length; i++) out[i] = f();
    return new NDArray(out, shape, 'float64');
  }
  standard_normal(size) {
    return this._fill('standard_normal', size, () => this._rng.normal());
  }
  normal(loc = 0, scale = 1, size) {
    return this._fill('normal', size, () => loc + scale * this._rng.normal());
  }
  random(size) {
    return this._fill('random', size, () => this._rng.next());
  }
  uniform(low = 0, high = 1, size) {
    return this._fill('uniform', size, () => this._rng.uniform(low, high));
  }
  integers(low, high, size) {
    if (high === undefined || high === null) [low, high] = [0, low];
    const r = this._fill('integers', size, () => low + floor(this._rng.next() * (high - low)));
    return r instanceof NDArray ? new NDArray(r.data, r.shape, 'int64') : r;
  }
  choice(a, ...args) {
    return choice(this, a, ...args);
  }
}

function choice(gen, x, ...args) {
  const { size, replace, p } = parseArgs('choice', args, ['size', 'replace', 'p'], {
    size: null,
    replace: true,
    p: null,
  });
  const pop = typeof x === 'number' ? (isInteger(x) && x >= 0 ? arange(x) : null) : asarray(x, null, 'choice');
  if (!pop) throw new ValueError('choice: a must be a positive integer or an array');
  if (pop.ndim !== 1) throw new ValueError('choice: a must be 1-dimensional');
  const n = pop.size;
  if (n === 0) throw new ValueError('choice: a cannot be empty unless no samples are taken');
  let w = null;
  if (p !== null) {
    w = asarray(p, null, 'choice').astype('float64');
    if (w.ndim !== 1 || w.size !== n) throw new ValueError('choice: a and p must have same size');
    if (w.data.some((v) => !(v >= 0))) throw new ValueError('choice: probabilities are not non-negative');
    const total = w.data.reduce((s, v) => s + v, 0);
    if (abs(total - 1) > sqrt(Number.EPSILON)) throw new ValueError('choice: probabilities do not sum to 1');
    w = Array.from(w.data);
  }
  const shape = size === null ? [] : normShape(size, 'choice'),
    m = sizeOf(shape),
    picks = new Array(m);
  const pick = (weights) => {
    const total = weights.reduce((s, v) => s + v, 0),
      u = gen._rng.next() * total;
    let acc = 0;
    for (let i = 0; i < weights.length; i++) {
      acc += weights[i];
      if (u < acc) return i;
    }
    return weights.findLastIndex((v) => v > 0);
  };
  if (replace) for (let i = 0; i < m; i++) picks[i] = w ? pick(w) : floor(gen._rng.next() * n);
  else {
    if (m > n) throw new ValueError('choice: Cannot take a larger sample than population when replace is False');
    if (w) {
      const left = w.slice();
      if (left.filter((v) => v > 0).length < m) throw new ValueError('choice: Fewer non-zero entries in p than size');
      for (let i = 0; i < m; i++) {
        picks[i] = pick(left);
        left[picks[i]] = 0;
      }
    } else {
      const perm = Array.from({ length: n }, (_, i) => i);
      for (let i = 0; i < m; i++) {
        const j = i + floor(gen._rng.next() * (n - i));
        [perm[i], perm[j]] = [perm[j], perm[i]];
        picks[i] = perm[i];
      }
    }
  }
  const out = take(pop, Int32Array.from(picks), shape);
  return size === null ? scalarOut(out.data[0], out.dtype) : out;
}

export { Generator };
