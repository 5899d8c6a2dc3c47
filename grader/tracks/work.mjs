// The deterministic work count of a request, inside the sandbox realm (both guests; issue 29 item 4):
// the same submission, given the same request, counts the same units in the Node child and in the
// page's worker, whatever the machine's load, so a budget in units gives the same verdict everywhere.
// It is charged
// - by np: each call of an np function or of an array's method, CALL_UNITS + the elements of the arrays
//   it is handed (an array's own elements for a method, arrays one level inside a list argument) and of
//   the array it answers, ELEMENT_UNITS each, + answer × inner dimension / MATMUL_SPEEDUP for matmul and
//   dot; an element access (get, set, item, at, getitem, setitem) ACCESS_UNITS + the elements it reads
//   or writes, not the whole array's (countNp, wrapped around the engine once per realm, grader/np untouched);
// - by the student's own code: a tick (1 unit) at every loop iteration and ENTRY_UNITS at every function
//   entry (a call costs about that many loop iterations, tools/work-budget's table), inserted
//   when the code is prepared on the trusted side (the JavaScript track, ./js/source.mjs; its guest
//   defines the tick as a read-only global whose counter lives in this closure).
// A request's budget is `limitMs` (the host's limit for it) × the track's units per ms (its guest's
// WORK_PER_MS, calibrated by tools/work-budget); past it every later charge throws again (so a student's
// `catch` cannot swallow the stop and go on), and the request is answered 'timeout' as a host's clock
// would (createHandle in ./guest-kit.mjs), whatever the student's code did with the throw.

/** What a charge throws once the budget is spent (sticky: every later charge throws too). */
export class WorkStop extends Error {}
WorkStop.prototype.name = 'WorkStop';

/** Units charged at a function's entry (a call in Node's vm realm looks its function up through the global). */
export const ENTRY_UNITS = 16;

/** → the counter: { tick(), enter(), charge(n), start(limit), end() → units spent, over() }. */
export function createWork() {
  let spent = 0,
    limit = Infinity;
  const stop = () => {
    throw new WorkStop(`the work budget of ${limit} units is spent`);
  };
  return Object.freeze({
    tick() {
      if (++spent > limit) stop();
    },
    enter() {
      spent += ENTRY_UNITS;
      if (spent > limit) stop();
    },
    charge(n) {
      spent += n;
      if (spent > limit) stop();
    },
    /** A request begins: `units` of budget (Infinity: counted, not bounded). */
    start(units) {
      spent = 0;
      limit = units;
    },
    /** The request ended: the units it spent; nothing is bounded until the next start. */
    end() {
      limit = Infinity;
      return spent;
    },
    over: () => spent > limit,
  });
}

/**
 * The weights, in units of one loop iteration's tick (some 5 ns of CPU in the Node child; the tables of
 * tools/work-budget): an np call's own cost (arguments read, the result built: some 5 µs there) beside
 * its elements (ELEMENT_UNITS each, counted in and out); an element access (get, set, item, at: some
 * 0.5 µs).
 */
export const CALL_UNITS = 1000;
export const ACCESS_UNITS = 100;
/** Units per element handed in or answered (np's element-wise work on arrays of a million: some 20 ns). */
export const ELEMENT_UNITS = 4;
/** matmul and dot: answer × inner dimension multiply-adds, this many per unit (the engine's inner loop). */
export const MATMUL_SPEEDUP = 4;
const ACCESS = new Set(['get', 'set', 'item', 'at', 'getitem', 'setitem']);
const INNER = new Set(['matmul', 'dot']);
const wrapped = new WeakSet();

/**
 * Wraps every function of `np` (and of its plain sub-objects, np.linalg) and every method of
 * `NDArray.prototype` so that each call charges `work` as described above; `parts` is NDArray.parts
 * (the engine's brand check). Once per engine instance (the guest bundle has its own); before lockdown.
 */
export function countNp(np, NDArray, work) {
  if (wrapped.has(np)) return;
  wrapped.add(np);
  const parts = NDArray.parts;
  const size = (v) => {
    if (v === null || typeof v !== 'object') return 0;
    const p = parts(v);
    return p === null ? 0 : p.data.length;
  };
  const sizes = (args) => {
    let n = 0;
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (Array.isArray(a)) for (let j = 0; j < a.length && j < 64; j++) n += size(a[j]);
      else n += size(a);
    }
    return n;
  };
  const wrap = (name, f, method) => {
    const access = ACCESS.has(name),
      inner = INNER.has(name);
    const counted = function (...args) {
      work.charge(
        (access ? ACCESS_UNITS : CALL_UNITS) + ELEMENT_UNITS * (sizes(args) + (method && !access ? size(this) : 0)),
      );
      const r = Reflect.apply(f, this, args);
      const n = size(r);
      if (n) {
        let mults = 0;
        if (inner) {
          const a = method ? this : args[0];
          const p = a !== null && typeof a === 'object' ? parts(a) : null;
          mults = p && p.shape.length ? Math.ceil(p.shape[p.shape.length - 1] / MATMUL_SPEEDUP) : 0;
        }
        work.charge(n * (ELEMENT_UNITS + mults));
      }
      return r;
    };
    Object.defineProperty(counted, 'name', { value: f.name });
    return counted;
  };
  // A class (np.ndarray, np.Slice, np's errors) is not wrapped: told by its source, which a minifier
  // keeps (a name is not: the page's bundle renames functions, so a capital proves nothing).
  const { toString } = Function.prototype;
  const isPlainFunction = (f) => typeof f === 'function' && !/^class\b/.test(Reflect.apply(toString, f, []));
  const wrapAll = (obj, method) => {
    for (const key of Object.getOwnPropertyNames(obj)) {
      if (key === 'constructor' || key.startsWith('_')) continue; // np's internals: charged by the call that uses them
      const d = Object.getOwnPropertyDescriptor(obj, key);
      if (!d || !('value' in d) || !d.writable || !isPlainFunction(d.value)) continue;
      Object.defineProperty(obj, key, { ...d, value: wrap(key, d.value, method) });
    }
  };
  // One wrapper per function even where np names it twice (np.amin = np.min): wrap, then alias.
  wrapAll(np, false);
  for (const key of Object.getOwnPropertyNames(np)) {
    const v = np[key];
    if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) wrapAll(v, false);
  }
  wrapAll(NDArray.prototype, true);
}
