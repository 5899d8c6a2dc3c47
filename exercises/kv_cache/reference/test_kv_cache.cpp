// kv_cache's reference: the lesson's byte counts (Llama-3-8B), repeat_kv on a hand-checkable input,
// the properties the exercise grades (prefill then token-by-token decoding, and a chunked prefill,
// give the full causal pass; the cache grows by T and holds rotated keys), the options that compute
// the classic mistakes, and a cross-check of attend_with_cache against an independent version below in
// plain loops (projections, rotations, the grouped heads, the bottom-right mask, softmax and W_o).
// Run: tools/build && (cd build && ctest -R kv_cache).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "attnlab/prng.hpp"

#include <xtensor/xview.hpp>

#include "kv_cache/reference/kv_cache.hpp"

namespace kv = attnlab::kv_cache;
namespace rope = attnlab::rope;
using Arr = xt::xarray<double>;

namespace {

Arr normals(attnlab::Rng& rng, std::vector<std::size_t> shape, double scale = 1) {
  Arr a = Arr::from_shape(shape);
  for (auto& v : a) v = scale * rng.normal();
  return a;
}

Arr shaped(std::vector<double> data, std::vector<std::size_t> shape) {
  Arr a = Arr::from_shape(shape);
  std::copy(data.begin(), data.end(), a.begin());
  return a;
}

// Positions from … to − 1 of axis `axis` (1 for x (B, T, d), 2 for a cache (B, H, T, d)).
Arr positions(const Arr& a, std::size_t axis, std::size_t from, std::size_t to) {
  if (axis == 1) return xt::view(a, xt::all(), xt::range(from, to), xt::all());
  return xt::view(a, xt::all(), xt::all(), xt::range(from, to), xt::all());
}

struct Weights {
  Arr q, k, v, o;
};
Weights weights(attnlab::Rng& rng, std::size_t d_model, std::size_t kv_cols) {
  const double s = 1 / std::sqrt(double(d_model));
  return {normals(rng, {d_model, d_model}, s), normals(rng, {d_model, kv_cols}, s), normals(rng, {d_model, kv_cols}, s),
          normals(rng, {d_model, d_model}, s)};
}

// The independent version, in plain loops over indices. Mistakes it can compute: q and the new keys
// rotated from position 0 (q_offset false), KV head h % H_kv instead of h / n_rep (tile), the triangle
// aligned top-left (top_left), W_o left out (use_wo false).
struct Loop {
  bool q_offset = true, tile = false, top_left = false, use_wo = true;
};
struct LoopResult {
  Arr out, k, v;
};
LoopResult attend_loops(const Arr& x, const Weights& w, std::size_t H, const Arr* past_k, const Arr* past_v,
                        const Arr* cos, const Arr* sin, const Loop& m = {}) {
  const std::size_t B = x.shape()[0], T = x.shape()[1], D = x.shape()[2], dh = D / H, Hkv = w.k.shape()[1] / dh;
  const std::size_t Tp = past_k ? past_k->shape()[2] : 0, Tk = Tp + T, rep = H / Hkv;
  Arr q = xt::zeros<double>({B, H, T, dh});
  Arr k = xt::zeros<double>({B, Hkv, Tk, dh}), v = xt::zeros<double>({B, Hkv, Tk, dh});
  for (std::size_t b = 0; b < B; ++b) {
    for (std::size_t g = 0; g < Hkv; ++g)
      for (std::size_t j = 0; j < Tp; ++j)
        for (std::size_t c = 0; c < dh; ++c)
          k(b, g, j, c) = (*past_k)(b, g, j, c), v(b, g, j, c) = (*past_v)(b, g, j, c);
    for (std::size_t t = 0; t < T; ++t)
      for (std::size_t c = 0; c < D; ++c) {
        double sq = 0, sk = 0, sv = 0;
        for (std::size_t p = 0; p < D; ++p) {
          sq += x(b, t, p) * w.q(p, c);
          if (c < Hkv * dh) sk += x(b, t, p) * w.k(p, c), sv += x(b, t, p) * w.v(p, c);
        }
        q(b, c / dh, t, c % dh) = sq;
        if (c < Hkv * dh) k(b, c / dh, Tp + t, c % dh) = sk, v(b, c / dh, Tp + t, c % dh) = sv;
      }
  }
  if (cos) {  // rotate pair i of q and of the new keys by the angle of their position
    auto turn = [&](Arr& a, std::size_t heads, std::size_t row0) {
      for (std::size_t b = 0; b < B; ++b)
        for (std::size_t h = 0; h < heads; ++h)
          for (std::size_t t = 0; t < T; ++t) {
            const std::size_t pos = (m.q_offset ? Tp : 0) + t;
            for (std::size_t i = 0; i < dh / 2; ++i) {
              const double c = (*cos)(pos, i), s = (*sin)(pos, i);
              const double a0 = a(b, h, row0 + t, 2 * i), a1 = a(b, h, row0 + t, 2 * i + 1);
              a(b, h, row0 + t, 2 * i) = a0 * c - a1 * s;
              a(b, h, row0 + t, 2 * i + 1) = a0 * s + a1 * c;
            }
          }
    };
    turn(q, H, 0);
    turn(k, Hkv, Tp);
  }
  Arr heads = xt::zeros<double>({B, T, D});
  std::vector<double> row(Tk);
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t h = 0; h < H; ++h) {
      const std::size_t g = m.tile ? h % Hkv : h / rep;
      for (std::size_t i = 0; i < T; ++i) {
        double mx = -std::numeric_limits<double>::infinity(), sum = 0;
        for (std::size_t j = 0; j < Tk; ++j) {
          double dot = 0;
          for (std::size_t c = 0; c < dh; ++c) dot += q(b, h, i, c) * k(b, g, j, c);
          const bool seen = j <= i + (m.top_left ? 0 : Tp);
          row[j] = seen ? dot / std::sqrt(double(dh)) : -std::numeric_limits<double>::infinity();
          mx = std::max(mx, row[j]);
        }
        for (std::size_t j = 0; j < Tk; ++j) sum += (row[j] = std::exp(row[j] - mx));
        for (std::size_t c = 0; c < dh; ++c) {
          double acc = 0;
          for (std::size_t j = 0; j < Tk; ++j) acc += row[j] / sum * v(b, g, j, c);
          heads(b, i, h * dh + c) = acc;
        }
      }
    }
  if (!m.use_wo) return {heads, k, v};
  Arr out = xt::zeros<double>({B, T, D});
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t t = 0; t < T; ++t)
      for (std::size_t c = 0; c < D; ++c)
        for (std::size_t p = 0; p < D; ++p) out(b, t, c) += heads(b, t, p) * w.o(p, c);
  return {out, k, v};
}

bool close(const Arr& a, const Arr& b, double rtol = 1e-12, double atol = 1e-13) {
  return a.shape() == b.shape() && xt::allclose(a, b, rtol, atol);
}

// Runs attend_with_cache over the chunks `sizes` of x, each call given the previous call's cache.
std::vector<kv::AttendResult> chain(const Arr& x, const Weights& w, std::size_t H,
                                    const std::vector<std::size_t>& sizes, const std::optional<rope::RopeCache>& rp,
                                    const kv::AttendOptions& o = {}) {
  std::vector<kv::AttendResult> steps;
  std::optional<kv::Cache> cache;
  std::size_t at = 0;
  for (const std::size_t n : sizes) {
    steps.push_back(kv::attend_with_cache(positions(x, 1, at, at + n), w.q, w.k, w.v, w.o, H, cache, rp, o));
    cache = steps.back().cache;
    at += n;
  }
  return steps;
}

// Do the chained calls' outputs, put together, and the last cache equal the full pass?
bool chain_is_full_pass(const std::vector<kv::AttendResult>& steps, const kv::AttendResult& full) {
  std::size_t at = 0;
  bool ok = true;
  for (const auto& s : steps) {
    const std::size_t n = s.out.shape()[1];
    ok = ok && close(s.out, positions(full.out, 1, at, at + n));
    at += n;
    ok = ok && close(s.cache.k, positions(full.cache.k, 2, 0, at)) &&
         close(s.cache.v, positions(full.cache.v, 2, 0, at));
  }
  return ok;
}

}  // namespace

TEST_CASE("the lesson's byte counts: Llama-3-8B, 32 layers, 8 KV heads, d_head 128, bf16") {
  CHECK(kv::kv_cache_bytes(32, 8, 128, 1, 1) == 128.0 * 1024);      // 128 KiB per token
  CHECK(kv::kv_cache_bytes(32, 8, 128, 8192, 1) == 1073741824.0);   // 1 GiB for 8k tokens
  CHECK(kv::kv_cache_bytes(32, 32, 128, 8192, 1) == 4294967296.0);  // 4 GiB with 32 KV heads (no GQA)
  CHECK(kv::kv_cache_bytes(32, 8, 128, 8192, 1, 4) == 2147483648.0);
  CHECK(kv::kv_cache_bytes(6, 3, 64, 100, 5, 4) == 2.0 * 6 * 3 * 64 * 100 * 5 * 4);
  kv::BytesOptions o;
  o.kv = false;
  CHECK(kv::kv_cache_bytes(32, 8, 128, 1, 1, 2, o) == 64.0 * 1024);
  o = {}, o.layers = false;
  CHECK(kv::kv_cache_bytes(32, 8, 128, 1, 1, 2, o) == 4.0 * 1024);
  o = {}, o.batch = false;
  CHECK(kv::kv_cache_bytes(6, 3, 64, 100, 5, 4, o) == 2.0 * 6 * 3 * 64 * 100 * 4);
  o = {}, o.dtype = false;
  CHECK(kv::kv_cache_bytes(6, 3, 64, 100, 5, 4, o) == 2.0 * 6 * 3 * 64 * 100 * 5);
  CHECK_THROWS_AS(kv::kv_cache_bytes(1, 1, 1, 1, 1, -2), std::invalid_argument);
}

TEST_CASE("repeat_kv repeats each head in place; tile repeats the whole stack") {
  // x (1, 2, 2, 1): head 0 holds 1, 2; head 1 holds 3, 4.
  const Arr x = shaped({1, 2, 3, 4}, {1, 2, 2, 1});
  CHECK(kv::repeat_kv(x, 2) == shaped({1, 2, 1, 2, 3, 4, 3, 4}, {1, 4, 2, 1}));
  kv::RepeatOptions tile;
  tile.tile = true;
  CHECK(kv::repeat_kv(x, 2, tile) == shaped({1, 2, 3, 4, 1, 2, 3, 4}, {1, 4, 2, 1}));
  CHECK(kv::repeat_kv(x, 1) == x);
  // A batch of two, three heads, n_rep 2: head h of the result is head h / 2 of x, in every sample.
  attnlab::Rng rng(attnlab::derive_seed(2017, "kv_cache/repeat"));
  const Arr y = normals(rng, {2, 3, 4, 5});
  const Arr r = kv::repeat_kv(y, 2);
  REQUIRE(r.shape() == std::vector<std::size_t>{2, 6, 4, 5});
  for (std::size_t b = 0; b < 2; ++b)
    for (std::size_t h = 0; h < 6; ++h) CHECK(Arr(xt::view(r, b, h)) == Arr(xt::view(y, b, h / 2)));
  CHECK_THROWS_AS(kv::repeat_kv(y, 0), std::invalid_argument);
  CHECK_THROWS_AS(kv::repeat_kv(Arr{{1, 2}}, 2), std::invalid_argument);
}

TEST_CASE("prefill then decoding token by token, and a chunked prefill, give the full causal pass") {
  attnlab::Rng rng(attnlab::derive_seed(2017, "kv_cache/chain"));
  const std::size_t B = 2, T = 7, D = 8, H = 4;
  for (const std::size_t Hkv : {std::size_t(4), std::size_t(2), std::size_t(1)}) {
    const Arr x = normals(rng, {B, T, D});
    const Weights w = weights(rng, D, Hkv * (D / H));
    for (const bool with_rope : {false, true}) {
      CAPTURE(Hkv);
      CAPTURE(with_rope);
      std::optional<rope::RopeCache> rp;
      if (with_rope) rp = rope::rope_cache(12, D / H);
      const auto full = kv::attend_with_cache(x, w.q, w.k, w.v, w.o, H, std::nullopt, rp);
      REQUIRE(full.out.shape() == std::vector<std::size_t>{B, T, D});
      REQUIRE(full.cache.k.shape() == std::vector<std::size_t>{B, Hkv, T, D / H});
      CHECK(chain_is_full_pass(chain(x, w, H, {3, 1, 1, 1, 1}, rp), full));
      CHECK(chain_is_full_pass(chain(x, w, H, {3, 4}, rp), full));
      CHECK(chain_is_full_pass(chain(x, w, H, {1, 1, 1, 1, 1, 1, 1}, rp), full));
      CHECK(chain_is_full_pass(chain(x, w, H, {2, 3, 2}, rp), full));
      // Each step's cache has grown by its T.
      const auto steps = chain(x, w, H, {3, 1, 2, 1}, rp);
      std::size_t at = 0;
      for (const auto& s : steps) {
        at += s.out.shape()[1];
        CHECK(s.cache.k.shape() == std::vector<std::size_t>{B, Hkv, at, D / H});
        CHECK(s.cache.v.shape() == s.cache.k.shape());
      }
    }
  }
  // Without GQA and without RoPE the full pass is mha's causal multi-head attention.
  const Arr x = normals(rng, {B, T, D});
  const Weights w = weights(rng, D, D);
  CHECK(close(kv::attend_with_cache(x, w.q, w.k, w.v, w.o, H).out,
              attnlab::mha::multi_head_attention(x, w.q, w.k, w.v, w.o, H).out));
}

TEST_CASE("attend_with_cache agrees with the plain loops, given a cache, with and without rope and GQA") {
  attnlab::Rng rng(attnlab::derive_seed(2017, "kv_cache/loops"));
  const std::size_t B = 2, D = 12, H = 6;
  for (const std::size_t Hkv : {std::size_t(6), std::size_t(3), std::size_t(2), std::size_t(1)})
    for (const std::size_t Tp : {std::size_t(0), std::size_t(4)})
      for (const std::size_t T : {std::size_t(1), std::size_t(3)}) {
        CAPTURE(Hkv);
        CAPTURE(Tp);
        CAPTURE(T);
        const Arr x = normals(rng, {B, T, D});
        const Weights w = weights(rng, D, Hkv * 2);
        const Arr pk = normals(rng, {B, Hkv, Tp, 2}), pv = normals(rng, {B, Hkv, Tp, 2});
        const std::optional<kv::Cache> cache = Tp ? std::optional<kv::Cache>(kv::Cache{pk, pv}) : std::nullopt;
        const auto rp = rope::rope_cache(10, 2, 50);
        for (const bool with_rope : {false, true}) {
          CAPTURE(with_rope);
          const Arr* c = with_rope ? &rp.cos : nullptr;
          const Arr* s = with_rope ? &rp.sin : nullptr;
          const auto r =
              kv::attend_with_cache(x, w.q, w.k, w.v, w.o, H, cache, with_rope ? std::optional(rp) : std::nullopt);
          const auto l = attend_loops(x, w, H, Tp ? &pk : nullptr, Tp ? &pv : nullptr, c, s);
          CHECK(close(r.out, l.out));
          CHECK(close(r.cache.k, l.k));
          CHECK(close(r.cache.v, l.v));

          kv::AttendOptions o;
          Loop m;
          o.tile = m.tile = true;
          CHECK(close(
              kv::attend_with_cache(x, w.q, w.k, w.v, w.o, H, cache, with_rope ? std::optional(rp) : std::nullopt, o)
                  .out,
              attend_loops(x, w, H, Tp ? &pk : nullptr, Tp ? &pv : nullptr, c, s, m).out));
          o = {}, m = {};
          o.mask = "top_left", m.top_left = true;
          CHECK(close(
              kv::attend_with_cache(x, w.q, w.k, w.v, w.o, H, cache, with_rope ? std::optional(rp) : std::nullopt, o)
                  .out,
              attend_loops(x, w, H, Tp ? &pk : nullptr, Tp ? &pv : nullptr, c, s, m).out));
          o = {}, m = {};
          o.use_wo = m.use_wo = false;
          CHECK(close(
              kv::attend_with_cache(x, w.q, w.k, w.v, w.o, H, cache, with_rope ? std::optional(rp) : std::nullopt, o)
                  .out,
              attend_loops(x, w, H, Tp ? &pk : nullptr, Tp ? &pv : nullptr, c, s, m).out));
          o = {}, m = {};
          o.rope_offset = m.q_offset = false;
          const auto ro =
              kv::attend_with_cache(x, w.q, w.k, w.v, w.o, H, cache, with_rope ? std::optional(rp) : std::nullopt, o);
          const auto lo = attend_loops(x, w, H, Tp ? &pk : nullptr, Tp ? &pv : nullptr, c, s, m);
          CHECK(close(ro.out, lo.out));
          CHECK(close(ro.cache.k, lo.k));
        }
      }
}

TEST_CASE("the mistake options: what each computes, and that it changes the result where the tests use it") {
  attnlab::Rng rng(attnlab::derive_seed(2017, "kv_cache/mistakes"));
  const std::size_t B = 2, T = 7, D = 8, H = 4, Hkv = 2, dh = D / H;
  const Arr x = normals(rng, {B, T, D});
  const Weights w = weights(rng, D, Hkv * dh);
  const auto rp = rope::rope_cache(10, dh);
  const auto full = kv::attend_with_cache(x, w.q, w.k, w.v, w.o, H, std::nullopt, rp);
  auto with = [&](auto set) {
    kv::AttendOptions o;
    set(o);
    return o;
  };
  // The unrotated keys of the whole sequence: the full pass without rope caches them.
  const Arr unrotated = kv::attend_with_cache(x, w.q, w.k, w.v, w.o, H).cache.k;

  SUBCASE(
      "mask: top-left differs on a decoding step and a chunk; PyTorch's is_causal=(T > 1) and prefill_only only on a "
      "chunk") {
    const auto top = with([](auto& o) { o.mask = "top_left"; });
    CHECK(!chain_is_full_pass(chain(x, w, H, {3, 1, 1, 1, 1}, rp, top), full));
    CHECK(!chain_is_full_pass(chain(x, w, H, {3, 4}, rp, top), full));
    for (const char* m : {"top_left_multi", "prefill_only"}) {
      CAPTURE(m);
      const auto o = with([&](auto& a) { a.mask = m; });
      CHECK(chain_is_full_pass(chain(x, w, H, {3, 1, 1, 1, 1}, rp, o), full));
      const auto steps = chain(x, w, H, {3, 4}, rp, o);
      CHECK(!close(steps[1].out, positions(full.out, 1, 3, 7)));
    }
    // On a chunk, top_left and top_left_multi are the same mistake.
    CHECK(close(chain(x, w, H, {3, 4}, rp, top)[1].out,
                chain(x, w, H, {3, 4}, rp, with([](auto& o) { o.mask = "top_left_multi"; }))[1].out));
    const auto none = chain(x, w, H, {5}, rp, with([](auto& o) { o.mask = "none"; }));
    CHECK(!close(none[0].out, positions(full.out, 1, 0, 5)));
  }
  SUBCASE("keys: the cache before RoPE, and RoPE after the concatenation") {
    // "unrotated": right outputs at the prefill, the cache holds the unrotated keys.
    const auto un = chain(x, w, H, {3, 1, 1}, rp, with([](auto& o) { o.keys = "unrotated"; }));
    CHECK(close(un[0].out, positions(full.out, 1, 0, 3)));
    CHECK(close(un[0].cache.k, positions(unrotated, 2, 0, 3)));
    CHECK(!close(un[1].out, positions(full.out, 1, 3, 4)));
    CHECK(close(un[2].cache.k, positions(unrotated, 2, 0, 5)));
    // "unrotated_all": every output right, every cache unrotated.
    const auto all = chain(x, w, H, {3, 1, 1}, rp, with([](auto& o) { o.keys = "unrotated_all"; }));
    std::size_t at = 0;
    for (const auto& s : all) {
      const std::size_t n = s.out.shape()[1];
      CHECK(close(s.out, positions(full.out, 1, at, at + n)));
      at += n;
      CHECK(close(s.cache.k, positions(unrotated, 2, 0, at)));
      CHECK(close(s.cache.v, positions(full.cache.v, 2, 0, at)));
    }
    // "rotate_concat": the prefill is right; the next step rotates the cached keys a second time.
    const auto twice = chain(x, w, H, {3, 1}, rp, with([](auto& o) { o.keys = "rotate_concat"; }));
    CHECK(close(twice[0].out, positions(full.out, 1, 0, 3)));
    CHECK(close(twice[0].cache.k, positions(full.cache.k, 2, 0, 3)));
    CHECK(close(Arr(positions(twice[1].cache.k, 2, 0, 3)),
                rope::apply_rope(positions(full.cache.k, 2, 0, 3), rp.cos, rp.sin)));
    CHECK(!close(twice[1].out, positions(full.out, 1, 3, 4)));
  }
  SUBCASE("cache_update new_only: the attention is right, the cache holds only the new positions") {
    const auto s = chain(x, w, H, {3, 2}, rp, with([](auto& o) { o.cache_update = "new_only"; }));
    CHECK(close(s[1].out, positions(full.out, 1, 3, 5)));
    CHECK(close(s[1].cache.k, positions(full.cache.k, 2, 3, 5)));
    CHECK(close(s[1].cache.v, positions(full.cache.v, 2, 3, 5)));
  }
  SUBCASE("repeat_before_cache: the outputs are right, the cache holds n_heads heads") {
    const auto s = chain(x, w, H, {3, 1, 2}, rp, with([](auto& o) { o.repeat_before_cache = true; }));
    std::size_t at = 0;
    for (const auto& step : s) {
      const std::size_t n = step.out.shape()[1];
      CHECK(close(step.out, positions(full.out, 1, at, at + n)));
      at += n;
      CHECK(close(step.cache.k, kv::repeat_kv(positions(full.cache.k, 2, 0, at), H / Hkv)));
    }
    // Given a cache of n_kv_heads heads it cannot run.
    CHECK_THROWS_AS(kv::attend_with_cache(positions(x, 1, 3, 4), w.q, w.k, w.v, w.o, H,
                                          kv::Cache{positions(full.cache.k, 2, 0, 3), positions(full.cache.v, 2, 0, 3)},
                                          rp, with([](auto& o) { o.repeat_before_cache = true; })),
                    std::invalid_argument);
  }
  SUBCASE("rope_offset false: the prefill is right, every later step is not") {
    const auto s = chain(x, w, H, {3, 1}, rp, with([](auto& o) { o.rope_offset = false; }));
    CHECK(close(s[0].out, positions(full.out, 1, 0, 3)));
    CHECK(!close(s[1].out, positions(full.out, 1, 3, 4)));
  }
}

TEST_CASE("shape problems are errors that name the shapes") {
  attnlab::Rng rng(attnlab::derive_seed(2017, "kv_cache/errors"));
  const Arr x = normals(rng, {2, 3, 8});
  const Weights w = weights(rng, 8, 4);  // n_heads 4: d_head 2, n_kv_heads 2
  CHECK_NOTHROW(kv::attend_with_cache(x, w.q, w.k, w.v, w.o, 4));
  CHECK_THROWS_AS(kv::attend_with_cache(x, w.q, w.k, w.v, w.o, 3), std::invalid_argument);  // 8 % 3
  CHECK_NOTHROW(kv::attend_with_cache(x, w.q, w.k, w.v, w.o, 8));  // d_head 1: 4 KV heads of 8 query heads
  const Weights odd = weights(rng, 8, 6);                          // 6 columns: 3 KV heads of d_head 2, and 4 % 3 != 0
  CHECK_THROWS_AS(kv::attend_with_cache(x, odd.q, odd.k, odd.v, odd.o, 4), std::invalid_argument);
  const Arr bad = normals(rng, {2, 4, 1, 2});  // 4 heads where the cache must have 2
  CHECK_THROWS_AS(kv::attend_with_cache(x, w.q, w.k, w.v, w.o, 4, kv::Cache{bad, bad}), std::invalid_argument);
  const auto rp = rope::rope_cache(4, 2);  // 4 positions: a cache of 2 and 3 new tokens need 5
  const Arr past = normals(rng, {2, 2, 2, 2});
  CHECK_THROWS_AS(kv::attend_with_cache(x, w.q, w.k, w.v, w.o, 4, kv::Cache{past, past}, rp), std::invalid_argument);
  CHECK_THROWS_AS(kv::attend_with_cache(Arr(xt::view(x, 0)), w.q, w.k, w.v, w.o, 4), std::invalid_argument);
  try {
    kv::attend_with_cache(x, w.q, w.k, w.v, w.o, 4, kv::Cache{bad, bad});
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("(2, 4, 1, 2)") != std::string::npos);
  }
}
