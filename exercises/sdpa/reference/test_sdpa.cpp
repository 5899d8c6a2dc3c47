// sdpa's reference on the lesson's own numbers (../../../shared/lesson/sdpa-lesson.ru.txt: three tokens,
// Q, K, V of 3×2, the causal weights and outputs it prints rounded to three decimals), and against the
// engine's independent nested-loop implementation on seeded inputs. The engine's own suite is
// tests/cpp/test_reference.cpp. Run: tools/build && (cd build && ctest -R sdpa).
#include <doctest/doctest.h>

#include <cmath>

#include "attnlab/prng.hpp"
#include "attnlab/reference.hpp"

namespace ref = attnlab::ref;
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
