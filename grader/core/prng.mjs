// Seeded PRNG shared with C++ (wasm/include/attnlab/prng.hpp): same seed, same numbers, bit for bit.
// mulberry32 for uniforms; normals by Box-Muller using two uniforms per pair, first value only
// (simple and identical in both languages).

export function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Rng {
  constructor(seed) { this.seed = seed >>> 0; this.next = mulberry32(seed); }
  uniform(lo = 0, hi = 1) { return lo + (hi - lo) * this.next(); }
  normal() {
    const u1 = 1 - this.next(); // (0, 1]: log stays finite
    const u2 = this.next();
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  }
  /** Float64Array of n standard normals times `scale`. */
  normals(n, scale = 1) {
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = this.normal() * scale;
    return out;
  }
}
