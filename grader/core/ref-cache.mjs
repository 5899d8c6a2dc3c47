// The reference's answers computed once per run: a core (wasm/index.mjs loadCore) whose reference
// functions remember what they returned for the same arguments. A pack's expected values for a
// (pack, seed, test) are the same for every student, and so are the declared mistakes' recomputations
// (they take the test's inputs, not the student's output), so in a batch only the first submission
// pays for them; every later one only runs its own code and compares. The functions are pure (the
// double-precision C++ reference), so a remembered answer is the answer.
// - key: the function's name and its arguments, walked (numbers, strings, booleans, null/undefined,
//   lists, option objects in their key order, typed arrays by type, length and a SHA-1 of their bytes);
//   anything else (a function, a class instance) is not remembered: the call goes through.
// - what is handed out is a copy (copyOf), so a suite that edits a result in place cannot
//   change what the next submission is compared with; an error is not remembered (thrown each time).
// - bounded: at most `maxBytes` of answers (typed arrays' bytes, roughly), the least recently used dropped first.
// - `store` (hosts/node/ref-store.mjs, the CLI's and grade-batch's): the answers kept on disk between
//   runs, asked before computing; a cold `grade` of a pack graded before computes nothing.
// Only those functions are wrapped; the rest of the core (the module, the fast path's settings) is the core's.
import { createHash } from 'node:crypto';

/**
 * The core's functions that compute expected values (wasm/index.mjs makeCore): the double reference's,
 * and the float32 fast path's `attentionF32` (the large hidden cases' expected values, grade.mjs `fast`).
 */
export const REFERENCE_FUNCTIONS = Object.freeze([
  'call',
  'causalMask',
  'softmax',
  'matmul',
  'attention',
  'causalSelfAttention',
  'attentionLoops',
  'attentionF32',
]);

class Uncacheable extends Error {}

/** A key for `name(...args)`, or throws Uncacheable. */
function keyOf(name, args) {
  const h = createHash('sha1');
  const walk = (x) => {
    if (x === undefined) return h.update('u;');
    if (x === null) return h.update('n;');
    switch (typeof x) {
      case 'number':
        return h.update(`d${Object.is(x, -0) ? '-0' : String(x)};`);
      case 'boolean':
        return h.update(x ? 't;' : 'f;');
      case 'string':
        return h.update(`s${x.length}:`).update(x).update(';');
      case 'bigint':
        return h.update(`b${x};`);
      case 'object':
        break;
      default:
        throw new Uncacheable(typeof x);
    }
    if (ArrayBuffer.isView(x)) {
      h.update(`v${x.constructor.name}${/** @type {any} */ (x).length}:`); // a DataView has no length: `undefined`
      return h.update(new Uint8Array(x.buffer, x.byteOffset, x.byteLength)).update(';');
    }
    if (Array.isArray(x)) {
      h.update(`[${x.length}:`);
      x.forEach(walk);
      return h.update(']');
    }
    const proto = Object.getPrototypeOf(x);
    if (proto !== Object.prototype && proto !== null) throw new Uncacheable('an object of a class');
    h.update('{');
    for (const [k, v] of Object.entries(x)) {
      h.update(`${k.length}:${k}=`);
      walk(v);
    }
    return h.update('}');
  };
  h.update(`${name}(`);
  args.forEach(walk);
  return h.digest('base64');
}

const typedSlice = Object.getPrototypeOf(Uint8Array.prototype).slice;

/**
 * A deep copy of an answer: a typed array by its own elements, lists and plain objects walked, anything
 * else by structuredClone. Not structuredClone throughout: it copies a typed array's whole buffer, and the
 * answers read back from the store (v8.deserialize) are views into the whole file's buffer, so each hit
 * copied the file (~0.5 ms a copy, ~70 copies per submission of the first pack in a batch).
 */
function copyOf(x) {
  if (x === null || typeof x !== 'object') return x;
  if (ArrayBuffer.isView(x) && !(x instanceof DataView)) return typedSlice.call(x);
  if (Array.isArray(x)) return x.map(copyOf);
  const proto = Object.getPrototypeOf(x);
  if (proto !== Object.prototype && proto !== null) return structuredClone(x);
  const out = proto === null ? Object.create(null) : {};
  for (const [k, v] of Object.entries(x)) out[k] = copyOf(v);
  return out;
}

/** Bytes an answer holds (its typed arrays', and a little per value). */
function sizeOf(x) {
  if (ArrayBuffer.isView(x)) return x.byteLength;
  if (x !== null && typeof x === 'object') {
    let n = 16;
    for (const v of Object.values(x)) n += sizeOf(v);
    return n;
  }
  return 8;
}

/**
 * `core` with its reference functions remembered. → a core object (the same methods and properties),
 * plus `refCache`: { hits, misses, stored, bytes, entries } for the run's report and the tests
 * (`stored`: answers found in `store`). `store`: answers kept between runs (hosts/node/ref-store.mjs:
 * `get(key)` → the answer or undefined, `put(key, answer, bytes)`), asked before computing, told what was computed.
 */
export function cachedCore(core, { maxBytes = 64 * 2 ** 20, store = null } = {}) {
  const answers = new Map(); // key → { value, bytes }, in least recently used first order
  const stats = { hits: 0, misses: 0, stored: 0, bytes: 0, entries: 0 };
  const remember = (key, value, bytes) => {
    if (bytes > maxBytes) return;
    answers.set(key, { value, bytes });
    stats.bytes += bytes;
    for (const [k, old] of answers) {
      if (stats.bytes <= maxBytes) break;
      answers.delete(k);
      stats.bytes -= old.bytes;
    }
    stats.entries = answers.size;
  };
  const wrap = (name) =>
    function remembered(...args) {
      let key;
      try {
        key = keyOf(name, args);
      } catch (e) {
        if (e instanceof Uncacheable) return core[name](...args);
        throw e;
      }
      const seen = answers.get(key);
      if (seen) {
        answers.delete(key);
        answers.set(key, seen);
        stats.hits++;
        return copyOf(seen.value);
      }
      const kept = store?.get(key);
      if (kept !== undefined) {
        stats.stored++;
        remember(key, kept, sizeOf(kept));
        return copyOf(kept);
      }
      stats.misses++;
      const value = core[name](...args);
      const bytes = sizeOf(value);
      const copy = copyOf(value);
      remember(key, copy, bytes);
      store?.put(key, copy, bytes);
      return value;
    };
  const methods = Object.fromEntries(REFERENCE_FUNCTIONS.map((n) => [n, wrap(n)]));
  // The core's other members (getters included, read on the core itself) through a proxy.
  return new Proxy(core, {
    get(target, prop) {
      if (prop === 'refCache') return stats;
      if (typeof prop === 'string' && Object.hasOwn(methods, prop)) return methods[prop];
      return Reflect.get(target, prop);
    },
  });
}
