// np: the small NumPy-like library that student submissions get as a global. Pure ESM, no Node or DOM
// APIs: it is bundled into the sandbox realm (Node `vm` context, browser Web Worker). Contract and the
// deviations from NumPy: README.md beside this file, which also says what each module holds. This
// module assembles the np object from them and installs NDArray's methods that are np functions.
import { NDArray, asarray, parseArgs } from './ndarray.mjs';
import {
  binary,
  unary,
  BINARY,
  UNARY,
  round,
  where,
  nonzero,
  clip,
  isclose,
  floorDivide,
  remainder,
  logaddexp,
  nan_to_num,
  erf,
} from './elementwise.mjs';
import { REDUCERS, reduce, allclose, array_equal, cumsum, cumprod } from './reductions.mjs';
import {
  reshape,
  transpose,
  swapaxes,
  expand_dims,
  squeeze,
  concatenate,
  stack,
  split,
  array_split,
  hstack,
  vstack,
  column_stack,
  repeat,
  tile,
  broadcast_to,
  broadcast_arrays,
  meshgrid,
} from './manipulation.mjs';
import { sort, argsort, partitionLike, take_along_axis } from './sorting.mjs';
import { matmul, dot, einsum, norm } from './linalg.mjs';
import { array, filled, full, like, eye, arange, linspace, triangle, tri, triIndices } from './creation.mjs';
import { Generator } from './random.mjs';
import { Slice, Ellipsis, getitem, setitem } from './indexing.mjs';

export { NDArray, watchArrays, touchArray } from './ndarray.mjs';
export { ArrayTooLarge, isArrayTooLarge } from './errors.mjs';
export { Slice, Ellipsis } from './indexing.mjs';

const np = {
  ndarray: NDArray,
  float64: 'float64',
  int64: 'int64',
  bool: 'bool',
  bool_: 'bool',
  inf: Infinity,
  nan: NaN,
  pi: Math.PI,
  e: Math.E,
  newaxis: null,
  array,
  asarray: (x, ...args) => asarray(x, parseArgs('asarray', args, ['dtype']).dtype),
  zeros: (shape, ...args) => filled('zeros', shape, 0, args, 'float64'),
  ones: (shape, ...args) => filled('ones', shape, 1, args, 'float64'),
  empty: (shape, ...args) => filled('empty', shape, 0, args, 'float64'),
  full,
  zeros_like: (x, ...args) => like('zeros_like', x, 0, args),
  ones_like: (x, ...args) => like('ones_like', x, 1, args),
  full_like: (x, value, ...args) => like('full_like', x, value, args),
  eye,
  arange,
  linspace,
  tril: (x, ...args) => triangle('tril', x, args, (i, j, k) => j - i <= k),
  triu: (x, ...args) => triangle('triu', x, args, (i, j, k) => j - i >= k),
  where,
  nonzero,
  clip,
  round,
  around: round,
  matmul,
  dot,
  reshape,
  transpose,
  swapaxes,
  expand_dims,
  squeeze,
  concatenate,
  stack,
  copy: (x) => asarray(x, null, 'copy').copy(),
  shape: (x) => asarray(x, null, 'shape').shape.slice(),
  ndim: (x) => asarray(x, null, 'ndim').ndim,
  size: (x) => asarray(x, null, 'size').size,
  isclose,
  allclose,
  array_equal,
  random: { default_rng: (seed) => new Generator(seed) },
  // General indexing (NumPy's a[...]): np.slice(stop) or np.slice(start, stop[, step]) is Python's slice.
  getitem,
  setitem,
  Ellipsis,
  Slice,
  slice: (...args) => (args.length === 1 ? new Slice(null, args[0]) : new Slice(...args)),
  floor_divide: floorDivide,
  remainder,
  mod: remainder,
};
for (const [k, [f, kind]] of Object.entries(BINARY)) np[k] = (x, y) => binary(k, x, y, f, kind);
for (const [k, [f, kind]] of Object.entries(UNARY)) np[k] = (x) => unary(k, x, f, kind);
for (const k of Object.keys(REDUCERS)) np[k] = (x, ...args) => reduce(k, x, args);
np.abs = np.absolute;
np.amax = np.max;
np.amin = np.min;
Object.assign(np, {
  split,
  array_split,
  hstack,
  vstack,
  column_stack,
  repeat,
  tile,
  broadcast_to,
  broadcast_arrays,
  tri,
  meshgrid,
  tril_indices: (n, ...args) => triIndices('tril_indices', n, args, (i, j, k) => j - i <= k),
  triu_indices: (n, ...args) => triIndices('triu_indices', n, args, (i, j, k) => j - i >= k),
  cumsum,
  cumprod,
  sort,
  argsort,
  take_along_axis,
  logaddexp,
  nan_to_num,
  einsum,
  partition: (x, kth, ...args) => partitionLike('partition', x, kth, args, false),
  argpartition: (x, kth, ...args) => partitionLike('argpartition', x, kth, args, true),
  erf: (x) => unary('erf', x, erf, 'float'),
  linalg: { norm },
  float32: 'float64',
  infty: Infinity,
  Inf: Infinity,
  PINF: Infinity,
  NINF: -Infinity,
});

// Methods mirror the functions: a.add(b) is np.add(a, b), a.sum(-1, true) is np.sum(a, -1, true).
/** @type {Record<string, Function>} */
const METHODS = {
  ...Object.fromEntries(
    [
      ...Object.keys(BINARY),
      ...Object.keys(UNARY),
      ...Object.keys(REDUCERS),
      'abs',
      'matmul',
      'dot',
      'round',
      'clip',
      'nonzero',
      'isclose',
      'allclose',
      'repeat',
      'cumsum',
      'cumprod',
      'argsort',
      'reshape',
      'transpose',
      'swapaxes',
      'squeeze',
    ].map((k) => [k, np[k]]),
  ),
  ravel: (x) => reshape(x, -1),
  sub: np.subtract,
  mul: np.multiply,
  div: np.divide,
  pow: np.power,
  neg: np.negative,
  getitem,
  floor_divide: floorDivide,
  remainder,
  mod: remainder,
  eq: np.equal,
  ne: np.not_equal,
  lt: np.less,
  le: np.less_equal,
  gt: np.greater,
  ge: np.greater_equal,
};
METHODS.setitem = setitem;
for (const [k, f] of Object.entries(METHODS)) {
  Object.defineProperty(NDArray.prototype, k, {
    value: function (...args) {
      return f(this, ...args);
    },
    writable: true,
    configurable: true,
  });
}

/** All axes reversed, as in NumPy: (B, T, d).T is (d, T, B). */
Object.defineProperty(NDArray.prototype, 'T', {
  get() {
    return transpose(this);
  },
  configurable: true,
});

export { np };
export default np;
