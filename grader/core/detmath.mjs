// log(x) and cos(x) computed with + - * /, comparisons and integer work on the bits of doubles
// only, so that this file and its line-by-line twin wasm/include/attnlab/detmath.hpp return the
// same double for every input. prng.mjs's normals use them instead of Math.log / Math.cos, whose
// last bit differs from libm's std::log / std::cos on about 6% of Box-Muller draws.
//
// Where it comes from: ports, rewritten in our own structure (not copied), of fdlibm 5.3 as revised
// in FreeBSD's msun (lib/msun/src): log from e_log.c (__ieee754_log); cos from s_cos.c with the
// "medium" branch of e_rem_pio2.c (three-step Cody-Waite reduction by pi/2) and the kernels k_cos.c
// (__kernel_cos, FreeBSD's rearranged form) and k_sin.c (__kernel_sin, its y != 0 form). Same
// algorithms, branch points and constants (bit patterns beside each); fdlibm states an error below
// 1 ulp, and tests/js/prng.test.mjs checks that we are within 1 ulp of Math.log / Math.cos.
// fdlibm's licence, which asks that this notice be kept:
//   Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
//   Developed at SunSoft, a Sun Microsystems, Inc. business.
//   Permission to use, copy, modify, and distribute this software is freely granted,
//   provided that this notice is preserved.
//
// Domain: log everywhere (-inf at +-0, NaN below 0 and for NaN, +inf at +inf). cos for
// |x| < 2^20 * pi/2 (about 1.6e6; the Rng needs [0, 2*pi)); NaN beyond that and for inf/NaN, since
// fdlibm's large-argument reduction (k_rem_pio2.c, Payne-Hanek) is not ported.
//
// JS never fuses a*b+c; the C++ twin makes sure its compiler does not either. Integer steps use
// `| 0` (int32) where C uses int32_t, so shifts and masks give the same bits.

// The upper and lower 32 bits of a double (fdlibm's __HI and __LO), through one shared buffer. The
// upper half is signed, as in fdlibm. HI is 1 on little-endian hosts, 0 on big-endian ones.
const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
f64[0] = 1;
const HI = u32[1] === 0x3ff00000 ? 1 : 0;
const LO = 1 - HI;

function highWord(x) {
  f64[0] = x;
  return u32[HI] | 0;
}
function lowWord(x) {
  f64[0] = x;
  return u32[LO];
}
function withHighWord(x, hi) {
  f64[0] = x;
  u32[HI] = hi;
  return f64[0];
}

// cos(x + y) for |x + y| <= ~pi/4, y the tail of x. A degree-14 even polynomial; the last step
// adds the small terms to 1 - z/2 together with what that subtraction rounded away.
function kernelCos(x, y) {
  const C1 = 4.16666666666666019037e-2; // 0x3FA55555 5555554C
  const C2 = -1.38888888888741095749e-3; // 0xBF56C16C 16C15177
  const C3 = 2.48015872894767294178e-5; // 0x3EFA01A0 19CB1590
  const C4 = -2.75573143513906633035e-7; // 0xBE927E4F 809C52AD
  const C5 = 2.0875723212981748279e-9; // 0x3E21EE9E BDB4B1C4
  const C6 = -1.13596475577881948265e-11; // 0xBDA8FAE9 BE8838D4
  const z = x * x;
  const z2 = z * z;
  const r = z * (C1 + z * (C2 + z * C3)) + z2 * z2 * (C4 + z * (C5 + z * C6));
  const halfZ = 0.5 * z;
  const oneMinus = 1.0 - halfZ;
  return oneMinus + (1.0 - oneMinus - halfZ + (z * r - x * y));
}

// sin(x + y) for |x + y| <= ~pi/4, y the tail of x. A degree-13 odd polynomial.
function kernelSin(x, y) {
  const S1 = -1.66666666666666324348e-1; // 0xBFC55555 55555549
  const S2 = 8.33333333332248946124e-3; // 0x3F811111 1110F8A6
  const S3 = -1.98412698298579493134e-4; // 0xBF2A01A0 19C161D5
  const S4 = 2.75573137070700676789e-6; // 0x3EC71DE3 57B1FE7D
  const S5 = -2.50507602534068634195e-8; // 0xBE5AE5E6 8A2B9CEB
  const S6 = 1.58969099521155010221e-10; // 0x3DE5D93A 5ACFD57C
  const z = x * x;
  const z2 = z * z;
  const r = S2 + z * (S3 + z * S4) + z * z2 * (S5 + z * S6);
  const x3 = z * x;
  return x - (z * (0.5 * y - x3 * r) - y - x3 * S1);
}

// Writes x - n*pi/2 as y[0] + y[1] (|y[0]| <= ~pi/4) and returns n, for |x| < 2^20 * pi/2.
// pi/2 is split into 33-bit pieces so that n * piece is exact; a second and a third piece are
// subtracted only when the first result cancelled many bits (x close to a multiple of pi/2).
function remPio2(x, y) {
  const invpio2 = 6.36619772367581382433e-1; // 0x3FE45F30 6DC9C883, 2/pi
  const pio2_1 = 1.57079632673412561417; // 0x3FF921FB 54400000, pi/2's first 33 bits
  const pio2_1t = 6.07710050650619224932e-11; // 0x3DD0B461 1A626331, pi/2 - pio2_1
  const pio2_2 = 6.0771005063039659766e-11; // 0x3DD0B461 1A600000, the next 33 bits
  const pio2_2t = 2.02226624879595063154e-21; // 0x3BA3198A 2E037073, pi/2 - pio2_1 - pio2_2
  const pio2_3 = 2.0222662487111664558e-21; // 0x3BA3198A 2E000000, the next 33 bits
  const pio2_3t = 8.47842766036889956997e-32; // 0x397B839A 252049C1, what is left
  const roundShift = 6755399441055744.0; // 1.5 * 2^52: adding it rounds to an integer
  const expX = (highWord(x) & 0x7fffffff) >> 20;
  let fn = x * invpio2 + roundShift;
  fn = fn - roundShift;
  const n = fn | 0;
  let r = x - fn * pio2_1; // exact
  let w = fn * pio2_1t;
  y[0] = r - w;
  if (expX - ((highWord(y[0]) >> 20) & 0x7ff) > 16) {
    // more than 16 bits cancelled
    let t = r;
    w = fn * pio2_2;
    r = t - w;
    w = fn * pio2_2t - (t - r - w);
    y[0] = r - w;
    if (expX - ((highWord(y[0]) >> 20) & 0x7ff) > 49) {
      // more than 49: the third piece
      t = r;
      w = fn * pio2_3;
      r = t - w;
      w = fn * pio2_3t - (t - r - w);
      y[0] = r - w;
    }
  }
  y[1] = r - y[0] - w;
  return n;
}

/**
 * Natural logarithm. x = 2^k * (1 + f) with 1 + f in [sqrt(2)/2, sqrt(2)); log(1 + f) from
 * s = f / (2 + f) and a degree-14 polynomial in s; k * ln(2) added in two pieces.
 * @param {number} x
 * @returns {number}
 */
export function log(x) {
  const ln2_hi = 6.9314718036912381649e-1; // 0x3FE62E42 FEE00000
  const ln2_lo = 1.90821492927058770002e-10; // 0x3DEA39EF 35793C76
  const two54 = 1.8014398509481984e16; // 0x43500000 00000000
  const Lg1 = 6.66666666666673513e-1; // 0x3FE55555 55555593
  const Lg2 = 3.999999999940941908e-1; // 0x3FD99999 9997FA04
  const Lg3 = 2.857142874366239149e-1; // 0x3FD24924 94229359
  const Lg4 = 2.222219843214978396e-1; // 0x3FCC71C5 1D8E78AF
  const Lg5 = 1.818357216161805012e-1; // 0x3FC74664 96CB03DE
  const Lg6 = 1.531383769920937332e-1; // 0x3FC39A09 D078C69F
  const Lg7 = 1.479819860511658591e-1; // 0x3FC2F112 DF3E5244
  x = +x;
  let hx = highWord(x);
  const lx = lowWord(x);
  let k = 0;
  if (hx < 0x00100000) {
    // x < 2^-1022: zero, negative or subnormal
    if (((hx & 0x7fffffff) | lx) === 0) return -Infinity;
    if (hx < 0) return NaN;
    k -= 54; // subnormal: scale up by 2^54 (exact)
    x *= two54;
    hx = highWord(x);
  }
  if (hx >= 0x7ff00000) return x + x; // +inf or NaN
  k += (hx >> 20) - 1023;
  hx &= 0x000fffff;
  // 0x95f64 + the mantissa bits carries into bit 20 exactly when the mantissa is >= sqrt(2); then
  // the exponent becomes -1 (x/2) and k grows by one.
  const carry = (hx + 0x95f64) & 0x100000;
  x = withHighWord(x, hx | (carry ^ 0x3ff00000));
  k += carry >> 20;
  const f = x - 1.0;
  const dk = k;
  if ((0x000fffff & (2 + hx)) < 3) {
    // -2^-20 <= f < 2^-20: three terms of the series
    if (f === 0.0) return k === 0 ? 0.0 : dk * ln2_hi + dk * ln2_lo;
    const R = f * f * (0.5 - 0.33333333333333333 * f); // eslint-disable-line no-loss-of-precision -- fdlibm's literal, same double
    return k === 0 ? f - R : dk * ln2_hi - (R - dk * ln2_lo - f);
  }
  const s = f / (2.0 + f);
  const z = s * s;
  const w = z * z;
  const t1 = w * (Lg2 + w * (Lg4 + w * Lg6));
  const t2 = z * (Lg1 + w * (Lg3 + w * (Lg5 + w * Lg7)));
  const R = t2 + t1;
  // Mantissa bits in [0x6147a, 0x6b851] (f near its ends, ~0.38..0.41 or ~-0.29): the form with
  // f*f/2 kept apart is needed for the error to stay below 1 ulp.
  if (((hx - 0x6147a) | (0x6b851 - hx)) > 0) {
    const hfsq = 0.5 * f * f;
    return k === 0 ? f - (hfsq - s * (hfsq + R)) : dk * ln2_hi - (hfsq - (s * (hfsq + R) + dk * ln2_lo) - f);
  }
  return k === 0 ? f - s * (f - R) : dk * ln2_hi - (s * (f - R) - dk * ln2_lo - f);
}

const y = new Float64Array(2); // remPio2's out-parameter (the C++ twin's double y[2])

/**
 * Cosine, for |x| < 2^20 * pi/2 (NaN outside). |x| <= ~pi/4 directly; otherwise reduced by
 * multiples of pi/2 and the quadrant picks +-cos or +-sin of the remainder.
 * @param {number} x
 * @returns {number}
 */
export function cos(x) {
  x = +x;
  const ix = highWord(x) & 0x7fffffff;
  if (ix <= 0x3fe921fb) {
    // |x| <= ~pi/4
    if (ix < 0x3e46a09e) return 1.0; // |x| < 2^-27 * sqrt(2): cos(x) rounds to 1
    return kernelCos(x, 0.0);
  }
  if (ix >= 0x413921fb) return NaN; // inf, NaN, or too large
  switch (remPio2(x, y) & 3) {
    case 0:
      return kernelCos(y[0], y[1]);
    case 1:
      return -kernelSin(y[0], y[1]);
    case 2:
      return -kernelCos(y[0], y[1]);
    default:
      return kernelSin(y[0], y[1]);
  }
}
