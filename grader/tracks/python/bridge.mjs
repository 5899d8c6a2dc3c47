// The bridge between the Python track's numpy module (./numpy.py) and the np engine (grader/np): one
// JS function, `bridge(op, ...args)`, that Python calls with primitives only (numbers, strings,
// booleans, null) and that answers with primitives only, never throwing:
//   - an array is an opaque integer handle into the table here (from 2^28 up); Python never holds a JS
//     object;
//   - a scalar result is a string: 'f' + 16 hex digits (the float64's bytes, little-endian, so no digit
//     is lost on the way into Python), 'i' + decimal digits (int64), 'b1' / 'b0' (bool);
//   - a failure answers null and keeps [name, message] for op 'error' (JS exceptions must not cross
//     into MicroPython: they would unwind through the interpreter).
// Operands are two arguments each, a tag and a value: 'a' handle, 'f' float, 'i' int, 'b' bool.
// Python scalars become 0-d arrays here, so NumPy 1.24's promotion of Python scalars holds for these
// three dtypes (int64 array + 2 → int64, + 2.0 → float64, bool array + 1 → int64).
//
// Views: where NumPy returns a view (basic indexing, reshape, ravel, T, transpose, swapaxes,
// expand_dims, squeeze), the result remembers which element of its root array each of its elements
// is; it is refreshed from the root whenever it is read and written back when it is assigned to, so
// `x[0][1] = 5`, `row = x[0]; row[:] = 0` and `K.T[0, 0] = 1` change x and K as in NumPy.
//
// Handles are freed two ways. During a call: once the request has made SCAN_FROM bytes of arrays, and
// then each time the arrays made since the last scan hold SCAN_BYTES,
// the interpreter's memory is scanned for the handles Python still reaches (./heapscan.mjs: MicroPython
// collects nothing while a call runs, so no finaliser can say it), and a handle that two scans in a row
// missed, unused in between, is freed; so a loop of many small operations keeps what it uses, not all
// it made. After a request: the host asks the runtime (./runtime.py) to release, and once the arrays
// made since the last release hold RELEASE_BYTES (or RELEASE_HANDLES handles), it frees those the
// submission's globals no longer reach; below that nothing is walked. Freeing twice is harmless.
import np, { NDArray, touchArray } from '../../np/index.mjs';
import { pyFloat, arrayRepr } from '../../np/format.mjs';
import { RANK, promote } from '../../np/dtypes.mjs';
import { findLayout, reachable } from './heapscan.mjs';
import { WorkStop, ACCESS_UNITS, ELEMENT_UNITS } from '../work.mjs';

const clock =
  typeof performance === 'object' && performance && typeof performance.now === 'function'
    ? performance.now.bind(performance)
    : Date.now;
const f64 = new Float64Array(1),
  u8 = new Uint8Array(f64.buffer);
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** The float64's 8 bytes as hex, little-endian (what Python's struct '<d' reads). */
export function hexOf(v) {
  f64[0] = v;
  let s = '';
  for (let i = 0; i < 8; i++) s += HEX[u8[i]];
  return s;
}
/** Hex of many float64 (bool and int64 data as their float64 values). */
function hexOfData(data) {
  const parts = new Array(data.length);
  for (let k = 0; k < data.length; k++) parts[k] = hexOf(data[k]);
  return parts.join('');
}
function dataOfHex(hex, n) {
  if (typeof hex !== 'string' || hex.length !== 16 * n) throw new TypeError('internal: bad data length');
  const out = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    for (let i = 0; i < 8; i++) u8[i] = parseInt(hex.substr(16 * k + 2 * i, 2), 16);
    out[k] = f64[0];
  }
  return out;
}

const scalarText = (v, dtype) =>
  dtype === 'bool' ? (v ? 'b1' : 'b0') : dtype === 'int64' ? `i${v + 0}` : `f${hexOf(v)}`;
const DRAWS = ['standard_normal', 'normal', 'random', 'uniform', 'integers'];

// The work count's Python weights, in units of ../work.mjs (the engine's own charges are countNp's):
// a crossing into the bridge costs some 40 µs of interpreted wrapper code (numpy.py) and FFI, which
// CROSSING_UNITS stands for; a tick of the student's loops (runtime.py), some 1 µs of interpreted
// bytecode, TICK_UNITS (tools/work-budget --track python). The runtime's own ops are not charged.
export const CROSSING_UNITS = 5000;
export const TICK_UNITS = 250;
const UNCHARGED = new Set([
  'work',
  'error',
  'emit',
  'emit_array',
  'answer',
  'heap',
  'functions',
  'next_arg',
  'needs_release',
  'keep',
  'release',
]);

const RELEASE_BYTES = 64 * 2 ** 20;
const RELEASE_HANDLES = 20000;
const SCAN_BYTES = 32 * 2 ** 20;
// Scans start only once a request has made this much in arrays (a quarter of the default memory budget):
// a scan cannot see a value that only a C function of the interpreter holds in a WebAssembly local (the
// partial list of `list(gen)`, say), so below this nothing is ever freed during a call, and the freeing
// serves the programs that would otherwise be stopped for their memory.
const SCAN_FROM = 128 * 2 ** 20;
// The first handle: handles are numbered from 2^28 up (Python small ints go to 2^30 - 1), far from the
// small numbers a program's memory is full of (counters, lengths, bytes of its code), which a scan would
// otherwise take for handles and keep their arrays.
const HANDLE_BASE = 2 ** 28;

// The engine functions numpy.py reaches through op 'np' (one entry each, no other code here).
const ENGINE = new Set([
  'split',
  'array_split',
  'hstack',
  'vstack',
  'column_stack',
  'repeat',
  'tile',
  'broadcast_to',
  'broadcast_arrays',
  'tri',
  'tril_indices',
  'triu_indices',
  'meshgrid',
  'cumsum',
  'cumprod',
  'sort',
  'argsort',
  'partition',
  'argpartition',
  'take_along_axis',
  'logaddexp',
  'nan_to_num',
  'einsum',
  'norm',
  'dot',
]);
/**
 * A call of np[name] (np.linalg.norm for 'norm') with arguments as tokens: 'a' handle | 'f' float |
 * 'i' int | 'b' bool | 'n' None | 's' string | 'L' count items… (a JS array) | 'k' key item (an option,
 * gathered into the options object that comes last). The answer: an array handle, a scalar's text
 * (dtype: the scalar's dtype, '' for the operands' common one), or 'L' + comma-separated handles for
 * a list of arrays.
 */
function callEngine(name, dtype, tokens, arr, put, out, fn = null) {
  if (!fn && !ENGINE.has(name)) throw new TypeError(`internal: no engine function ${String(name)}`);
  let k = 0;
  const dtypes = [];
  const item = () => {
    const tag = tokens[k++];
    switch (tag) {
      case 'a': {
        const a = arr(tokens[k++]);
        dtypes.push(a.dtype);
        return a;
      }
      case 'f':
        return +tokens[k++];
      case 'i':
        return +tokens[k++];
      case 'b':
        return Boolean(tokens[k++]);
      case 'n':
        return null;
      case 's':
        return String(tokens[k++]);
      case 'L': {
        const n = tokens[k++],
          list = [];
        for (let i = 0; i < n; i++) list.push(item());
        return list;
      }
      default:
        throw new TypeError(`internal: argument tag ${tag}`);
    }
  };
  const args = [],
    opts = {};
  let hasOpts = false;
  while (k < tokens.length) {
    if (tokens[k] === 'k') {
      const key = String(tokens[k + 1]);
      k += 2;
      opts[key] = item();
      hasOpts = true;
    } else args.push(item());
  }
  if (hasOpts) args.push(opts);
  const f = fn ?? (name === 'norm' ? np.linalg.norm : np[name]);
  const r = f(...args);
  if (Array.isArray(r)) return 'L' + r.map((a) => put(a)).join(',');
  const common = promote(...dtypes);
  return out(r, dtype || common);
}

/**
 * `wasm` (the guest's, optional): { memory() → the interpreter's WebAssembly.Memory, stack() → [current,
 * base] of its C shadow stack, pystackBytes }, for the scan during a call; without it handles live until
 * release(). `work`: the realm's work counter (../work.mjs createWork; null: nothing counted). The
 * engine's calls charge it themselves (countNp, wrapped by the guest); here an element or block read by
 * the fast path of getitem (no engine call) charges as an access does, and op 'work' charges the ticks
 * of the student's loops (runtime.py). Past the budget a charge throws WorkStop, which answers null with
 * the error named 'WorkStop' (numpy.py and runtime.py raise a BaseException of that name). `letGo` (the
 * page's worker's, optional): told the data of each array a scan frees, which its memory count forgets.
 */
export function createBridge({ wasm = null, work = null, letGo = null } = {}) {
  const table = new Map(); // handle → { arr, root?, at? (Float64Array: root positions) }
  let layout = null, // where the interpreter keeps its state (op 'layout'), null: no scans
    sinceScan = 0, // bytes of arrays made since the last scan
    scanAt = SCAN_BYTES, // … at which the next scan runs
    callStart = 0, // the first handle made by the bridge call in progress (never a candidate)
    scans = 0,
    scanFreed = 0;
  const suspects = new Set(); // handles the last scan missed and nothing used since
  let next = HANDLE_BASE,
    lastError = ['RuntimeError', ''],
    legacy = np.random.default_rng(0);
  let fresh = []; // handles made since the last release
  let freshBytes = 0;
  let emitted = [],
    answer = null,
    functions = '',
    args = [],
    argAt = 0,
    kept = new Set(),
    heap = 0;

  const put = (arr, view = null) => {
    const h = next++;
    table.set(h, view ? { arr, root: view.root, at: view.at } : { arr });
    fresh.push(h);
    const bytes = arr?.data?.byteLength ?? 0;
    freshBytes += bytes;
    sinceScan += bytes;
    if (layout && freshBytes >= SCAN_FROM && sinceScan >= scanAt) scan();
    return h;
  };
  /**
   * Frees the arrays Python no longer reaches: missed by this scan and the last, unused in between. The
   * next scan waits for SCAN_BYTES of new arrays, or for 4 bytes of them per byte this one read, so
   * that a program with a large heap of its own pays for its scans in proportion to the arrays it makes.
   * A scan that fails (a layout that no longer holds) turns scanning off: arrays then live until release.
   */
  const scan = () => {
    sinceScan = 0;
    scans++;
    const candidates = [];
    for (const [h, e] of table) if (h < callStart && e.arr) candidates.push(h);
    let live;
    try {
      live = reachable(wasm.memory(), layout, wasm.stack(), candidates);
    } catch {
      layout = null;
      return;
    }
    scanAt = Math.max(SCAN_BYTES, 4 * live.read);
    for (const h of candidates) {
      if (live.has(h)) suspects.delete(h);
      else if (suspects.has(h)) {
        const { arr } = table.get(h);
        table.delete(h);
        // The page's worker counts arrays alive until collected, which cannot happen during one call: it
        // forgets this one now (an array still the root of a live view is then not counted: lenient).
        letGo?.(arr.data);
        suspects.delete(h);
        scanFreed++;
      } else suspects.add(h);
    }
  };
  const entry = (h) => {
    suspects.delete(h); // a use: reached after all (a value a scan cannot see)
    const e = typeof h === 'number' ? table.get(h) : undefined;
    if (!e)
      throw Object.assign(
        new Error('this array was released: keep arrays you need between calls in global variables, lists or dicts'),
        { name: 'RuntimeError' },
      );
    return e;
  };
  /** The array of a handle, a view refreshed from its root first. */
  const arr = (h) => {
    const e = entry(h);
    touchArray(e.arr); // every read of a handle is a use (measurement: np arrays kept alive)
    if (e.at) {
      touchArray(e.root);
      const d = e.arr.data,
        r = e.root.data,
        at = e.at;
      for (let i = 0; i < at.length; i++) d[i] = r[at[i]];
    }
    if (!(e.arr instanceof NDArray)) throw new TypeError('internal: not an array handle');
    return e.arr;
  };
  /** After a write into handle h's array: a view passes it on to its root. */
  const written = (h) => {
    const e = entry(h);
    if (e.at) {
      touchArray(e.root);
      const d = e.arr.data,
        r = e.root.data,
        at = e.at;
      for (let i = 0; i < at.length; i++) r[at[i]] = d[i];
    }
  };
  const operand = (tag, v) => {
    switch (tag) {
      case 'a':
        return arr(v);
      case 'f':
        return np.array(v, 'float64');
      case 'i':
        return np.array(v, 'int64');
      case 'b':
        return np.array(Boolean(v), 'bool');
      default:
        throw new TypeError(`internal: operand tag ${tag}`);
    }
  };
  /** A result: an array handle, or a scalar's text for a 0-d result where NumPy gives a scalar. */
  const out = (r, dtype, scalarize = true) => {
    if (r instanceof NDArray) return scalarize && r.ndim === 0 ? scalarText(r.data[0], r.dtype) : put(r);
    if (typeof r === 'number' || typeof r === 'boolean') return scalarText(+r, dtype);
    throw new TypeError('internal: unexpected result');
  };
  // A root array's element positions 0 … size − 1, made once per root: a loop that takes a row or a
  // block of a (1024, 64) array at every step would otherwise build 65,536 positions each time.
  const positions = new WeakMap();
  const positionsOf = (a) => {
    let p = positions.get(a);
    if (!p)
      positions.set(
        a,
        (p = new NDArray(
          Float64Array.from({ length: a.size }, (_, i) => i),
          a.shape,
          'float64',
        )),
      );
    return p;
  };
  /**
   * A view of handle h: `op(a)` applied to h's array, and again to its element positions, which
   * gives where in the root each result element sits.
   */
  const view = (h, op) => {
    const e = entry(h),
      a = arr(h),
      r = op(a);
    if (!(r instanceof NDArray)) return out(r, a.dtype);
    if (!e.at && r.data.buffer === a.data.buffer && r.data.byteOffset === 0 && r.size === a.size) return put(r); // shares the data already
    const pos = op(e.at ? new NDArray(e.at, a.shape, 'float64') : positionsOf(a));
    return put(r, { root: e.at ? e.root : a, at: Float64Array.from(pos.data) });
  };
  const shapeArgs = (nd, rest) => rest.slice(0, nd);
  const axesOrNull = (n, rest) => (n < 0 ? null : rest.slice(0, n));
  const dtypeArg = (d) => (d === '' || d === null ? undefined : d);

  // Index items, as Python's numpy.py sends them: 'i' n | 's' start stop step (null for None) | 'e' |
  // 'n' (None) | 'a' handle | 'b' bool. → [items, rest]
  const indexItems = (args) => {
    const items = [];
    let k = 0;
    const count = args[k++];
    for (let j = 0; j < count; j++) {
      const tag = args[k++];
      if (tag === 'i') items.push(args[k++]);
      else if (tag === 's') {
        items.push(new np.Slice(args[k], args[k + 1], args[k + 2]));
        k += 3;
      } else if (tag === 'e') items.push(np.Ellipsis);
      else if (tag === 'n') items.push(null);
      else if (tag === 'a') items.push(arr(args[k++]));
      else if (tag === 'b') items.push(Boolean(args[k++]));
      else throw new TypeError(`internal: index tag ${tag}`);
    }
    return [items, args.slice(k)];
  };
  const basic = (items) =>
    items.every((x) => x === null || x === np.Ellipsis || x instanceof np.Slice || typeof x === 'number');

  const OPS = {
    error: () => lastError.join('\u0000'),
    // ---- making arrays
    fromhex: (dtype, nd, ...rest) => {
      const shape = shapeArgs(nd, rest),
        n = shape.reduce((p, d) => p * d, 1);
      const data = dataOfHex(rest[nd], n);
      return put(
        new NDArray(
          dtype === 'bool'
            ? Uint8Array.from(data, (v) => (v !== 0 ? 1 : 0))
            : dtype === 'int64'
              ? data.map(Math.trunc)
              : data,
          shape,
          dtype,
        ),
      );
    },
    filled: (kind, dtype, tag, value, nd, ...rest) => {
      const shape = shapeArgs(nd, rest),
        dt = dtypeArg(dtype);
      if (kind === 'full') {
        const v = operand(tag, value);
        return put(np.full(shape, v.dtype === 'bool' ? Boolean(v.data[0]) : v.data[0], { dtype: dt ?? v.dtype }));
      }
      return put(np[kind](shape, { dtype: dt }));
    },
    like: (kind, h, dtype, tag, value) => {
      const a = arr(h),
        dt = dtypeArg(dtype) ?? a.dtype;
      const v = kind === 'full' ? operand(tag, value).data[0] : kind === 'ones' ? 1 : 0;
      return put(np.full(a.shape, dt === 'bool' ? Boolean(v) : +v, { dtype: dt }));
    },
    eye: (N, M, k, dtype) => put(np.eye(N, M < 0 ? null : M, k, { dtype: dtypeArg(dtype) })),
    arange: (start, stop, step, dtype) => put(np.arange(start, stop, step, dtype)),
    linspace: (start, stop, num, endpoint, dtype) =>
      put(np.linspace(start, stop, { num, endpoint, dtype: dtypeArg(dtype) })),
    tri: (name, h, k) => put(np[name](arr(h), { k })),
    copy: (h) => put(arr(h).copy()),
    astype: (h, dtype) => put(arr(h).astype(dtype)),
    // ---- element-wise
    un: (name, tag, v) => out(np[name](operand(tag, v))),
    bin: (name, ta, va, tb, vb) => out(np[name](operand(ta, va), operand(tb, vb))),
    // In place (a += b): the result must be castable to a's dtype as NumPy's 'same_kind' allows.
    iop: (name, h, tb, vb) => {
      const a = arr(h),
        r = np[name](a, operand(tb, vb));
      const rt = r instanceof NDArray ? r.dtype : a.dtype;
      if (RANK[rt] > RANK[a.dtype])
        throw Object.assign(
          new TypeError(
            `Cannot cast ufunc '${name}' output from dtype('${rt}') to dtype('${a.dtype}') with casting rule 'same_kind'`,
          ),
          { name: 'UFuncTypeError' },
        );
      np.setitem(a, np.Ellipsis, r);
      written(h);
      return h;
    },
    where: (tc, vc, ta, va, tb, vb) => out(np.where(operand(tc, vc), operand(ta, va), operand(tb, vb)), null, false),
    clip: (h, tl, vl, th, vh) => {
      let r = arr(h);
      if (tl !== 'none') r = np.maximum(r, operand(tl, vl));
      if (th !== 'none') r = np.minimum(r, operand(th, vh));
      return out(r);
    },
    round: (tag, v, decimals) => out(np.round(operand(tag, v), decimals)),
    isclose: (ta, va, tb, vb, rtol, atol, equalNan) =>
      out(np.isclose(operand(ta, va), operand(tb, vb), { rtol, atol, equal_nan: equalNan })),
    allclose: (ta, va, tb, vb, rtol, atol, equalNan) =>
      np.allclose(operand(ta, va), operand(tb, vb), { rtol, atol, equal_nan: equalNan }),
    array_equal: (ta, va, tb, vb) => np.array_equal(operand(ta, va), operand(tb, vb)),
    matmul: (ta, va, tb, vb) => {
      const a = operand(ta, va),
        b = operand(tb, vb);
      return out(np.matmul(a, b), promote(a.dtype, b.dtype));
    },
    dot: (ta, va, tb, vb) => {
      const a = operand(ta, va),
        b = operand(tb, vb);
      return out(np.dot(a, b), promote(a.dtype, b.dtype));
    },
    // ---- reductions: computed with keepdims, the kept axes dropped here, so the dtype is the engine's
    reduce: (name, h, keepdims, ddof, n, ...rest) => {
      const axes = axesOrNull(n, rest),
        a0 = arr(h);
      const a = a0.ndim === 0 && axes === null ? a0.reshape([1]) : a0; // a NumPy scalar's x.sum(): the engine's dtype, a scalar back
      const opts =
        name === 'var' || name === 'std' ? { axis: axes, keepdims: true, ddof } : { axis: axes, keepdims: true };
      const r = np[name](a, opts);
      if (keepdims) return put(r);
      const drop = axes === null ? a.shape.map((_, i) => i) : axes.map((x) => (x < 0 ? x + a.ndim : x));
      return out(r.reshape(a.shape.filter((_, i) => !drop.includes(i))));
    },
    arg: (name, h, axis, keepdims) => {
      const a = arr(h),
        r = np[name](a, { axis: axis === null ? null : axis, keepdims });
      return out(r, 'int64');
    },
    nonzero: (h) =>
      np
        .nonzero(arr(h))
        .map((x) => put(x))
        .join(','),
    // ---- shapes (views where NumPy has them)
    reshape: (h, nd, ...rest) => view(h, (a) => a.reshape(shapeArgs(nd, rest))),
    ravel: (h) => view(h, (a) => a.reshape(-1)),
    flatten: (h) => put(arr(h).copy().reshape(-1)),
    transpose: (h, n, ...rest) => view(h, (a) => np.transpose(a, axesOrNull(n, rest) ?? undefined)),
    swapaxes: (h, i, j) => view(h, (a) => np.swapaxes(a, i, j)),
    expand_dims: (h, axis) => view(h, (a) => np.expand_dims(a, axis)),
    squeeze: (h, n, ...rest) => view(h, (a) => np.squeeze(a, { axis: axesOrNull(n, rest) })),
    concatenate: (axis, n, ...hs) => put(np.concatenate(hs.slice(0, n).map(arr), { axis })),
    stack: (axis, n, ...hs) => put(np.stack(hs.slice(0, n).map(arr), { axis })),
    // ---- indexing
    getitem: (h, ...args) => {
      // Integers only, on an array that is not a view (`Q[i]`, `M[i, j]`, the inner loop of a
      // student's loops): an element, or a block of the data shared as it is, with no positions to keep.
      if (args[0] <= 8 && !entry(h).at) {
        const a = entry(h).arr,
          { shape, data } = a,
          n = args[0];
        let off = 0,
          ok = n <= shape.length;
        for (let j = 0; ok && j < n; j++) {
          let i = args[2 * j + 2];
          ok = args[2 * j + 1] === 'i' && Number.isInteger(i) && i >= -shape[j] && i < shape[j];
          if (i < 0) i += shape[j];
          off = off * shape[j] + i;
        }
        if (ok) {
          let size = 1;
          for (let j = n; j < shape.length; j++) size *= shape[j];
          off *= size;
          work?.charge(ACCESS_UNITS + ELEMENT_UNITS * size);
          return n === shape.length
            ? scalarText(data[off], a.dtype)
            : put(new NDArray(data.subarray(off, off + size), shape.slice(n), a.dtype));
        }
      }
      const [items] = indexItems(args);
      const a = arr(h);
      if (!basic(items)) return out(np.getitem(a, ...items), a.dtype, false);
      const r = np.getitem(a, ...items);
      return r instanceof NDArray ? view(h, (x) => np.getitem(x, ...items)) : scalarText(+r, a.dtype);
    },
    setitem: (h, tv, vv, ...args) => {
      const [items] = indexItems(args);
      np.setitem(arr(h), ...items, operand(tv, vv));
      written(h);
      return h;
    },
    // ---- the other engine functions (split, repeat, sort, einsum, linalg.norm, …): see callEngine
    np: (name, dtype, ...tokens) => callEngine(name, dtype, tokens, arr, put, out),
    choice: (g, dtype, ...tokens) => {
      const gen = g === 0 ? legacy : entry(g).gen;
      if (!gen) throw new TypeError('internal: not a Generator handle');
      return callEngine('choice', dtype, tokens, arr, put, out, (...a) => gen.choice(...a));
    },
    // ---- the ticks of the student's loops since the last charge (runtime.py)
    work: (n) => {
      work?.charge(TICK_UNITS * (typeof n === 'number' && n > 0 ? Math.floor(n) : 0));
      return 1;
    },
    // ---- reading
    meta: (h) => {
      const a = arr(h);
      return `${a.dtype};${a.shape.join(',')}`;
    },
    hex: (h) => hexOfData(arr(h).data),
    str: (h) => arr(h).toString(),
    repr: (h) => {
      const a = arr(h);
      return arrayRepr(a.data, a.shape, a.dtype);
    },
    pyfloat: (v) => pyFloat(v),
    now: (wall) => hexOf(wall ? Date.now() : clock()),
    // ---- random: a Generator is a handle too; handle 0 is np.random's own (np.random.seed, randn, …),
    // which lives as long as the bridge
    seed: (seed) => {
      legacy = np.random.default_rng(seed);
      return 1;
    },
    rng: (seed) => {
      const h = next++;
      table.set(h, { gen: np.random.default_rng(seed) });
      fresh.push(h);
      return h;
    },
    draw: (g, method, a, b, nd, ...rest) => {
      const gen = g === 0 ? legacy : entry(g).gen;
      if (!gen || !DRAWS.includes(method)) throw new TypeError('internal: not a Generator handle or method');
      const size = nd < 0 ? undefined : shapeArgs(nd, rest);
      const r = method === 'standard_normal' || method === 'random' ? gen[method](size) : gen[method](a, b, size);
      return r instanceof NDArray ? put(r) : scalarText(r, method === 'integers' ? 'int64' : 'float64');
    },
    // ---- answers of the runtime to the guest (./runtime.py): a returned value as tokens, resolved
    // to arrays at once (before release() can free their handles); a load's or call's outcome.
    emit: (...tokens) => {
      for (const t of tokens) emitted.push(t);
      return emitted.length;
    },
    emit_array: (h) => {
      emitted.push('a', arr(h));
      return emitted.length;
    },
    answer: (...fields) => {
      answer = fields;
      return 1;
    },
    // A measured call's kept.heap (runtime.py: the interpreter's heap at its highest, above its start).
    heap: (bytes) => {
      heap = typeof bytes === 'number' && bytes > 0 ? Math.floor(bytes) : 0;
      return 1;
    },
    functions: (csv) => {
      functions = csv;
      return 1;
    },
    // The arguments of a call, one token at a time (guest.mjs wrote them with setArguments).
    next_arg: () => {
      if (argAt >= args.length) throw new TypeError('internal: no more arguments');
      return args[argAt++];
    },
    // ---- lifetime: where the interpreter's state is (once, from runtime.py: id(sys.modules), id() of
    // an object in its heap), keep(...handles) the runtime still reaches, then release(all)
    layout: (modules, probe) => {
      layout = wasm ? findLayout(wasm.memory(), { modules, probe, pystackBytes: wasm.pystackBytes }) : null;
      return layout ? 1 : 0;
    },
    needs_release: () => freshBytes >= RELEASE_BYTES || fresh.length >= RELEASE_HANDLES,
    keep: (...hs) => {
      for (const h of hs) kept.add(h);
      return kept.size;
    },
    release: (all) => {
      if (!all) for (const h of fresh) if (!kept.has(h)) table.delete(h);
      fresh = [];
      freshBytes = 0;
      kept = new Set();
      return table.size;
    },
  };

  /** The one function Python sees. Never throws; null means "ask op 'error'". */
  const bridge = (op, ...args) => {
    callStart = next;
    try {
      const f = Object.hasOwn(OPS, op) ? OPS[op] : null;
      if (!f) throw new TypeError(`internal: no bridge op ${String(op)}`);
      if (work && !UNCHARGED.has(op)) work.charge(CROSSING_UNITS);
      const r = f(...args);
      return r === undefined || r === null ? 0 : r;
    } catch (e) {
      let name = 'RuntimeError',
        message = 'the array engine failed';
      try {
        name =
          e instanceof WorkStop
            ? 'WorkStop'
            : e instanceof RangeError
              ? 'MemoryError'
              : typeof e?.name === 'string' && /^\w+Error$/.test(e.name)
                ? e.name
                : 'RuntimeError';
        message = typeof e?.message === 'string' ? e.message : String(e);
      } catch {
        /* keep the defaults */
      }
      lastError = [name, message];
      return null;
    }
  };
  Object.setPrototypeOf(bridge, null);
  Object.freeze(bridge);

  /** For the guest: handles of test inputs and the arrays of returned handles. */
  return {
    bridge,
    put: (a) => put(a),
    array: (h) => {
      const e = table.get(h);
      return e && e.arr ? arr(h) : null;
    },
    startRequest: () => {
      heap = 0;
      emitted = [];
      answer = null;
      functions = '';
      args = [];
      argAt = 0;
    },
    /** The `count` arguments of the next call, as tokens the runtime reads with op 'next_arg'. */
    setArguments: (count, tokens) => {
      args = [count, ...tokens];
      argAt = 0;
    },
    /** What the runtime said about this request: { answer: [fields] | null, functions, tokens }. */
    takeAnswer: () => {
      const r = { answer, functions, tokens: emitted };
      emitted = [];
      answer = null;
      functions = '';
      return r;
    },
    /** kept.heap of the last measured call (op 'heap'), 0 if none. */
    takeHeap: () => heap,
    get size() {
      return table.size;
    },
    /** Scans during calls so far, and the handles they freed (tests, tools). */
    get scans() {
      return { scans, freed: scanFreed, on: layout !== null };
    },
  };
}
