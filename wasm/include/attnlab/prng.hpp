// Seeded PRNG shared with JS (grader/core/prng.mjs): same seed, same numbers, bit for bit, uniforms
// and normals alike (tests/cpp/test_prng.cpp and tests/js/prng.test.mjs pin the same golden values).
// mulberry32 for uniforms; normals by Box-Muller, one value per two uniforms. Box-Muller rather than
// Marsaglia's polar method: a fixed two uniforms per normal (no rejection loop), and values within
// an ulp of what the earlier std::log/std::cos version drew; its log and cos come from detmath.hpp
// (fdlibm ports written from IEEE-exact operations), because libm and V8 round them differently.
// derive_seed(seed, key) gives each graded test its own stream from (base seed, "slug/test_id").
#pragma once
#include <cmath>
#include <cstdint>
#include <string_view>
#include <vector>

#include "attnlab/detmath.hpp"

ATTNLAB_FP_STRICT_BEGIN

namespace attnlab {

// mulberry32's output step: a 32-bit state to a well-mixed 32-bit value.
inline std::uint32_t mulberry32_mix(std::uint32_t t) {
  t = (t ^ (t >> 15)) * (t | 1u);
  t ^= t + (t ^ (t >> 7)) * (t | 61u);
  return t ^ (t >> 14);
}

// A seed for one stream from a base seed and a key (e.g. "<slug>/<test id>"): FNV-1a (32-bit) over the
// seed's four bytes (least significant first) and then the key's bytes (UTF-8, as given), finished
// by mulberry32's step. JS: deriveSeed in grader/core/prng.mjs.
inline std::uint32_t derive_seed(std::uint32_t seed, std::string_view key) {
  std::uint32_t h = 0x811c9dc5u;
  const auto eat = [&h](std::uint32_t byte) {
    h ^= byte;
    h *= 0x01000193u;
  };
  for (int i = 0; i < 4; ++i) eat((seed >> (8 * i)) & 0xffu);
  for (const char c : key) eat(static_cast<unsigned char>(c));
  return mulberry32_mix(h + 0x6d2b79f5u);
}

class Rng {
 public:
  explicit Rng(std::uint32_t seed) : a_(seed) {}
  // mulberry32's state: the next numbers are those of Rng(state()).
  std::uint32_t state() const { return a_; }
  double next() {
    a_ += 0x6d2b79f5u;
    return static_cast<double>(mulberry32_mix(a_)) / 4294967296.0;
  }
  double uniform(double lo = 0, double hi = 1) {
    ATTNLAB_NO_FMA  // lo + (hi - lo) * u rounds twice, as in JS
        return lo +
        (hi - lo) * next();
  }
  double normal() {
    const double u1 = 1.0 - next();  // (0, 1]: log stays finite
    const double u2 = next();
    return std::sqrt(-2.0 * detmath::log(u1)) * detmath::cos(kTwoPi * u2);
  }
  std::vector<double> normals(std::size_t n, double scale = 1) {
    std::vector<double> v(n);
    for (auto& x : v) x = normal() * scale;
    return v;
  }

 private:
  static constexpr double kTwoPi = 6.283185307179586;  // 2 * pi rounded = 2 * M_PI exactly
  std::uint32_t a_;
};

}  // namespace attnlab

ATTNLAB_FP_STRICT_END
