// NDArray, the array class: its fields and own methods, the JS-style indexing of its rows (a[i],
// a.length), the hooks that watch arrays made and used (measurement), the conversion of anything
// array-like (asarray, operand), and the argument helpers every np function shares (describe, dtypeOf,
// normShape, normAxis, parseArgs). NDArray's methods that are np functions of later modules (reshape,
// .T, a.sum(…), …) are installed by index.mjs. Contract: README.md beside this file.
import { arrayToString, formatShape } from './format.mjs';
import { alloc, ValueError, AxisError, IndexError } from './errors.mjs';
import { DTYPES, RANK, BY_RANK, castValue, castData } from './dtypes.mjs';
import { sizeOf, sameShape, stridesOf, gatherIndex, broadcastShapes, expandIndex } from './shapes.mjs';

// Captured once, at load: the sandbox freezes the realm later, but np must not depend on what students do.
const { max: mmax } = Math;
const { isInteger } = Number;
const isArray = Array.isArray;
const isView = (v) => ArrayBuffer.isView(v) && typeof (/** @type {any} */ (v).length) === 'number'; // typed arrays, not DataView

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
/** @returns {Record<string, any>} */
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

function take(a, idx, shape) {
  const out = alloc(a.dtype, idx.length, shape),
    d = a.data;
  for (let i = 0; i < idx.length; i++) out[i] = d[idx[i]];
  return new NDArray(out, shape, a.dtype);
}

const scalarOut = (v, dtype) => (dtype === 'bool' ? v !== 0 : v);
const isScalar = (x) => typeof x === 'number' || typeof x === 'boolean';

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

// An operand of an element-wise function. JS numbers are "weak" like Python scalars in NumPy 2:
// an integer-valued number keeps an int64 array int64, a fractional one makes it float64.
function operand(x, where) {
  if (typeof x === 'number') return { data: [x], shape: [], dtype: isInteger(x) ? 'int64' : 'float64', scalar: true };
  if (typeof x === 'boolean') return { data: [+x], shape: [], dtype: 'bool', scalar: true };
  const a = asarray(x, null, where);
  return { data: a.data, shape: a.shape, dtype: a.dtype, scalar: false };
}

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
  /** @param {any} key a string here whenever the message is built (indexOf(key) >= 0) */
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
  flatten() {
    return this.copy().reshape(-1);
  }
}
Object.setPrototypeOf(NDArray.prototype, INDEXED);

export {
  describe,
  dtypeOf,
  normShape,
  normAxis,
  isOptions,
  parseArgs,
  take,
  scalarOut,
  isScalar,
  isView,
  asarray,
  operand,
  onUse,
};
