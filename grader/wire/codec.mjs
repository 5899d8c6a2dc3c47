// The wire format of the sandbox boundary and its one codec (DESIGN.md → Contracts → Sandbox).
//
// Values cross as JSON text:
//   numbers (non-finite as { $number: 'NaN' | 'Infinity' | '-Infinity' }), booleans, null, strings (cut to
//   STRING_CAP), lists, { $undef: true }, { $other: kind } for anything that is not data (a function, an
//   object: its kind only), and arrays { $array: { dtype: 'float64' | 'int64' | 'bool', shape: [n, …],
//   data: [numbers | booleans] | packed } }. An array of PACK_MIN elements or more travels packed: data
//   is one base64 string of its bytes (float64 little-endian for float64 and int64, one byte 0/1 per
//   element for bool), so a (1024, 64) argument is one string to copy instead of 65,536 numbers to
//   print, parse and revive (tools/wire-cost measures both).
// Host → guest: encodeRequest() (the trusted side's own values).
// Guest → host: encodeValue() inside the sandbox realm. This module is evaluated there before any student
//   code runs, so the intrinsics it uses are captured first; it never calls a method of the value
//   (no `map`, `toJSON`, `constructor.name`), only reads indices and checks types, so whatever student
//   code runs (a getter, a Proxy trap) can change what is read but not the format that is written.
// On the trusted side decodeResponse() checks every field of a reply (types, shape × data length,
//   element types, sizes, text caps) before anything is built from it, and never throws.

import { capText, scrubHost, visible } from './text.mjs';
import { LIMITS } from '../limits.mjs';

/** Arrays with at least this many elements cross packed (base64 of their bytes); smaller ones as lists. */
export const PACK_MIN = 256;

export const KINDS = Object.freeze(['error', 'timeout', 'memory', 'crash', 'missing', 'invalid']);
// Why a returned value could not be encoded (kind 'invalid'); messages.mjs has a sentence for each.
export const INVALID = Object.freeze(['too_long', 'too_many', 'too_deep', 'ndarray', 'unreadable', 'too_big', 'reply']);

// ---- captured intrinsics (before student code: this module is part of the guest bundle) ----
const { isArray } = Array;
const { isView } = ArrayBuffer;
const { parse: jsonParse, stringify } = JSON;
const { isSafeInteger } = Number;
const { hasOwn, keys: objectKeys, getPrototypeOf, freeze } = Object;
const TypedArrayProto = getPrototypeOf(Uint8Array.prototype);
const getter = (o, k) => Object.getOwnPropertyDescriptor(o, k).get;
// uncurry(f)(self, ...args) is f.call(self, ...args) through the original `call`, bound now (Node's
// primordials' idiom): a realm that later replaces Function.prototype.call or the prototype methods
// does not reach it, and it costs a native call, not a rest array and Reflect.apply per character
// (which made a cold realm's base64 decoding 3.5× slower, and a warm one's 20×).
const uncurry = Function.prototype.bind.bind(Function.prototype.call);
const typedLength = uncurry(getter(TypedArrayProto, 'length'));
const typedTag = uncurry(getter(TypedArrayProto, Symbol.toStringTag)); // undefined unless a real typed array
const stringSlice = uncurry(String.prototype.slice);

const { fromCharCode } = String;
const charCodeAt = uncurry(String.prototype.charCodeAt);
const F64 = Float64Array,
  U8 = Uint8Array;
const bufferOf = uncurry(getter(TypedArrayProto, 'buffer'));

// ---- packed data: base64 of the bytes (both sides; no atob/btoa in a vm realm) ----
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_CODE = new U8(64);
const B64_VALUE = new U8(128).fill(255);
for (let i = 0; i < 64; i++) {
  B64_CODE[i] = charCodeAt(B64, i);
  B64_VALUE[B64_CODE[i]] = i;
}

/** Bytes → base64 text. */
function base64Of(bytes) {
  const n = typedLength(bytes),
    codes = new U8(4 * Math.ceil(n / 3));
  let k = 0;
  for (let i = 0; i < n; i += 3) {
    const a = bytes[i],
      b = i + 1 < n ? bytes[i + 1] : 0,
      c = i + 2 < n ? bytes[i + 2] : 0;
    codes[k++] = B64_CODE[a >> 2];
    codes[k++] = B64_CODE[((a & 3) << 4) | (b >> 4)];
    codes[k++] = i + 1 < n ? B64_CODE[((b & 15) << 2) | (c >> 6)] : 61; // '='
    codes[k++] = i + 2 < n ? B64_CODE[c & 63] : 61;
  }
  let s = '';
  for (let i = 0; i < k; i += 8192) s += Reflect.apply(fromCharCode, null, codes.subarray(i, Math.min(i + 8192, k)));
  return s;
}

/** base64 text of exactly `n` bytes → Uint8Array, or null when it is anything else. */
function bytesOf(text, n) {
  if (typeof text !== 'string' || text.length !== 4 * Math.ceil(n / 3)) return null;
  const out = new U8(n);
  for (let i = 0, k = 0; i < text.length; i += 4) {
    let v = 0;
    for (let j = 0; j < 4; j++) {
      const c = charCodeAt(text, i + j),
        pad = c === 61 && k + j > n; // '=' only where no byte is left
      const d = c < 128 ? B64_VALUE[c] : 255;
      if (d === 255 && !pad) return null;
      v = (v << 6) | (pad ? 0 : d);
    }
    if (k < n) out[k++] = v >> 16;
    if (k < n) out[k++] = (v >> 8) & 255;
    if (k < n) out[k++] = v & 255;
  }
  return out;
}

/** Typed data (any element type) → packed text: float64 bytes, or one byte per element for bool. */
function pack(data, n, bool) {
  if (bool) {
    const b = new U8(n);
    for (let i = 0; i < n; i++) b[i] = data[i] ? 1 : 0;
    return base64Of(b);
  }
  const f = new F64(n);
  for (let i = 0; i < n; i++) f[i] = +data[i];
  return base64Of(new U8(bufferOf(f)));
}

/** Packed text → Float64Array or Uint8Array (bool: every byte 0 or 1) of `n` elements, or null. */
function unpack(text, n, bool) {
  const bytes = bytesOf(text, bool ? n : 8 * n);
  if (!bytes) return null;
  if (bool) {
    for (let i = 0; i < n; i++) if (bytes[i] > 1) return null;
    return bytes;
  }
  return new F64(bufferOf(bytes));
}

const nonFinite = (x) => ({ $number: x !== x ? 'NaN' : x > 0 ? 'Infinity' : '-Infinity' });
const num = (x) => (x - x === 0 ? x : nonFinite(x)); // finite ⇔ x − x is 0 (no call into the realm)

/** A returned value that cannot cross; the guest answers { ok: false, kind: 'invalid', reason, detail }. */
export class InvalidValue {
  constructor(reason, detail = null) {
    this.reason = reason;
    this.detail = detail;
  }
}

/**
 * Guest side: a returned value → wire value. `ndParts(v)` is np's brand check: the array's
 * { dtype, shape, data } for a real NDArray, else null. Throws InvalidValue. (`packMin`: for
 * tools/wire-cost, which compares with lists; the guests use PACK_MIN.)
 */
export function encodeValue(value, ndParts, packMin = PACK_MIN) {
  let budget = LIMITS.elements;
  const spend = (n) => {
    if ((budget -= n) < 0) throw new InvalidValue('too_many', LIMITS.elements);
  };
  const list = (src, n, depth) => {
    const out = [];
    for (let i = 0; i < n; i++) out[i] = enc(src[i], depth);
    return out;
  };
  const typed = (data, n, bool, packable = false) => {
    spend(n);
    if (packable && n >= packMin) return pack(data, n, bool); // only an array's data: a plain typed array stays a list
    const out = [];
    for (let i = 0; i < n; i++) out[i] = bool ? data[i] !== 0 : num(+data[i]);
    return out;
  };
  const enc = (v, depth) => {
    switch (typeof v) {
      case 'number':
        spend(1);
        return num(v);
      case 'boolean':
        spend(1);
        return v;
      case 'undefined':
        return { $undef: true };
      case 'string':
        return v.length > LIMITS.string ? stringSlice(v, 0, LIMITS.string) : v;
      case 'object':
        break;
      default:
        return { $other: typeof v }; // function, symbol, bigint
    }
    if (v === null) return null;
    if (depth >= LIMITS.depth) throw new InvalidValue('too_deep', LIMITS.depth);
    const nd = ndParts(v);
    if (nd) {
      const { dtype, shape, data } = nd;
      const tag = typedTag(data);
      if ((dtype === 'bool' ? tag !== 'Uint8Array' : tag !== 'Float64Array') || !isArray(shape))
        throw new InvalidValue('ndarray');
      const n = typedLength(data),
        dims = [];
      let size = 1;
      for (let i = 0; i < shape.length && i < LIMITS.depth + 1; i++) {
        const d = shape[i];
        if (typeof d !== 'number' || !isSafeInteger(d) || d < 0) throw new InvalidValue('ndarray');
        dims[i] = d;
        size *= d;
      }
      if (dims.length !== shape.length || dims.length > LIMITS.depth || size !== n) throw new InvalidValue('ndarray');
      return { $array: { dtype, shape: dims, data: typed(data, n, dtype === 'bool', true) } };
    }
    if (typedTag(v) !== undefined) {
      const n = typedLength(v);
      if (n > LIMITS.elements) throw new InvalidValue('too_long', n);
      return typed(v, n, false);
    }
    if (isArray(v)) {
      const n = v.length;
      if (n > LIMITS.elements) throw new InvalidValue('too_long', n);
      return list(v, n, depth + 1);
    }
    if (isView(v)) return { $other: 'object' }; // a DataView
    return { $other: 'object' };
  };
  return enc(value, 0);
}

/** Host side: a request → JSON text (non-finite numbers as { $number }; arrays of PACK_MIN elements or more packed). */
export const encodeRequest = (request, packMin = PACK_MIN) =>
  stringify(request, (k, v) => {
    if (typeof v === 'number' && v - v !== 0) return nonFinite(v);
    if (k === '$array' && v && (isArray(v.data) || typedTag(v.data) !== undefined) && v.data.length >= packMin)
      return { ...v, data: pack(v.data, v.data.length, v.dtype === 'bool') };
    return v;
  });

/**
 * Guest side: request text → value; `makeArray({ dtype, shape, data })` builds the realm's array (data:
 * a list, or a Float64Array / Uint8Array where it came packed).
 */
export const decodeRequest = (text, makeArray) =>
  jsonParse(text, (k, v) => {
    if (v && typeof v === 'object' && !isArray(v)) {
      if (hasOwn(v, '$number')) return Number(v.$number);
      if (hasOwn(v, '$array')) {
        const nd = v.$array;
        if (typeof nd.data !== 'string') return makeArray(nd);
        let n = 1;
        for (const d of nd.shape) n *= d;
        const data = unpack(nd.data, n, nd.dtype === 'bool');
        if (!data) throw new TypeError('internal: a packed argument does not match its shape');
        return makeArray({ dtype: nd.dtype, shape: nd.shape, data });
      }
    }
    return v;
  });

// ---- trusted side ----

class Malformed extends Error {}
const bad = (what) => {
  throw new Malformed(what);
};
const isPlain = (o) => o !== null && typeof o === 'object' && !isArray(o) && getPrototypeOf(o) === Object.prototype;
const onlyKeys = (o, allowed) => objectKeys(o).every((k) => allowed.includes(k));
const F = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity };
const OTHER = ['function', 'object', 'symbol', 'bigint'];
const DTYPES = ['float64', 'int64', 'bool'];
// Student text as every consumer may show it: no host frames or paths, control characters escaped, capped.
const studentText = (s, cap) => capText(visible(scrubHost(s)), cap, ' …');

/** A value of a reply, checked: arrays come back as { $array: { dtype, shape, data: Float64Array | Uint8Array } }. */
function checkValue(v) {
  let budget = LIMITS.elements;
  const spend = (n) => {
    if ((budget -= n) < 0) bad('too many elements');
  };
  const walk = (x, depth) => {
    if (typeof x === 'number' || typeof x === 'boolean') {
      spend(1);
      return x;
    }
    if (x === null) return null;
    if (typeof x === 'string') return capText(x, LIMITS.string, '…');
    if (depth > LIMITS.depth) bad('nested too deeply');
    if (isArray(x)) {
      spend(0);
      return x.map((y) => walk(y, depth + 1));
    }
    if (!isPlain(x)) bad('not a value');
    if (hasOwn(x, '$number')) return onlyKeys(x, ['$number']) && hasOwn(F, x.$number) ? F[x.$number] : bad('$number');
    if (hasOwn(x, '$undef')) return onlyKeys(x, ['$undef']) && x.$undef === true ? x : bad('$undef');
    if (hasOwn(x, '$other')) return onlyKeys(x, ['$other']) && OTHER.includes(x.$other) ? x : bad('$other');
    if (hasOwn(x, '$array')) return onlyKeys(x, ['$array']) ? { $array: checkArray(x.$array, spend) } : bad('$array');
    return bad('an object');
  };
  return walk(v, 0);
}

function checkArray(nd, spend) {
  if (!isPlain(nd) || !onlyKeys(nd, ['dtype', 'shape', 'data'])) bad('$array fields');
  const { dtype, shape, data } = nd;
  if (!DTYPES.includes(dtype)) bad('$array dtype');
  if (!isArray(shape) || shape.length > LIMITS.depth) bad('$array shape');
  let size = 1;
  for (const d of shape) {
    if (!isSafeInteger(d) || d < 0) bad('$array shape entry');
    size *= d;
    if (size > LIMITS.elements) bad('$array size');
  }
  if (typeof data === 'string') {
    spend(size);
    return { dtype, shape: [...shape], data: unpack(data, size, dtype === 'bool') ?? bad('$array packed data') };
  }
  if (!isArray(data) || data.length !== size) bad('$array data length');
  spend(size);
  if (dtype === 'bool') {
    const out = new Uint8Array(size);
    for (let i = 0; i < size; i++) {
      if (typeof data[i] !== 'boolean') bad('$array bool data');
      out[i] = data[i] ? 1 : 0;
    }
    return { dtype, shape: [...shape], data: out };
  }
  const out = new Float64Array(size);
  for (let i = 0; i < size; i++) {
    const x = data[i];
    if (typeof x === 'number') out[i] = x;
    else if (isPlain(x) && onlyKeys(x, ['$number']) && hasOwn(F, x.$number)) out[i] = F[x.$number];
    else bad('$array data');
  }
  return { dtype, shape: [...shape], data: out };
}

const isLine = (n) => n === null || n === undefined || (isSafeInteger(n) && n > 0);
const isCount = (n) => isSafeInteger(n) && n >= 0;

/** What held memory in a measured call (grader/tracks/measure.mjs `kept`): { np, typed, lists, heap }, each { bytes, line }, np with `loaded`. */
const KEPT = ['np', 'typed', 'lists', 'heap'];
function checkKept(k) {
  if (!isPlain(k) || !onlyKeys(k, KEPT)) bad('measured kept');
  const out = {};
  for (const name of KEPT) {
    const c = k[name];
    const fields = name === 'np' ? ['bytes', 'line', 'loaded'] : ['bytes', 'line'];
    if (!isPlain(c) || !onlyKeys(c, fields) || !isCount(c.bytes) || !isLine(c.line)) bad(`measured kept ${name}`);
    out[name] = { bytes: c.bytes, line: c.line ?? null };
    if (name === 'np') {
      if (!isCount(c.loaded ?? 0) || (c.loaded ?? 0) > c.bytes) bad('measured kept np');
      out.np.loaded = c.loaded ?? 0;
    }
  }
  return out;
}

/**
 * A measured call's report (grader/tracks/measure.mjs): { arrays, bytes, largest: null |
 * { shape, dtype, bytes, line }, kept }, checked field by field.
 */
function checkMeasured(m) {
  if (
    !isPlain(m) ||
    !onlyKeys(m, ['arrays', 'bytes', 'largest', 'kept']) ||
    !isCount(m.arrays) ||
    !isCount(m.bytes) ||
    !hasOwn(m, 'kept')
  )
    bad('measured');
  const kept = checkKept(m.kept);
  const g = m.largest;
  if (g === null || g === undefined) return { arrays: m.arrays, bytes: m.bytes, largest: null, kept };
  if (
    !isPlain(g) ||
    !onlyKeys(g, ['shape', 'dtype', 'bytes', 'line']) ||
    !DTYPES.includes(g.dtype) ||
    !isCount(g.bytes) ||
    !isLine(g.line)
  )
    bad('measured largest');
  if (!isArray(g.shape) || g.shape.length > LIMITS.depth || !g.shape.every(isCount)) bad('measured shape');
  return {
    arrays: m.arrays,
    bytes: m.bytes,
    largest: { shape: [...g.shape], dtype: g.dtype, bytes: g.bytes, line: g.line ?? null },
    kept,
  };
}

/**
 * Trusted side: one reply (JSON text, at most LIMITS.replyBytes, which the host enforces while
 * reading) → a checked response. Never throws: anything malformed becomes
 * { ok: false, kind: 'invalid', reason: 'reply' }. `functions`: the names a load asked for.
 * @param {any} text
 * @param {{ functions?: string[] }} [options]
 * @returns {import('../types').Reply}
 */
export function decodeResponse(text, { functions = [] } = {}) {
  try {
    if (typeof text !== 'string') bad('not text');
    let r;
    try {
      r = jsonParse(text);
    } catch {
      bad('not JSON');
    }
    if (!isPlain(r) || typeof r.ok !== 'boolean') bad('no ok');
    const output = typeof r.output === 'string' ? studentText(r.output, LIMITS.output) : '';
    // The units the request spent, where its guest counts work (grader/tracks/work.mjs).
    if (hasOwn(r, 'work') && !(isSafeInteger(r.work) && r.work >= 0)) bad('work');
    const work = hasOwn(r, 'work') ? { work: r.work } : {};
    if (r.ok) {
      if (hasOwn(r, 'functions')) {
        // a load
        if (!isArray(r.functions) || !r.functions.every((f) => functions.includes(f))) bad('functions');
        let error = null;
        if (r.error !== null && r.error !== undefined) {
          const e = r.error;
          if (
            !isPlain(e) ||
            typeof e.message !== 'string' ||
            !isLine(e.line) ||
            !isLine(e.column) ||
            !(e.syntax === undefined || e.syntax === true)
          )
            bad('load error');
          error = { message: studentText(e.message, LIMITS.message), line: e.line ?? null, column: e.column ?? null };
          if (e.syntax) error.syntax = true; // the guest's compiler refused the source (the Python track)
        }
        return { ok: true, functions: [...new Set(r.functions)], error, output, ...work };
      }
      if (!hasOwn(r, 'value')) bad('no value');
      /** @type {import('../types').Reply} */
      const res = { ok: true, value: checkValue(r.value), output, ...work };
      if (hasOwn(r, 'measured')) res.measured = checkMeasured(r.measured);
      return res;
    }
    if (!KINDS.includes(r.kind)) bad('kind');
    /** @type {import('../types').Reply} */
    const res = {
      ok: false,
      kind: r.kind,
      message: typeof r.message === 'string' ? studentText(r.message, LIMITS.message) : '',
      output,
      ...work,
    };
    if (!isLine(r.line) || !isLine(r.column)) bad('line');
    res.line = r.line ?? null;
    res.column = r.column ?? null;
    if (r.kind === 'invalid') {
      if (!INVALID.includes(r.reason) || !(r.detail === null || r.detail === undefined || isSafeInteger(r.detail)))
        bad('reason');
      res.reason = r.reason;
      res.detail = r.detail ?? null;
    }
    return res;
  } catch (e) {
    if (!(e instanceof Malformed)) throw e;
    return {
      ok: false,
      kind: 'invalid',
      reason: 'reply',
      detail: null,
      message: e.message,
      output: '',
      line: null,
      column: null,
    };
  }
}

freeze(InvalidValue.prototype);
