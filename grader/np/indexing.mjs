// NumPy's general indexing, a[...] (getitem) and a[...] = v (setitem): integers, slices, Ellipsis,
// newaxis, bool masks and integer arrays.
import { formatShape } from './format.mjs';
import { ArrayTooLarge, MAX_SIZE, ValueError, IndexError } from './errors.mjs';
import { castValue } from './dtypes.mjs';
import { sizeOf, sameShape, stridesOf, broadcastShapes, expandIndex } from './shapes.mjs';
import { NDArray, asarray, describe, take, scalarOut, isView, onUse } from './ndarray.mjs';
import { nonzero } from './elementwise.mjs';

// Captured once, at load: the sandbox freezes the realm later, but np must not depend on what students do.
const { ceil, max: mmax, min: mmin } = Math;
const { isInteger } = Number;
const isArray = Array.isArray;

// `a[1:3, ::-1]`, `a[..., None]`, `a[mask]`, `a[[0, 2]]` as getitem(a, items) / setitem(a, items, v).
// Items: integers (negative count from the end), Slice objects (np.slice(start, stop, step), null
// parts default), np.Ellipsis, null (np.newaxis: a new axis of length 1), and arrays (nested JS arrays
// or NDArrays): bool arrays are masks over as many axes as they have, int64 arrays pick positions
// (NumPy's advanced indexing: all of them broadcast together; their axes come first unless they are
// next to each other). Results are copies (the Python track keeps NumPy's views in its bridge).
export class Slice {
  constructor(start = null, stop = null, step = null) {
    for (const [k, v] of Object.entries({ start, stop, step })) {
      if (v !== null && v !== undefined && !(typeof v === 'number' && isInteger(v)))
        throw new TypeError(`slice: ${k} must be an integer or null, got ${describe(v)}`);
    }
    if (step === 0) throw new ValueError('slice: slice step cannot be zero');
    this.start = start ?? null;
    this.stop = stop ?? null;
    this.step = step ?? null;
    Object.freeze(this);
  }
  /** Python's slice.indices(n): [start, stop, step, length] for an axis of length n. */
  indices(n) {
    const step = this.step ?? 1;
    const clampIdx = (v, dflt, lo, hi) => (v === null ? dflt : v < 0 ? mmax(v + n, lo) : mmin(v, hi));
    const start = step > 0 ? clampIdx(this.start, 0, 0, n) : clampIdx(this.start, n - 1, -1, n - 1);
    const stop = step > 0 ? clampIdx(this.stop, n, 0, n) : clampIdx(this.stop, -1, -1, n - 1);
    const len = step > 0 ? mmax(0, ceil((stop - start) / step)) : mmax(0, ceil((stop - start) / step));
    return [start, stop, step, len];
  }
}
export const Ellipsis = Object.freeze({ toString: () => 'Ellipsis' });
const INDEX_TYPES =
  'only integers, slices (np.slice), ellipsis (np.Ellipsis), np.newaxis (null) and integer or boolean arrays are valid indices';

// → { shape, offsets (Int32Array into a.data, row-major over shape), scalar (every axis an integer) }
function indexPlan(a, items, where) {
  const nd = a.ndim,
    st = stridesOf(a.shape);
  let list = items.map((it) => {
    if (it === null || it === undefined) return { kind: 'new' };
    if (it === Ellipsis) return { kind: 'ellipsis' };
    if (it instanceof Slice) return { kind: 'slice', slice: it };
    if (typeof it === 'number') {
      if (!isInteger(it)) throw new IndexError(`${where}: ${INDEX_TYPES} (got ${describe(it)})`);
      return { kind: 'int', value: it };
    }
    if (typeof it === 'boolean' || it instanceof NDArray || isArray(it) || isView(it)) {
      const arr = typeof it === 'boolean' ? asarray(it, 'bool') : asarray(it, null, where);
      // A JS array of integers is an int64 index (JS numbers carry no int type); an NDArray must be int64 or bool.
      if (arr.dtype === 'float64' && (it instanceof NDArray || !arr.data.every(isInteger)))
        throw new IndexError(`${where}: arrays used as indices must be of integer (or boolean) type`);
      return arr.dtype === 'bool'
        ? { kind: 'bool', arr }
        : { kind: 'array', arr: arr.dtype === 'int64' ? arr : arr.astype('int64') };
    }
    throw new IndexError(`${where}: ${INDEX_TYPES} (got ${describe(it)})`);
  });
  if (list.filter((x) => x.kind === 'ellipsis').length > 1)
    throw new IndexError(`${where}: an index can only have a single ellipsis ('...')`);
  const consumed = list.reduce(
    (n, x) =>
      n + (x.kind === 'int' || x.kind === 'slice' || x.kind === 'array' ? 1 : x.kind === 'bool' ? x.arr.ndim : 0),
    0,
  );
  if (consumed > nd)
    throw new IndexError(
      `${where}: too many indices for array: array is ${nd}-dimensional, but ${consumed} were indexed`,
    );
  const fill = Array.from({ length: nd - consumed }, () => ({ kind: 'slice', slice: new Slice() }));
  const at = list.findIndex((x) => x.kind === 'ellipsis');
  list = at >= 0 ? [...list.slice(0, at), ...fill, ...list.slice(at + 1)] : [...list, ...fill];
  // Bool masks become one int array per axis they cover (their nonzero()); with any array present,
  // integers are 0-d arrays too (NumPy's rule for where the advanced axes go).
  const advanced = list.some((x) => x.kind === 'array' || x.kind === 'bool');
  let ax = 0;
  const parts = [];
  for (const x of list) {
    if (x.kind === 'new') {
      parts.push({ kind: 'new' });
      continue;
    }
    if (x.kind === 'bool') {
      const m = x.arr;
      m.shape.forEach((d, k) => {
        if (d !== a.shape[ax + k])
          throw new IndexError(
            `${where}: boolean index did not match indexed array along dimension ${ax + k}; dimension is ${a.shape[ax + k]} but corresponding boolean dimension is ${d}`,
          );
      });
      if (m.ndim === 0) {
        // a[True] adds an axis of length 1, a[False] one of length 0
        const len = m.data[0] ? 1 : 0;
        parts.push({ kind: 'array', arr: new NDArray(new Float64Array(len), [len], 'int64'), axis: -1 });
        continue;
      }
      nonzero(m).forEach((arr, k) => parts.push({ kind: 'array', arr, axis: ax + k }));
      ax += m.ndim;
      continue;
    }
    const n = a.shape[ax];
    if (x.kind === 'int') {
      if (x.value < -n || x.value >= n)
        throw new IndexError(`${where}: index ${x.value} is out of bounds for axis ${ax} with size ${n}`);
      parts.push(
        advanced
          ? { kind: 'array', arr: new NDArray(Float64Array.of(x.value), [], 'int64'), axis: ax }
          : { kind: 'int', value: x.value < 0 ? x.value + n : x.value, axis: ax },
      );
    } else if (x.kind === 'slice') {
      const [start, , step, len] = x.slice.indices(n);
      parts.push({ kind: 'slice', start, step, len, axis: ax });
    } else {
      for (const v of x.arr.data)
        if (v < -n || v >= n)
          throw new IndexError(`${where}: index ${v} is out of bounds for axis ${ax} with size ${n}`);
      parts.push({ kind: 'array', arr: x.arr, axis: ax });
    }
    ax++;
  }
  // Virtual axes: each { len, off: offsets into a.data }; the advanced block is one of them.
  let base = 0;
  const virt = [],
    shape = [];
  const adv = parts.filter((p) => p.kind === 'array');
  let advShape = null,
    advOff = null;
  if (adv.length) {
    advShape = broadcastShapes(
      where,
      adv.map((p) => p.arr.shape),
    );
    const m = sizeOf(advShape);
    advOff = new Int32Array(m);
    for (const p of adv) {
      if (p.axis < 0) continue; // a 0-d bool: no axis, only the (1,) or (0,) axis it adds
      const e = expandIndex(p.arr.shape, advShape),
        n = a.shape[p.axis],
        d = p.arr.data;
      for (let i = 0; i < m; i++) {
        const v = d[e[i]];
        advOff[i] += (v < 0 ? v + n : v) * st[p.axis];
      }
    }
  }
  const positions = parts.map((p, i) => (p.kind === 'array' ? i : -1)).filter((i) => i >= 0);
  const adjacent = positions.every((p, k) => k === 0 || p === positions[k - 1] + 1);
  const advAt = !adv.length ? -1 : adjacent ? positions[0] : 0;
  let advDone = false;
  const addAdvanced = () => {
    advDone = true;
    shape.push(...advShape);
    virt.push({ len: advOff.length, off: advOff });
  };
  parts.forEach((p, i) => {
    if (i === advAt && !advDone && adjacent) addAdvanced();
    if (p.kind === 'array') return;
    if (p.kind === 'new') {
      shape.push(1);
      virt.push({ len: 1, off: Int32Array.of(0) });
      return;
    }
    if (p.kind === 'int') {
      base += p.value * st[p.axis];
      return;
    }
    const off = new Int32Array(p.len);
    for (let k = 0; k < p.len; k++) off[k] = (p.start + k * p.step) * st[p.axis];
    shape.push(p.len);
    virt.push({ len: p.len, off });
  });
  if (adv.length && !adjacent) {
    // the advanced axes come first
    const rest = virt.splice(0),
      restShape = shape.splice(0);
    addAdvanced();
    virt.push(...rest);
    shape.push(...restShape);
  }
  const total = sizeOf(virt.map((v) => v.len));
  if (total > MAX_SIZE)
    throw new ArrayTooLarge(
      total,
      total * 8,
      virt.map((v) => v.len),
    ); // its index table alone
  const offsets = new Int32Array(total),
    counter = new Array(virt.length).fill(0);
  let off = base + virt.reduce((s, v) => s + (v.len ? v.off[0] : 0), 0);
  for (let i = 0; i < total; i++) {
    offsets[i] = off;
    for (let d = virt.length - 1; d >= 0; d--) {
      const v = virt[d];
      off -= v.off[counter[d]];
      if (++counter[d] < v.len) {
        off += v.off[counter[d]];
        break;
      }
      counter[d] = 0;
      off += v.off[0];
    }
  }
  return { shape, offsets, scalar: !adv.length && shape.length === 0 && !parts.some((p) => p.kind === 'new') };
}

/** a[items]: a copy; a scalar (JS number, boolean for bool) when every axis is indexed by an integer. */
function getitem(x, ...items) {
  const a = asarray(x, null, 'getitem');
  const { shape, offsets, scalar } = indexPlan(a, items, 'getitem');
  if (scalar) return scalarOut(a.data[offsets[0]], a.dtype);
  return take(a, offsets, shape);
}

/** a[items] = value, in place (value broadcast to the selection, cast to a's dtype). Returns a. */
function setitem(a, ...args) {
  if (!(a instanceof NDArray)) throw new TypeError(`setitem: the target must be an np array, got ${describe(a)}`);
  if (args.length === 0) throw new TypeError('setitem: expected the index items and a value');
  if (onUse !== null) onUse(a.data);
  const value = args.pop();
  const { shape, offsets } = indexPlan(a, args, 'setitem');
  const v = asarray(value, null, 'setitem');
  const vs = v.shape.slice();
  while (vs.length > shape.length && vs[0] === 1) vs.shift(); // NumPy drops leading 1s of the value
  let fits = vs.length <= shape.length;
  if (fits) {
    try {
      fits = sameShape(broadcastShapes('setitem', [vs, shape]), shape);
    } catch {
      fits = false;
    }
  }
  if (!fits)
    throw new ValueError(
      `setitem: could not broadcast input array from shape ${formatShape(v.shape)} into shape ${formatShape(shape)}`,
    );
  const src = expandIndex(vs, shape),
    d = a.data,
    vd = v.data;
  for (let i = 0; i < offsets.length; i++) d[offsets[i]] = castValue(vd[src[i]], a.dtype, 'setitem');
  return a;
}

const fullSlices = (n) => Array.from({ length: n }, () => new Slice());

export { getitem, setitem, fullSlices };
