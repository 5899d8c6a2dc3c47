// Sorting along an axis: sort, argsort (stable, NaN last), partition and argpartition (a full sort),
// take_along_axis.
import { formatShape } from './format.mjs';
import { alloc, ValueError, IndexError } from './errors.mjs';
import { sizeOf, stridesOf, broadcastShapes } from './shapes.mjs';
import { NDArray, asarray, normAxis, parseArgs } from './ndarray.mjs';
import { reshape, lines, axisOrFlat } from './manipulation.mjs';

const { isInteger } = Number;

// NaN last, as NumPy sorts; the sort is stable (NumPy's default quicksort may order ties otherwise).
const order = (p, q) => (p < q ? -1 : p > q ? 1 : p === q ? 0 : p !== p ? (q !== q ? 0 : 1) : -1);
function sortLines(where, x, args, indices) {
  const { axis } = parseArgs(where, args, ['axis'], { axis: -1 });
  const [a, ax] = axisOrFlat(where, x, axis);
  const out = alloc(indices ? 'int64' : a.dtype, a.size),
    d = a.data;
  lines(a, ax, (b, s, n) => {
    const idx = Array.from({ length: n }, (_, i) => i).sort((i, j) => order(d[b + i * s], d[b + j * s]));
    for (let i = 0; i < n; i++) out[b + i * s] = indices ? idx[i] : d[b + idx[i] * s];
  });
  return new NDArray(out, a.shape, indices ? 'int64' : a.dtype);
}
const sort = (x, ...args) => sortLines('sort', x, args, false);
const argsort = (x, ...args) => sortLines('argsort', x, args, true);
// A full sort is a valid partition: the k-th element in place, smaller ones before, larger after
// (NumPy's order within each side differs: print only the k-th element or sorted sides).
function partitionLike(where, x, kth, args, indices) {
  const { axis } = parseArgs(where, args, ['axis'], { axis: -1 });
  const [a, ax] = axisOrFlat(where, x, axis),
    n = a.shape[ax];
  for (const k of asarray(kth, null, where).data) {
    if (!isInteger(k)) throw new TypeError(`${where}: kth must be an integer`);
    if (k < -n || k >= n) throw new ValueError(`${where}: kth(=${k}) out of bounds (${n})`);
  }
  return sortLines(where, a, [ax], indices);
}

function take_along_axis(x, ind, ...args) {
  const { axis } = parseArgs('take_along_axis', args, ['axis'], { axis: null });
  let a = asarray(x, null, 'take_along_axis');
  const idx = asarray(ind, null, 'take_along_axis');
  if (idx.dtype !== 'int64' && !(idx.dtype === 'float64' && !(ind instanceof NDArray) && idx.data.every(isInteger)))
    throw new IndexError('take_along_axis: `indices` must be an integer array');
  if (axis === null) {
    a = reshape(a, -1);
    if (idx.ndim !== 1)
      throw new ValueError('take_along_axis: when axis=None, `indices` must have a single dimension.');
  }
  if (idx.ndim !== a.ndim)
    throw new ValueError('take_along_axis: `indices` and `arr` must have the same number of dimensions');
  const ax = normAxis(axis ?? 0, a.ndim, 'take_along_axis'),
    nd = a.ndim,
    n = a.shape[ax];
  const other = (s) => s.map((d, i) => (i === ax ? 1 : d));
  let shape;
  try {
    shape = broadcastShapes('take_along_axis', [other(a.shape), other(idx.shape)]).map((d, i) =>
      i === ax ? idx.shape[ax] : d,
    );
  } catch {
    throw new IndexError(
      `take_along_axis: shape mismatch: indexing arrays could not be broadcast together with shapes ${formatShape(a.shape)} ${formatShape(idx.shape)}`,
    );
  }
  const aSt = stridesOf(a.shape),
    iSt = stridesOf(idx.shape),
    coords = new Array(nd).fill(0),
    out = alloc(a.dtype, sizeOf(shape));
  for (let p = 0; p < out.length; p++) {
    let ip = 0,
      ap = 0;
    for (let d = 0; d < nd; d++) {
      if (idx.shape[d] !== 1) ip += coords[d] * iSt[d];
      if (d !== ax && a.shape[d] !== 1) ap += coords[d] * aSt[d];
    }
    let v = idx.data[ip];
    if (v < -n || v >= n)
      throw new IndexError(`take_along_axis: index ${v} is out of bounds for axis ${ax} with size ${n}`);
    if (v < 0) v += n;
    out[p] = a.data[ap + v * aSt[ax]];
    for (let d = nd - 1; d >= 0; d--) {
      if (++coords[d] < shape[d]) break;
      coords[d] = 0;
    }
  }
  return new NDArray(out, shape, a.dtype);
}

export { sort, argsort, partitionLike, take_along_axis };
