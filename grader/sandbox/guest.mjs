// The guest: the code that runs INSIDE the sandbox realm (a `vm` context in a Node worker thread, or a
// browser Web Worker), next to the student's code. It owns `np`, `print` and `console` there.
//
// It talks to its host only in JSON strings (`handle(requestJson) -> responseJson`): no object of the
// host's realm ever reaches student code, so `x.constructor.constructor('return process')()` finds
// nothing but this realm. Before student code runs, `lockdown()` freezes the realm's built-ins, so
// overriding `Math.exp` or polluting `Object.prototype` changes nothing (np captured what it uses).
//
// Requests:  { op: 'load', source }            → { ok, functions, output, error? }
//            { op: 'call', name, args }        → { ok: true, value, output } | { ok: false, kind, message, line, output }
// Values: JSON with non-finite numbers as { $f: 'NaN' | 'Infinity' | '-Infinity' } and arrays as
// { $nd: { dtype, shape, data } }.
import np, { NDArray } from '../np/index.mjs';

const OUTPUT_CAP = 20000; // characters kept per request; the reporters cut further

const FUNCTION_NAMES_RE = /^[A-Za-z_$][\w$]*$/;

export function installGuest(global, { filename = 'submission.js', hide = [] } = {}) {
  // Capture what we use before the student can touch anything.
  const { stringify, parse } = JSON;
  const { isFinite } = Number;
  const { isArray } = Array;
  const indirectEval = global.eval;
  const stackRe = new RegExp(`${filename.replace('.', '\\.')}:(\\d+):(\\d+)`);

  let out = '';
  let truncated = false;
  const write = (s) => {
    if (truncated) return;
    if (out.length + s.length > OUTPUT_CAP) {
      out += s.slice(0, OUTPUT_CAP - out.length);
      truncated = true;
      out += '\n… [output truncated]\n';
    } else out += s;
  };
  const show = (v) => {
    if (typeof v === 'string') return v;
    if (v instanceof NDArray) return v.toString();
    if (isArray(v)) return `[${v.map(show).join(', ')}]`;
    if (v === undefined) return 'undefined';
    if (typeof v === 'function') return `[function ${v.name || 'anonymous'}]`;
    if (typeof v === 'object' && v !== null) {
      try { return stringify(v); } catch { return String(v); }
    }
    return String(v);
  };
  const print = (...args) => { write(args.map(show).join(' ') + '\n'); };
  const console = Object.freeze({ log: print, info: print, warn: print, error: print, debug: print });

  const define = (name, value) =>
    Object.defineProperty(global, name, { value, writable: false, configurable: false, enumerable: false });
  define('np', np);
  define('print', print);
  define('console', console);
  for (const name of hide) {
    try { Object.defineProperty(global, name, { value: undefined, writable: false, configurable: false }); } catch { /* not ours */ }
  }

  const encode = (v, seen = 0) => {
    if (seen > 64) throw new TypeError('the returned value is nested too deeply');
    if (typeof v === 'number') return isFinite(v) ? v : { $f: String(v) };
    if (typeof v === 'boolean' || v === null) return v;
    if (v === undefined) return { $undef: true };
    if (v instanceof NDArray) return { $nd: { dtype: v.dtype, shape: [...v.shape], data: Array.from(v.data, (x) => (isFinite(x) ? x : { $f: String(x) })) } };
    if (ArrayBuffer.isView(v)) return Array.from(v, (x) => encode(x, seen + 1));
    if (isArray(v)) return v.map((x) => encode(x, seen + 1));
    return { $other: typeof v === 'object' ? (v.constructor && v.constructor.name) || 'object' : typeof v };
  };
  const reviver = (k, v) => {
    if (v && typeof v === 'object') {
      if ('$f' in v) return Number(v.$f);
      if ('$nd' in v) {
        const { dtype, shape, data } = v.$nd;
        return np.array(data, dtype).reshape(shape);
      }
    }
    return v;
  };

  const errorInfo = (e) => {
    let message;
    try {
      message = e instanceof Error ? `${e.name}: ${e.message}` : `uncaught value: ${show(e)}`;
    } catch { message = 'an error that cannot be printed'; }
    let line = null, column = null;
    try {
      const m = e && typeof e.stack === 'string' && e.stack.match(stackRe);
      if (m) { line = +m[1]; column = +m[2]; }
    } catch { /* stack getter threw */ }
    return { message, line, column };
  };

  // Functions the submission defined: `function f` lands on the global object; `const f = () => …`
  // stays in the eval's own scope, so a trailer appended to the source hands those over.
  let exported = Object.create(null);
  define('__attnlab_export', (name, fn) => { if (typeof fn === 'function') exported[name] = fn; });
  const lookup = (name) => {
    if (exported[name]) return exported[name];
    const desc = Object.getOwnPropertyDescriptor(global, name);
    return desc && typeof desc.value === 'function' ? desc.value : undefined;
  };

  const ops = {
    load({ source, functions = [] }) {
      exported = Object.create(null);
      functions = functions.filter((f) => FUNCTION_NAMES_RE.test(f));
      const trailer = functions.map((f) => `__attnlab_export(${stringify(f)}, typeof ${f} === 'function' ? ${f} : undefined);`).join('');
      let error = null;
      try {
        indirectEval(`${source}\n;${trailer}\n//# sourceURL=${filename}`);
      } catch (e) { error = errorInfo(e); }
      return { ok: true, functions: functions.filter((f) => lookup(f)), error };
    },
    call({ name, args }) {
      const fn = lookup(name);
      if (!fn) return { ok: false, kind: 'missing', message: `${name} is not defined` };
      try {
        const value = fn(...args);
        return { ok: true, value: encode(value) };
      } catch (e) {
        return { ok: false, kind: 'error', ...errorInfo(e) };
      }
    },
  };

  function handle(requestJson) {
    out = ''; truncated = false;
    const req = parse(requestJson, reviver);
    let res;
    try { res = ops[req.op](req); } catch (e) { res = { ok: false, kind: 'error', ...errorInfo(e) }; }
    res.output = out;
    try { return stringify(res); } catch (e) {
      return stringify({ ok: false, kind: 'error', message: `the result could not be read: ${e.message}`, output: out });
    }
  }

  lockdown(global);
  return handle;
}

/** Freeze the realm's shared built-ins (a small SES-style lockdown). */
export function lockdown(global) {
  const names = [
    'Object', 'Function', 'Array', 'String', 'Number', 'Boolean', 'Symbol', 'BigInt', 'Math', 'JSON', 'Reflect',
    'Error', 'TypeError', 'RangeError', 'SyntaxError', 'ReferenceError', 'EvalError', 'URIError',
    'RegExp', 'Date', 'Map', 'Set', 'WeakMap', 'WeakSet', 'Promise', 'ArrayBuffer', 'DataView',
    'Float64Array', 'Float32Array', 'Int32Array', 'Uint32Array', 'Int16Array', 'Uint16Array', 'Int8Array',
    'Uint8Array', 'Uint8ClampedArray', 'BigInt64Array', 'BigUint64Array', 'np',
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
        get() { return value; },
        set(v) {
          if (this === proto) throw new TypeError(`Cannot assign to read only property '${String(key)}' of a built-in prototype`);
          Object.defineProperty(this, key, { value: v, writable: true, enumerable: true, configurable: true });
        },
        enumerable: d.enumerable, configurable: false,
      });
    }
  };
  enableOverride(Object.prototype, Reflect.ownKeys(Object.prototype).filter((k) => k !== '__proto__'));
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
      else { deepFreeze(d.get); deepFreeze(d.set); }
    }
    deepFreeze(Object.getPrototypeOf(o));
  };
  for (const n of names) if (global[n] !== undefined) deepFreeze(global[n]);
  const typedArray = Object.getPrototypeOf(Uint8Array);
  deepFreeze(typedArray);
  deepFreeze(Object.getPrototypeOf([][Symbol.iterator]()));
  deepFreeze(Object.getPrototypeOf(function* () {}));
  deepFreeze(Object.getPrototypeOf(async function () {}));
}
