// Shapes and joins: reshape, transpose, swapaxes, expand_dims, squeeze, concatenate, stack, split,
// hstack/vstack/column_stack, repeat, tile, broadcast_to/broadcast_arrays, meshgrid; and the walk along
// one axis that cumsum and the sorts share. reshape, ravel, expand_dims and squeeze share data (NumPy's
// views); the others return new data (NumPy's split returns views; here they are copies).
import { formatShape } from './format.mjs';
import { alloc, ValueError, AxisError, IndexError } from './errors.mjs';
import { promote } from './dtypes.mjs';
import { sizeOf, sameShape, stridesOf, broadcastShapes, expandIndex, stridedRows } from './shapes.mjs';
import { NDArray, asarray, normShape, normAxis, isOptions, parseArgs, take } from './ndarray.mjs';
import { Slice, getitem, fullSlices } from './indexing.mjs';

// Captured once, at load: the sandbox freezes the realm later, but np must not depend on what students do.
const { floor, max: mmax } = Math;
const { isInteger } = Number;
const isArray = Array.isArray;

function reshape(x, ...args) {
  const a = asarray(x, null, 'reshape');
  const shape = normShape(args.length === 1 ? args[0] : args, 'reshape', true);
  const unknown = shape.indexOf(-1);
  if (shape.some((d, i) => d === -1 && i !== unknown))
    throw new ValueError('reshape: can only specify one unknown dimension (-1)');
  if (unknown >= 0) {
    const rest = sizeOf(shape.filter((d) => d !== -1));
    if (rest === 0 || a.size % rest !== 0)
      throw new ValueError(`reshape: cannot reshape array of size ${a.size} into shape ${formatShape(shape)}`);
    shape[unknown] = a.size / rest;
  }
  if (sizeOf(shape) !== a.size)
    throw new ValueError(`reshape: cannot reshape array of size ${a.size} into shape ${formatShape(shape)}`);
  return new NDArray(a.data, shape, a.dtype); // shares data, like a NumPy view
}

function transpose(x, ...args) {
  const a = asarray(x, null, 'transpose'),
    nd = a.ndim;
  let axes =
    args.length === 1 && isOptions(args[0])
      ? args[0].axes
      : args.length === 1 && (isArray(args[0]) || args[0] == null)
        ? args[0]
        : args;
  if (axes == null || axes.length === 0) axes = [...Array(nd).keys()].reverse();
  if (axes.length !== nd)
    throw new ValueError(
      `transpose: axes don't match array (got ${axes.length} axes for an array of shape ${formatShape(a.shape)})`,
    );
  axes = axes.map((ax) => normAxis(ax, nd, 'transpose'));
  if (new Set(axes).size !== nd) throw new ValueError(`transpose: repeated axis in transpose (${axes.join(', ')})`);
  const st = stridesOf(a.shape),
    shape = axes.map((ax) => a.shape[ax]);
  if (axes.every((ax, i) => ax === i)) return a.copy();
  const d = a.data,
    out = alloc(a.dtype, a.size);
  stridedRows(shape, [axes.map((ax) => st[ax])], (o, offs, inner, len) => {
    const s = inner[0];
    for (let j = 0, p = offs[0]; j < len; j++, p += s) out[o + j] = d[p];
  });
  return new NDArray(out, shape, a.dtype);
}

function swapaxes(x, a1, a2) {
  const a = asarray(x, null, 'swapaxes');
  const i = normAxis(a1, a.ndim, 'swapaxes'),
    j = normAxis(a2, a.ndim, 'swapaxes');
  const axes = [...Array(a.ndim).keys()];
  [axes[i], axes[j]] = [axes[j], axes[i]];
  return transpose(a, axes);
}

function expand_dims(x, axis) {
  const a = asarray(x, null, 'expand_dims'),
    shape = a.shape.slice();
  shape.splice(normAxis(axis, a.ndim + 1, 'expand_dims'), 0, 1);
  return new NDArray(a.data, shape, a.dtype);
}

function squeeze(x, ...args) {
  const a = asarray(x, null, 'squeeze');
  const { axis } = parseArgs('squeeze', args, ['axis'], { axis: null });
  const axes =
    axis === null
      ? a.shape.flatMap((d, i) => (d === 1 ? [i] : []))
      : (isArray(axis) ? axis : [axis]).map((ax) => normAxis(ax, a.ndim, 'squeeze'));
  if (axes.some((ax) => a.shape[ax] !== 1))
    throw new ValueError(
      `squeeze: cannot select an axis to squeeze out which has size not equal to one (shape ${formatShape(a.shape)})`,
    );
  return new NDArray(
    a.data,
    a.shape.filter((_, i) => !axes.includes(i)),
    a.dtype,
  );
}

function concatenate(arrays, ...args) {
  if (!isArray(arrays) || arrays.length === 0)
    throw new ValueError('concatenate: need at least one array to concatenate (pass them in a JS array)');
  const { axis } = parseArgs('concatenate', args, ['axis'], { axis: 0 });
  let list = arrays.map((x) => asarray(x, null, 'concatenate'));
  if (axis === null) list = list.map((a) => reshape(a, -1));
  const nd = list[0].ndim;
  if (nd === 0) throw new ValueError('concatenate: zero-dimensional arrays cannot be concatenated');
  const ax = normAxis(axis ?? 0, nd, 'concatenate');
  list.forEach((a, k) => {
    if (a.ndim !== nd)
      throw new ValueError(
        `concatenate: all the input arrays must have same number of dimensions, but the array at index 0 has ${nd} dimension(s) and the array at index ${k} has ${a.ndim} dimension(s)`,
      );
    a.shape.forEach((d, i) => {
      if (i !== ax && d !== list[0].shape[i])
        throw new ValueError(
          `concatenate: all the input array dimensions except for the concatenation axis must match exactly, but along dimension ${i}, the array at index 0 has size ${list[0].shape[i]} and the array at index ${k} has size ${d}`,
        );
    });
  });
  const dtype = promote(...list.map((a) => a.dtype));
  const shape = list[0].shape.slice();
  shape[ax] = list.reduce((s, a) => s + a.shape[ax], 0);
  const out = alloc(dtype, sizeOf(shape), shape),
    outer = sizeOf(shape.slice(0, ax)),
    inner = sizeOf(shape.slice(ax + 1));
  let k = 0;
  for (let o = 0; o < outer; o++) {
    for (const a of list) {
      const len = a.shape[ax] * inner;
      out.set(a.data.subarray(o * len, (o + 1) * len), k);
      k += len;
    }
  }
  return new NDArray(out, shape, dtype);
}

function stack(arrays, ...args) {
  if (!isArray(arrays) || arrays.length === 0)
    throw new ValueError('stack: need at least one array to stack (pass them in a JS array)');
  const { axis } = parseArgs('stack', args, ['axis'], { axis: 0 });
  const list = arrays.map((x) => asarray(x, null, 'stack'));
  if (!list.every((a) => sameShape(a.shape, list[0].shape)))
    throw new ValueError(
      `stack: all input arrays must have the same shape (got ${list.map((a) => formatShape(a.shape)).join(' ')})`,
    );
  const ax = normAxis(axis, list[0].ndim + 1, 'stack');
  return concatenate(
    list.map((a) => expand_dims(a, ax)),
    ax,
  );
}

function splitAt(where, x, ios, axis, equal) {
  const a = asarray(x, null, where);
  if (a.ndim === 0) throw new ValueError(`${where}: a 0-d array cannot be split`);
  if (isInteger(axis) && (axis < -a.ndim || axis >= a.ndim))
    throw new IndexError(`${where}: tuple index out of range (axis ${axis} of an array of dimension ${a.ndim})`);
  const ax = normAxis(axis, a.ndim, where),
    n = a.shape[ax];
  let bounds;
  const sections = ios instanceof NDArray && ios.ndim === 0 ? ios.item() : ios;
  if (typeof sections === 'number') {
    if (!isInteger(sections) || sections <= 0) throw new ValueError(`${where}: number sections must be larger than 0.`);
    if (equal && n % sections !== 0)
      throw new ValueError(
        `${where}: array split does not result in an equal division (${n} along axis ${ax} into ${sections})`,
      );
    const q = floor(n / sections),
      r = n % sections;
    bounds = [0];
    for (let i = 0; i < sections; i++) bounds.push(bounds[i] + q + (i < r ? 1 : 0));
  } else {
    const idx = asarray(sections, null, where);
    if (idx.ndim !== 1 || !idx.data.every(isInteger))
      throw new TypeError(`${where}: indices_or_sections must be an integer or a 1-D list of integers`);
    bounds = [0, ...idx.data, n];
  }
  const lead = fullSlices(ax),
    out = [];
  for (let i = 0; i + 1 < bounds.length; i++) out.push(getitem(a, ...lead, new Slice(bounds[i], bounds[i + 1])));
  return out;
}
function split(x, ios, ...args) {
  const { axis } = parseArgs('split', args, ['axis'], { axis: 0 });
  return splitAt('split', x, ios, axis, true);
}
function array_split(x, ios, ...args) {
  const { axis } = parseArgs('array_split', args, ['axis'], { axis: 0 });
  return splitAt('array_split', x, ios, axis, false);
}

const atLeast = (a, nd) =>
  a.ndim >= nd
    ? a
    : reshape(
        a,
        nd === 1 || a.ndim === 0
          ? Array(nd)
              .fill(1)
              .map((d, i) => (i === nd - 1 ? a.size : 1))
          : [1, ...a.shape],
      );
function joinList(where, arrays) {
  if (!isArray(arrays) || arrays.length === 0) throw new ValueError(`${where}: need at least one array to concatenate`);
  return arrays.map((x) => asarray(x, null, where));
}
function hstack(arrays) {
  const list = joinList('hstack', arrays).map((a) => atLeast(a, 1));
  return concatenate(list, list[0].ndim === 1 ? 0 : 1);
}
function vstack(arrays) {
  return concatenate(
    joinList('vstack', arrays).map((a) => atLeast(a, 2)),
    0,
  );
}
function column_stack(arrays) {
  return concatenate(
    joinList('column_stack', arrays).map((a) => (a.ndim < 2 ? reshape(a, [-1, 1]) : a)),
    1,
  );
}

function repeat(x, repeats, ...args) {
  const { axis } = parseArgs('repeat', args, ['axis'], { axis: null });
  let a = asarray(x, null, 'repeat');
  if (axis === null) a = reshape(a, -1);
  const ax = normAxis(axis ?? 0, a.ndim, 'repeat'),
    n = a.shape[ax];
  const r = asarray(repeats, null, 'repeat');
  if (r.ndim > 1 || !r.data.every(isInteger))
    throw new TypeError('repeat: repeats must be an integer or a 1-D list of integers');
  if (r.size !== 1 && r.size !== n)
    throw new ValueError(`repeat: operands could not be broadcast together with shape (${n},) (${r.size},)`);
  const reps = r.size === 1 ? new Array(n).fill(r.data[0]) : Array.from(r.data);
  if (reps.some((v) => v < 0)) throw new ValueError('repeat: negative dimensions are not allowed');
  const shape = a.shape.slice();
  shape[ax] = reps.reduce((s, v) => s + v, 0);
  const outer = sizeOf(a.shape.slice(0, ax)),
    inner = sizeOf(a.shape.slice(ax + 1)),
    out = alloc(a.dtype, sizeOf(shape));
  let k = 0;
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < n; i++) {
      const row = a.data.subarray((o * n + i) * inner, (o * n + i + 1) * inner);
      for (let c = 0; c < reps[i]; c++, k += inner) out.set(row, k);
    }
  }
  return new NDArray(out, shape, a.dtype);
}

function tile(x, reps) {
  let a = asarray(x, null, 'tile');
  const r = typeof reps === 'number' ? [reps] : normShape(reps, 'tile');
  if (r.some((v) => !isInteger(v) || v < 0)) throw new ValueError('tile: negative dimensions are not allowed');
  const nd = mmax(a.ndim, r.length),
    rr = [...new Array(nd - r.length).fill(1), ...r];
  a = reshape(a, [...new Array(nd - a.ndim).fill(1), ...a.shape]);
  for (let ax = 0; ax < nd; ax++)
    if (rr[ax] !== 1)
      a = rr[ax] === 0 ? getitem(a, ...fullSlices(ax), new Slice(0, 0)) : concatenate(new Array(rr[ax]).fill(a), ax);
  return a.data === asarray(x).data ? a.copy() : a;
}

function broadcast_to(x, shape) {
  const a = asarray(x, null, 'broadcast_to'),
    s = normShape(shape, 'broadcast_to');
  let ok = a.ndim <= s.length;
  try {
    ok = ok && sameShape(broadcastShapes('broadcast_to', [a.shape, s]), s);
  } catch {
    ok = false;
  }
  if (!ok)
    throw new ValueError(
      `broadcast_to: operands could not be broadcast together with remapped shapes [original->remapped]: ${formatShape(a.shape)} and requested shape ${formatShape(s)}`,
    );
  return take(a, expandIndex(a.shape, s), s);
}

function broadcast_arrays(...arrays) {
  const list = arrays.map((x) => asarray(x, null, 'broadcast_arrays'));
  const s = broadcastShapes(
    'broadcast_arrays',
    list.map((a) => a.shape),
  );
  return list.map((a) => take(a, expandIndex(a.shape, s), s));
}

function meshgrid(...args) {
  const opts = args.length && isOptions(args[args.length - 1]) ? args.pop() : {};
  const { indexing } = parseArgs('meshgrid', [opts], ['indexing'], { indexing: 'xy' });
  if (indexing !== 'xy' && indexing !== 'ij')
    throw new ValueError("meshgrid: Valid values for `indexing` are 'xy' and 'ij'.");
  const xs = args.map((x) => reshape(asarray(x, null, 'meshgrid'), -1));
  const shape = xs.map((x) => x.size);
  if (indexing === 'xy' && xs.length > 1) [shape[0], shape[1]] = [shape[1], shape[0]];
  return xs.map((x, i) => {
    const ax = indexing === 'xy' && xs.length > 1 && i < 2 ? 1 - i : i;
    const s = shape.map((_, j) => (j === ax ? x.size : 1));
    return take(x, expandIndex(s, shape), shape);
  });
}

// Walks every 1-D line of `a` along `ax`: f(line offsets as [base, stride, n]).
function lines(a, ax, f) {
  const n = a.shape[ax],
    inner = sizeOf(a.shape.slice(ax + 1)),
    outer = sizeOf(a.shape.slice(0, ax));
  for (let o = 0; o < outer; o++) for (let j = 0; j < inner; j++) f(o * n * inner + j, inner, n);
}
const axisOrFlat = (where, x, axis) => {
  let a = asarray(x, null, where);
  if (axis === null) a = reshape(a, -1);
  if (a.ndim === 0) throw new AxisError(`${where}: axis ${axis} is out of bounds for array of dimension 0`);
  return [a, normAxis(axis ?? 0, a.ndim, where)];
};

export {
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
  lines,
  axisOrFlat,
};
