// Creation: array, zeros/ones/empty/full and their _like, eye, arange, linspace, tril/triu, tri and the
// triangles' indices.
import { alloc, ValueError } from './errors.mjs';
import { castValue } from './dtypes.mjs';
import { sizeOf, expandIndex } from './shapes.mjs';
import { NDArray, asarray, describe, dtypeOf, normShape, isOptions, parseArgs, take, isScalar } from './ndarray.mjs';

// Captured once, at load: the sandbox freezes the realm later, but np must not depend on what students do.
const { ceil, max: mmax } = Math;
const { isInteger } = Number;

function array(x, ...args) {
  const { dtype } = parseArgs('array', args, ['dtype']);
  const a = asarray(x, dtype, 'array');
  return a === x ? a.copy() : a;
}

function filled(where, shape, value, args, defaultDtype) {
  const { dtype } = parseArgs(where, args, ['dtype']);
  const dt = dtypeOf(dtype, where) || defaultDtype;
  const out = alloc(dt, sizeOf(normShape(shape, where)), normShape(shape, where));
  const v = castValue(+value, dt, where);
  if (v !== 0) out.fill(v);
  return new NDArray(out, normShape(shape, where), dt);
}

function full(shape, value, ...args) {
  const v = value instanceof NDArray && value.size === 1 ? value.item() : value;
  if (!isScalar(v)) throw new TypeError(`full: fill_value must be a number or a boolean, got ${describe(value)}`);
  return filled('full', shape, v, args, typeof v === 'boolean' ? 'bool' : 'float64');
}

function like(where, x, value, args) {
  const a = asarray(x, null, where);
  const { dtype } = parseArgs(where, args, ['dtype']);
  return filled(where, a.shape, value, dtype ? [dtype] : [], a.dtype);
}

function eye(N, ...args) {
  const { M, k, dtype } = parseArgs('eye', args, ['M', 'k', 'dtype'], { M: null, k: 0 });
  const cols = M ?? N,
    out = filled('eye', [N, cols], 0, [dtype], 'float64');
  for (let i = 0; i < N; i++) if (i + k >= 0 && i + k < cols) out.data[i * cols + i + k] = 1;
  return out;
}

function arange(...args) {
  let dtype;
  if (
    args.length &&
    (typeof args[args.length - 1] === 'string' ||
      isOptions(args[args.length - 1]) ||
      typeof args[args.length - 1] === 'function')
  ) {
    const last = args.pop();
    dtype = isOptions(last) ? parseArgs('arange', [last], ['dtype']).dtype : last;
  }
  if (args.length < 1 || args.length > 3 || !args.every((v) => typeof v === 'number'))
    throw new TypeError('arange: takes (stop), (start, stop) or (start, stop, step), numbers, then optionally a dtype');
  const [start, stop, step = 1] = args.length === 1 ? [0, args[0]] : args;
  if (step === 0) throw new ValueError('arange: step must not be zero');
  const n = mmax(0, ceil((stop - start) / step));
  const dt = dtypeOf(dtype, 'arange') || (args.every(isInteger) ? 'int64' : 'float64');
  const out = alloc(dt, n);
  // Integer start and step give integers (below 2**53 here): no cast needed for either dtype.
  if (dt === 'float64' || (dt === 'int64' && isInteger(start) && isInteger(step)))
    for (let i = 0; i < n; i++) out[i] = start + i * step;
  else for (let i = 0; i < n; i++) out[i] = castValue(start + i * step, dt, 'arange');
  return new NDArray(out, [n], dt);
}

function linspace(start, stop, ...args) {
  const { num, endpoint, dtype } = parseArgs('linspace', args, ['num', 'endpoint', 'dtype'], {
    num: 50,
    endpoint: true,
  });
  if (!isInteger(num) || num < 0)
    throw new ValueError(`linspace: num must be a non-negative integer, got ${describe(num)}`);
  const div = endpoint ? num - 1 : num,
    step = (stop - start) / div,
    out = new Float64Array(num);
  for (let i = 0; i < num; i++) out[i] = div === 0 ? start : start + i * step;
  if (endpoint && num > 1) out[num - 1] = stop;
  const a = new NDArray(out, [num], 'float64');
  return dtype ? a.astype(dtype) : a;
}

// Lower / upper triangle of the last two axes; k shifts the diagonal (k = 1 keeps one more above it).
function triangle(where, x, args, keep) {
  const { k } = parseArgs(where, args, ['k'], { k: 0 });
  if (!isInteger(k)) throw new TypeError(`${where}: k must be an integer, got ${describe(k)}`);
  let a = asarray(x, null, where);
  if (a.ndim === 0) throw new ValueError(`${where}: input must be at least 1-D`);
  if (a.ndim === 1) a = take(a, expandIndex(a.shape, [a.size, a.size]), [a.size, a.size]);
  const R = a.shape[a.ndim - 2],
    C = a.shape[a.ndim - 1],
    out = a.data.slice();
  for (let o = 0; o < out.length; o += R * C)
    for (let i = 0; i < R; i++) for (let j = 0; j < C; j++) if (!keep(i, j, k)) out[o + i * C + j] = 0;
  return new NDArray(out, a.shape, a.dtype);
}

function tri(N, ...args) {
  const { M, k, dtype } = parseArgs('tri', args, ['M', 'k', 'dtype'], { M: null, k: 0 });
  const cols = M ?? N,
    out = filled('tri', [N, cols], 0, [dtype], 'float64');
  for (let i = 0; i < N; i++) for (let j = 0; j < cols && j - i <= k; j++) out.data[i * cols + j] = 1;
  return out;
}

function triIndices(where, n, args, keep) {
  const { k, m } = parseArgs(where, args, ['k', 'm'], { k: 0, m: null });
  if (!isInteger(n) || n < 0) throw new ValueError(`${where}: n must be a non-negative integer, got ${describe(n)}`);
  const cols = m ?? n,
    rows = [],
    cs = [];
  alloc('bool', n * cols); // the size limit, before the loop
  for (let i = 0; i < n; i++)
    for (let j = 0; j < cols; j++)
      if (keep(i, j, k)) {
        rows.push(i);
        cs.push(j);
      }
  return [
    new NDArray(Float64Array.from(rows), [rows.length], 'int64'),
    new NDArray(Float64Array.from(cs), [cs.length], 'int64'),
  ];
}

export { array, filled, full, like, eye, arange, linspace, triangle, tri, triIndices };
