// Reductions over axes (sum, prod, mean, max, min, argmax, argmin, any, all, var, std; axis, keepdims),
// allclose and array_equal, and the cumulative sums and products.
import { alloc, ValueError } from './errors.mjs';
import { sameShape, sizeOf } from './shapes.mjs';
import { NDArray, asarray, normAxis, parseArgs, scalarOut } from './ndarray.mjs';
import { isclose } from './elementwise.mjs';
import { transpose, lines, axisOrFlat } from './manipulation.mjs';

// Captured once, at load: the sandbox freezes the realm later, but np must not depend on what students do.
const { sqrt } = Math;
const isArray = Array.isArray;

// Each reducer folds one contiguous row d[b .. b+n). A reducer with `empty`/`emptyMsg` has no identity,
// so an empty row is NumPy's error; `single`: the axis is one integer (argmax/argmin).
const REDUCERS = {
  sum: {
    dtype: (t) => (t === 'float64' ? t : 'int64'),
    row: (d, b, n) => {
      let s = 0;
      for (let i = b; i < b + n; i++) s += d[i];
      return s;
    },
  },
  prod: {
    dtype: (t) => (t === 'float64' ? t : 'int64'),
    row: (d, b, n) => {
      let s = 1;
      for (let i = b; i < b + n; i++) s *= d[i];
      return s;
    },
  },
  mean: { dtype: () => 'float64', row: (d, b, n) => REDUCERS.sum.row(d, b, n) / n },
  max: {
    dtype: (t) => t,
    empty: 'maximum',
    row: (d, b, n) => {
      let m = d[b];
      for (let i = b + 1; i < b + n && m === m; i++) if (d[i] > m || d[i] !== d[i]) m = d[i];
      return m;
    },
  },
  min: {
    dtype: (t) => t,
    empty: 'minimum',
    row: (d, b, n) => {
      let m = d[b];
      for (let i = b + 1; i < b + n && m === m; i++) if (d[i] < m || d[i] !== d[i]) m = d[i];
      return m;
    },
  },
  argmax: {
    dtype: () => 'int64',
    single: true,
    emptyMsg: 'attempt to get argmax of an empty sequence',
    row: (d, b, n) => {
      let k = 0;
      for (let i = 1; i < n && d[b + k] === d[b + k]; i++) if (d[b + i] > d[b + k] || d[b + i] !== d[b + i]) k = i;
      return k;
    },
  },
  argmin: {
    dtype: () => 'int64',
    single: true,
    emptyMsg: 'attempt to get argmin of an empty sequence',
    row: (d, b, n) => {
      let k = 0;
      for (let i = 1; i < n && d[b + k] === d[b + k]; i++) if (d[b + i] < d[b + k] || d[b + i] !== d[b + i]) k = i;
      return k;
    },
  },
  any: {
    dtype: () => 'bool',
    row: (d, b, n) => {
      for (let i = b; i < b + n; i++) if (d[i] !== 0) return 1;
      return 0;
    },
  },
  all: {
    dtype: () => 'bool',
    row: (d, b, n) => {
      for (let i = b; i < b + n; i++) if (d[i] === 0) return 0;
      return 1;
    },
  },
  var: {
    dtype: () => 'float64',
    ddof: true,
    row: (d, b, n, ddof) => {
      const m = REDUCERS.sum.row(d, b, n) / n;
      let s = 0;
      for (let i = b; i < b + n; i++) s += (d[i] - m) * (d[i] - m);
      return s / (n - ddof);
    },
  },
  std: { dtype: () => 'float64', ddof: true, row: (d, b, n, ddof) => sqrt(REDUCERS.var.row(d, b, n, ddof)) },
};

function reduce(name, x, args) {
  const spec = REDUCERS[name];
  const names = spec.ddof ? ['axis', 'keepdims', 'ddof'] : ['axis', 'keepdims'];
  const { axis, keepdims, ddof } = parseArgs(name, args, names, { axis: null, keepdims: false, ddof: 0 });
  const a = asarray(x, null, name),
    nd = a.ndim;
  let axes;
  if (axis === null) axes = [...Array(nd).keys()];
  else if (isArray(axis) && !spec.single) axes = axis.map((ax) => normAxis(ax, nd, name)).sort((p, q) => p - q);
  else axes = [normAxis(axis, nd, name)];
  if (new Set(axes).size !== axes.length) throw new ValueError(`${name}: duplicate value in 'axis'`);
  const kept = [...Array(nd).keys()].filter((ax) => !axes.includes(ax));
  const n = sizeOf(axes.map((ax) => a.shape[ax]));
  if (n === 0 && (spec.empty || spec.emptyMsg))
    throw new ValueError(
      `${name}: ${spec.emptyMsg || `zero-size array to reduction operation ${spec.empty} which has no identity`}`,
    );
  // Move the reduced axes last (a copy only when they are not already last), then fold rows.
  const perm = [...kept, ...axes];
  const src = perm.every((p, i) => p === i) ? a : transpose(a, perm);
  const rows = sizeOf(kept.map((ax) => a.shape[ax])),
    outType = spec.dtype(a.dtype),
    out = alloc(outType, rows);
  for (let r = 0; r < rows; r++) out[r] = spec.row(src.data, r * n, n, ddof);
  const shape = keepdims ? a.shape.map((d, ax) => (axes.includes(ax) ? 1 : d)) : kept.map((ax) => a.shape[ax]);
  return shape.length === 0 ? scalarOut(out[0], outType) : new NDArray(out, shape, outType);
}

function allclose(x, y, ...args) {
  return all(isclose(x, y, ...args));
}
function array_equal(x, y) {
  const a = asarray(x, null, 'array_equal'),
    b = asarray(y, null, 'array_equal');
  return sameShape(a.shape, b.shape) && a.data.every((v, i) => v === b.data[i]);
}
const all = (x, ...args) => reduce('all', x, args);

function cumulative(where, x, args, f, start) {
  const { axis } = parseArgs(where, args, ['axis'], { axis: null });
  const [a, ax] = axisOrFlat(where, x, axis);
  const dt = a.dtype === 'float64' ? 'float64' : 'int64',
    out = alloc(dt, a.size),
    d = a.data;
  lines(a, ax, (b, s, n) => {
    let acc = start;
    for (let i = 0, p = b; i < n; i++, p += s) out[p] = acc = f(acc, d[p]);
  });
  return new NDArray(out, a.shape, dt);
}
const cumsum = (x, ...args) => cumulative('cumsum', x, args, (p, q) => p + q, 0);
const cumprod = (x, ...args) => cumulative('cumprod', x, args, (p, q) => p * q, 1);

export { REDUCERS, reduce, allclose, array_equal, cumsum, cumprod };
