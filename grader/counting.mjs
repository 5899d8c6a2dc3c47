// Counting constructors: what a sandbox realm's own code puts in place of ArrayBuffer and the typed
// arrays before student code runs, to learn of every buffer made. The page's worker counts memory with
// them (grader/hosts/browser/worker-core.js), the JavaScript guest what a measured call makes
// (grader/tracks/js/guest.mjs, grader/tracks/measure.mjs). A leaf: it imports nothing.

/** The realm's typed-array constructors (ArrayBuffer aside), by name. */
export const TYPED_ARRAYS = [
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
];

/**
 * A constructor in place of the built-in `Base` (ArrayBuffer or a typed array) that calls
 * `made(obj, args)` after each object it makes: same prototype (instanceof, methods and species work as
 * before) and no path back to the original (prototype.constructor and the constructor's own prototype
 * chain lead to the new one, or to the abstract %TypedArray%).
 */
export function countingConstructor(Base, made) {
  const C = {
    [Base.name]: function (...args) {
      if (!new.target) throw new TypeError(`Constructor ${Base.name} requires 'new'`);
      const obj = Reflect.construct(Base, args, new.target === C ? Base : new.target);
      made(obj, args);
      return obj;
    },
  }[Base.name];
  Object.setPrototypeOf(C, Object.getPrototypeOf(Base));
  C.prototype = Base.prototype;
  for (const key of Reflect.ownKeys(Base))
    if (!(/** @type {(string | symbol)[]} */ (['prototype', 'length', 'name']).includes(key)))
      Object.defineProperty(C, key, Object.getOwnPropertyDescriptor(Base, key));
  Object.defineProperty(C, Symbol.species, {
    get() {
      return C;
    },
    configurable: true,
  });
  Object.defineProperty(Base.prototype, 'constructor', { value: C, writable: true, configurable: true });
  return C;
}
