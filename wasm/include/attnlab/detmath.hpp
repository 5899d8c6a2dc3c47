// attnlab::detmath: log(x) and cos(x) computed with + - * /, comparisons and integer work on the
// bits of doubles only, so that this file and its line-by-line twin grader/core/detmath.mjs return
// the same double for every input. prng.hpp's normals use them instead of std::log / std::cos,
// whose last bit differs from V8's Math.log / Math.cos on about 6% of Box-Muller draws.
//
// Where it comes from: ports, rewritten in our own structure (not copied), of fdlibm 5.3 as revised
// in FreeBSD's msun (lib/msun/src): log from e_log.c (__ieee754_log); cos from s_cos.c with the
// "medium" branch of e_rem_pio2.c (three-step Cody-Waite reduction by pi/2) and the kernels k_cos.c
// (__kernel_cos, FreeBSD's rearranged form) and k_sin.c (__kernel_sin, its y != 0 form). Same
// algorithms, branch points and constants (bit patterns beside each); fdlibm states an error below
// 1 ulp, and tests/cpp/test_prng.cpp checks that we are within 1 ulp of std::log / std::cos.
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
// No fused multiply-add: every a*b+c here must round twice, as JS does. GCC's default is
// -ffp-contract=off under -std=c++17 (CMakeLists.txt passes it explicitly) but =fast under
// -std=gnu++17, where -march=haswell alone changed 6,879 of 1.4 M normals (measured); so GCC gets
// the ATTNLAB_FP_STRICT_BEGIN/END pragmas around this header and prng.hpp, and clang (Emscripten
// included), which contracts by default where the target has FMA (clang 14 -march=haswell: 17,558
// of 1.4 M normals changed without it), gets ATTNLAB_NO_FMA at the top of each function. The golden
// values in tests/cpp/test_prng.cpp fail if anything gets fused.
#pragma once
#include <cstdint>
#include <cstring>
#include <limits>

#if defined(__clang__)
#define ATTNLAB_NO_FMA _Pragma("clang fp contract(off)")
#else
#define ATTNLAB_NO_FMA
#endif
#if defined(__GNUC__) && !defined(__clang__)
#define ATTNLAB_FP_STRICT_BEGIN _Pragma("GCC push_options") _Pragma("GCC optimize(\"fp-contract=off\")")
#define ATTNLAB_FP_STRICT_END _Pragma("GCC pop_options")
#else
#define ATTNLAB_FP_STRICT_BEGIN
#define ATTNLAB_FP_STRICT_END
#endif

ATTNLAB_FP_STRICT_BEGIN

namespace attnlab::detmath {

namespace detail {

// The upper and lower 32 bits of a double (fdlibm's __HI and __LO), through memcpy. The upper
// half is signed, as in fdlibm (the conversion wraps on every compiler we use).
inline std::int32_t high_word(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(b >> 32));
}
inline std::uint32_t low_word(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return static_cast<std::uint32_t>(b);
}
inline double with_high_word(double x, std::uint32_t hi) {
  const std::uint64_t b = (static_cast<std::uint64_t>(hi) << 32) | low_word(x);
  double y;
  std::memcpy(&y, &b, sizeof y);
  return y;
}

// cos(x + y) for |x + y| <= ~pi/4, y the tail of x. A degree-14 even polynomial; the last step
// adds the small terms to 1 - z/2 together with what that subtraction rounded away.
inline double kernel_cos(double x, double y) {
  ATTNLAB_NO_FMA
  constexpr double C1 = 4.16666666666666019037e-02;   // 0x3FA55555 5555554C
  constexpr double C2 = -1.38888888888741095749e-03;  // 0xBF56C16C 16C15177
  constexpr double C3 = 2.48015872894767294178e-05;   // 0x3EFA01A0 19CB1590
  constexpr double C4 = -2.75573143513906633035e-07;  // 0xBE927E4F 809C52AD
  constexpr double C5 = 2.08757232129817482790e-09;   // 0x3E21EE9E BDB4B1C4
  constexpr double C6 = -1.13596475577881948265e-11;  // 0xBDA8FAE9 BE8838D4
  const double z = x * x;
  const double z2 = z * z;
  const double r = z * (C1 + z * (C2 + z * C3)) + z2 * z2 * (C4 + z * (C5 + z * C6));
  const double half_z = 0.5 * z;
  const double one_minus = 1.0 - half_z;
  return one_minus + (((1.0 - one_minus) - half_z) + (z * r - x * y));
}

// sin(x + y) for |x + y| <= ~pi/4, y the tail of x. A degree-13 odd polynomial.
inline double kernel_sin(double x, double y) {
  ATTNLAB_NO_FMA
  constexpr double S1 = -1.66666666666666324348e-01;  // 0xBFC55555 55555549
  constexpr double S2 = 8.33333333332248946124e-03;   // 0x3F811111 1110F8A6
  constexpr double S3 = -1.98412698298579493134e-04;  // 0xBF2A01A0 19C161D5
  constexpr double S4 = 2.75573137070700676789e-06;   // 0x3EC71DE3 57B1FE7D
  constexpr double S5 = -2.50507602534068634195e-08;  // 0xBE5AE5E6 8A2B9CEB
  constexpr double S6 = 1.58969099521155010221e-10;   // 0x3DE5D93A 5ACFD57C
  const double z = x * x;
  const double z2 = z * z;
  const double r = S2 + z * (S3 + z * S4) + z * z2 * (S5 + z * S6);
  const double x3 = z * x;
  return x - ((z * (0.5 * y - x3 * r) - y) - x3 * S1);
}

// Writes x - n*pi/2 as y[0] + y[1] (|y[0]| <= ~pi/4) and returns n, for |x| < 2^20 * pi/2.
// pi/2 is split into 33-bit pieces so that n * piece is exact; a second and a third piece are
// subtracted only when the first result cancelled many bits (x close to a multiple of pi/2).
inline std::int32_t rem_pio2(double x, double y[2]) {
  ATTNLAB_NO_FMA
  constexpr double invpio2 = 6.36619772367581382433e-01;  // 0x3FE45F30 6DC9C883, 2/pi
  constexpr double pio2_1 = 1.57079632673412561417e+00;   // 0x3FF921FB 54400000, pi/2's first 33 bits
  constexpr double pio2_1t = 6.07710050650619224932e-11;  // 0x3DD0B461 1A626331, pi/2 - pio2_1
  constexpr double pio2_2 = 6.07710050630396597660e-11;   // 0x3DD0B461 1A600000, the next 33 bits
  constexpr double pio2_2t = 2.02226624879595063154e-21;  // 0x3BA3198A 2E037073, pi/2 - pio2_1 - pio2_2
  constexpr double pio2_3 = 2.02226624871116645580e-21;   // 0x3BA3198A 2E000000, the next 33 bits
  constexpr double pio2_3t = 8.47842766036889956997e-32;  // 0x397B839A 252049C1, what is left
  constexpr double round_shift = 6755399441055744.0;      // 1.5 * 2^52: adding it rounds to an integer
  const std::int32_t exp_x = (high_word(x) & 0x7fffffff) >> 20;
  double fn = x * invpio2 + round_shift;
  fn = fn - round_shift;
  const std::int32_t n = static_cast<std::int32_t>(fn);
  double r = x - fn * pio2_1;  // exact
  double w = fn * pio2_1t;
  y[0] = r - w;
  if (exp_x - ((high_word(y[0]) >> 20) & 0x7ff) > 16) {  // more than 16 bits cancelled
    double t = r;
    w = fn * pio2_2;
    r = t - w;
    w = fn * pio2_2t - ((t - r) - w);
    y[0] = r - w;
    if (exp_x - ((high_word(y[0]) >> 20) & 0x7ff) > 49) {  // more than 49: the third piece
      t = r;
      w = fn * pio2_3;
      r = t - w;
      w = fn * pio2_3t - ((t - r) - w);
      y[0] = r - w;
    }
  }
  y[1] = (r - y[0]) - w;
  return n;
}

}  // namespace detail

// Natural logarithm. x = 2^k * (1 + f) with 1 + f in [sqrt(2)/2, sqrt(2)); log(1 + f) from
// s = f / (2 + f) and a degree-14 polynomial in s; k * ln(2) added in two pieces.
inline double log(double x) {
  ATTNLAB_NO_FMA
  constexpr double ln2_hi = 6.93147180369123816490e-01;  // 0x3FE62E42 FEE00000
  constexpr double ln2_lo = 1.90821492927058770002e-10;  // 0x3DEA39EF 35793C76
  constexpr double two54 = 1.80143985094819840000e+16;   // 0x43500000 00000000
  constexpr double Lg1 = 6.666666666666735130e-01;       // 0x3FE55555 55555593
  constexpr double Lg2 = 3.999999999940941908e-01;       // 0x3FD99999 9997FA04
  constexpr double Lg3 = 2.857142874366239149e-01;       // 0x3FD24924 94229359
  constexpr double Lg4 = 2.222219843214978396e-01;       // 0x3FCC71C5 1D8E78AF
  constexpr double Lg5 = 1.818357216161805012e-01;       // 0x3FC74664 96CB03DE
  constexpr double Lg6 = 1.531383769920937332e-01;       // 0x3FC39A09 D078C69F
  constexpr double Lg7 = 1.479819860511658591e-01;       // 0x3FC2F112 DF3E5244
  using detail::high_word;
  std::int32_t hx = high_word(x);
  const std::uint32_t lx = detail::low_word(x);
  std::int32_t k = 0;
  if (hx < 0x00100000) {  // x < 2^-1022: zero, negative or subnormal
    if ((static_cast<std::uint32_t>(hx & 0x7fffffff) | lx) == 0) return -std::numeric_limits<double>::infinity();
    if (hx < 0) return std::numeric_limits<double>::quiet_NaN();
    k -= 54;  // subnormal: scale up by 2^54 (exact)
    x *= two54;
    hx = high_word(x);
  }
  if (hx >= 0x7ff00000) return x + x;  // +inf or NaN
  k += (hx >> 20) - 1023;
  hx &= 0x000fffff;
  // 0x95f64 + the mantissa bits carries into bit 20 exactly when the mantissa is >= sqrt(2); then
  // the exponent becomes -1 (x/2) and k grows by one.
  const std::int32_t carry = (hx + 0x95f64) & 0x100000;
  x = detail::with_high_word(x, static_cast<std::uint32_t>(hx | (carry ^ 0x3ff00000)));
  k += carry >> 20;
  const double f = x - 1.0;
  const double dk = k;
  if ((0x000fffff & (2 + hx)) < 3) {  // -2^-20 <= f < 2^-20: three terms of the series
    if (f == 0.0) return k == 0 ? 0.0 : dk * ln2_hi + dk * ln2_lo;
    const double R = f * f * (0.5 - 0.33333333333333333 * f);
    return k == 0 ? f - R : dk * ln2_hi - ((R - dk * ln2_lo) - f);
  }
  const double s = f / (2.0 + f);
  const double z = s * s;
  const double w = z * z;
  const double t1 = w * (Lg2 + w * (Lg4 + w * Lg6));
  const double t2 = z * (Lg1 + w * (Lg3 + w * (Lg5 + w * Lg7)));
  const double R = t2 + t1;
  // Mantissa bits in [0x6147a, 0x6b851] (f near its ends, ~0.38..0.41 or ~-0.29): the form with
  // f*f/2 kept apart is needed for the error to stay below 1 ulp.
  if (((hx - 0x6147a) | (0x6b851 - hx)) > 0) {
    const double hfsq = 0.5 * f * f;
    return k == 0 ? f - (hfsq - s * (hfsq + R)) : dk * ln2_hi - ((hfsq - (s * (hfsq + R) + dk * ln2_lo)) - f);
  }
  return k == 0 ? f - s * (f - R) : dk * ln2_hi - ((s * (f - R) - dk * ln2_lo) - f);
}

// Cosine, for |x| < 2^20 * pi/2 (NaN outside). |x| <= ~pi/4 directly; otherwise reduced by
// multiples of pi/2 and the quadrant picks +-cos or +-sin of the remainder.
inline double cos(double x) {
  ATTNLAB_NO_FMA
  const std::int32_t ix = detail::high_word(x) & 0x7fffffff;
  if (ix <= 0x3fe921fb) {             // |x| <= ~pi/4
    if (ix < 0x3e46a09e) return 1.0;  // |x| < 2^-27 * sqrt(2): cos(x) rounds to 1
    return detail::kernel_cos(x, 0.0);
  }
  if (ix >= 0x413921fb) return std::numeric_limits<double>::quiet_NaN();  // inf, NaN, or too large
  double y[2];
  switch (detail::rem_pio2(x, y) & 3) {
    case 0:
      return detail::kernel_cos(y[0], y[1]);
    case 1:
      return -detail::kernel_sin(y[0], y[1]);
    case 2:
      return -detail::kernel_cos(y[0], y[1]);
    default:
      return detail::kernel_sin(y[0], y[1]);
  }
}

}  // namespace attnlab::detmath

ATTNLAB_FP_STRICT_END
