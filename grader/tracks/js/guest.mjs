// The guest: the code that runs INSIDE the sandbox realm (a `vm` context in the Node host's child
// process, or the page's Web Worker), next to the student's code. It owns `np`, `print` and
// `console` there.
//
// It talks to its host only in JSON strings (`handle(requestJson) -> responseJson`), so no object of
// the host's realm ever reaches student code. Before student code runs, `lockdown()` freezes the
// realm's built-ins and their global bindings, so overriding `Math.exp`, polluting
// `Object.prototype` or rebinding `Float64Array` changes nothing for np or for the encoder; no code of
// the student's can run between requests (FinalizationRegistry callbacks never run).
//
// Requests:  { op: 'load', source, functions, aliases } → { ok: true, functions, output, error }
//            { op: 'call', name, args }                 → { ok: true, value, output }
//                                                        | { ok: false, kind, message, line, column, output }
// Values: the wire format of ./wire.mjs (encodeValue here, decodeResponse on the trusted side).
import np, { NDArray, isArrayTooLarge } from '../../np/index.mjs';
import { ArrayTooLarge, MAX_SIZE } from '../../np/errors.mjs';
import { InvalidValue, encodeValue } from '../../wire/codec.mjs';
import { createOutput, createHandle, capMessage, removeEverywhere } from '../guest-kit.mjs';
import { countingConstructor, TYPED_ARRAYS } from '../../counting.mjs';
import { measureCall, noteBuffer, noteList, LIST_MIN } from '../measure.mjs';
import { createWork, countNp } from '../work.mjs';
import { TICK, ENTER, WORK_PER_MS } from './tick.mjs';

const FUNCTION_NAME = /^[A-Za-z_$][\w$]*$/;

// Removed from the realm: memory the host cannot see or blocking waits (SharedArrayBuffer, Atomics),
// and compiled code (WebAssembly).
const REMOVED = ['SharedArrayBuffer', 'Atomics', 'WebAssembly'];

// FinalizationRegistry whose callbacks never run (the language allows that): a callback would run
// outside every request, beyond any time limit, and could throw or loop there.
class InertFinalizationRegistry {
  constructor(callback) {
    if (typeof callback !== 'function') throw new TypeError('FinalizationRegistry: cleanup must be callable');
  }
  register() {}
  unregister() {
    return false;
  }
}

/**
 * Installs np, print and console on `global`, locks the realm down and returns `handle`.
 * `hide`: further global names to remove along the whole prototype chain of `global` (the page's
 * worker hides its network and timer APIs this way).
 */
export function installGuest(global, { filename = 'submission.js', hide = [] } = {}) {
  // Captured before the student can touch anything.
  const { stringify } = JSON;
  const { isArray } = Array;
  const indirectEval = global.eval;
  const { defineProperty, getOwnPropertyDescriptor, create } = Object;
  const stackRe = new RegExp(`${filename.replace('.', '\\.')}:(\\d+):(\\d+)`);
  const isReal = NDArray.parts;

  const output = createOutput();
  const show = (v) => {
    if (typeof v === 'string') return v;
    if (isReal(v)) return v.toString();
    if (isArray(v)) return `[${v.map(show).join(', ')}]`;
    if (v === undefined) return 'undefined';
    if (typeof v === 'function') return `[function ${v.name || 'anonymous'}]`;
    if (typeof v === 'object' && v !== null) {
      try {
        return stringify(v);
      } catch {
        return String(v);
      }
    }
    return String(v);
  };
  const print = (...args) => {
    output.write(args.map(show).join(' ') + '\n');
  };
  const console = Object.freeze({ log: print, info: print, warn: print, error: print, debug: print });

  // Stack traces show the student's own frames only (never the guest's or the host's files), and
  // remember where in the submission an error was raised.
  const where = new WeakMap();
  const ErrorCtor = global.Error;
  ErrorCtor.prepareStackTrace = (error, frames) => {
    const own = [];
    for (const f of frames) {
      const file = f.getScriptNameOrSourceURL?.() ?? f.getFileName?.();
      if (file === filename) own.push(f);
    }
    if (own.length && error !== null && typeof error === 'object') {
      try {
        where.set(error, { line: own[0].getLineNumber(), column: own[0].getColumnNumber() });
      } catch {
        /* a frozen error */
      }
    }
    let head;
    try {
      head = String(error);
    } catch {
      head = 'Error';
    }
    return [
      head,
      ...own.map(
        (f) =>
          `    at ${f.getFunctionName() || '<anonymous>'} (${filename}:${f.getLineNumber()}:${f.getColumnNumber()})`,
      ),
    ].join('\n');
  };

  const define = (name, value) =>
    defineProperty(global, name, { value, writable: false, configurable: false, enumerable: false });
  const work = createWork();
  countNp(np, NDArray, work);
  define('np', np);
  define(TICK, work.tick); // read-only; the prepared source binds both to constants of its own (./tick.mjs)
  define(ENTER, work.enter);
  define('print', print);
  define('console', console);
  if (global.FinalizationRegistry) {
    Object.defineProperty(InertFinalizationRegistry, 'name', { value: 'FinalizationRegistry' });
    define('FinalizationRegistry', InertFinalizationRegistry);
  }
  for (const name of [...REMOVED, ...hide]) removeEverywhere(global, name);

  const errorInfo = (e) => {
    let message;
    try {
      if (e instanceof ErrorCtor || (e !== null && typeof e === 'object' && 'message' in e)) {
        const name = e.name,
          text = e.message;
        message = `${typeof name === 'string' && name ? name : 'Error'}: ${typeof text === 'string' ? text : show(text)}`;
      } else message = `uncaught value: ${show(e)}`;
    } catch {
      message = 'an error that cannot be printed';
    }
    if (typeof message !== 'string') message = 'an error that cannot be printed';
    message = capMessage(message);
    let line = null,
      column = null;
    try {
      const stack = e !== null && typeof e === 'object' ? e.stack : undefined; // formats it: fills `where`
      const w = where.get(e);
      if (w) ({ line, column } = w);
      else if (typeof stack === 'string') {
        const m = stack.match(stackRe);
        if (m) {
          line = +m[1];
          column = +m[2];
        }
      }
    } catch {
      /* a stack getter that throws: no line */
    }
    return { message, line: line > 0 ? line : null, column: column > 0 ? column : null };
  };

  // The student's line that is running now (measurement: where the largest array was built), or null.
  const lineOf = () => {
    const probe = new ErrorCtor();
    try {
      void probe.stack;
    } catch {
      /* no stack */
    }
    return where.get(probe)?.line ?? null;
  };

  // Functions the submission defined: `function f` lands on the global object; `const f = () => …`
  // stays in the eval's own scope, so a trailer appended to the source hands those over.
  let exported = create(null);
  define('__attnlab_export', (name, fn) => {
    if (typeof fn === 'function') exported[name] = fn;
  });
  const lookup = (name) => {
    if (exported[name]) return exported[name];
    const desc = getOwnPropertyDescriptor(global, name);
    return desc && typeof desc.value === 'function' ? desc.value : undefined;
  };

  const ops = {
    load({ source, functions = [], aliases = {} }) {
      exported = create(null);
      functions = functions.filter((f) => FUNCTION_NAME.test(f));
      const local = (f) => (typeof aliases[f] === 'string' && FUNCTION_NAME.test(aliases[f]) ? aliases[f] : f);
      const trailer = functions
        .map((f) => `__attnlab_export(${stringify(f)}, typeof ${local(f)} === 'function' ? ${local(f)} : undefined);`)
        .join('');
      let error = null;
      try {
        indirectEval(`${source}\n;${trailer}\n//# sourceURL=${filename}`);
      } catch (e) {
        error = errorInfo(e);
      }
      return { ok: true, functions: functions.filter((f) => lookup(f)), error };
    },
    call({ name, args, measure }) {
      const fn = lookup(name);
      if (!fn) return { ok: false, kind: 'missing', message: `${name} is not defined` };
      const run = () => {
        let value;
        try {
          value = fn(...args);
        } catch (e) {
          return { ok: false, kind: isArrayTooLarge(e) ? 'memory' : 'error', ...errorInfo(e) };
        }
        try {
          return { ok: true, value: encodeValue(value, isReal) };
        } catch (e) {
          if (e instanceof InvalidValue) return { ok: false, kind: 'invalid', reason: e.reason, detail: e.detail };
          return { ok: false, kind: 'error', ...errorInfo(e) }; // a getter of the returned value threw
        }
      };
      return measure ? measureCall(run, { limit: measure.limit, args, isReal, lineOf, output }) : run();
    },
  };
  // data: a list, or typed data that came packed (wire.mjs), which becomes the array's own buffer.
  const makeArray = ({ dtype, shape, data }) =>
    isArray(data) ? np.array(data, dtype).reshape(shape) : new NDArray(data, shape, dtype);

  const handle = createHandle({ ops, makeArray, errorInfo, output, work, workPerMs: WORK_PER_MS });

  countAllocations(global);
  countSorts(global, work);
  lockdown(global);
  return handle;
}

/**
 * What a measured call makes outside np (grader/tracks/measure.mjs, kept.typed and kept.lists): the
 * realm's ArrayBuffer and typed-array constructors are replaced by counting ones (a view over an
 * existing buffer makes nothing), and push, fill, Array.from and Array.of tell it about a plain array
 * that holds LIST_MIN elements or more. Unmeasured, each costs one comparison more.
 *
 * And a plain array larger than the whole memory budget (MAX_SIZE elements, as np counts an array of
 * float64) is refused when fill or Array.from is asked for it, before anything is written: np's
 * MemoryError, kind 'memory' with the student's line, in both hosts alike. Without it such an array
 * (`new Array(1e8).fill(0)`: gigabytes of V8's dictionary elements, tens of seconds) was stopped by
 * whichever came first on that machine, the Node child's heap cap or the host's clock, and a page whose
 * worker cannot measure the JS heap could even finish it and pass.
 */
function countAllocations(global) {
  const BaseArrayBuffer = global.ArrayBuffer;
  global.ArrayBuffer = countingConstructor(BaseArrayBuffer, noteBuffer);
  for (const name of TYPED_ARRAYS)
    if (global[name])
      global[name] = countingConstructor(global[name], (obj, args) => {
        if (!(args[0] instanceof BaseArrayBuffer)) noteBuffer(obj);
      });
  const { apply } = Reflect;
  const { isArray } = global.Array;
  const AP = global.Array.prototype;
  const follow = (a) => {
    if (isArray(a) && a.length >= LIST_MIN) noteList(a);
    return a;
  };
  const { push, fill } = AP;
  const { getOwnPropertyDescriptor } = Object;
  const { trunc, max, min } = Math;
  const refuse = (n) => {
    if (n > MAX_SIZE) throw new ArrayTooLarge(n, n * 8, [n]);
  };
  // fill's relative index (ToIntegerOrInfinity, then from the end where negative, within 0..len).
  const bound = (v, len, missing) => {
    if (v === undefined) return missing;
    const n = trunc(+v) || 0;
    return n < 0 ? max(len + n, 0) : min(n, len);
  };
  const { from, of } = global.Array;
  const methods = {
    push() {
      const n = apply(push, this, arguments);
      if (n >= LIST_MIN) follow(this);
      return n;
    },
    fill(value, start, end) {
      if (!isArray(this)) return follow(apply(fill, this, arguments));
      // The range as fill computes it (each argument converted once, here), then handed over as numbers.
      const len = this.length;
      const k = bound(start, len, 0);
      const last = bound(end, len, len);
      refuse(last - k);
      return follow(apply(fill, this, [value, k, last]));
    },
  };
  const statics = {
    from(items) {
      // An array-like's length, read once only where it is a plain number (an iterable's is not known).
      if (items !== null && typeof items === 'object' && !isArray(items)) {
        const d = getOwnPropertyDescriptor(items, 'length');
        if (d && typeof d.value === 'number') refuse(d.value);
      }
      return follow(apply(from, this, arguments));
    },
    of() {
      return follow(apply(of, this, arguments));
    },
  };
  for (const [name, f] of Object.entries(methods))
    Object.defineProperty(AP, name, { value: f, writable: true, enumerable: false, configurable: true });
  for (const [name, f] of Object.entries(statics))
    Object.defineProperty(global.Array, name, { value: f, writable: true, enumerable: false, configurable: true });
}

/**
 * The work count of a sort (grader/tracks/work.mjs): one builtin call whose time grows as n·log n, too
 * long for the hosts' clocks to be its only bound (a sort of 60 M numbers: seconds) — charged n·log2 n
 * units before it runs, for plain and typed arrays alike.
 */
function countSorts(global, work) {
  const { apply } = Reflect;
  const { log2, ceil } = Math;
  const TypedArrayProto = Object.getPrototypeOf(global.Uint8Array.prototype);
  for (const proto of [global.Array.prototype, TypedArrayProto])
    for (const name of ['sort', 'toSorted']) {
      const original = proto[name];
      if (typeof original !== 'function') continue;
      Object.defineProperty(proto, name, {
        value: {
          [name](...args) {
            const n = /** @type {any} */ (this)?.length >>> 0;
            if (n > 1) work.charge(n * ceil(log2(n)));
            return apply(original, this, args);
          },
        }[name],
        writable: true,
        enumerable: false,
        configurable: true,
      });
    }
}

/**
 * A small SES-style lockdown: freeze the realm's shared built-ins and pin every global binding that
 * exists now (read-only, not configurable), so neither a built-in nor the name it is found under can
 * be replaced by student code.
 */
export function lockdown(global) {
  const names = [
    'Object',
    'Function',
    'Array',
    'String',
    'Number',
    'Boolean',
    'Symbol',
    'BigInt',
    'Math',
    'JSON',
    'Reflect',
    'Error',
    'TypeError',
    'RangeError',
    'SyntaxError',
    'ReferenceError',
    'EvalError',
    'URIError',
    'AggregateError',
    'RegExp',
    'Date',
    'Map',
    'Set',
    'WeakMap',
    'WeakSet',
    'Promise',
    'ArrayBuffer',
    'DataView',
    'Proxy',
    'Float64Array',
    'Float32Array',
    'Int32Array',
    'Uint32Array',
    'Int16Array',
    'Uint16Array',
    'Int8Array',
    'Uint8Array',
    'Uint8ClampedArray',
    'BigInt64Array',
    'BigUint64Array',
    'np',
  ];
  // Assigning to an instance property that a frozen prototype also has (err.name = …, obj.toString = …)
  // would throw: turn those prototype properties into accessors that define the property on the
  // instance instead, as SES does for the same "override mistake".
  const enableOverride = (proto, keys) => {
    for (const key of keys) {
      const d = Object.getOwnPropertyDescriptor(proto, key);
      if (!d || !('value' in d) || !d.configurable) continue;
      const { value } = d;
      Object.defineProperty(proto, key, {
        get() {
          return value;
        },
        set(v) {
          if (this === proto)
            throw new TypeError(`Cannot assign to read only property '${String(key)}' of a built-in prototype`);
          Object.defineProperty(this, key, { value: v, writable: true, enumerable: true, configurable: true });
        },
        enumerable: d.enumerable,
        configurable: false,
      });
    }
  };
  enableOverride(
    Object.prototype,
    Reflect.ownKeys(Object.prototype).filter((k) => k !== '__proto__'),
  );
  enableOverride(Function.prototype, ['toString', 'name', 'constructor']);
  for (const E of [Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError]) {
    enableOverride(E.prototype, ['name', 'message', 'constructor', 'toString']);
  }
  const seen = new Set();
  const deepFreeze = (o) => {
    if (o === null || (typeof o !== 'object' && typeof o !== 'function') || seen.has(o)) return;
    seen.add(o);
    Object.freeze(o);
    for (const key of Reflect.ownKeys(o)) {
      const d = Object.getOwnPropertyDescriptor(o, key);
      if (!d) continue;
      if ('value' in d) deepFreeze(d.value);
      else {
        deepFreeze(d.get);
        deepFreeze(d.set);
      }
    }
    deepFreeze(Object.getPrototypeOf(o));
  };
  for (const n of names) if (global[n] !== undefined) deepFreeze(global[n]);
  const typedArray = Object.getPrototypeOf(Uint8Array);
  deepFreeze(typedArray);
  deepFreeze(Object.getPrototypeOf([][Symbol.iterator]()));
  deepFreeze(Object.getPrototypeOf(function* () {}));
  deepFreeze(Object.getPrototypeOf(async function () {}));
  // Pin the global bindings (a `vm` global needs the value spelled out in the new descriptor).
  for (const key of Reflect.ownKeys(global)) {
    const d = Object.getOwnPropertyDescriptor(global, key);
    if (d && d.configurable && 'value' in d) {
      Object.defineProperty(global, key, {
        value: d.value,
        writable: false,
        enumerable: d.enumerable,
        configurable: false,
      });
    }
  }
}
