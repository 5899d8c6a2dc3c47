// Seeded PRNG shared with C++ (wasm/include/attnlab/prng.hpp): same seed, same numbers, bit for bit,
// uniforms and normals alike (tests/js/prng.test.mjs and tests/cpp/test_prng.cpp pin the same golden
// values). mulberry32 for uniforms; normals by Box-Muller, one value per two uniforms (first value
// only), with log and cos from detmath.mjs (fdlibm ports written from IEEE-exact operations),
// because V8's Math.log/Math.cos and libm round differently in the last bit.
// deriveSeed(seed, key) gives each graded test its own stream from (base seed, "slug/test_id").
import { cos, log } from './detmath.mjs';

const TWO_PI = 6.283185307179586; // 2 * pi rounded = 2 * Math.PI exactly

/** mulberry32's output step: a 32-bit state to a well-mixed 32-bit value. */
function mix(a) {
  let t = a;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return (t ^ (t >>> 14)) >>> 0;
}

/** mulberry32 as a function of no arguments: the uniforms of Rng(seed).next(). */
export function mulberry32(seed) {
  const rng = new Rng(seed);
  return () => rng.next();
}

/**
 * A seed for one stream from a base seed and a key (e.g. "<slug>/<test id>"): FNV-1a (32-bit) over the
 * seed's four bytes (least significant first) and then the key's UTF-8 bytes, finished by
 * mulberry32's step. The same as attnlab::derive_seed in C++. UTF-8 is encoded here rather than by
 * TextEncoder, which the grader's sandbox realm lacks; a lone surrogate becomes U+FFFD, as there.
 * @param {number} seed uint32
 * @param {string} key
 * @returns {number} uint32
 */
export function deriveSeed(seed, key) {
  let h = 0x811c9dc5;
  const eat = (byte) => {
    h = Math.imul(h ^ byte, 0x01000193);
  };
  seed >>>= 0;
  for (let i = 0; i < 4; i++) eat((seed >>> (8 * i)) & 0xff);
  const s = String(key);
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    }
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
    if (c < 0x80) eat(c);
    else if (c < 0x800) {
      eat(0xc0 | (c >> 6));
      eat(0x80 | (c & 0x3f));
    } else if (c < 0x10000) {
      eat(0xe0 | (c >> 12));
      eat(0x80 | ((c >> 6) & 0x3f));
      eat(0x80 | (c & 0x3f));
    } else {
      eat(0xf0 | (c >> 18));
      eat(0x80 | ((c >> 12) & 0x3f));
      eat(0x80 | ((c >> 6) & 0x3f));
      eat(0x80 | (c & 0x3f));
    }
  }
  return mix((h + 0x6d2b79f5) >>> 0);
}

// Below this many, normals() draws in JS: a call into WebAssembly costs more than the loop it saves.
const KERNEL_FROM = 64;

export class Rng {
  /**
   * normals: where the grader has the WASM core, its `rngNormals(state, n, scale)` → { values, state }
   * (wasm/index.mjs): the same numbers as this file's loop, bit for bit, without its cold start, for
   * normals() of KERNEL_FROM or more (tests/js/prng.test.mjs holds the two to each other).
   * @param {number} seed
   * @param {{ normals?: (state: number, n: number, scale: number) => { values: Float64Array, state: number } }} [kernel]
   */
  constructor(seed, { normals = null } = {}) {
    this.seed = seed >>> 0;
    this.state = this.seed; // mulberry32's
    this.kernel = normals;
  }
  next() {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    return mix(this.state) / 4294967296;
  }
  uniform(lo = 0, hi = 1) {
    return lo + (hi - lo) * this.next();
  }
  normal() {
    const u1 = 1 - this.next(); // (0, 1]: log stays finite
    const u2 = this.next();
    return Math.sqrt(-2 * log(u1)) * cos(TWO_PI * u2);
  }
  /** Float64Array of n standard normals times `scale`. */
  normals(n, scale = 1) {
    if (this.kernel && n >= KERNEL_FROM) {
      const { values, state } = this.kernel(this.state, n, scale);
      this.state = state;
      return values;
    }
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = this.normal() * scale;
    return out;
  }
}
