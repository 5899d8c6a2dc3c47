// np: the small NumPy-like library that student submissions get as a global. Pure ESM, no Node or DOM
// APIs: it is bundled into the sandbox realm (Node `vm` context, browser Web Worker). Contract and the
// deviations from NumPy: README.md beside this file.
import { Rng } from '../core/prng.mjs';
import { arrayToString, formatShape } from './format.mjs';
import { LIMITS } from '../limits.mjs';

// Captured once: the sandbox freezes the realm later, but np must not depend on what students do.
const {
  exp,
  log,
  sqrt,
  abs,
  tanh,
  sin,
  cos,
  floor,
  ceil,
  sign,
  trunc,
  round: mround,
  pow,
  max: mmax,
  min: mmin,
  log1p,
  expm1,
} = Math;
const { isInteger, isFinite } = Number;
const isArray = Array.isArray;
const isView = (v) => ArrayBuffer.isView(v) && typeof v.length === 'number'; // typed arrays, not DataView

const DTYPES = {
  float64: 'float64',
  float: 'float64',
  double: 'float64',
  f8: 'float64',
  float32: 'float64',
  f4: 'float64',
  single: 'float64', // accepted names; computed in float64 (README, Deviations)
  int64: 'int64',
  int: 'int64',
  i8: 'int64',
  bool: 'bool',
  bool_: 'bool',
  '?': 'bool',
};
const RANK = { bool: 0, int64: 1, float64: 2 };
const BY_RANK = ['bool', 'int64', 'float64'];

// ---------------------------------------------------------------- helpers

function describe(v) {
  if (v === null || v === undefined) return String(v);
  if (typeof v === 'string') return `a string (${JSON.stringify(v.length > 20 ? v.slice(0, 20) + '…' : v)})`;
  if (typeof v === 'function') return 'a function';
  if (typeof v === 'object') return v instanceof NDArray ? `an array of shape ${formatShape(v.shape)}` : 'an object';
  return `${typeof v} ${String(v)}`;
}

function dtypeOf(dt, where) {
  if (dt === undefined || dt === null) return null;
  if (typeof dt === 'function' && (dt.name === 'Number' || dt.name === 'Boolean'))
    return dt.name === 'Number' ? 'float64' : 'bool';
  if (typeof dt === 'string' && Object.hasOwn(DTYPES, dt)) return DTYPES[dt];
  throw new TypeError(
    `${where}: unsupported dtype ${typeof dt === 'string' ? `'${dt}'` : describe(dt)}; this np has 'float64', 'int64' and 'bool'`,
  );
}

const sizeOf = (shape) => {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
};
// One array larger than the whole memory budget of a run can never fit: it is refused when it is asked
// for, whatever the machine's speed (not found later by a watchdog racing the clock), and the sandbox
// reports it as `memory` with the shape and the student's line.
const MAX_BYTES = LIMITS.memoryMb * 2 ** 20;
const MAX_SIZE = MAX_BYTES / 8; // elements of float64 (index tables are checked against this too)
const TOO_LARGE = new WeakSet(); // the ArrayTooLarge errors np threw: a brand read without running any code of the value
/** The error of an array too large for the memory budget: a RangeError whose name is MemoryError. */
export class ArrayTooLarge extends RangeError {
  constructor(n, bytes, shape) {
    const what = shape ? `an array of shape ${formatShape(shape)}` : `an array of ${n} elements`;
    super(
      `${what} needs ${mround(bytes / 2 ** 20)} MiB, more than the ${LIMITS.memoryMb} MiB memory limit of the whole run`,
    );
    this.name = 'MemoryError';
    this.shape = shape ? shape.slice() : null;
    TOO_LARGE.add(this);
  }
}
/** Whether `e` is an ArrayTooLarge np threw (never a trap or getter of `e`: student code may throw anything). */
export const isArrayTooLarge = (e) => TOO_LARGE.has(e);
function alloc(dtype, n, shape = null) {
  const bytes = n * (dtype === 'bool' ? 1 : 8);
  if (bytes > MAX_BYTES) throw new ArrayTooLarge(n, bytes, shape);
  return dtype === 'bool' ? new Uint8Array(n) : new Float64Array(n);
}
const sameShape = (a, b) => a.length === b.length && a.every((d, i) => d === b[i]);

function stridesOf(shape) {
  const st = new Array(shape.length);
  for (let i = shape.length - 1, s = 1; i >= 0; i--) {
    st[i] = s;
    s *= shape[i];
  }
  return st;
}

function castValue(v, dtype, where) {
  if (dtype === 'bool') return v !== 0 ? 1 : 0; // NaN counts as true, like NumPy
  if (dtype === 'int64') {
    if (!isFinite(v)) throw new ValueError(`${where}: cannot convert ${v} to int64`);
    return trunc(v) + 0;
  }
  return v;
}

function castData(data, from, to, where) {
  const out = alloc(to, data.length);
  if (from === to || to === 'float64' || from === 'bool') out.set(data);
  else for (let i = 0; i < data.length; i++) out[i] = castValue(data[i], to, where);
  return out;
}

class ValueError extends Error {
  constructor(m) {
    super(m);
    this.name = 'ValueError';
  }
}
class AxisError extends ValueError {
  constructor(m) {
    super(m);
    this.name = 'AxisError';
  }
}
class IndexError extends Error {
  constructor(m) {
    super(m);
    this.name = 'IndexError';
  }
}

function normShape(shape, where, allowUnknown = false) {
  const dims = typeof shape === 'number' ? [shape] : shape instanceof NDArray ? shape.tolist() : shape;
  if (!isArray(dims))
    throw new TypeError(`${where}: a shape is an integer or an array of integers, got ${describe(shape)}`);
  const bad = dims.findIndex((d) => typeof d !== 'number' || !isInteger(d));
  if (bad >= 0)
    throw new TypeError(
      `${where}: a shape holds integers, but entry ${bad} of ${JSON.stringify(dims.map((d) => (typeof d === 'number' ? d : String(d))))} is ${describe(dims[bad])}`,
    );
  if (dims.some((d) => d < (allowUnknown ? -1 : 0)))
    throw new ValueError(`${where}: negative dimensions are not allowed (shape ${formatShape(dims)})`);
  return dims.slice();
}

function normAxis(axis, ndim, where) {
  if (typeof axis !== 'number' || !isInteger(axis))
    throw new TypeError(`${where}: axis must be an integer, got ${describe(axis)}`);
  if (axis < -ndim || axis >= ndim)
    throw new AxisError(`${where}: axis ${axis} is out of bounds for array of dimension ${ndim}`);
  return axis < 0 ? axis + ndim : axis;
}

const isOptions = (x) => x !== null && typeof x === 'object' && !isArray(x) && !isView(x) && !(x instanceof NDArray);

// Arguments after the array(s): positional in `names` order, or an options object as the last
// argument ({axis, keepdims}), or both (positional first).
function parseArgs(where, args, names, defaults = {}) {
  const out = { ...defaults };
  let pos = args;
  if (args.length && isOptions(args[args.length - 1])) {
    const opts = args[args.length - 1];
    pos = args.slice(0, -1);
    for (const k of Object.keys(opts)) {
      if (!names.includes(k)) throw new TypeError(`${where}: unknown option '${k}' (options: ${names.join(', ')})`);
      if (pos[names.indexOf(k)] !== undefined) throw new TypeError(`${where}: got multiple values for '${k}'`);
      if (opts[k] !== undefined) out[k] = opts[k];
    }
  }
  if (pos.length > names.length)
    throw new TypeError(
      `${where}: too many arguments; after the array it takes ${names.join(', ')} (or an options object {${names.join(', ')}})`,
    );
  pos.forEach((v, i) => {
    if (v !== undefined) out[names[i]] = v;
  });
  return out;
}

// Offsets into a source with `strides` for every position of `shape`, in row-major order.
function gatherIndex(shape, strides, base = 0) {
  const n = sizeOf(shape),
    nd = shape.length;
  if (n > MAX_SIZE) throw new ArrayTooLarge(n, n * 8, shape);
  const idx = new Int32Array(n),
    counter = new Array(nd).fill(0);
  let off = base;
  for (let i = 0; i < n; i++) {
    idx[i] = off;
    for (let ax = nd - 1; ax >= 0; ax--) {
      off += strides[ax];
      if (++counter[ax] < shape[ax]) break;
      off -= strides[ax] * shape[ax];
      counter[ax] = 0;
    }
  }
  return idx;
}

// Strides of `shape` read as `outShape` under broadcasting (0 where a dimension is stretched).
function broadcastStrides(shape, outShape) {
  const off = outShape.length - shape.length,
    st = new Array(outShape.length).fill(0);
  for (let i = shape.length - 1, s = 1; i >= 0; i--) {
    st[i + off] = shape[i] === 1 ? 0 : s;
    s *= shape[i];
  }
  return st;
}

function broadcastShapes(where, shapes) {
  const nd = mmax(...shapes.map((s) => s.length)),
    out = new Array(nd).fill(1);
  for (const s of shapes) {
    for (let i = 0; i < s.length; i++) {
      const j = nd - s.length + i,
        d = s[i];
      if (d === out[j] || d === 1) continue;
      if (out[j] !== 1)
        throw new ValueError(
          `${where}: operands could not be broadcast together with shapes ${shapes.map(formatShape).join(' ')}`,
        );
      out[j] = d;
    }
  }
  return out;
}

const expandIndex = (shape, outShape) => gatherIndex(outShape, broadcastStrides(shape, outShape));

// Walks `outShape` one run of its last axis at a time: row(outOffset, offsets, innerStrides, n), where
// offsets[q] is where operand q's run starts (operand q read with strides st[q]). Keeps the
// per-element work of broadcasting and transposing to a pointer increment.
const broadcastRows = (outShape, shapes, row) =>
  stridedRows(
    outShape,
    shapes.map((s) => broadcastStrides(s, outShape)),
    row,
  );
function stridedRows(outShape, st, row) {
  const nd = outShape.length;
  const n = nd ? outShape[nd - 1] : 1,
    inner = st.map((s) => (nd ? s[nd - 1] : 0));
  const rows = n === 0 ? 0 : sizeOf(outShape) / n,
    q = st.length;
  const offs = new Array(q).fill(0),
    counter = new Array(nd).fill(0);
  for (let r = 0; r < rows; r++) {
    row(r * n, offs, inner, n);
    for (let ax = nd - 2; ax >= 0; ax--) {
      for (let i = 0; i < q; i++) offs[i] += st[i][ax];
      if (++counter[ax] < outShape[ax]) break;
      for (let i = 0; i < q; i++) offs[i] -= st[i][ax] * outShape[ax];
      counter[ax] = 0;
    }
  }
}

function take(a, idx, shape) {
  const out = alloc(a.dtype, idx.length, shape),
    d = a.data;
  for (let i = 0; i < idx.length; i++) out[i] = d[idx[i]];
  return new NDArray(out, shape, a.dtype);
}

const scalarOut = (v, dtype) => (dtype === 'bool' ? v !== 0 : v);
const isScalar = (x) => typeof x === 'number' || typeof x === 'boolean';

// ---------------------------------------------------------------- conversion

function fromNested(x, dtype, where) {
  const shape = [];
  for (let v = x; ;) {
    if (v instanceof NDArray) {
      shape.push(...v.shape);
      break;
    }
    if (!isArray(v) && !isView(v)) break;
    shape.push(v.length);
    if (v.length === 0) break;
    v = v[0];
  }
  const data = new Float64Array(sizeOf(shape));
  let k = 0,
    rank = -1;
  const ragged = (depth) =>
    new ValueError(
      `${where}: setting an array element with a sequence. The requested array has an inhomogeneous shape after ${depth} dimensions. The detected shape was ${formatShape(shape.slice(0, depth))} + inhomogeneous part.`,
    );
  const fill = (v, depth, path) => {
    if (v instanceof NDArray) {
      if (!sameShape(v.shape, shape.slice(depth))) throw ragged(depth);
      if (onUse !== null) onUse(v.data);
      data.set(v.data, k);
      k += v.size;
      rank = mmax(rank, RANK[v.dtype]);
    } else if (depth === shape.length) {
      if (typeof v === 'number') rank = 2;
      else if (typeof v === 'boolean') rank = mmax(rank, 0);
      else if (isArray(v) || isView(v)) throw ragged(depth);
      else
        throw new TypeError(
          `${where}: element ${path || '(the value)'} is ${describe(v)}; expected a number or a boolean`,
        );
      data[k++] = +v;
    } else {
      if ((!isArray(v) && !isView(v)) || v.length !== shape[depth]) throw ragged(depth);
      for (let i = 0; i < v.length; i++) fill(v[i], depth + 1, `${path}[${i}]`);
    }
  };
  fill(x, 0, '');
  const natural = rank < 0 ? 'float64' : BY_RANK[rank];
  const dt = dtype || natural;
  return new NDArray(dt === 'float64' ? data : castData(data, 'float64', dt, where), shape, dt);
}

/** Anything array-like → NDArray (no copy when it already is one of the wanted dtype). */
function asarray(x, dtype, where = 'asarray') {
  const dt = dtypeOf(dtype, where);
  if (x instanceof NDArray) {
    if (onUse !== null) onUse(x.data);
    return !dt || dt === x.dtype ? x : x.astype(dt);
  }
  if (typeof x === 'number' || typeof x === 'boolean') {
    const natural = typeof x === 'boolean' ? 'bool' : 'float64',
      d = dt || natural;
    const out = alloc(d, 1);
    out[0] = castValue(+x, d, where);
    return new NDArray(out, [], d);
  }
  if (isArray(x) || isView(x)) return fromNested(x, dt, where);
  throw new TypeError(`${where}: expected an array, a nested JS array or a number, got ${describe(x)}`);
}

function array(x, ...args) {
  const { dtype } = parseArgs('array', args, ['dtype']);
  const a = asarray(x, dtype, 'array');
  return a === x ? a.copy() : a;
}

// An operand of an element-wise function. JS numbers are "weak" like Python scalars in NumPy 2:
// an integer-valued number keeps an int64 array int64, a fractional one makes it float64.
function operand(x, where) {
  if (typeof x === 'number') return { data: [x], shape: [], dtype: isInteger(x) ? 'int64' : 'float64', scalar: true };
  if (typeof x === 'boolean') return { data: [+x], shape: [], dtype: 'bool', scalar: true };
  const a = asarray(x, null, where);
  return { data: a.data, shape: a.shape, dtype: a.dtype, scalar: false };
}

// ---------------------------------------------------------------- NDArray

// Students index arrays the way JS arrays are indexed: `a[i]` is element i of a 1-D array, and row i
// of a larger one as a view (it shares the data, as NumPy's `a[i]` does: made once per row and kept,
// so `Q[i][c]` in an inner loop costs an element read, not a copy of the row), `a.length` is
// `a.shape[0]`, `for (const row of a)` iterates the same rows. Writing `a[i] = v` is refused with a
// sentence naming `a.set(i, v)`. This is a Proxy *behind* NDArray.prototype: fields and methods are
// found before it (`Q.get(i, j)` costs a plain method call), and only a name no array has (an index,
// `length`) reaches its traps, with the array as the receiver (`i in a` has none, so it is false).
/** The array index a property key spells ('0', '17'; not '01', '1e3'), or -1. */
function indexOf(key) {
  if (typeof key !== 'string') return -1;
  const n = key.length;
  if (n === 0 || n > 9 || (n > 1 && key.charCodeAt(0) === 48)) return -1;
  let i = 0;
  for (let k = 0; k < n; k++) {
    const c = key.charCodeAt(k) - 48;
    if (c < 0 || c > 9) return -1;
    i = i * 10 + c;
  }
  return i;
}
const ROWS = new WeakMap(); // NDArray → its row views, made on first use
function rowOf(a, i) {
  const { shape, data, dtype } = a;
  if (onUse !== null) onUse(data);
  if (shape.length === 1) return scalarOut(data[i], dtype);
  let rows = ROWS.get(a);
  if (!rows) ROWS.set(a, (rows = new Array(shape[0])));
  if (rows[i] === undefined) {
    const n = data.length / shape[0];
    rows[i] = new NDArray(data.subarray(i * n, (i + 1) * n), shape.slice(1), dtype);
  }
  return rows[i];
}
const REAL = new WeakSet(); // the arrays np made: a brand no other object can carry
const INDEXED = new Proxy(Object.create(Object.prototype), {
  get(target, key, receiver) {
    const i = indexOf(key);
    if (i >= 0 && REAL.has(receiver)) {
      if (receiver.shape.length === 0)
        throw new IndexError('too many indices for array: array is 0-dimensional, but 1 were indexed');
      return i < receiver.shape[0] ? rowOf(receiver, i) : undefined;
    }
    if (key === 'length' && REAL.has(receiver)) return receiver.shape.length ? receiver.shape[0] : undefined;
    return Reflect.get(target, key, receiver);
  },
  set(target, key, value, receiver) {
    if (indexOf(key) >= 0 && REAL.has(receiver))
      throw new TypeError(
        `a[${key}] = … does not write into an np array: use a.set(${key}, value) (or a.set(i, j, value) for one element)`,
      );
    return Reflect.set(target, key, value, receiver);
  },
});

// ---------------------------------------------------------------- measurement: hooks at creation and use
// The grader measures what a call into student code builds (grader/np/README.md "Measurement"): while
// watchArrays(hook, fn, use) runs fn, hook(data, shape, dtype) sees every NDArray constructed, views
// (which share their data) included; the hook tells them apart by their buffer. use(data), if given,
// sees every array np is handed or whose method runs (an operand, a.set(…), a.get(…), a row of a): the
// moments that prove an array still alive. A hook may throw to stop the computation there (the Python
// track's way to find a line). When nothing watches, the cost is one comparison per array.
let onCreate = null,
  onUse = null;
export function watchArrays(hook, fn, use = null) {
  const outer = onCreate,
    outerUse = onUse;
  onCreate = hook;
  onUse = use;
  try {
    return fn();
  } finally {
    onCreate = outer;
    onUse = outerUse;
  }
}
/** Tells the use hook that `a`'s data is read or written now (the Python bridge's views read their root). */
export function touchArray(a) {
  if (onUse !== null && REAL.has(a)) onUse(a.data);
}

export class NDArray {
  /** { dtype, shape, data } of a real NDArray (its fields as they are now), null for anything else. */
  static parts(v) {
    return REAL.has(v) ? { dtype: v.dtype, shape: v.shape, data: v.data } : null;
  }
  constructor(data, shape, dtype = data instanceof Uint8Array ? 'bool' : 'float64') {
    if (!Object.hasOwn(RANK, dtype) || (dtype === 'bool') !== data instanceof Uint8Array)
      throw new TypeError(`NDArray: dtype ${describe(dtype)} does not fit its data`);
    if (sizeOf(shape) !== data.length)
      throw new ValueError(
        `NDArray: shape ${formatShape(shape)} needs ${sizeOf(shape)} elements, data has ${data.length}`,
      );
    this.data = data;
    this.shape = Object.freeze(shape.slice());
    this.dtype = dtype;
    if (onCreate !== null) onCreate(data, this.shape, dtype);
    REAL.add(this);
  }
  get ndim() {
    return this.shape.length;
  }
  get size() {
    return this.data.length;
  }
  /** All axes reversed, as in NumPy: (B, T, d).T is (d, T, B). */
  get T() {
    return transpose(this);
  }

  tolist() {
    const { data, shape, dtype } = this;
    if (onUse !== null) onUse(data);
    const conv = dtype === 'bool' ? (v) => v !== 0 : (v) => v;
    let k = 0;
    const build = (axis) => {
      if (axis === shape.length) return conv(data[k++]);
      const row = new Array(shape[axis]);
      for (let i = 0; i < row.length; i++) row[i] = build(axis + 1);
      return row;
    };
    return build(0);
  }
  item(...idx) {
    if (onUse !== null) onUse(this.data);
    if (idx.length === 0) {
      if (this.size !== 1)
        throw new ValueError(
          `item: can only convert an array of size 1 to a scalar (this one has shape ${formatShape(this.shape)})`,
        );
      return scalarOut(this.data[0], this.dtype);
    }
    if (idx.length === 1) {
      const i = idx[0];
      if (!isInteger(i) || i < -this.size || i >= this.size)
        throw new IndexError(`item: index ${i} is out of bounds for size ${this.size}`);
      return scalarOut(this.data[i < 0 ? i + this.size : i], this.dtype);
    }
    return this.get(...idx);
  }
  toString() {
    if (onUse !== null) onUse(this.data);
    return arrayToString(this.data, this.shape, this.dtype);
  }
  [Symbol.for('nodejs.util.inspect.custom')]() {
    return this.toString();
  }
  toJSON() {
    return this.tolist();
  }
  // JS has no operator overloading: `a + 1` would silently concatenate strings. Refuse it.
  [Symbol.toPrimitive](hint) {
    if (hint === 'string') return this.toString();
    if (this.size === 1) return this.data[0];
    throw new TypeError(
      `JavaScript operators and Math functions do not work on arrays (this one has shape ${formatShape(this.shape)}); to print an array use print(a)`,
    );
  }
  valueOf() {
    return this[Symbol.toPrimitive]('number');
  }
  *[Symbol.iterator]() {
    if (this.ndim === 0) throw new TypeError('iteration over a 0-d array');
    for (let i = 0; i < this.shape[0]; i++) yield this[i];
  }

  // Integer indices (negative count from the end) or null for a whole axis; missing trailing indices
  // mean whole axes. All axes given as integers → a JS scalar, otherwise a new array (a copy).
  _select(idx, where) {
    const { shape } = this,
      st = stridesOf(shape);
    if (idx.length > shape.length)
      throw new IndexError(
        `${where}: too many indices for array: array is ${shape.length}-dimensional, but ${idx.length} were indexed`,
      );
    let base = 0;
    const outShape = [],
      outStrides = [];
    for (let ax = 0; ax < shape.length; ax++) {
      const i = idx[ax];
      if (ax >= idx.length || i === null) {
        outShape.push(shape[ax]);
        outStrides.push(st[ax]);
        continue;
      }
      if (typeof i !== 'number' || !isInteger(i))
        throw new IndexError(
          `${where}: index for axis ${ax} must be an integer or null (the whole axis), got ${describe(i)}`,
        );
      if (i < -shape[ax] || i >= shape[ax])
        throw new IndexError(`${where}: index ${i} is out of bounds for axis ${ax} with size ${shape[ax]}`);
      base += (i < 0 ? i + shape[ax] : i) * st[ax];
    }
    return { base, outShape, outStrides };
  }
  /** The offset of one element given by an integer per axis (negative from the end), or -1 to take the general path. */
  _offset(idx) {
    const { shape } = this;
    if (idx.length !== shape.length) return -1;
    let off = 0;
    for (let ax = 0; ax < shape.length; ax++) {
      let i = idx[ax];
      const n = shape[ax];
      if (typeof i !== 'number' || !isInteger(i) || i < -n || i >= n) return -1; // _select says what is wrong
      if (i < 0) i += n;
      off = off * n + i;
    }
    return off;
  }
  get(...idx) {
    if (onUse !== null) onUse(this.data);
    const off = this._offset(idx);
    if (off >= 0) return scalarOut(this.data[off], this.dtype);
    const { base, outShape, outStrides } = this._select(idx, 'get');
    if (outShape.length === 0) return scalarOut(this.data[base], this.dtype);
    return take(this, gatherIndex(outShape, outStrides, base), outShape);
  }
  at(i) {
    return this.get(i);
  }
  /** a.set(i, j, value), a.set(i, null, rowValues), or a.set(boolMask, value). Returns a. */
  set(...args) {
    if (onUse !== null) onUse(this.data);
    if (args.length === 0) throw new TypeError('set: expected indices and a value');
    const value = args.pop();
    const cast = (v) => castValue(v, this.dtype, 'set');
    if (typeof value === 'number' || typeof value === 'boolean') {
      const off = this._offset(args);
      if (off >= 0) {
        this.data[off] = cast(+value);
        return this;
      }
    }
    if (args.length === 1 && (args[0] instanceof NDArray || isArray(args[0]))) {
      const mask = asarray(args[0], null, 'set');
      if (mask.dtype !== 'bool')
        throw new IndexError(
          `set: an array index must be a boolean mask (got dtype ${mask.dtype}); use integer indices for single elements`,
        );
      if (!sameShape(mask.shape, this.shape))
        throw new IndexError(
          `set: boolean mask of shape ${formatShape(mask.shape)} does not match the array's shape ${formatShape(this.shape)}`,
        );
      const v = asarray(value, null, 'set'),
        count = mask.data.reduce((s, m) => s + m, 0);
      if (v.size !== 1 && v.size !== count)
        throw new ValueError(`set: ${v.size} values cannot be assigned to the ${count} positions the mask selects`);
      for (let i = 0, k = 0; i < mask.size; i++) if (mask.data[i]) this.data[i] = cast(v.data[v.size === 1 ? 0 : k++]);
      return this;
    }
    const { base, outShape, outStrides } = this._select(args, 'set');
    const target = gatherIndex(outShape, outStrides, base),
      v = asarray(value, null, 'set');
    let fits = v.ndim <= outShape.length;
    try {
      fits = fits && sameShape(broadcastShapes('set', [v.shape, outShape]), outShape);
    } catch {
      fits = false;
    }
    if (!fits)
      throw new ValueError(
        `set: could not broadcast input array from shape ${formatShape(v.shape)} into shape ${formatShape(outShape)}`,
      );
    const src = expandIndex(v.shape, outShape);
    for (let i = 0; i < target.length; i++) this.data[target[i]] = cast(v.data[src[i]]);
    return this;
  }

  astype(dtype) {
    if (onUse !== null) onUse(this.data);
    const dt = dtypeOf(dtype, 'astype') || 'float64';
    return new NDArray(castData(this.data, this.dtype, dt, 'astype'), this.shape, dt);
  }
  copy() {
    if (onUse !== null) onUse(this.data);
    return new NDArray(this.data.slice(), this.shape, this.dtype);
  }
  reshape(...shape) {
    return reshape(this, ...shape);
  }
  flatten() {
    return this.copy().reshape(-1);
  }
  ravel() {
    return reshape(this, -1);
  }
  transpose(...axes) {
    return transpose(this, ...axes);
  }
  swapaxes(a1, a2) {
    return swapaxes(this, a1, a2);
  }
  squeeze(...args) {
    return squeeze(this, ...args);
  }
}
Object.setPrototypeOf(NDArray.prototype, INDEXED);

// ---------------------------------------------------------------- element-wise

// kind: 'arith' (bool → int64), 'minmax' (bool stays), 'div' (always float64), 'cmp'/'logic' (→ bool)
// fInt: the function for an int64 result, where it differs (floor_divide, remainder).
function binary(name, x, y, f, kind, fInt = null) {
  const a = operand(x, name),
    b = operand(y, name);
  const shape = sameShape(a.shape, b.shape) ? a.shape : broadcastShapes(name, [a.shape, b.shape]);
  const inType = BY_RANK[mmax(RANK[a.dtype], RANK[b.dtype])];
  const outType =
    kind === 'cmp' || kind === 'logic'
      ? 'bool'
      : kind === 'div'
        ? 'float64'
        : inType === 'bool' && kind !== 'minmax'
          ? 'int64'
          : inType;
  if (fInt && outType === 'int64') f = fInt;
  if (name === 'power' && outType === 'int64' && b.data.some((v) => v < 0))
    throw new ValueError(
      'power: Integers to negative integer powers are not allowed (make the base a float, e.g. np.power(a.astype("float64"), b))',
    );
  const n = sizeOf(shape),
    out = alloc(outType, n, shape),
    ad = a.data,
    bd = b.data;
  if (
    outType === 'float64' &&
    ARITH[name] &&
    (bd.length === 1 || ad.length === 1 || (sameShape(a.shape, shape) && sameShape(b.shape, shape)))
  ) {
    ARITH[name](out, ad, bd, n); // the four operators, inlined (a call per element costs most of the time)
  } else if (sameShape(a.shape, shape) && sameShape(b.shape, shape))
    for (let i = 0; i < n; i++) out[i] = f(ad[i], bd[i]);
  else if (bd.length === 1 && sameShape(a.shape, shape)) {
    const v = bd[0];
    for (let i = 0; i < n; i++) out[i] = f(ad[i], v);
  } else if (ad.length === 1 && sameShape(b.shape, shape)) {
    const v = ad[0];
    for (let i = 0; i < n; i++) out[i] = f(v, bd[i]);
  } else {
    broadcastRows(shape, [a.shape, b.shape], (o, offs, inner, len) => {
      const sa = inner[0],
        sb = inner[1];
      for (let j = 0, pa = offs[0], pb = offs[1]; j < len; j++, pa += sa, pb += sb) out[o + j] = f(ad[pa], bd[pb]);
    });
  }
  return a.scalar && b.scalar ? scalarOut(out[0], outType) : new NDArray(out, shape, outType);
}

// + - * / on float64 results where both operands have the result's size or one is a single value:
// out[i] = a[i or 0] op b[i or 0], one loop each, no call per element.
// (Written out: the realms evaluate no strings.)
const ARITH = {
  add(out, a, b, n) {
    if (a.length === n && b.length === n) for (let i = 0; i < n; i++) out[i] = a[i] + b[i];
    else if (b.length === 1) {
      const v = b[0];
      for (let i = 0; i < n; i++) out[i] = a[i] + v;
    } else {
      const v = a[0];
      for (let i = 0; i < n; i++) out[i] = v + b[i];
    }
  },
  subtract(out, a, b, n) {
    if (a.length === n && b.length === n) for (let i = 0; i < n; i++) out[i] = a[i] - b[i];
    else if (b.length === 1) {
      const v = b[0];
      for (let i = 0; i < n; i++) out[i] = a[i] - v;
    } else {
      const v = a[0];
      for (let i = 0; i < n; i++) out[i] = v - b[i];
    }
  },
  multiply(out, a, b, n) {
    if (a.length === n && b.length === n) for (let i = 0; i < n; i++) out[i] = a[i] * b[i];
    else if (b.length === 1) {
      const v = b[0];
      for (let i = 0; i < n; i++) out[i] = a[i] * v;
    } else {
      const v = a[0];
      for (let i = 0; i < n; i++) out[i] = v * b[i];
    }
  },
  divide(out, a, b, n) {
    if (a.length === n && b.length === n) for (let i = 0; i < n; i++) out[i] = a[i] / b[i];
    else if (b.length === 1) {
      const v = b[0];
      for (let i = 0; i < n; i++) out[i] = a[i] / v;
    } else {
      const v = a[0];
      for (let i = 0; i < n; i++) out[i] = v / b[i];
    }
  },
};

const cpow = (x, y) => (x === 1 || (x === -1 && (y === Infinity || y === -Infinity)) ? 1 : pow(x, y));
const truthy = (v) => v !== 0; // NaN is true, as in NumPy

const BINARY = {
  add: [(x, y) => x + y, 'arith'],
  subtract: [(x, y) => x - y, 'arith'],
  multiply: [(x, y) => x * y, 'arith'],
  divide: [(x, y) => x / y, 'div'],
  power: [cpow, 'arith'],
  maximum: [mmax, 'minmax'],
  minimum: [mmin, 'minmax'],
  equal: [(x, y) => x === y, 'cmp'],
  not_equal: [(x, y) => x !== y, 'cmp'],
  less: [(x, y) => x < y, 'cmp'],
  less_equal: [(x, y) => x <= y, 'cmp'],
  greater: [(x, y) => x > y, 'cmp'],
  greater_equal: [(x, y) => x >= y, 'cmp'],
  logical_and: [(x, y) => truthy(x) && truthy(y), 'logic'],
  logical_or: [(x, y) => truthy(x) || truthy(y), 'logic'],
  logical_xor: [(x, y) => truthy(x) !== truthy(y), 'logic'],
};

// kind: 'float' (→ float64), 'keep' (dtype kept; bool → int64), 'pred' (→ bool)
function unary(name, x, f, kind) {
  const a = operand(x, name);
  if (name === 'negative' && a.dtype === 'bool')
    throw new TypeError('negative: the boolean negative is not supported, use np.logical_not instead');
  const outType =
    kind === 'float'
      ? 'float64'
      : kind === 'pred'
        ? 'bool'
        : a.dtype === 'bool' && name !== 'absolute'
          ? 'int64'
          : a.dtype;
  const d = a.data,
    out = alloc(outType, d.length);
  for (let i = 0; i < d.length; i++) out[i] = f(d[i]);
  return a.scalar ? scalarOut(out[0], outType) : new NDArray(out, a.shape, outType);
}

const UNARY = {
  exp: [exp, 'float'],
  log: [log, 'float'],
  sqrt: [sqrt, 'float'],
  tanh: [tanh, 'float'],
  sin: [sin, 'float'],
  cos: [cos, 'float'],
  log1p: [log1p, 'float'],
  expm1: [expm1, 'float'],
  absolute: [abs, 'keep'],
  negative: [(v) => -v, 'keep'],
  square: [(v) => v * v, 'keep'],
  sign: [(v) => (v !== v ? NaN : sign(v) + 0), 'keep'],
  floor: [floor, 'keep'],
  ceil: [ceil, 'keep'],
  isnan: [(v) => v !== v, 'pred'],
  isinf: [(v) => v === Infinity || v === -Infinity, 'pred'],
  isfinite: [isFinite, 'pred'],
  logical_not: [(v) => v === 0, 'pred'],
};

// Round half to even, like NumPy's rint.
function rint(x) {
  const r = mround(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

function round(x, ...args) {
  const { decimals } = parseArgs('round', args, ['decimals'], { decimals: 0 });
  if (!isInteger(decimals)) throw new TypeError(`round: decimals must be an integer, got ${describe(decimals)}`);
  const a = operand(x, 'round');
  if (a.dtype !== 'float64' && decimals >= 0) return a.scalar ? x : asarray(x).copy();
  // Same float steps as NumPy (multiply, rint, divide), so np.round(w, 3) prints the same digits.
  const p = pow(10, abs(decimals));
  const f = decimals >= 0 ? (v) => rint(v * p) / p : (v) => rint(v / p) * p;
  return unary('round', x, f, 'keep');
}

function where(cond, ...xy) {
  if (xy.length === 0) return nonzero(cond);
  if (xy.length !== 2) throw new TypeError('where: takes (condition) or (condition, x, y)');
  const c = operand(cond, 'where'),
    a = operand(xy[0], 'where'),
    b = operand(xy[1], 'where');
  const shape = broadcastShapes('where', [c.shape, a.shape, b.shape]);
  const outType = BY_RANK[mmax(RANK[a.dtype], RANK[b.dtype])];
  const n = sizeOf(shape),
    out = alloc(outType, n, shape);
  const cd = c.data,
    ad = a.data,
    bd = b.data;
  broadcastRows(shape, [c.shape, a.shape, b.shape], (o, offs, inner, len) => {
    const [sc, sa, sb] = inner;
    for (let j = 0, pc = offs[0], pa = offs[1], pb = offs[2]; j < len; j++, pc += sc, pa += sa, pb += sb)
      out[o + j] = cd[pc] !== 0 ? ad[pa] : bd[pb];
  });
  return c.scalar && a.scalar && b.scalar ? scalarOut(out[0], outType) : new NDArray(out, shape, outType);
}

/** Indices of the non-zero elements: one int64 array per axis (a JS array where NumPy has a tuple). */
function nonzero(x) {
  const a = asarray(x, null, 'nonzero');
  if (a.ndim === 0)
    throw new ValueError('nonzero: calling nonzero on 0d arrays is not allowed; reshape it to 1-D first');
  const st = stridesOf(a.shape),
    hits = [];
  for (let i = 0; i < a.size; i++) if (a.data[i] !== 0) hits.push(i);
  return a.shape.map(
    (n, ax) =>
      new NDArray(
        Float64Array.from(hits, (i) => floor(i / st[ax]) % n),
        [hits.length],
        'int64',
      ),
  );
}

function clip(x, lo, hi) {
  return minimum(maximum(x, lo), hi);
}
const { maximum, minimum } = Object.fromEntries(
  ['maximum', 'minimum'].map((k) => [k, (x, y) => binary(k, x, y, ...BINARY[k])]),
);

// ---------------------------------------------------------------- reductions

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
function isclose(x, y, ...args) {
  const { rtol, atol, equal_nan } = parseArgs('isclose', args, ['rtol', 'atol', 'equal_nan'], {
    rtol: 1e-5,
    atol: 1e-8,
    equal_nan: false,
  });
  return binary(
    'isclose',
    x,
    y,
    (p, q) => {
      if (p === q) return true; // also equal infinities
      if (p !== p || q !== q) return equal_nan && p !== p && q !== q;
      return abs(p - q) <= atol + rtol * abs(q);
    },
    'cmp',
  );
}
function array_equal(x, y) {
  const a = asarray(x, null, 'array_equal'),
    b = asarray(y, null, 'array_equal');
  return sameShape(a.shape, b.shape) && a.data.every((v, i) => v === b.data[i]);
}
const all = (x, ...args) => reduce('all', x, args);

// ---------------------------------------------------------------- shape manipulation

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
  const dtype = BY_RANK[mmax(...list.map((a) => RANK[a.dtype]))];
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

// ---------------------------------------------------------------- linear algebra

const SIG = 'with gufunc signature (n?,k),(k,m?)->(n?,m?)';

function matmul(x, y) {
  const A = asarray(x, null, 'matmul'),
    B = asarray(y, null, 'matmul');
  [A, B].forEach((t, i) => {
    if (t.ndim === 0)
      throw new ValueError(
        `matmul: Input operand ${i} does not have enough dimensions (has 0, gufunc core ${SIG} requires 1)`,
      );
  });
  const as = A.ndim === 1 ? [1, A.shape[0]] : A.shape,
    bs = B.ndim === 1 ? [B.shape[0], 1] : B.shape;
  const n = as[as.length - 2],
    k = as[as.length - 1],
    k2 = bs[bs.length - 2],
    m = bs[bs.length - 1];
  if (k !== k2)
    throw new ValueError(
      `matmul: Input operand 1 has a mismatch in its core dimension 0, ${SIG} (size ${k2} is different from ${k}); the shapes are ${formatShape(A.shape)} ${formatShape(B.shape)}`,
    );
  const ba = as.slice(0, -2),
    bb = bs.slice(0, -2);
  let batch;
  try {
    batch = broadcastShapes('matmul', [ba, bb]);
  } catch {
    const remap = (orig, b) => `${formatShape(orig)}->(${[...b, 'newaxis', 'newaxis'].join(',')})`;
    throw new ValueError(
      `matmul: operands could not be broadcast together with remapped shapes [original->remapped]: ${remap(A.shape, ba)} ${remap(B.shape, bb)}  and requested shape (${n},${m})`,
    );
  }
  const dtype = BY_RANK[mmax(RANK[A.dtype], RANK[B.dtype])];
  const nb = sizeOf(batch),
    ia = expandIndex(ba, batch),
    ib = expandIndex(bb, batch);
  const cd = new Float64Array(nb * n * m);
  for (let t = 0; t < nb; t++) gemm(A.data, ia[t] * n * k, B.data, ib[t] * k * m, cd, t * n * m, n, k, m);
  const shape = [...batch, ...(A.ndim === 1 ? [] : [n]), ...(B.ndim === 1 ? [] : [m])];
  const out = dtype === 'bool' ? castData(cd, 'float64', 'bool', 'matmul') : cd;
  return shape.length === 0 ? scalarOut(out[0], dtype) : new NDArray(out, shape, dtype);
}

// C[n,m] = A[n,k]·B[k,m] at the given offsets. 2×4 blocks of C stay in registers (about 5× faster
// than the plain i-p-j loop in V8); each C[i,j] still sums its k products in order from 0, so the
// result equals the textbook triple loop bit for bit.
function gemm(A, ao, B, bo, C, co, n, k, m) {
  const m4 = m - (m % 4);
  for (let i = 0; i < n; i += 2) {
    const both = i + 1 < n,
      a0 = ao + i * k,
      a1 = both ? a0 + k : a0,
      c0 = co + i * m,
      c1 = c0 + m;
    for (let j = 0; j < m4; j += 4) {
      let s0 = 0,
        s1 = 0,
        s2 = 0,
        s3 = 0,
        t0 = 0,
        t1 = 0,
        t2 = 0,
        t3 = 0;
      for (let p = 0, bp = bo + j; p < k; p++, bp += m) {
        const u = A[a0 + p],
          v = A[a1 + p],
          b0 = B[bp],
          b1 = B[bp + 1],
          b2 = B[bp + 2],
          b3 = B[bp + 3];
        s0 += u * b0;
        s1 += u * b1;
        s2 += u * b2;
        s3 += u * b3;
        t0 += v * b0;
        t1 += v * b1;
        t2 += v * b2;
        t3 += v * b3;
      }
      C[c0 + j] = s0;
      C[c0 + j + 1] = s1;
      C[c0 + j + 2] = s2;
      C[c0 + j + 3] = s3;
      if (both) {
        C[c1 + j] = t0;
        C[c1 + j + 1] = t1;
        C[c1 + j + 2] = t2;
        C[c1 + j + 3] = t3;
      }
    }
    for (let j = m4; j < m; j++) {
      let s = 0,
        t = 0;
      for (let p = 0, bp = bo + j; p < k; p++, bp += m) {
        const b = B[bp];
        s += A[a0 + p] * b;
        t += A[a1 + p] * b;
      }
      C[c0 + j] = s;
      if (both) C[c1 + j] = t;
    }
  }
}

function dot(x, y) {
  if (isScalar(x) || isScalar(y) || asarray(x).ndim === 0 || asarray(y).ndim === 0) return multiply(x, y);
  const a = asarray(x, null, 'dot'),
    b = asarray(y, null, 'dot');
  if ((a.ndim <= 2 && b.ndim <= 2) || b.ndim === 1) return matmul(a, b);
  // N-D: the sum over a's last axis and b's second-to-last, shape a.shape[:-1] + b.shape[:-2] + b.shape[-1:]
  const k = a.shape[a.ndim - 1],
    kb = b.shape[b.ndim - 2];
  if (k !== kb)
    throw new ValueError(
      `dot: shapes ${formatShape(a.shape)} and ${formatShape(b.shape)} not aligned: ${k} (dim ${a.ndim - 1}) != ${kb} (dim ${b.ndim - 2})`,
    );
  const perm = [b.ndim - 2, ...[...Array(b.ndim).keys()].filter((i) => i !== b.ndim - 2)];
  const r = matmul(reshape(a, [-1, k]), reshape(transpose(b, perm), [k, -1]));
  return reshape(r, [...a.shape.slice(0, -1), ...b.shape.slice(0, -2), b.shape[b.ndim - 1]]);
}
const multiply = (x, y) => binary('multiply', x, y, ...BINARY.multiply);

// ---------------------------------------------------------------- creation

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

// ---------------------------------------------------------------- random

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

// ---------------------------------------------------------------- general indexing: NumPy's a[...]

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

// Element-wise functions the JavaScript table above does not have, with Python's semantics
// (the quotient floored, the remainder with the sign of the divisor); integer division by zero is 0.
function floorDivide(x, y) {
  return binary(
    'floor_divide',
    x,
    y,
    (p, q) => floor(p / q),
    'arith',
    (p, q) => (q === 0 ? 0 : floor(p / q)),
  );
}
function remainder(x, y) {
  const f = (p, q) => {
    if (q === 0) return NaN;
    const r = p % q;
    return r !== 0 && r < 0 !== q < 0 ? r + q : r;
  };
  return binary('remainder', x, y, f, 'arith', (p, q) => (q === 0 ? 0 : f(p, q)));
}

// ---------------------------------------------------------------- joining, repeating, sorting, einsum, norms
// NumPy's functions that real attention code uses beyond the lesson's (split heads with np.split, GQA
// with np.repeat, top-k with argsort/partition, cumulative sums for top-p, einsum, linalg.norm).
// Each returns new data (NumPy's split returns views; here they are copies).

const fullSlices = (n) => Array.from({ length: n }, () => new Slice());

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

function logaddexp(x, y) {
  return binary(
    'logaddexp',
    x,
    y,
    (p, q) => {
      if (p === q) return p + Math.LN2; // equal infinities too
      const d = p - q;
      return d > 0 ? p + log1p(exp(-d)) : d <= 0 ? q + log1p(exp(d)) : d;
    },
    'div',
  );
}

function nan_to_num(x, ...args) {
  const o = parseArgs('nan_to_num', args, ['copy', 'nan', 'posinf', 'neginf'], { nan: 0, posinf: null, neginf: null });
  const a = operand(x, 'nan_to_num');
  if (a.dtype !== 'float64') return a.scalar ? scalarOut(a.data[0], a.dtype) : asarray(x).copy();
  const pos = o.posinf ?? Number.MAX_VALUE,
    neg = o.neginf ?? -Number.MAX_VALUE;
  return unary('nan_to_num', x, (v) => (v !== v ? o.nan : v === Infinity ? pos : v === -Infinity ? neg : v), 'float');
}

// erf to ~1e-15: its Taylor series below 2.5, the continued fraction of erfc above (JS track only:
// NumPy has no erf; Python code takes math.erf).
function erf(v) {
  if (v !== v) return v;
  const x = abs(v);
  if (x < 2.5) {
    let term = x,
      s = x;
    for (let n = 1; n < 80 && abs(term) > 1e-17 * abs(s); n++) {
      term *= (-x * x) / n;
      s += term / (2 * n + 1);
    }
    return ((v < 0 ? -1 : 1) * s * 2) / sqrt(Math.PI);
  }
  if (x > 6) return v < 0 ? -1 : 1;
  let f = 0; // erfc(x) = exp(-x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …))))
  for (let n = 60; n >= 1; n--) f = n / 2 / (x + f);
  const erfc = exp(-x * x) / sqrt(Math.PI) / (x + f);
  return (v < 0 ? -1 : 1) * (1 - erfc);
}

const nSumOf = (letters, size) => letters.reduce((p, c) => p * size[c], 1);

// einsum with explicit or implicit output ('ij,jk->ik', 'bhqd,bhkd->bhqk', 'ii->i', '...d,...d->...');
// letters of size 1 broadcast, as in NumPy. Sums in the order of the summed letters.
function einsum(subscripts, ...ops) {
  if (typeof subscripts !== 'string')
    throw new TypeError('einsum: the first argument is the subscripts string, e.g. "ij,jk->ik"');
  const spec = subscripts.replace(/\s+/g, '');
  const [lhs, rhs] = spec.includes('->') ? spec.split('->') : [spec, null];
  const ins = lhs.split(',');
  if (ins.length !== ops.length)
    throw new ValueError(`einsum: ${ins.length} operand subscripts for ${ops.length} operands`);
  const arrs = ops.map((x) => asarray(x, null, 'einsum'));
  const bad = (spec.replace(/->|\.\.\.|,/g, '').match(/[^a-zA-Z]/) || [])[0];
  if (bad)
    throw new ValueError(
      `einsum: invalid subscript '${bad}' in einstein sum subscripts string, subscripts must be letters`,
    );
  // '...' → as many digits as the operand has extra axes, right-aligned across operands
  let ell = 0;
  const expand = (s, a) => {
    if (!s.includes('...')) {
      if (s.length !== a.ndim)
        throw new ValueError(
          `einsum: operand has more dimensions than subscripts given in einstein sum, but no '...' ellipsis provided to broadcast the extra dimensions.`,
        );
      return s;
    }
    const k = a.ndim - (s.length - 3);
    if (k < 0) throw new ValueError('einsum: too many subscripts for the operand');
    ell = mmax(ell, k);
    return s.replace('...', '0123456789'.slice(10 - k));
  };
  const terms = ins.map((s, i) => expand(s, arrs[i]));
  const dims = '0123456789'.slice(10 - ell);
  const counts = {};
  for (const t of terms) for (const c of t) counts[c] = (counts[c] || 0) + 1;
  let out;
  if (rhs === null)
    out =
      dims +
      Object.keys(counts)
        .filter((c) => counts[c] === 1 && !/\d/.test(c))
        .sort()
        .join('');
  else {
    out = rhs.includes('...') ? rhs.replace('...', dims) : rhs;
    for (const c of out)
      if (!(c in counts))
        throw new ValueError(
          `einsum: einstein sum subscripts string included output subscript '${c}' which never appeared in an input`,
        );
    if (new Set(out).size !== out.length)
      throw new ValueError('einsum: einstein sum subscripts string includes output subscript multiple times');
    if (!rhs.includes('...') && ell > 0 && /\d/.test(terms.join('')))
      throw new ValueError(
        "einsum: output has more dimensions than subscripts given in einstein sum, but no '...' ellipsis provided to broadcast the extra dimensions.",
      );
  }
  const letters = [...out, ...Object.keys(counts).filter((c) => !out.includes(c))];
  const size = {};
  terms.forEach((t, i) =>
    [...t].forEach((c, ax) => {
      const d = arrs[i].shape[ax];
      if (size[c] === undefined || size[c] === 1) size[c] = d;
      else if (d !== 1 && d !== size[c])
        throw new ValueError(
          `einsum: operands could not be broadcast together with remapped shapes; subscript '${c}' has sizes ${size[c]} and ${d}`,
        );
    }),
  );
  // strides of each operand per letter (0 where the operand lacks it or has size 1)
  const st = arrs.map((a, i) => {
    const s = stridesOf(a.shape),
      r = letters.map(() => 0);
    [...terms[i]].forEach((c, ax) => {
      if (a.shape[ax] !== 1) r[letters.indexOf(c)] += s[ax];
    });
    return r;
  });
  const shape = [...out].map((c) => size[c]),
    nOut = out.length,
    sumLetters = letters.slice(nOut);
  const sumShape = sumLetters.map((c) => size[c]),
    nSum = sizeOf(sumShape);
  const dtype = BY_RANK[mmax(...arrs.map((a) => RANK[a.dtype]))];
  const total = sizeOf(shape),
    res = alloc('float64', total);
  if (total * nSumOf(sumLetters, size) > MAX_SIZE * 8)
    throw new RangeError(
      `einsum: ${total} outputs of ${nSumOf(sumLetters, size)} products each is too much work; check the subscripts`,
    );
  const q = arrs.length,
    data = arrs.map((a) => a.data);
  const outIdx = new Array(nOut).fill(0),
    base = new Array(q).fill(0);
  const sumOff = arrs.map((_, i) => gatherIndex(sumShape, st[i].slice(nOut)));
  for (let p = 0; p < total; p++) {
    for (let i = 0; i < q; i++) {
      let b = 0;
      for (let k = 0; k < nOut; k++) b += outIdx[k] * st[i][k];
      base[i] = b;
    }
    let s = 0;
    for (let r = 0; r < nSum; r++) {
      let prod = 1;
      for (let i = 0; i < q; i++) prod *= data[i][base[i] + sumOff[i][r]];
      s += prod;
    }
    res[p] = s;
    for (let k = nOut - 1; k >= 0; k--) {
      if (++outIdx[k] < shape[k]) break;
      outIdx[k] = 0;
    }
  }
  const r = dtype === 'float64' ? res : castData(res, 'float64', dtype, 'einsum');
  return shape.length === 0 ? scalarOut(r[0], dtype) : new NDArray(r, shape, dtype);
}

// np.linalg.norm: vector norms (ord None/2, 1, inf, -inf, 0, p) along an axis, the Frobenius norm of
// a whole array or of two axes. Always float64.
function norm(x, ...args) {
  const { ord, axis, keepdims } = parseArgs('norm', args, ['ord', 'axis', 'keepdims'], {
    ord: null,
    axis: null,
    keepdims: false,
  });
  const a = asarray(x, null, 'norm').astype('float64');
  const axes = axis === null ? null : isArray(axis) ? axis : [axis];
  const vector = axes ? axes.length === 1 : a.ndim === 1;
  if (!vector && ord !== null && ord !== 'fro')
    throw new ValueError(
      `norm: matrix norm ord=${String(ord)} is not available in this runtime; it has ord=None and 'fro'`,
    );
  if (axes === null && ord !== null && a.ndim > 2) throw new ValueError('norm: Improper number of dimensions to norm.');
  const kd = { axis: axes, keepdims };
  const ab = unary('absolute', a, abs, 'keep');
  if (!vector || ord === null || ord === 2 || ord === 'fro')
    return unary('sqrt', reduce('sum', multiply(a, a), [kd]), sqrt, 'float');
  if (ord === Infinity) return reduce('max', ab, [kd]);
  if (ord === -Infinity) return reduce('min', ab, [kd]);
  if (ord === 0)
    return reduce(
      'sum',
      binary('not_equal', a, 0, (p, q) => p !== q, 'div'),
      [kd],
    );
  if (ord === 1) return reduce('sum', ab, [kd]);
  if (typeof ord !== 'number') throw new ValueError(`norm: Invalid norm order '${String(ord)}' for vectors`);
  return binary('power', reduce('sum', binary('power', ab, ord, cpow, 'div'), [kd]), 1 / ord, cpow, 'div');
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

// ---------------------------------------------------------------- the np object

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
    ].map((k) => [k, np[k]]),
  ),
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

export { np };
export default np;
