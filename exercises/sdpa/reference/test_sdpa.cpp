// sdpa's reference on the lesson's own numbers (../../../shared/lesson/sdpa-lesson.ru.txt: three tokens,
// Q, K, V of 3×2, the causal weights and outputs it prints rounded to three decimals), and against the
// engine's independent nested-loop implementation on seeded inputs, and the mistakes reference/sdpa.hpp
// computes on small hand-checkable cases (NumPy checks them on seeded ones: reference/oracle.py). The
// engine's own suite is tests/cpp/test_reference.cpp. Run: tools/build && (cd build && ctest -R sdpa).
#include <doctest/doctest.h>

#include <cmath>

#include "attnlab/prng.hpp"
#include "attnlab/reference.hpp"
#include "sdpa/reference/sdpa.hpp"

namespace ref = attnlab::ref;
namespace sdpa = attnlab::sdpa;
using Arr = xt::xarray<double>;

static Arr rounded(const Arr& a, int decimals) {
  const double f = std::pow(10.0, decimals);
  return xt::round(a * f) / f;
}

TEST_CASE("the lesson's worked example: weights and outputs to three decimals") {
  const Arr Q = {{2, 0}, {0, 2}, {1, 1}}, K = {{1, 0}, {0, 1}, {1, 1}}, V = {{10, 0}, {0, 10}, {5, 5}};
  ref::AttentionOptions o;
  o.mask = ref::causal_mask(3);
  const auto r = ref::attention(Q, K, V, o);
  const Arr w = {{1, 0, 0}, {0.196, 0.804, 0}, {0.248, 0.248, 0.503}};
  const Arr out = {{10, 0}, {1.956, 8.044}, {5, 5}};
  CHECK(xt::allclose(rounded(r.weights, 3), w, 0, 1e-12));
  CHECK(xt::allclose(rounded(r.out, 3), out, 0, 1e-12));
  // The lesson's second row is softmax(0, √2): the first score is masked to exactly 0 weight above it.
  CHECK(r.weights(0, 1) == 0.0);
  CHECK(r.weights(1, 0) == doctest::Approx(1.0 / (1.0 + std::exp(std::sqrt(2.0)))).epsilon(1e-12));
}

TEST_CASE("causal_self_attention agrees with the nested-loop implementation on seeded inputs") {
  attnlab::Rng rng(attnlab::derive_seed(2017, "sdpa/reference"));
  const std::size_t T = 6, d_model = 8, d_k = 4, d_v = 5;
  auto normal = [&](std::vector<std::size_t> shape, double scale) {
    Arr a = Arr::from_shape(shape);
    for (auto& x : a) x = rng.normal() * scale;
    return a;
  };
  const Arr X = normal({2, T, d_model}, 1), Wq = normal({d_model, d_k}, 0.35), Wk = normal({d_model, d_k}, 0.35),
            Wv = normal({d_model, d_v}, 0.35);
  const auto r = ref::causal_self_attention(X, Wq, Wk, Wv);
  const auto loops =
      ref::attention_loops(ref::matmul(X, Wq), ref::matmul(X, Wk), ref::matmul(X, Wv), ref::causal_mask(T));
  CHECK(xt::allclose(r.out, loops.out, 1e-12, 1e-14));
  CHECK(xt::allclose(r.weights, loops.weights, 1e-12, 1e-14));
}

TEST_CASE("the options' defaults are the engine's functions, bit for bit") {
  attnlab::Rng rng(attnlab::derive_seed(2017, "sdpa/options"));
  Arr Q = Arr::from_shape({2, 4, 3}), K = Arr::from_shape({2, 4, 3}), V = Arr::from_shape({2, 4, 5});
  for (Arr* a : {&Q, &K, &V})
    for (auto& x : *a) x = rng.normal();
  ref::AttentionOptions o;
  o.mask = ref::causal_mask(4);
  const auto engine = ref::attention(Q, K, V, o), mine = sdpa::attention(Q, K, V, ref::causal_mask(4));
  CHECK(mine.weights == engine.weights);
  CHECK(mine.out == engine.out);
  CHECK(sdpa::softmax(Q) == ref::softmax(Q, -1));
}

TEST_CASE("the mistaken scales, masks and steps on a hand-checkable 2×2 case") {
  // Q·Kᵀ = [[1, 0], [0, 4]]; d_k = 4 (scale 1/2), d_v = 1, no mask unless given.
  const Arr Q = {{1, 0, 0, 0}, {0, 2, 0, 0}}, K = {{1, 0, 0, 0}, {0, 2, 0, 0}},
            V = xt::reshape_view(Arr{1.0, 3.0}, {2, 1});
  const auto sm = [](double a, double b) { return 1.0 / (1.0 + std::exp(b - a)); };  // softmax([a, b])[0]
  const auto w00 = [&](const sdpa::Options& o) { return sdpa::attention(Q, K, V, std::nullopt, o).weights(0, 0); };
  sdpa::Options o;
  CHECK(w00(o) == doctest::Approx(sm(0.5, 0)));
  o.scale = sdpa::Scale::none;
  CHECK(w00(o) == doctest::Approx(sm(1, 0)));
  o.scale = sdpa::Scale::d_k_linear;
  CHECK(w00(o) == doctest::Approx(sm(0.25, 0)));
  o.scale = sdpa::Scale::times_sqrt_d_k;
  CHECK(w00(o) == doctest::Approx(sm(2, 0)));
  o.scale = sdpa::Scale::d_v;  // 1/√1
  CHECK(w00(o) == doctest::Approx(sm(1, 0)));
  o.scale = sdpa::Scale::after_softmax;
  CHECK(w00(o) == doctest::Approx(sm(1, 0) / 2));
  o.scale = sdpa::Scale::T_k;  // T_k = 2: 1/√2
  CHECK(w00(o) == doctest::Approx(sm(1 / std::sqrt(2.0), 0)));
  o = {};
  o.factor = 3;
  CHECK(w00(o) == doctest::Approx(sm(3, 0)));
  // A scale that is 1/√d_k on these sizes, a mask mode without a mask: no difference, refused.
  const Arr Q2 = {{1, 0}, {0, 1}};
  sdpa::Options same;
  same.scale = sdpa::Scale::T_k;
  CHECK_THROWS_WITH_AS(sdpa::attention(Q2, Q2, V, std::nullopt, same), doctest::Contains("changes nothing"),
                       std::invalid_argument);
  same = {};
  same.mask = sdpa::MaskUse::inverted;
  CHECK_THROWS_AS(sdpa::attention(Q, K, V, std::nullopt, same), std::invalid_argument);
  same = {};
  same.mask = sdpa::MaskUse::hardcoded;
  CHECK_THROWS_AS(sdpa::attention(Q, K, V, ref::causal_mask(2), same), std::invalid_argument);

  // With the causal mask: scores [[0.5, -inf], [0, 2]].
  const auto m = ref::causal_mask(2);
  const auto with = [&](sdpa::Options x) { return sdpa::attention(Q, K, V, m, x); };
  o = {};
  o.masked_score = 0;  // exp(0) = 1 for the future
  CHECK(with(o).weights(0, 1) == doctest::Approx(1 - sm(0.5, 0)));
  o = {};
  o.mask = sdpa::MaskUse::inverted;  // row 0 sees only key 1, row 1 nothing (NaN)
  CHECK(with(o).weights(0, 1) == 1.0);
  CHECK(std::isnan(with(o).weights(1, 0)));
  o.masked_score = -1e9;  // row 1: two equal scores
  CHECK(with(o).weights(1, 0) == 0.5);
  o = {};
  o.mask = sdpa::MaskUse::ignored;
  CHECK(with(o).weights(0, 0) == doctest::Approx(sm(0.5, 0)));
  o.mask = sdpa::MaskUse::added;  // [[1.5, 0], [1, 3]]
  CHECK(with(o).weights(0, 0) == doctest::Approx(sm(1.5, 0)));
  o.mask = sdpa::MaskUse::after_softmax;
  CHECK(with(o).weights(0, 0) == doctest::Approx(sm(0.5, 0)));
  CHECK(with(o).weights(0, 1) == 0.0);
  o.mask = sdpa::MaskUse::after_softmax_inf;
  CHECK(std::isinf(with(o).weights(0, 1)));
  o = {};
  o.out_from = sdpa::OutFrom::scores;  // out = [[0.5, 0], [0, 2]] @ V
  CHECK(with(o).out(1, 0) == doctest::Approx(6));
  o.out_from = sdpa::OutFrom::masked_scores;  // -inf · 3 in row 0
  CHECK(std::isinf(with(o).out(0, 0)));
  o = {};
  o.round_digits = 1;
  CHECK(with(o).weights(1, 0) == doctest::Approx(std::round(10 * sm(0, 2)) / 10));
  o = {};
  o.swap_return = true;
  CHECK(with(o).out.shape() == std::vector<std::size_t>{2, 2});
  CHECK(with(o).weights.shape() == std::vector<std::size_t>{2, 1});
  o = {};
  o.v_order = true;  // V (2, 1) @ weights (2, 2): the shapes refuse
  CHECK_THROWS_AS(with(o), std::invalid_argument);
}

TEST_CASE("the mistaken softmaxes on one row") {
  const Arr x = {{0, 1}, {2, 2}};
  sdpa::SoftmaxOptions o;
  o.kind = sdpa::SoftmaxKind::no_norm;
  CHECK(sdpa::softmax(x, o)(0, 0) == doctest::Approx(std::exp(-1.0)));
  o.kind = sdpa::SoftmaxKind::all;  // e = [[e⁻¹, 1], [1, 1]]
  CHECK(sdpa::softmax(x, o)(1, 1) == doctest::Approx(1 / (3 + std::exp(-1.0))));
  o.kind = sdpa::SoftmaxKind::min_shift;
  CHECK(sdpa::softmax(x, o)(0, 1) == doctest::Approx(std::exp(1.0) / (1 + std::exp(1.0))));
  o.kind = sdpa::SoftmaxKind::keepdims;  // (i, j): exp(x[i, j] - max of row j) / the sum of row j's exps
  // e = [[e⁻¹, e⁻¹], [e, 1]] (shifted by the maxima 1, 2), sums [2e⁻¹, e + 1]
  CHECK(sdpa::softmax(x, o)(0, 1) == doctest::Approx(std::exp(-1.0) / (std::exp(1.0) + 1)));
  CHECK_THROWS_AS(sdpa::softmax(Arr{{1, 2, 3}}, o), std::invalid_argument);
  o.kind = sdpa::SoftmaxKind::stable;
  o.axis = 0;
  CHECK(sdpa::softmax(x, o)(0, 0) == doctest::Approx(1 / (1 + std::exp(2.0))));
}

TEST_CASE("causal_self_attention's own masks and projections") {
  const Arr X = {{1, 0}, {0, 1}, {1, 1}}, I = {{1, 0}, {0, 1}}, Z = {{0, 0}, {0, 0}};
  sdpa::SelfOptions o;
  o.own_mask = sdpa::OwnMask::too_wide;
  CHECK(sdpa::causal_self_attention(X, I, I, I, o).weights(0, 1) > 0);
  o.own_mask = sdpa::OwnMask::strict;  // row 0 sees nothing: NaN
  CHECK(std::isnan(sdpa::causal_self_attention(X, I, I, I, o).weights(0, 0)));
  o.own_mask = sdpa::OwnMask::upper;
  CHECK(sdpa::causal_self_attention(X, I, I, I, o).weights(2, 2) == 1.0);
  o = {};
  o.projection = {sdpa::W_q, sdpa::W_q, sdpa::W_q};  // K from W_q = 0: uniform weights
  CHECK(sdpa::causal_self_attention(X, Z, I, I, o).weights(2, 0) == doctest::Approx(1.0 / 3));
  o.attention.scale = sdpa::Scale::d_model;  // d_model = d_k = 2
  CHECK_THROWS_AS(sdpa::causal_self_attention(X, I, I, I, o), std::invalid_argument);
}
