// rope's reference: hand-checked values (a quarter turn of a 2-D vector, the first row and column of
// the cache), the properties the exercise grades (pair lengths kept, the score depends only on m − n,
// the offset is a slice of a longer run), the options that compute the classic mistakes, and a
// cross-check against an independent loop version below that multiplies complex numbers by e^{iθ}.
// Run: tools/build && (cd build && ctest -R rope).
#include <doctest/doctest.h>

#include <cmath>
#include <complex>

#include "attnlab/prng.hpp"

#include <xtensor/xbuilder.hpp>
#include <xtensor/xmanipulation.hpp>
#include <xtensor/xview.hpp>

#include "rope/reference/rope.hpp"

namespace rope = attnlab::rope;
using Arr = xt::xarray<double>;

namespace {

Arr normals(attnlab::Rng& rng, std::vector<std::size_t> shape) {
  Arr a = Arr::from_shape(shape);
  for (auto& v : a) v = rng.normal();
  return a;
}

// The independent version: x (B, H, T, d) in four nested loops, each pair a complex number z = a + ib
// multiplied by e^{iθ} (or the mistaken factor), θ computed from the position and the frequency
// directly (no table). `power` is the exponent's factor: base^(−power·i/d) (2 is right).
struct Loop {
  double base = 10000, power = 2;
  bool halves = false, swap = false;
  int sign = 1;
  std::size_t start = 0;
};
Arr rope_loops(const Arr& x, std::size_t offset, const Loop& o = {}) {
  const std::size_t B = x.shape()[0], H = x.shape()[1], T = x.shape()[2], d = x.shape()[3];
  Arr y = xt::zeros<double>(x.shape());
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t h = 0; h < H; ++h)
      for (std::size_t t = 0; t < T; ++t)
        for (std::size_t i = 0; i < d / 2; ++i) {
          const double theta = double(offset + t + o.start) * std::pow(o.base, -o.power * double(i) / double(d));
          const std::size_t ja = o.halves ? i : 2 * i, jb = o.halves ? i + d / 2 : 2 * i + 1;
          const std::complex<double> z(x(b, h, t, ja), x(b, h, t, jb));
          const std::complex<double> turn =
              o.swap ? std::complex<double>(std::sin(theta), double(o.sign) * std::cos(theta))
                     : std::polar(1.0, double(o.sign) * theta);
          const auto w = z * turn;
          y(b, h, t, ja) = w.real();
          y(b, h, t, jb) = w.imag();
        }
  return y;
}

double dot(const Arr& a, const Arr& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a.flat(i) * b.flat(i);
  return s;
}

}  // namespace

TEST_CASE("a 2-D vector turned by 90 degrees, and hand-checkable table entries") {
  const Arr x = {{1.0, 0.0}}, c = xt::zeros<double>({1, 1}), s = xt::ones<double>({1, 1});
  CHECK(xt::allclose(rope::apply_rope(x, c, s), Arr{{0.0, 1.0}}));
  rope::ApplyOptions minus;
  minus.direction = -1;
  CHECK(xt::allclose(rope::apply_rope(x, c, s, 0, minus), Arr{{0.0, -1.0}}));

  // Two rows, two pairs: (1, 2) by 90°, (3, 4) by 0°; (5, 6) by 180°, (7, 8) by 90°.
  const Arr x2 = {{1, 2, 3, 4}, {5, 6, 7, 8}}, c2 = {{0, 1}, {-1, 0}}, s2 = {{1, 0}, {0, 1}};
  CHECK(xt::allclose(rope::apply_rope(x2, c2, s2), Arr{{-2, 1, 3, 4}, {-5, -6, -8, 7}}));
  rope::ApplyOptions halves;
  halves.layout = "halves";  // pairs (x0, x2) and (x1, x3)
  CHECK(xt::allclose(rope::apply_rope(x2, c2, s2, 0, halves), Arr{{-3, 2, 1, 4}, {-5, -8, -7, 6}}));

  const auto [cos, sin] = rope::rope_cache(5, 8);
  REQUIRE(cos.shape() == std::vector<std::size_t>{5, 4});
  REQUIRE(sin.shape() == std::vector<std::size_t>{5, 4});
  for (std::size_t i = 0; i < 4; ++i) {  // position 0: angle 0
    CHECK(cos(0, i) == 1.0);
    CHECK(sin(0, i) == 0.0);
  }
  for (std::size_t t = 0; t < 5; ++t) {  // pair 0: frequency 1, angle t
    CHECK(cos(t, 0) == doctest::Approx(std::cos(double(t))).epsilon(1e-15));
    CHECK(sin(t, 0) == doctest::Approx(std::sin(double(t))).epsilon(1e-15));
  }
  // Pair 1 of d_head = 8: 10000^(−2/8) = 0.1; pair 3: 10000^(−6/8) = 0.001.
  CHECK(sin(3, 1) == doctest::Approx(std::sin(0.3)).epsilon(1e-13));
  CHECK(cos(4, 3) == doctest::Approx(std::cos(0.004)).epsilon(1e-13));
  // base as a parameter: base 100, d_head 4 → frequencies 1 and 0.1.
  const auto small = rope::rope_cache(3, 4, 100);
  CHECK(small.sin(2, 1) == doctest::Approx(std::sin(0.2)).epsilon(1e-13));
}

TEST_CASE("the mistake options of rope_cache") {
  rope::CacheOptions o;
  o.exponent = "i/d";
  CHECK(rope::rope_cache(2, 8, 10000, o).sin(1, 2) == doctest::Approx(std::sin(0.1)).epsilon(1e-13));
  o.exponent = "4i/d";
  CHECK(rope::rope_cache(2, 8, 10000, o).sin(1, 1) == doctest::Approx(std::sin(0.01)).epsilon(1e-13));
  o.exponent = "-2i/d";
  CHECK(rope::rope_cache(2, 8, 10000, o).cos(1, 1) == doctest::Approx(std::cos(10.0)).epsilon(1e-13));
  rope::CacheOptions one;
  one.start = 1;
  const auto ref = rope::rope_cache(6, 8), shifted = rope::rope_cache(5, 8, 10000, one);
  CHECK(xt::allclose(shifted.cos, xt::view(ref.cos, xt::range(1, 6)), 0, 0));
  rope::CacheOptions swap;
  swap.swap = true;
  const auto sw = rope::rope_cache(6, 8, 10000, swap);
  CHECK(sw.cos == ref.sin);
  CHECK(sw.sin == ref.cos);
  CHECK_THROWS_AS(rope::rope_cache(4, 7), std::invalid_argument);
  CHECK_THROWS_AS(rope::rope_cache(4, 8, -1), std::invalid_argument);
}

TEST_CASE("apply_rope agrees with the complex-number loops, with every mistake option") {
  attnlab::Rng rng(attnlab::derive_seed(2017, "rope/reference"));
  const Arr x = normals(rng, {2, 3, 5, 8});
  for (const double base : {10000.0, 500.0}) {
    const auto [cos, sin] = rope::rope_cache(12, 8, base);
    CHECK(xt::allclose(rope::apply_rope(x, cos, sin), rope_loops(x, 0, {base}), 1e-12, 1e-14));
    CHECK(xt::allclose(rope::apply_rope(x, cos, sin, 7), rope_loops(x, 7, {base}), 1e-12, 1e-14));

    rope::ApplyOptions o;
    o.layout = "halves";
    Loop l{base};
    l.halves = true;
    CHECK(xt::allclose(rope::apply_rope(x, cos, sin, 3, o), rope_loops(x, 3, l), 1e-12, 1e-14));
    o = {}, l = {base};
    o.direction = -1, l.sign = -1;
    CHECK(xt::allclose(rope::apply_rope(x, cos, sin, 3, o), rope_loops(x, 3, l), 1e-12, 1e-14));
    o = {}, l = {base};
    o.swap = true, l.swap = true;
    CHECK(xt::allclose(rope::apply_rope(x, cos, sin, 3, o), rope_loops(x, 3, l), 1e-12, 1e-14));
    o = {};
    o.use_offset = false;
    CHECK(xt::allclose(rope::apply_rope(x, cos, sin, 3, o), rope_loops(x, 0, {base}), 1e-12, 1e-14));

    for (const auto& [name, power] : {std::pair<const char*, double>{"i/d", 1}, {"4i/d", 4}, {"-2i/d", -2}}) {
      rope::CacheOptions co;
      co.exponent = name;
      const auto wrong = rope::rope_cache(12, 8, base, co);
      Loop lw{base};
      lw.power = power;
      CHECK(xt::allclose(rope::apply_rope(x, wrong.cos, wrong.sin, 2), rope_loops(x, 2, lw), 1e-12, 1e-14));
    }
    rope::CacheOptions one;
    one.start = 1;
    const auto from1 = rope::rope_cache(12, 8, base, one);
    Loop l1{base};
    l1.start = 1;
    CHECK(xt::allclose(rope::apply_rope(x, from1.cos, from1.sin, 2), rope_loops(x, 2, l1), 1e-12, 1e-14));
  }
  // Any number of leading axes: (T, d) and (B, T, d) are the same rows.
  const auto [cos, sin] = rope::rope_cache(5, 8);
  const Arr x3 = xt::reshape_view(x, {6, 5, 8});
  CHECK(xt::allclose(Arr(xt::reshape_view(rope::apply_rope(x3, cos, sin), {2, 3, 5, 8})), rope::apply_rope(x, cos, sin),
                     0, 0));
  const Arr one_row = xt::view(x, 0, 0);
  CHECK(xt::allclose(rope::apply_rope(one_row, cos, sin), Arr(xt::view(rope::apply_rope(x, cos, sin), 0, 0)), 0, 0));
}

TEST_CASE("pair lengths are kept, the score depends only on m - n, the offset is a slice") {
  attnlab::Rng rng(attnlab::derive_seed(2017, "rope/properties"));
  const Arr x = normals(rng, {2, 2, 6, 8});
  const auto [cos, sin] = rope::rope_cache(20, 8);
  const Arr y = rope::apply_rope(x, cos, sin, 3);
  for (std::size_t r = 0; r < x.size() / 2; ++r)
    CHECK(std::hypot(y.flat(2 * r), y.flat(2 * r + 1)) ==
          doctest::Approx(std::hypot(x.flat(2 * r), x.flat(2 * r + 1))).epsilon(1e-13));

  const Arr q = normals(rng, {1, 8}), k = normals(rng, {1, 8});
  auto score = [&](std::size_t m, std::size_t n) {
    return dot(rope::apply_rope(q, cos, sin, m), rope::apply_rope(k, cos, sin, n));
  };
  CHECK(score(2, 5) == doctest::Approx(score(9, 12)).epsilon(1e-12));
  CHECK(score(7, 7) == doctest::Approx(dot(q, k)).epsilon(1e-12));
  CHECK(std::abs(score(2, 5) - score(5, 2)) > 1e-3);
  // The lesson's form: <R_m q, R_n k> = <q, R_(n−m) k>.
  CHECK(score(4, 9) == doctest::Approx(dot(q, rope::apply_rope(k, cos, sin, 5))).epsilon(1e-12));

  // offset 4 on 3 rows = rows 4, 5, 6 of a run from position 0 over 7 rows.
  const Arr longer = normals(rng, {2, 7, 8});
  const Arr tail = xt::view(longer, xt::all(), xt::range(4, 7), xt::all());
  const Arr full = rope::apply_rope(longer, cos, sin);
  CHECK(xt::allclose(rope::apply_rope(tail, cos, sin, 4), Arr(xt::view(full, xt::all(), xt::range(4, 7), xt::all())),
                     1e-14, 0));
  CHECK_THROWS_AS(rope::apply_rope(tail, cos, sin, 18), std::invalid_argument);  // 18 + 3 > 20 rows
  CHECK_THROWS_AS(rope::apply_rope(Arr{{1, 2, 3}}, cos, sin), std::invalid_argument);
  CHECK_THROWS_AS(rope::apply_rope(tail, xt::view(cos, xt::all(), xt::range(0, 3)), sin), std::invalid_argument);
}
