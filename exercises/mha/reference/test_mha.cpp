// mha's reference: a hand-checked example (head 0 is the first lesson's worked example, head 1 an
// averaging head), split/merge by their index definitions, and multi_head_attention against an
// independent plain-loop implementation written here, on seeded inputs. Also the mistake options the
// exercise's diagnoses rely on: each must give something else than the definition on the test shapes.
// Run: tools/build && (cd build && ctest -R mha).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include <xtensor/xview.hpp>

#include "attnlab/prng.hpp"
#include "mha/reference/mha.hpp"

namespace mha = attnlab::mha;
using Arr = xt::xarray<double>;

static Arr rounded(const Arr& a, int decimals) {
  const double f = std::pow(10.0, decimals);
  return xt::round(a * f) / f;
}

static Arr normal(attnlab::Rng& rng, std::vector<std::size_t> shape, double scale = 1) {
  Arr a = Arr::from_shape(shape);
  for (auto& x : a) x = rng.normal() * scale;
  return a;
}

// The hand example of spec.json (test hand_example): one-hot tokens, so X·W is W's first three rows.
struct Hand {
  Arr X = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}};
  Arr Wq = {{2, 0, 0, 0}, {0, 2, 0, 0}, {1, 1, 0, 0}, {0, 0, 0, 0}};  // head 1's queries are 0: uniform weights
  Arr Wk = {{1, 0, 1, 0}, {0, 1, 0, 1}, {1, 1, 1, 1}, {0, 0, 0, 0}};
  Arr Wv = {{10, 0, 3, 0}, {0, 10, 0, 3}, {5, 5, 3, 3}, {0, 0, 0, 0}};
  Arr Wo = {{1, 0, 0, 0}, {0, 1, 0, 0}, {1, 0, 1, 0}, {0, 1, 0, 1}};  // out = [head0 + head1 | head1]
};

TEST_CASE("the hand example: head 0 is the lesson's 3×2 example, head 1 averages, W_o adds head 1 to head 0") {
  const Hand h;
  const auto r = mha::multi_head_attention(h.X, h.Wq, h.Wk, h.Wv, h.Wo, 2);
  REQUIRE(r.weights.shape() == std::vector<std::size_t>{2, 3, 3});
  const Arr w = {{{1, 0, 0}, {0.196, 0.804, 0}, {0.248, 0.248, 0.503}},
                 {{1, 0, 0}, {0.5, 0.5, 0}, {0.333, 0.333, 0.333}}};
  CHECK(xt::allclose(rounded(r.weights, 3), w, 0, 1e-12));
  // head 0: softmax((0, √2)) in row 1, exactly as in the first lesson (d_head = 2 = its d_k)
  CHECK(r.weights(0, 1, 0) == doctest::Approx(1.0 / (1.0 + std::exp(std::sqrt(2.0)))).epsilon(1e-12));
  CHECK(r.weights(1, 2, 1) == doctest::Approx(1.0 / 3).epsilon(1e-12));
  const Arr out = {{13, 0, 3, 0}, {3.456, 9.544, 1.5, 1.5}, {7, 7, 2, 2}};
  CHECK(xt::allclose(rounded(r.out, 3), out, 0, 1e-12));
  // Without W_o the heads are only side by side: [head0 | head1].
  mha::Options no_wo;
  no_wo.use_wo = false;
  const Arr merged = {{10, 0, 3, 0}, {1.956, 8.044, 1.5, 1.5}, {5, 5, 2, 2}};
  CHECK(xt::allclose(rounded(mha::multi_head_attention(h.X, h.Wq, h.Wk, h.Wv, h.Wo, 2, true, no_wo).out, 3), merged, 0,
                     1e-12));
}

TEST_CASE("split_heads: head h holds columns h·d_head … (h+1)·d_head − 1; merge_heads undoes it") {
  attnlab::Rng rng(attnlab::derive_seed(2017, "mha/split"));
  const Arr x = normal(rng, {2, 5, 8});
  const Arr s = mha::split_heads(x, 4);  // the signature kv_cache calls: defaults only
  REQUIRE(s.shape() == std::vector<std::size_t>{2, 4, 5, 2});
  for (std::size_t b = 0; b < 2; ++b)
    for (std::size_t h = 0; h < 4; ++h)
      for (std::size_t t = 0; t < 5; ++t)
        for (std::size_t c = 0; c < 2; ++c) CHECK(s(b, h, t, c) == x(b, t, h * 2 + c));
  CHECK(mha::merge_heads(s) == x);
  // 2-D input, and merge on (B, H, T, d_head) against its definition
  const Arr y = normal(rng, {5, 6});
  CHECK(mha::split_heads(y, 3).shape() == std::vector<std::size_t>{3, 5, 2});
  CHECK(mha::merge_heads(mha::split_heads(y, 3)) == y);
  const Arr z = normal(rng, {2, 3, 5, 4});
  const Arr m = mha::merge_heads(z);
  REQUIRE(m.shape() == std::vector<std::size_t>{2, 5, 12});
  for (std::size_t b = 0; b < 2; ++b)
    for (std::size_t t = 0; t < 5; ++t)
      for (std::size_t j = 0; j < 12; ++j) CHECK(m(b, t, j) == z(b, j / 4, t, j % 4));
  CHECK(mha::split_heads(m, 3) == z);
}

TEST_CASE("the mistake options compute what their names say, and differ from the definition") {
  attnlab::Rng rng(attnlab::derive_seed(2017, "mha/mistakes"));
  const Arr x = normal(rng, {2, 5, 8});
  mha::SplitOptions flat;
  flat.transpose = false;
  const Arr a = mha::split_heads(x, 4, flat);  // a plain reshape: head 0 holds x[0]'s first 10 numbers
  REQUIRE(a.shape() == std::vector<std::size_t>{2, 4, 5, 2});
  CHECK(a(0, 0, 4, 1) == x(0, 1, 1));
  CHECK_FALSE(xt::allclose(a, mha::split_heads(x, 4)));
  mha::SplitOptions strided;
  strided.strided = true;
  const Arr st = mha::split_heads(x, 4, strided);
  for (std::size_t h = 0; h < 4; ++h)
    for (std::size_t t = 0; t < 5; ++t)
      for (std::size_t c = 0; c < 2; ++c) CHECK(st(1, h, t, c) == x(1, t, c * 4 + h));
  mha::SplitOptions after_t;
  after_t.heads_first = false;
  CHECK(mha::split_heads(x, 4, after_t).shape() == std::vector<std::size_t>{2, 5, 4, 2});
  mha::MergeOptions mflat;
  mflat.transpose = false;
  CHECK(mha::merge_heads(mha::split_heads(x, 4, flat), mflat) == x);  // two plain reshapes undo each other
  CHECK_FALSE(xt::allclose(mha::merge_heads(mha::split_heads(x, 4), mflat), x));

  const Arr X = normal(rng, {2, 6, 8}), Wq = normal(rng, {8, 8}, 0.35), Wk = normal(rng, {8, 8}, 0.35),
            Wv = normal(rng, {8, 8}, 0.35), Wo = normal(rng, {8, 8}, 0.35);
  const auto good = mha::multi_head_attention(X, Wq, Wk, Wv, Wo, 4);
  mha::Options o;
  o.scale = mha::Scale::d_model;
  const auto dm = mha::multi_head_attention(X, Wq, Wk, Wv, Wo, 4, true, o);
  CHECK_FALSE(xt::allclose(dm.weights, good.weights));
  o.scale = mha::Scale::none;
  CHECK_FALSE(xt::allclose(mha::multi_head_attention(X, Wq, Wk, Wv, Wo, 4, true, o).weights, good.weights));
  mha::Options no_wo;
  no_wo.use_wo = false;
  const auto nw = mha::multi_head_attention(X, Wq, Wk, Wv, Wo, 4, true, no_wo);
  CHECK(nw.weights == good.weights);
  CHECK(xt::allclose(attnlab::ref::matmul(nw.out, Wo), good.out, 1e-12, 1e-14));
  // scale 1/√d_model with one head is the definition itself: tests use several heads
  o.scale = mha::Scale::d_model;
  CHECK(mha::multi_head_attention(X, Wq, Wk, Wv, Wo, 1, true, o).weights ==
        mha::multi_head_attention(X, Wq, Wk, Wv, Wo, 1).weights);
}

TEST_CASE("d_model not divisible by n_heads is an error that says so") {
  const Arr x = xt::zeros<double>({2, 3, 10}), W = xt::zeros<double>({10, 10});
  CHECK_THROWS_WITH_AS(mha::split_heads(x, 4), "split_heads: d_model = 10 is not divisible by n_heads = 4",
                       std::invalid_argument);
  CHECK_THROWS_AS(mha::split_heads(x, 0), std::invalid_argument);
  CHECK_THROWS_WITH_AS(mha::multi_head_attention(x, W, W, W, W, 4),
                       "multi_head_attention: d_model = 10 is not divisible by n_heads = 4", std::invalid_argument);
  CHECK_THROWS_AS(mha::merge_heads(xt::zeros<double>({3, 4})), std::invalid_argument);
  CHECK_THROWS_AS(mha::multi_head_attention(x, W, W, W, xt::zeros<double>({10, 8}), 5), std::invalid_argument);
}

// An independent multi-head attention in plain loops over raw indices: no split, merge, matmul or
// attention from the reference. Head h reads columns h·dh … of Q, K, V and writes the same columns of
// the concatenation; out = concat · W_o.
static mha::Array loops(const Arr& X, const Arr& Wq, const Arr& Wk, const Arr& Wv, const Arr& Wo, std::size_t H,
                        bool causal, Arr& weights) {
  const std::size_t B = X.shape()[0], T = X.shape()[1], D = X.shape()[2], dh = D / H;
  auto project = [&](const Arr& W) {
    Arr P = xt::zeros<double>({B, T, D});
    for (std::size_t b = 0; b < B; ++b)
      for (std::size_t t = 0; t < T; ++t)
        for (std::size_t j = 0; j < D; ++j) {
          double s = 0;
          for (std::size_t i = 0; i < D; ++i) s += X(b, t, i) * W(i, j);
          P(b, t, j) = s;
        }
    return P;
  };
  const Arr Q = project(Wq), K = project(Wk), V = project(Wv);
  weights = xt::zeros<double>({B, H, T, T});
  Arr concat = xt::zeros<double>({B, T, D});
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t h = 0; h < H; ++h)
      for (std::size_t i = 0; i < T; ++i) {
        std::vector<double> row(T, -std::numeric_limits<double>::infinity());
        double mx = row[0];
        for (std::size_t j = 0; j < T; ++j) {
          if (causal && j > i) continue;
          double dot = 0;
          for (std::size_t c = 0; c < dh; ++c) dot += Q(b, i, h * dh + c) * K(b, j, h * dh + c);
          row[j] = dot / std::sqrt(double(dh));
          mx = std::max(mx, row[j]);
        }
        double sum = 0;
        for (auto& r : row) sum += (r = std::exp(r - mx));
        for (std::size_t j = 0; j < T; ++j) weights(b, h, i, j) = row[j] / sum;
        for (std::size_t c = 0; c < dh; ++c) {
          double acc = 0;
          for (std::size_t j = 0; j < T; ++j) acc += weights(b, h, i, j) * V(b, j, h * dh + c);
          concat(b, i, h * dh + c) = acc;
        }
      }
  Arr out = xt::zeros<double>({B, T, D});
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t t = 0; t < T; ++t)
      for (std::size_t j = 0; j < D; ++j)
        for (std::size_t i = 0; i < D; ++i) out(b, t, j) += concat(b, t, i) * Wo(i, j);
  return out;
}

TEST_CASE("multi_head_attention agrees with the plain-loop implementation, causal and not, 1 to 8 heads") {
  attnlab::Rng rng(attnlab::derive_seed(2017, "mha/loops"));
  const std::size_t T = 6, D = 8;
  const Arr X = normal(rng, {3, T, D});
  const Arr Wq = normal(rng, {D, D}, 0.35), Wk = normal(rng, {D, D}, 0.35), Wv = normal(rng, {D, D}, 0.35),
            Wo = normal(rng, {D, D}, 0.35);
  for (std::size_t H : {1, 2, 4, 8})
    for (bool causal : {true, false}) {
      CAPTURE(H);
      CAPTURE(causal);
      Arr w;
      const Arr out = loops(X, Wq, Wk, Wv, Wo, H, causal, w);
      const auto r = mha::multi_head_attention(X, Wq, Wk, Wv, Wo, H, causal);
      CHECK(xt::allclose(r.weights, w, 1e-12, 1e-14));
      CHECK(xt::allclose(r.out, out, 1e-12, 1e-14));
      // one sample alone gives that sample's rows of the batch
      const Arr x1 = xt::view(X, 1, xt::all(), xt::all());
      const auto one = mha::multi_head_attention(x1, Wq, Wk, Wv, Wo, H, causal);
      CHECK(xt::allclose(one.out, xt::view(out, 1, xt::all(), xt::all()), 1e-12, 1e-14));
    }
}
