// Tests of the double reference (wasm/include/attnlab/reference.hpp).
// Expected values come from the lesson's printed numbers, from closed forms derived here, or from
// properties (row sums, causality, equivariance); attention and attention_loops cross-check each other.
// Run: tools/build && (cd build && ctest --output-on-failure -R test_reference)
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include <xtensor/xview.hpp>

#include "attnlab/prng.hpp"
#include "attnlab/reference.hpp"

using namespace attnlab;
using ref::Shape;
using Arr = xt::xarray<double>;
using Mask = xt::xarray<bool>;

namespace {

const double inf = std::numeric_limits<double>::infinity();

Arr randn(Rng& rng, const Shape& shape, double scale = 1) {
  std::size_t n = 1;
  for (auto d : shape) n *= d;
  Arr a = xt::zeros<double>(shape);
  auto v = rng.normals(n, scale);
  std::copy(v.begin(), v.end(), a.begin());
  return a;
}

// Same shape and |a - b| <= atol + rtol |b| everywhere, NaN only where b is NaN.
bool close(const Arr& a, const Arr& b, double rtol = 1e-12, double atol = 1e-14) {
  if (a.shape() != b.shape()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double x = a.data()[i], y = b.data()[i];
    if (std::isnan(x) || std::isnan(y)) {
      if (std::isnan(x) != std::isnan(y)) return false;
    } else if (std::abs(x - y) > atol + rtol * std::abs(y)) {
      return false;
    }
  }
  return true;
}

double round3(double x) { return std::round(x * 1000) / 1000; }

const Arr lesson_Q = {{2, 0}, {0, 2}, {1, 1}};
const Arr lesson_K = {{1, 0}, {0, 1}, {1, 1}};
const Arr lesson_V = {{10, 0}, {0, 10}, {5, 5}};

ref::AttentionOptions with_mask(Mask m) {
  ref::AttentionOptions o;
  o.mask = std::move(m);
  return o;
}

}  // namespace

TEST_CASE("causal_mask is true on and below the diagonal") {
  for (std::size_t T : {1, 2, 3, 7}) {
    const Mask m = ref::causal_mask(T);
    REQUIRE(m.shape() == Shape{T, T});
    for (std::size_t i = 0; i < T; ++i)
      for (std::size_t j = 0; j < T; ++j) CHECK(m(i, j) == (j <= i));
  }
  CHECK(ref::causal_mask(0).shape() == Shape{0, 0});
}

TEST_CASE("lesson example: weights and output at the lesson's 3 decimals") {
  const auto r = ref::attention(lesson_Q, lesson_K, lesson_V, with_mask(ref::causal_mask(3)));
  const Arr w3 = {{1, 0, 0}, {0.196, 0.804, 0}, {0.248, 0.248, 0.503}};
  const Arr out3 = {{10, 0}, {1.956, 8.044}, {5, 5}};
  for (std::size_t i = 0; i < 3; ++i) {
    for (std::size_t j = 0; j < 3; ++j) CHECK(round3(r.weights(i, j)) == w3(i, j));
    for (std::size_t c = 0; c < 2; ++c) CHECK(round3(r.out(i, c)) == out3(i, c));
  }
}

TEST_CASE("lesson example: full precision against closed forms") {
  // Scores / sqrt(2): row 1 = (0, sqrt2), row 2 = (a, a, sqrt2) with a = 1/sqrt2.
  const double s2 = std::sqrt(2.0), a = 1 / s2, ea = std::exp(a);
  const double w10 = 1 / (1 + std::exp(s2)), w11 = 1 / (1 + std::exp(-s2));
  const double w20 = 1 / (2 + ea), w22 = ea / (2 + ea);
  const Arr w = {{1, 0, 0}, {w10, w11, 0}, {w20, w20, w22}};
  // Row 2 of out: (10 w20 + 5 w22, 10 w20 + 5 w22) = 5 (2 + e^a) / (2 + e^a) = (5, 5).
  const Arr out = {{10, 0}, {10 * w10, 10 * w11}, {5, 5}};
  for (const auto& r : {ref::attention(lesson_Q, lesson_K, lesson_V, with_mask(ref::causal_mask(3))),
                        ref::attention_loops(lesson_Q, lesson_K, lesson_V, ref::causal_mask(3))}) {
    CHECK(close(r.weights, w, 1e-14, 1e-15));
    CHECK(close(r.out, out, 1e-14, 1e-14));
    // Masked weights are exactly zero, not merely small.
    CHECK(r.weights(0, 1) == 0.0);
    CHECK(r.weights(0, 2) == 0.0);
    CHECK(r.weights(1, 2) == 0.0);
  }
  // Without the mask row 0 is softmax(sqrt2, 0, sqrt2): the lesson's (0.446, 0.108, 0.446).
  const auto u = ref::attention(lesson_Q, lesson_K, lesson_V);
  const double e = std::exp(s2), den = 2 * e + 1;
  CHECK(close(xt::view(u.weights, 0, xt::all()), Arr{e / den, 1 / den, e / den}, 1e-14, 1e-15));
  CHECK(round3(u.weights(0, 0)) == 0.446);
  CHECK(round3(u.weights(0, 1)) == 0.108);
}

TEST_CASE("causal weights: rows sum to 1, exact zeros above the diagonal") {
  const std::uint32_t seed = 11;
  INFO("seed " << seed);
  Rng rng(seed);
  const std::size_t B = 2, T = 7, d = 5;
  const Arr Q = randn(rng, {B, T, d}, 3), K = randn(rng, {B, T, d}, 3), V = randn(rng, {B, T, d});
  const auto r = ref::attention(Q, K, V, with_mask(ref::causal_mask(T)));
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t i = 0; i < T; ++i) {
      double sum = 0;
      for (std::size_t j = 0; j < T; ++j) {
        sum += r.weights(b, i, j);
        if (j > i)
          CHECK(r.weights(b, i, j) == 0.0);
        else
          CHECK(r.weights(b, i, j) > 0.0);
      }
      CHECK(sum == doctest::Approx(1.0).epsilon(1e-14));
    }
}

TEST_CASE("without a mask, attention is permutation equivariant") {
  const std::uint32_t seed = 12;
  INFO("seed " << seed);
  Rng rng(seed);
  const std::size_t T = 6, d = 4;
  const Arr Q = randn(rng, {T, d}), K = randn(rng, {T, d}), V = randn(rng, {T, 3});
  const std::vector<std::size_t> perm = {3, 0, 5, 1, 4, 2};
  auto rows = [&](const Arr& x) { return Arr(xt::view(x, xt::keep(perm), xt::all())); };
  const auto r = ref::attention(Q, K, V);
  // Permuting the queries permutes the output rows and weight rows.
  const auto rq = ref::attention(rows(Q), K, V);
  CHECK(close(rq.out, rows(r.out)));
  CHECK(close(rq.weights, rows(r.weights)));
  // Permuting keys and values together leaves the output unchanged and permutes weight columns.
  const auto rkv = ref::attention(Q, rows(K), rows(V));
  CHECK(close(rkv.out, r.out));
  CHECK(close(rkv.weights, Arr(xt::view(r.weights, xt::all(), xt::keep(perm)))));
}

TEST_CASE("causal_self_attention: changing later tokens leaves earlier outputs bit-identical") {
  const std::uint32_t seed = 13;
  INFO("seed " << seed);
  Rng rng(seed);
  const std::size_t T = 6, dm = 5, dk = 3, dv = 4;
  const Arr Wq = randn(rng, {dm, dk}), Wk = randn(rng, {dm, dk}), Wv = randn(rng, {dm, dv});
  const Arr X = randn(rng, {T, dm});
  for (std::size_t t = 0; t + 1 < T; ++t) {
    Arr X2 = X;
    xt::view(X2, xt::range(t + 1, T), xt::all()) = randn(rng, {T - t - 1, dm}, 10);
    const auto a = ref::causal_self_attention(X, Wq, Wk, Wv);
    const auto b = ref::causal_self_attention(X2, Wq, Wk, Wv);
    CAPTURE(t);
    CHECK(Arr(xt::view(a.out, xt::range(0, t + 1), xt::all())) == Arr(xt::view(b.out, xt::range(0, t + 1), xt::all())));
    CHECK(Arr(xt::view(a.weights, xt::range(0, t + 1), xt::all())) ==
          Arr(xt::view(b.weights, xt::range(0, t + 1), xt::all())));
  }
}

TEST_CASE("causal_self_attention: a batch equals each sample on its own") {
  const std::uint32_t seed = 14;
  INFO("seed " << seed);
  Rng rng(seed);
  const std::size_t B = 3, T = 5, dm = 4, dk = 2, dv = 3;
  const Arr Wq = randn(rng, {dm, dk}), Wk = randn(rng, {dm, dk}), Wv = randn(rng, {dm, dv});
  const Arr X = randn(rng, {B, T, dm});
  const auto r = ref::causal_self_attention(X, Wq, Wk, Wv);
  REQUIRE(r.out.shape() == Shape{B, T, dv});
  REQUIRE(r.weights.shape() == Shape{B, T, T});
  for (std::size_t b = 0; b < B; ++b) {
    CAPTURE(b);
    const auto s = ref::causal_self_attention(Arr(xt::view(X, b)), Wq, Wk, Wv);
    CHECK(close(Arr(xt::view(r.out, b)), s.out));
    CHECK(close(Arr(xt::view(r.weights, b)), s.weights));
  }
  // And it is attention on the projections with the causal mask.
  const auto p =
      ref::attention(ref::matmul(X, Wq), ref::matmul(X, Wk), ref::matmul(X, Wv), with_mask(ref::causal_mask(T)));
  CHECK(close(r.out, p.out));
}

TEST_CASE("T_q != T_k and d_v != d_k, with a top-left aligned causal mask") {
  const std::uint32_t seed = 15;
  INFO("seed " << seed);
  Rng rng(seed);
  const std::size_t B = 2, Tq = 3, Tk = 6, dk = 4, dv = 7;
  const Arr Q = randn(rng, {B, Tq, dk}), K = randn(rng, {B, Tk, dk}), V = randn(rng, {B, Tk, dv});
  Mask m = xt::zeros<bool>({Tq, Tk});
  for (std::size_t i = 0; i < Tq; ++i)
    for (std::size_t j = 0; j <= i; ++j) m(i, j) = true;
  const auto r = ref::attention(Q, K, V, with_mask(m));
  CHECK(r.out.shape() == Shape{B, Tq, dv});
  CHECK(r.weights.shape() == Shape{B, Tq, Tk});
  CHECK(r.weights(1, 0, 0) == 1.0);  // the first query sees only the first key
  CHECK(r.weights(1, 2, 5) == 0.0);
  const auto l = ref::attention_loops(Q, K, V, m);
  CHECK(close(r.out, l.out));
  CHECK(close(r.weights, l.weights));
}

TEST_CASE("attention == attention_loops on random inputs and broadcast shapes") {
  struct Case {
    Shape q, k, v;
    std::optional<Shape> mask;
  };
  const Case cases[] = {
      {{1, 1}, {1, 1}, {1, 1}, Shape{1, 1}},
      {{5, 3}, {5, 3}, {5, 2}, std::nullopt},
      {{2, 4, 3}, {2, 4, 3}, {2, 4, 5}, Shape{4, 4}},
      {{2, 3, 6, 5}, {2, 3, 6, 5}, {2, 3, 6, 5}, Shape{2, 1, 6, 6}},  // per-batch mask, shared by heads
      {{3, 4, 2}, {2, 1, 5, 2}, {5, 3}, Shape{5}},                    // batch broadcast + 1-D key mask
      {{4, 2}, {4, 2}, {4, 2}, Shape{3, 4, 1}},                       // the mask adds a batch axis
  };
  std::uint32_t seed = 100;
  for (const auto& c : cases) {
    ++seed;
    INFO("seed " << seed << " Q " << ref::shape_str(c.q) << " K " << ref::shape_str(c.k));
    Rng rng(seed);
    const Arr Q = randn(rng, c.q, 2), K = randn(rng, c.k, 2), V = randn(rng, c.v);
    std::optional<Mask> mask;
    if (c.mask) {
      mask = Mask(xt::zeros<bool>(*c.mask));
      for (auto& x : *mask) x = rng.next() < 0.7;
    }
    ref::AttentionOptions opt;
    opt.mask = mask;
    const auto a = ref::attention(Q, K, V, opt);
    const auto l = ref::attention_loops(Q, K, V, mask);
    CHECK(close(a.out, l.out));
    CHECK(close(a.weights, l.weights));
  }
}

TEST_CASE("a fully masked row gives NaN, like NumPy; a finite masked_score gives a uniform row") {
  Mask m = ref::causal_mask(3);
  m(1, 0) = m(1, 1) = false;  // query 1 may see nothing
  for (const auto& r : {ref::attention(lesson_Q, lesson_K, lesson_V, with_mask(m)),
                        ref::attention_loops(lesson_Q, lesson_K, lesson_V, m)}) {
    for (std::size_t j = 0; j < 3; ++j) CHECK(std::isnan(r.weights(1, j)));
    CHECK(std::isnan(r.out(1, 0)));
    CHECK(r.weights(0, 0) == 1.0);
    CHECK(std::isfinite(r.out(2, 1)));
  }
  auto opt = with_mask(m);
  opt.masked_score = -1e9;
  const auto r = ref::attention(lesson_Q, lesson_K, lesson_V, opt);
  for (std::size_t j = 0; j < 3; ++j) CHECK(r.weights(1, j) == doctest::Approx(1.0 / 3));
  CHECK(r.weights(0, 1) == 0.0);  // exp(-1e9 - max) underflows to exactly 0
}

TEST_CASE("scale option multiplies the scores") {
  const std::uint32_t seed = 16;
  INFO("seed " << seed);
  Rng rng(seed);
  const Arr Q = randn(rng, {4, 3}), K = randn(rng, {5, 3}), V = randn(rng, {5, 2});
  ref::AttentionOptions opt;
  opt.scale = 0.25;
  const auto a = ref::attention(Q, K, V, opt);
  const auto b = ref::attention(Q * (0.25 * std::sqrt(3.0)), K, V);  // default scale 1/sqrt(3)
  CHECK(close(a.weights, b.weights, 1e-12, 1e-14));
}

TEST_CASE("softmax over any axis and rank") {
  const Arr x1 = {1.0, 2.0, 3.0};
  const double den = std::exp(-2.0) + std::exp(-1.0) + 1;
  CHECK(close(ref::softmax(x1), Arr{std::exp(-2.0) / den, std::exp(-1.0) / den, 1 / den}, 1e-15, 0));
  // Stable: huge logits give the same answer as small ones.
  CHECK(close(ref::softmax(Arr{1001.0, 1002.0, 1003.0}), ref::softmax(x1), 1e-13, 0));
  // -inf gives exactly 0; an all -inf slice gives NaN.
  const Arr y = ref::softmax(Arr{{0.0, -inf}, {-inf, -inf}});
  CHECK(y(0, 0) == 1.0);
  CHECK(y(0, 1) == 0.0);
  CHECK(std::isnan(y(1, 0)));

  const std::uint32_t seed = 17;
  INFO("seed " << seed);
  Rng rng(seed);
  const Arr x3 = randn(rng, {2, 3, 4}, 3);
  for (std::ptrdiff_t axis : {0, 1, 2, -1, -2, -3}) {
    CAPTURE(axis);
    const Arr s = ref::softmax(x3, axis);
    const std::size_t ax = static_cast<std::size_t>(axis < 0 ? axis + 3 : axis);
    // Compare each slice along the axis with a direct formula.
    for (std::size_t i = 0; i < x3.size(); ++i) {
      std::vector<std::size_t> idx = {i / 12, (i / 4) % 3, i % 4};
      double mx = -inf, sum = 0;
      for (std::size_t t = 0; t < x3.shape()[ax]; ++t) {
        auto jdx = idx;
        jdx[ax] = t;
        mx = std::max(mx, x3.element(jdx.begin(), jdx.end()));
      }
      for (std::size_t t = 0; t < x3.shape()[ax]; ++t) {
        auto jdx = idx;
        jdx[ax] = t;
        sum += std::exp(x3.element(jdx.begin(), jdx.end()) - mx);
      }
      const double expect = std::exp(x3.element(idx.begin(), idx.end()) - mx) / sum;
      CHECK(s.element(idx.begin(), idx.end()) == doctest::Approx(expect).epsilon(1e-14));
    }
  }
  CHECK_THROWS_WITH_AS(ref::softmax(x3, 3), "softmax: axis 3 is out of range for x of shape (2, 3, 4)",
                       std::invalid_argument);
  CHECK_THROWS_AS(ref::softmax(x3, -4), std::invalid_argument);
}

TEST_CASE("matmul follows numpy.matmul") {
  const Arr a = {{1, 2, 3}, {4, 5, 6}}, b = {{1, 0}, {0, 1}, {1, 1}};
  CHECK(ref::matmul(a, b) == Arr{{4, 5}, {10, 11}});
  // 1-D operands are promoted and the added axis dropped.
  CHECK(ref::matmul(Arr{1, 1}, a) == Arr{5, 7, 9});
  CHECK(ref::matmul(a, Arr{1, 0, 1}) == Arr{4, 10});
  CHECK(ref::matmul(Arr{1, 2, 3}, Arr{1, 2, 3}).shape() == Shape{});
  CHECK(ref::matmul(Arr{1, 2, 3}, Arr{1, 2, 3})() == 14.0);
  // Batch axes broadcast: (2, 1, 3, 4) @ (5, 4, 2) -> (2, 5, 3, 2).
  const std::uint32_t seed = 18;
  INFO("seed " << seed);
  Rng rng(seed);
  const Arr x = randn(rng, {2, 1, 3, 4}), y = randn(rng, {5, 4, 2});
  const Arr r = ref::matmul(x, y);
  REQUIRE(r.shape() == Shape{2, 5, 3, 2});
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 5; ++j)
      CHECK(Arr(xt::view(r, i, j)) == ref::matmul(Arr(xt::view(x, i, 0)), Arr(xt::view(y, j))));
  CHECK_THROWS_WITH_AS(ref::matmul(a, a),
                       "matmul: a has shape (2, 3) but b has shape (2, 3): a's last axis must equal "
                       "b's second-to-last axis",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(ref::matmul(randn(rng, {2, 3, 4}), randn(rng, {3, 4, 2})),
                       doctest::Contains("batch axes (2,) and (3,) do not broadcast"), std::invalid_argument);
}

TEST_CASE("shape errors name the shapes") {
  Rng rng(19);
  const Arr Q = randn(rng, {2, 3, 5}), K4 = randn(rng, {2, 3, 4}), V = randn(rng, {2, 3, 4});
  CHECK_THROWS_WITH_AS(ref::attention(Q, K4, V),
                       "attention: Q has shape (2, 3, 5) but K has shape (2, 3, 4): last axes (d_k) differ",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(ref::attention_loops(Q, K4, V),
                       "attention_loops: Q has shape (2, 3, 5) but K has shape (2, 3, 4): last axes (d_k) "
                       "differ",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(ref::attention(K4, K4, randn(rng, {2, 5, 4})),
                       "attention: K has shape (2, 3, 4) but V has shape (2, 5, 4): axis -2 (T_k) differs",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(ref::attention(randn(rng, {4}), K4, V),
                       "attention: Q has shape (4,) but needs at least 2 axes (..., T_q, d_k)", std::invalid_argument);
  CHECK_THROWS_WITH_AS(ref::attention(randn(rng, {3, 3, 4}), K4, V),
                       "attention: Q has shape (3, 3, 4) but K has shape (2, 3, 4): batch axes (3,) and "
                       "(2,) do not broadcast",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(ref::attention(K4, K4, V, with_mask(ref::causal_mask(4))),
                       "attention: mask has shape (4, 4) but the scores Q K^T have shape (2, 3, 3): not "
                       "broadcastable",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(ref::attention(K4, K4, randn(rng, {3, 3, 4})),
                       "attention: V has shape (3, 3, 4) but the weights have shape (2, 3, 3): batch axes "
                       "do not broadcast",
                       std::invalid_argument);
  const Arr W = randn(rng, {4, 2});
  CHECK_THROWS_WITH_AS(ref::causal_self_attention(randn(rng, {3, 5}), W, W, W),
                       "causal_self_attention: X has shape (3, 5) but W_q has shape (4, 2): expected a 2-D "
                       "(d_model, ...) matrix with d_model = 5",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(ref::causal_self_attention(randn(rng, {3, 4}), W, randn(rng, {4, 3}), W),
                       doctest::Contains("W_q has shape (4, 2) but W_k has shape (4, 3)"), std::invalid_argument);
}
