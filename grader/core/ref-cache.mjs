// The reference's answers computed once per run: a core (wasm/index.mjs loadCore) whose reference
// functions remember what they returned for the same arguments. A pack's expected values for a
// (pack, seed, test) are the same for every student, and so are the declared mistakes' recomputations
// (they take the test's inputs, not the student's output), so in a batch only the first submission
// pays for them; every later one only runs its own code and compares. The functions are pure (the
// double-precision C++ reference), so a remembered answer is the answer.
// - key: the function's name and its arguments, walked (numbers, strings, booleans, null/undefined,
//   lists, option objects in their key order, typed arrays by type, length and a SHA-1 of their bytes);
//   anything else (a function, a class instance) is not remembered: the call goes through.
// - what is handed out is a copy (structuredClone), so a suite that edits a result in place cannot
//   change what the next submission is compared with; an error is not remembered (thrown each time).
// - bounded: at most `maxBytes` of answers (typed arrays' bytes, roughly), the least recently used dropped first.
// Only the reference functions are wrapped; the rest of the core (the float32 fast path, the module) is the core's.
import { createHash } from 'node:crypto';

/** The core's functions that compute reference values (wasm/index.mjs makeCore). */
export const REFERENCE_FUNCTIONS = Object.freeze([
  'call',
  'causalMask',
  'softmax',
  'matmul',
  'attention',
  'causalSelfAttention',
  'attentionLoops',
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
 * plus `refCache`: { hits, misses, bytes, entries } for the run's report and the tests.
 */
export function cachedCore(core, { maxBytes = 64 * 2 ** 20 } = {}) {
  const answers = new Map(); // key → { value, bytes }, in least recently used first order
  const stats = { hits: 0, misses: 0, bytes: 0, entries: 0 };
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
        return structuredClone(seen.value);
      }
      stats.misses++;
      const value = core[name](...args);
      const bytes = sizeOf(value);
      if (bytes <= maxBytes) {
        answers.set(key, { value: structuredClone(value), bytes });
        stats.bytes += bytes;
        for (const [k, old] of answers) {
          if (stats.bytes <= maxBytes) break;
          answers.delete(k);
          stats.bytes -= old.bytes;
        }
        stats.entries = answers.size;
      }
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
