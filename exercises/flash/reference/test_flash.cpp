// flash's reference: softmax_merge on hand values and on empty blocks, flash_attention on the first
// lesson's worked example and against the engine's attention (softmax of the whole score matrix, an
// independent computation) for several T, block sizes, causal and not, batched, with scores near
// ±1000; and each mistake option changes the result the way its name says.
// Run: tools/build && (cd build && ctest -R flash).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include <xtensor/xview.hpp>

#include "attnlab/prng.hpp"
#include "attnlab/reference.hpp"
#include "flash/reference/flash.hpp"

namespace flash = attnlab::flash;
using Arr = xt::xarray<double>;

namespace {

const double INF = std::numeric_limits<double>::infinity();

Arr normals(attnlab::Rng& rng, std::vector<std::size_t> shape, double scale = 1) {
  Arr a = Arr::from_shape(shape);
  for (auto& v : a) v = rng.normal() * scale;
  return a;
}

/** softmax(Q Kᵀ/√d [+ causal]) V over the whole score matrix (the engine's reference). */
Arr full(const Arr& Q, const Arr& K, const Arr& V, bool causal) {
  attnlab::ref::AttentionOptions o;
  if (causal) o.mask = attnlab::ref::causal_mask(Q.shape()[Q.dimension() - 2]);
  return attnlab::ref::attention(Q, K, V, o).out;
}

void check_close(const Arr& a, const Arr& b, double tol = 1e-12) {
  REQUIRE(a.shape() == b.shape());
  for (std::size_t i = 0; i < a.size(); ++i) CHECK(a.flat(i) == doctest::Approx(b.flat(i)).epsilon(tol).scale(1));
}

}  // namespace

TEST_CASE("softmax_merge: hand values") {
  // a = {1, 2}: m 2, l e^-1 + 1; b = {0}: m 0, l 1; the union {1, 2, 0}: m 2, l e^-1 + 1 + e^-2.
  const Arr ma = {2.0}, la = {std::exp(-1.0) + 1}, mb = {0.0}, lb = {1.0};
  const auto r = flash::softmax_merge(ma, la, mb, lb);
  CHECK(r.m(0) == 2.0);
  CHECK(r.l(0) == doctest::Approx(std::exp(-1.0) + 1 + std::exp(-2.0)));
  // The other order gives the same, and an empty block changes nothing.
  const auto s = flash::softmax_merge(mb, lb, ma, la);
  CHECK(s.l(0) == doctest::Approx(r.l(0)));
  const auto e = flash::softmax_merge(ma, la, Arr{-INF}, Arr{0.0});
  CHECK(e.m(0) == 2.0);
  CHECK(e.l(0) == doctest::Approx(la(0)));
}

TEST_CASE("softmax_merge: two empty blocks give (-inf, 0), the unguarded formula NaN") {
  const Arr m = {-INF, -INF}, l = {0.0, 0.0};
  const auto r = flash::softmax_merge(m, l, m, l);
  CHECK(r.m(0) == -INF);
  CHECK(r.l(0) == 0.0);
  flash::MergeOptions o;
  o.guard = false;
  CHECK(std::isnan(flash::softmax_merge(m, l, m, l, o).l(0)));
  CHECK_THROWS_AS(flash::softmax_merge(Arr{1.0, 2.0}, Arr{1.0}, Arr{1.0, 2.0}, Arr{1.0, 2.0}), std::invalid_argument);
}

TEST_CASE("flash_attention: the first lesson's worked example at block sizes 1, 2, 3 and 5") {
  const Arr Q = {{2, 0}, {0, 2}, {1, 1}}, K = {{1, 0}, {0, 1}, {1, 1}}, V = {{10, 0}, {0, 10}, {5, 5}};
  // Row 0 sees key 0 only: out = V[0].
  for (std::size_t bs : {1, 2, 3, 5}) {
    const Arr out = flash::flash_attention(Q, K, V, bs);
    CHECK(out(0, 0) == doctest::Approx(10));
    CHECK(out(0, 1) == doctest::Approx(0));
    check_close(out, full(Q, K, V, true));
  }
}

TEST_CASE("flash_attention agrees with the full softmax: T, block sizes, causal and not, batched, ±1000") {
  attnlab::Rng rng(11);
  struct Case {
    std::vector<std::size_t> lead;
    std::size_t Tq, Tk, d, dv, bs;
    bool causal;
    double scale;
  };
  const Case cases[] = {{{}, 7, 7, 4, 3, 3, true, 1},     {{}, 7, 7, 4, 3, 7, true, 1},
                        {{}, 5, 9, 3, 2, 4, false, 1},    {{2}, 6, 6, 4, 5, 1, true, 1},
                        {{2, 3}, 8, 8, 2, 2, 3, true, 1}, {{2}, 4, 11, 3, 3, 5, false, 1},
                        {{}, 9, 9, 4, 4, 2, true, 600},   {{3}, 5, 5, 2, 2, 2, false, 600}};
  for (const auto& c : cases) {
    auto sh = [&](std::size_t T, std::size_t w) {
      auto s = c.lead;
      s.push_back(T);
      s.push_back(w);
      return s;
    };
    const Arr Q = normals(rng, sh(c.Tq, c.d), c.scale), K = normals(rng, sh(c.Tk, c.d), c.scale),
              V = normals(rng, sh(c.Tk, c.dv));
    const Arr out = flash::flash_attention(Q, K, V, c.bs, c.causal);
    for (double x : out) CHECK(std::isfinite(x));
    check_close(out, full(Q, K, V, c.causal), 1e-9);
  }
  CHECK_THROWS_AS(
      flash::flash_attention(Arr::from_shape({3, 2}), Arr::from_shape({4, 2}), Arr::from_shape({4, 2}), 2, true),
      std::invalid_argument);
  CHECK_THROWS_AS(flash::flash_attention(Arr::from_shape({3, 2}), Arr::from_shape({3, 2}), Arr::from_shape({3, 2}), 0),
                  std::invalid_argument);
  CHECK_THROWS_AS(
      flash::flash_attention(Arr::from_shape({2, 3, 2}), Arr::from_shape({1, 3, 2}), Arr::from_shape({2, 3, 2}), 2),
      std::invalid_argument);
}

TEST_CASE("flash_attention: each mistake option computes its mistake") {
  attnlab::Rng rng(5);
  const Arr Q = normals(rng, {7, 4}, 2), K = normals(rng, {7, 4}, 2), V = normals(rng, {7, 3});
  const Arr right = flash::flash_attention(Q, K, V, 3);
  auto with = [&](auto set) {
    flash::FlashOptions o;
    set(o);
    return flash::flash_attention(Q, K, V, 3, true, o);
  };
  // Scaling: 1/d is attention at scale 1/d, 1 the unscaled attention.
  attnlab::ref::AttentionOptions a;
  a.mask = attnlab::ref::causal_mask(7);
  a.scale = 0.25;
  check_close(with([](auto& o) { o.scaling = "twice"; }), attnlab::ref::attention(Q, K, V, a).out, 1e-9);
  a.scale = 1.0;
  check_close(with([](auto& o) { o.scaling = "none"; }), attnlab::ref::attention(Q, K, V, a).out, 1e-9);
  // The last partial block (key 6) dropped: row 6 attends to keys 0…5 only, rows 0…5 are unchanged.
  const Arr dropped = with([](auto& o) { o.drop_last = true; });
  const Arr kh = xt::view(K, xt::range(0, 6), xt::all()), vh = xt::view(V, xt::range(0, 6), xt::all());
  for (std::size_t i = 0; i < 6; ++i)
    for (std::size_t c = 0; c < 3; ++c) CHECK(dropped(i, c) == doctest::Approx(right(i, c)));
  const Arr q6 = xt::view(Q, xt::range(6, 7), xt::all());
  const Arr row6 = attnlab::ref::attention(q6, kh, vh).out;
  for (std::size_t c = 0; c < 3; ++c) CHECK(dropped(6, c) == doctest::Approx(row6(0, c)));
  // The local mask: row 0 sees key 3 (index 0 of the second block), so it differs; the others differ too.
  const Arr local = with([](auto& o) { o.local_mask = true; });
  CHECK(local(0, 0) != doctest::Approx(right(0, 0)));
  // Unrescaled accumulator or sum, and the unguarded masked blocks: different results, NaN for the last.
  CHECK(with([](auto& o) { o.rescale_acc = false; }) != right);
  CHECK(with([](auto& o) { o.rescale_l = false; }) != right);
  const Arr nan = with([](auto& o) { o.guard = false; });
  CHECK(std::isnan(nan(0, 0)));                      // row 0: keys 3…6 are all masked
  CHECK(nan(6, 0) == doctest::Approx(right(6, 0)));  // row 6 (the last block's) sees every block
}
