// Seeded PRNG shared with JS (grader/core/prng.mjs): same seed, same numbers, bit for bit.
// mulberry32 for uniforms; normals by Box-Muller, one value per two uniforms.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

namespace attnlab {

class Rng {
 public:
  explicit Rng(std::uint32_t seed) : a_(seed) {}
  double next() {
    a_ += 0x6d2b79f5u;
    std::uint32_t t = a_;
    t = (t ^ (t >> 15)) * (t | 1u);
    t ^= t + (t ^ (t >> 7)) * (t | 61u);
    return static_cast<double>(t ^ (t >> 14)) / 4294967296.0;
  }
  double uniform(double lo = 0, double hi = 1) { return lo + (hi - lo) * next(); }
  double normal() {
    const double u1 = 1.0 - next();
    const double u2 = next();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
  }
  std::vector<double> normals(std::size_t n, double scale = 1) {
    std::vector<double> v(n);
    for (auto& x : v) x = normal() * scale;
    return v;
  }

 private:
  std::uint32_t a_;
};

}  // namespace attnlab
