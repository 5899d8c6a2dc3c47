// attnlab::Rng (wasm/include/attnlab/prng.hpp) and its log/cos (detmath.hpp): golden values that
// tests/js/prng.test.mjs pins with the same literals (the C++ is the reference: the values below
// were printed by tests/cpp/golden/prng-golden.cpp, and the JS must reproduce them), then an outside check of
// the ports against libm (within 1 ulp of std::log / std::cos) and a statistical sanity check.
//   cmake -S . -B build && cmake --build build -j2 && (cd build && ctest -R test_prng --output-on-failure)
#include <doctest/doctest.h>

#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "attnlab/detmath.hpp"
#include "attnlab/prng.hpp"

using attnlab::Rng;

namespace {

std::uint64_t bits(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
double from_bits(std::uint64_t b) {
  double x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}
std::string hex(double x) {
  char s[17];
  std::snprintf(s, sizeof s, "%016" PRIx64, bits(x));
  return s;
}

// --- golden values (tests/cpp/golden/prng-golden.cpp; the same literals in tests/js/prng.test.mjs) ---
// The first 8 of next() and of normal(), each from a fresh Rng(seed), as the double's bits in hex.
struct Golden {
  std::uint32_t seed;
  const char* uniforms[8];
  const char* normals[8];
};
const Golden kGolden[] = {
    {2017,
     {"3fe8b6d22ea00000", "3f8c0d8188000000", "3fecf31bb0c00000", "3fda85d9f3400000", "3fcc8204a3800000",
      "3fe467a815200000", "3fe85d23b0400000", "3fe143e4b3400000"},
     {"3ffb6c784a881ee0", "bffdcb8e8cb1f7f9", "bfdd78cc1c1ae41c", "bffa40fa6cc9338e", "bff06eabe1879e12",
      "3fe1b9d4f31350e1", "c00399262d4ffc5e", "bfe7ae8ca01ceaf0"}},
    {7,
     {"3f87f8a960000000", "3fafb8fe24000000", "3fef42d3cbc00000", "3fe65e7172c00000", "3fe0afadfce00000",
      "3fd9f4113d000000", "3fddd6c165400000", "3fceb5de55800000"},
     {"3fc22c1659b8a025", "bfeba7f5f5a98bf6", "bff01a13931c78f6", "3fb2257b4714c5e4", "bfc48c39a137da8f",
      "3fdb88fa1ac250bb", "bffb030a233fadd0", "bfdca239d5d35e4a"}},
};
// FNV-1a (64-bit) over the bytes (least significant first) of the first 1,000,000 normals of Rng(2017).
const char* const kNormalsHash2017 = "f669d4898883f67f";
// derive_seed(seed, key); the keys are UTF-8 (this file is UTF-8; "emoji/" + U+1F600 spelled as bytes).
struct DerivedSeed {
  std::uint32_t seed;
  const char* key;
  std::uint32_t want;
};
const DerivedSeed kDerived[] = {
    {2017, "", 0xc1b9a2fe},
    {2017, "sdpa/causal_mask", 0x4b104e93},
    {2017, "sdpa/softmax", 0xb204212c},
    {2017, "ru/тест", 0x67f84443},
    {2017, "emoji/\xF0\x9F\x98\x80", 0x2ca8ad58},
    {7, "", 0x61a3f9bd},
    {7, "sdpa/causal_mask", 0x16b5c3f2},
    {7, "sdpa/softmax", 0xe0d2c8ba},
    {7, "ru/тест", 0x6d681533},
    {7, "emoji/\xF0\x9F\x98\x80", 0x8c931b87},
    {0, "sdpa/softmax", 0x7a5ac8d8},
    {4294967295, "ru/тест", 0x422b4b2f},
};

// FNV-1a (64-bit), fed one byte at a time.
struct Fnv1a64 {
  std::uint64_t h = 0xcbf29ce484222325ull;
  void byte(std::uint64_t b) {
    h ^= b & 0xffu;
    h *= 0x100000001b3ull;
  }
  void double_bits(double x) {
    const std::uint64_t b = bits(x);
    for (int k = 0; k < 8; ++k) byte(b >> (8 * k));
  }
};

// Distance in ulps between two doubles of the same sign (0 for +0 vs -0); NaN handled by callers.
std::uint64_t ulps(double a, double b) {
  const auto ordered = [](double x) {
    const std::uint64_t u = bits(x);
    return (u >> 63) ? -static_cast<std::int64_t>(u & 0x7fffffffffffffffull) : static_cast<std::int64_t>(u);
  };
  const std::int64_t d = ordered(a) - ordered(b);
  return static_cast<std::uint64_t>(d < 0 ? -d : d);
}

// Uniform uint32 for test inputs (mulberry32 through the Rng; its uniforms are pinned above).
std::uint32_t u32(Rng& rng) { return static_cast<std::uint32_t>(rng.next() * 4294967296.0); }

struct UlpReport {
  std::size_t n = 0, exact = 0;
  std::uint64_t worst = 0;
  double worst_at = 0;
};

template <class Ours, class Ref>
UlpReport compare_all(const std::vector<double>& xs, Ours ours, Ref ref) {
  UlpReport r;
  for (const double x : xs) {
    const double a = ours(x), b = ref(x);
    ++r.n;
    if (std::isnan(a) || std::isnan(b)) {
      INFO("x = " << hex(x) << " ours " << a << " libm " << b);
      CHECK((std::isnan(a) && std::isnan(b)));
      continue;
    }
    const std::uint64_t d = (std::signbit(a) == std::signbit(b) || (a == 0 && b == 0)) ? ulps(a, b) : ~0ull;
    if (d == 0) ++r.exact;
    if (d > r.worst) {
      r.worst = d;
      r.worst_at = x;
    }
  }
  return r;
}

// Adds x and its neighbours up to `span` ulps either side.
void around(std::vector<double>& xs, double x, int span) {
  const std::uint64_t b = bits(x);
  for (int j = -span; j <= span; ++j)
    xs.push_back(from_bits(b + static_cast<std::uint64_t>(static_cast<std::int64_t>(j))));
}

}  // namespace

TEST_CASE("uniforms and normals match the golden bit patterns (seeds 2017 and 7)") {
  for (const auto& g : kGolden) {
    Rng u(g.seed), n(g.seed);
    for (int i = 0; i < 8; ++i) {
      INFO("seed " << g.seed << ", draw " << i);
      CHECK(hex(u.next()) == g.uniforms[i]);
      CHECK(hex(n.normal()) == g.normals[i]);
    }
  }
}

TEST_CASE("the first 1,000,000 normals of seed 2017 hash to the golden FNV-1a 64") {
  Fnv1a64 check;
  for (const char c : std::string("a")) check.byte(static_cast<unsigned char>(c));
  REQUIRE(check.h == 0xaf63dc4c8601ec8cull);  // FNV-1a 64 of "a" (published test vector)
  Rng rng(2017);
  Fnv1a64 h;
  for (int i = 0; i < 1000000; ++i) h.double_bits(rng.normal());
  char s[17];
  std::snprintf(s, sizeof s, "%016" PRIx64, h.h);
  INFO("seed 2017");
  CHECK(std::string(s) == kNormalsHash2017);
}

TEST_CASE("normals(n, scale) is normal() times scale, in order") {
  Rng a(11), b(11);
  const auto v = a.normals(5, 0.5);
  for (const double x : v) CHECK(bits(x) == bits(b.normal() * 0.5));
}

TEST_CASE("state(): an Rng started from it draws what the first draws next (the grader's kernel, rng_normals)") {
  Rng a(2017);
  for (int i = 0; i < 5; ++i) a.normal();
  a.uniform();
  Rng b(a.state());
  for (int i = 0; i < 100; ++i) CHECK(bits(a.normal()) == bits(b.normal()));
  CHECK(a.state() == b.state());
}

TEST_CASE("derive_seed matches the golden values (ASCII and non-ASCII keys)") {
  CHECK(std::string_view("ru/тест").size() == 11);  // 3 ASCII bytes + 4 Cyrillic letters of 2 bytes
  for (const auto& d : kDerived) {
    INFO("derive_seed(" << d.seed << ", \"" << d.key << "\")");
    CHECK(attnlab::derive_seed(d.seed, d.key) == d.want);
  }
  CHECK(attnlab::derive_seed(2017, "sdpa/softmax") != attnlab::derive_seed(2018, "sdpa/softmax"));
}

TEST_CASE("detmath::log is within 1 ulp of std::log (random, subnormal, near 1, large) and exact on specials") {
  Rng rng(101);
  std::vector<double> xs;
  for (int i = 0; i < 50000; ++i) {  // any positive finite double
    const std::uint64_t hi = u32(rng) % 0x7ff00000u, lo = u32(rng);
    xs.push_back(from_bits((hi << 32) | lo));
  }
  for (int i = 0; i < 2000; ++i) {  // subnormals
    const std::uint64_t hi = u32(rng) & 0xfffffu, lo = u32(rng);
    xs.push_back(from_bits((hi << 32) | lo | 1u));
  }
  for (int i = 0; i < 40000; ++i) xs.push_back(1.0 - rng.next());                    // what normal() feeds it
  around(xs, 1.0, 2000);                                                             // 1 and its neighbours
  for (int i = 0; i < 10000; ++i) xs.push_back(1.0 + (rng.next() - 0.5) * 0x1p-18);  // |f| ~ 2^-20 branch
  for (const std::uint32_t hx : {0x6147au, 0x6b851u, 0x6a09eu}) {                    // branch points, sqrt(2)
    for (int e = -1022; e <= 1023; e += 73) {
      for (int j = -3; j <= 3; ++j) {
        const std::uint64_t hi = (static_cast<std::uint64_t>(e + 1023) << 20) | (hx + j);
        xs.push_back(from_bits((hi << 32) | u32(rng)));
      }
    }
  }
  for (int e = -1074; e <= 1023; ++e) xs.push_back(std::ldexp(1.0, e));  // powers of two
  for (const double x :
       {std::numeric_limits<double>::denorm_min(), from_bits(0x000fffffffffffffull), std::numeric_limits<double>::min(),
        std::numeric_limits<double>::max(), 2.0, 0.5, 2.718281828459045, 10.0, 1e300, 1e-300})
    xs.push_back(x);

  const auto r = compare_all(
      xs, [](double x) { return attnlab::detmath::log(x); }, [](double x) { return std::log(x); });
  MESSAGE("log: " << r.n << " inputs, " << r.exact << " equal to std::log, worst " << r.worst << " ulp at "
                  << hex(r.worst_at));
  INFO("worst at x = " << hex(r.worst_at));
  CHECK(r.worst <= 1);
  CHECK(r.n > 100000);

  const double inf = std::numeric_limits<double>::infinity();
  CHECK(attnlab::detmath::log(0.0) == -inf);
  CHECK(attnlab::detmath::log(-0.0) == -inf);
  CHECK(attnlab::detmath::log(inf) == inf);
  CHECK(std::isnan(attnlab::detmath::log(-1.0)));
  CHECK(std::isnan(attnlab::detmath::log(-inf)));
  CHECK(std::isnan(attnlab::detmath::log(std::numeric_limits<double>::quiet_NaN())));
  CHECK(bits(attnlab::detmath::log(1.0)) == 0);  // +0, exactly
}

TEST_CASE("detmath::cos is within 1 ulp of std::cos on [0, 2 pi) (and on its medium range)") {
  constexpr double two_pi = 6.283185307179586, half_pi = 1.5707963267948966;
  Rng rng(202);
  std::vector<double> xs;
  for (int i = 0; i < 65000; ++i) xs.push_back(two_pi * rng.next());  // what normal() feeds it
  for (int i = 0; i < 25000; ++i) {                                   // full 53-bit mantissas
    const double u =
        (static_cast<double>(u32(rng) >> 5) * 67108864.0 + static_cast<double>(u32(rng) >> 6)) / 9007199254740992.0;
    xs.push_back(two_pi * u);
  }
  for (int n = 1; n <= 4; ++n) around(xs, n * half_pi, 300);        // zeros and extrema: cancellation
  for (int n = 1; n <= 7; n += 2) around(xs, n * half_pi / 2, 50);  // octant boundaries (pi/4, 3pi/4, ...)
  around(xs, from_bits(0x3fe921fb00000000ull), 20);                 // the no-reduction threshold
  around(xs, from_bits(0x3e46a09e00000000ull), 20);                 // the cos = 1 threshold
  for (const double x : {0.0, -0.0, 0x1p-30, 1e-10, 1.0, 3.0, 6.0}) xs.push_back(x);
  for (int i = 0; i < 10000; ++i) xs.push_back((rng.next() - 0.5) * 2e6);  // |x| < 2^20 pi/2, both signs

  const auto r = compare_all(
      xs, [](double x) { return attnlab::detmath::cos(x); }, [](double x) { return std::cos(x); });
  MESSAGE("cos: " << r.n << " inputs, " << r.exact << " equal to std::cos, worst " << r.worst << " ulp at "
                  << hex(r.worst_at));
  INFO("worst at x = " << hex(r.worst_at));
  CHECK(r.worst <= 1);
  CHECK(r.n > 100000);

  // Outside the documented domain: NaN rather than a wrong value.
  CHECK(std::isnan(attnlab::detmath::cos(std::numeric_limits<double>::infinity())));
  CHECK(std::isnan(attnlab::detmath::cos(std::numeric_limits<double>::quiet_NaN())));
  CHECK(std::isnan(attnlab::detmath::cos(0x1p21)));
}

TEST_CASE("normals look standard normal (mean ~ 0, variance ~ 1 over 1e5 draws)") {
  for (const std::uint32_t seed : {2017u, 7u}) {
    Rng rng(seed);
    const int n = 100000;
    double sum = 0, sum2 = 0;
    int within1 = 0;
    for (int i = 0; i < n; ++i) {
      const double x = rng.normal();
      REQUIRE(std::isfinite(x));
      sum += x;
      sum2 += x * x;
      within1 += std::fabs(x) < 1;
    }
    const double mean = sum / n, var = sum2 / n - mean * mean;
    INFO("seed " << seed << ": mean " << mean << ", variance " << var << ", P(|x| < 1) " << double(within1) / n);
    CHECK(std::fabs(mean) < 0.02);     // sd of the mean: 0.003
    CHECK(std::fabs(var - 1) < 0.03);  // sd of the variance: 0.0045
    CHECK(std::fabs(double(within1) / n - 0.6827) < 0.01);
  }
}
