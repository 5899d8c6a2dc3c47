// attnlab::kv_cache — the reference of the KV-cache exercise: decoding with a cache of keys and values,
// and grouped-query attention (double precision, NumPy shapes). Built on the engine
// (attnlab/reference.hpp: matmul, attention with a mask and a scale) and on the earlier packs'
// references: mha (split_heads, merge_heads) and rope (apply_rope).
//
//   double kv_cache_bytes(n_layers, n_kv_heads, d_head, seq_len, batch, dtype_bytes = 2)
//       = 2 · n_layers · n_kv_heads · d_head · seq_len · batch · dtype_bytes (2: K and V)
//   Arr repeat_kv(x, n_rep)
//       x (…, H_kv, T, d) → (…, H_kv·n_rep, T, d); head h of the result is head h / n_rep of x
//       (each KV head repeated n_rep times in place, as numpy.repeat(x, n_rep, axis=-3))
//   AttendResult attend_with_cache(x, W_q, W_k, W_v, W_o, n_heads, cache = nullopt, rope = nullopt)
//       x (B, T, d_model); W_q, W_o (d_model, d_model); W_k, W_v (d_model, n_kv_heads·d_head) with
//       d_head = d_model / n_heads (so n_kv_heads = W_k's columns / d_head, and n_heads must be a
//       multiple of it); cache {k, v}, each (B, n_kv_heads, T_past, d_head), or none; rope {cos, sin}
//       (rope_cache's tables), applied to q and to the new keys at positions T_past … T_past + T − 1.
//       Query i of the block sees keys 0 … T_past + i (the causal triangle aligned to the bottom-right
//       corner of the (T, T_past + T) scores). Query head h attends with KV head h / n_rep.
//       → {out (B, T, d_model), cache {k, v} grown by T: (B, n_kv_heads, T_past + T, d_head)}, k holding
//       the keys after RoPE, v the values as projected, n_kv_heads heads (not repeated).
//
// Each function takes an options struct whose defaults are the definitions; the other values compute
// the classic mistakes a student makes, so that the grader can name the one a student's output
// matches (spec.json "mistakes", reference/bind.cpp):
//   BytesOptions::kv, layers, batch, dtype   false: that factor left out of the product
//   RepeatOptions::tile      true: the whole stack of KV heads tiled n_rep times (numpy.tile, or a
//                            concatenation of n_rep copies): head h of the result is head h % H_kv
//   AttendOptions::rope_offset  false: q and the new keys rotated at positions 0 … T − 1 on every call
//   AttendOptions::mask      "bottom_right" (right), "top_left" (query i sees keys 0 … i), "top_left_multi"
//                            (top-left, and no mask at all when T = 1: PyTorch's is_causal=(T > 1)),
//                            "prefill_only" (the causal mask only when there is no cache), "none"
//   AttendOptions::tile      the KV heads tiled instead of repeated (RepeatOptions::tile)
//   AttendOptions::keys      "rotated" (right: the cache holds rotated keys; only the new keys are
//                            rotated, at their own positions);
//                            "unrotated" (the cache holds the keys before RoPE; the attention uses the
//                            cached keys as they are and the new ones rotated);
//                            "unrotated_all" (the cache holds the keys before RoPE; the attention
//                            rotates the whole concatenation at positions 0 … T_past + T − 1: right
//                            outputs, wrong cache);
//                            "rotate_concat" (the cache's keys concatenated with the new unrotated ones
//                            and the whole rotated at positions 0 … T_past + T − 1, and cached so: the
//                            cached keys are rotated again on every call)
//   AttendOptions::cache_update  "append" (right) or "new_only" (the returned cache holds only this
//                            call's T positions: replaced, not appended; the attention itself used
//                            the whole cache)
//   AttendOptions::repeat_before_cache  true: the new keys and values repeated to n_heads heads before
//                            they are cached (the cache then has, and must be given, n_heads heads)
//   AttendOptions::use_wo    false: out is the merged heads, W_o never applied
// Every problem with the arguments throws std::invalid_argument naming the shapes.
// Tests: reference/test_kv_cache.cpp (ctest, with a plain-loop version), reference/oracle.py (NumPy).
#pragma once

#include <cmath>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <xtensor/xarray.hpp>
#include <xtensor/xbuilder.hpp>
#include <xtensor/xview.hpp>

#include "attnlab/reference.hpp"
#include "mha/reference/mha.hpp"
#include "rope/reference/rope.hpp"

namespace attnlab::kv_cache {

using Arr = xt::xarray<double>;
using ref::shape_str;

struct BytesOptions {
  bool kv = true, layers = true, batch = true, dtype = true;
};

struct RepeatOptions {
  bool tile = false;
};

struct Cache {
  Arr k, v;
};

struct AttendOptions {
  bool rope_offset = true;
  std::string mask = "bottom_right";
  bool tile = false;
  std::string keys = "rotated";
  std::string cache_update = "append";
  bool repeat_before_cache = false;
  bool use_wo = true;
};

struct AttendResult {
  Arr out;
  Cache cache;
};

namespace detail {

[[noreturn]] inline void fail(const std::string& msg) { throw std::invalid_argument(msg); }

inline void one_of(const std::string& what, const std::string& value, std::initializer_list<const char*> allowed) {
  for (const char* a : allowed)
    if (value == a) return;
  fail("attend_with_cache: unknown " + what + " option \"" + value + "\"");
}

// Concatenation along axis 2 of two (B, H, T, d) arrays (an empty past gives the other as it is).
inline Arr cat_time(const Arr& past, const Arr& now) {
  if (past.shape()[2] == 0) return now;
  return xt::concatenate(xt::xtuple(past, now), 2);
}

// Positions from … of axis 2.
inline Arr last_positions(const Arr& a, std::size_t from) {
  return xt::view(a, xt::all(), xt::all(), xt::range(from, a.shape()[2]), xt::all());
}

}  // namespace detail

inline double kv_cache_bytes(std::size_t n_layers, std::size_t n_kv_heads, std::size_t d_head, std::size_t seq_len,
                             std::size_t batch, double dtype_bytes = 2, const BytesOptions& o = {}) {
  if (!(dtype_bytes >= 0) || !std::isfinite(dtype_bytes))
    detail::fail("kv_cache_bytes: dtype_bytes must be a non-negative number");
  double r = double(n_kv_heads) * double(d_head) * double(seq_len);
  if (o.kv) r *= 2;
  if (o.layers) r *= double(n_layers);
  if (o.batch) r *= double(batch);
  if (o.dtype) r *= dtype_bytes;
  return r;
}

inline Arr repeat_kv(const Arr& x, std::size_t n_rep, const RepeatOptions& o = {}) {
  if (x.dimension() < 3)
    detail::fail("repeat_kv: x has shape " + shape_str(x.shape()) + " but needs at least 3 axes (..., H_kv, T, d)");
  if (n_rep == 0) detail::fail("repeat_kv: n_rep must be at least 1");
  std::vector<std::size_t> shape(x.shape().begin(), x.shape().end());
  const std::size_t n = shape.size(), H = shape[n - 3], block = shape[n - 2] * shape[n - 1];
  const std::size_t lead = H == 0 || block == 0 ? 0 : x.size() / (H * block);
  shape[n - 3] = H * n_rep;
  Arr y = Arr::from_shape(shape);
  for (std::size_t l = 0; l < lead; ++l)
    for (std::size_t h = 0; h < H * n_rep; ++h) {
      const std::size_t src = o.tile ? h % H : h / n_rep;
      const double* from = x.data() + (l * H + src) * block;
      std::copy(from, from + block, y.data() + (l * H * n_rep + h) * block);
    }
  return y;
}

inline AttendResult attend_with_cache(const Arr& x, const Arr& Wq, const Arr& Wk, const Arr& Wv, const Arr& Wo,
                                      std::size_t n_heads, const std::optional<Cache>& cache = std::nullopt,
                                      const std::optional<rope::RopeCache>& rp = std::nullopt,
                                      const AttendOptions& o = {}) {
  const std::string fn = "attend_with_cache: ";
  detail::one_of("mask", o.mask, {"bottom_right", "top_left", "top_left_multi", "prefill_only", "none"});
  detail::one_of("keys", o.keys, {"rotated", "unrotated", "unrotated_all", "rotate_concat"});
  detail::one_of("cache_update", o.cache_update, {"append", "new_only"});
  if (x.dimension() != 3) detail::fail(fn + "x has shape " + shape_str(x.shape()) + " but must be (B, T, d_model)");
  const std::size_t B = x.shape()[0], T = x.shape()[1], d_model = x.shape()[2];
  const std::size_t d_head = mha::head_size(d_model, n_heads, "attend_with_cache");
  for (const auto& [name, w] : {std::pair<const char*, const Arr*>{"W_q", &Wq}, {"W_o", &Wo}})
    if (w->dimension() != 2 || w->shape()[0] != d_model || w->shape()[1] != d_model)
      detail::fail(fn + "x has shape " + shape_str(x.shape()) + " but " + name + " has shape " + shape_str(w->shape()) +
                   ": expected (d_model, d_model) with d_model = " + std::to_string(d_model));
  if (Wk.dimension() != 2 || Wk.shape()[0] != d_model || Wk.shape() != Wv.shape())
    detail::fail(fn + "W_k has shape " + shape_str(Wk.shape()) + " and W_v " + shape_str(Wv.shape()) +
                 ": both must be (d_model, n_kv_heads * d_head) with d_model = " + std::to_string(d_model));
  const std::size_t kv_cols = Wk.shape()[1];
  if (kv_cols == 0 || kv_cols % d_head != 0)
    detail::fail(fn + "W_k has " + std::to_string(kv_cols) +
                 " columns, not a multiple of d_head = " + std::to_string(d_head));
  const std::size_t n_kv = kv_cols / d_head;
  if (n_heads % n_kv != 0)
    detail::fail(fn + "n_heads = " + std::to_string(n_heads) +
                 " is not a multiple of n_kv_heads = " + std::to_string(n_kv));
  const std::size_t n_rep = n_heads / n_kv;
  const std::size_t cached_heads = o.repeat_before_cache ? n_heads : n_kv;

  std::size_t T_past = 0;
  if (cache) {
    const std::vector<std::size_t> ks(cache->k.shape().begin(), cache->k.shape().end());
    if (ks.size() != 4 || ks[0] != B || ks[1] != cached_heads || ks[3] != d_head ||
        cache->v.shape() != cache->k.shape())
      detail::fail(fn + "the cache's k has shape " + shape_str(cache->k.shape()) + " and v " +
                   shape_str(cache->v.shape()) + ": both must be (B, n_kv_heads, T_past, d_head) = (" +
                   std::to_string(B) + ", " + std::to_string(cached_heads) + ", T_past, " + std::to_string(d_head) +
                   ")");
    T_past = ks[2];
  }
  RepeatOptions rep;
  rep.tile = o.tile;

  Arr q = mha::split_heads(ref::matmul(x, Wq), n_heads);  // (B, H, T, d_head)
  Arr k = mha::split_heads(ref::matmul(x, Wk), n_kv);     // (B, H_kv, T, d_head)
  Arr v = mha::split_heads(ref::matmul(x, Wv), n_kv);
  if (o.repeat_before_cache) k = repeat_kv(k, n_rep, rep), v = repeat_kv(v, n_rep, rep);
  const Arr past_k = cache ? cache->k : Arr(Arr::from_shape({B, cached_heads, 0, d_head}));
  const Arr past_v = cache ? cache->v : Arr(Arr::from_shape({B, cached_heads, 0, d_head}));

  Arr keys, cached_k;  // the keys attention uses, and the keys the cache keeps
  if (rp) {
    const std::size_t pos = o.rope_offset ? T_past : 0;
    q = rope::apply_rope(q, rp->cos, rp->sin, pos);
    if (o.keys == "rotated") {
      keys = cached_k = detail::cat_time(past_k, rope::apply_rope(k, rp->cos, rp->sin, pos));
    } else if (o.keys == "unrotated") {
      keys = detail::cat_time(past_k, rope::apply_rope(k, rp->cos, rp->sin, pos));
      cached_k = detail::cat_time(past_k, k);
    } else if (o.keys == "unrotated_all") {
      cached_k = detail::cat_time(past_k, k);
      keys = rope::apply_rope(cached_k, rp->cos, rp->sin, 0);
    } else {  // rotate_concat
      keys = cached_k = rope::apply_rope(detail::cat_time(past_k, k), rp->cos, rp->sin, 0);
    }
  } else {
    keys = cached_k = detail::cat_time(past_k, k);
  }
  const Arr values = detail::cat_time(past_v, v);

  const std::size_t Tk = T_past + T;
  ref::AttentionOptions a;
  a.scale = 1 / std::sqrt(double(d_head));
  const bool masked = o.mask == "bottom_right" || o.mask == "top_left" || (o.mask == "top_left_multi" && T > 1) ||
                      (o.mask == "prefill_only" && !cache);
  if (masked) {
    const std::size_t shift = o.mask == "bottom_right" ? T_past : 0;
    xt::xarray<bool> m = xt::zeros<bool>({T, Tk});
    for (std::size_t i = 0; i < T; ++i)
      for (std::size_t j = 0; j <= i + shift && j < Tk; ++j) m(i, j) = true;
    a.mask = m;  // (T, T_past + T), broadcast over the batch and the heads
  }
  const Arr K = o.repeat_before_cache ? keys : repeat_kv(keys, n_rep, rep);
  const Arr V = o.repeat_before_cache ? values : repeat_kv(values, n_rep, rep);
  Arr out = mha::merge_heads(ref::attention(q, K, V, a).out);  // (B, T, d_model)
  if (o.use_wo) out = ref::matmul(out, Wo);

  AttendResult r{out, {cached_k, values}};
  if (o.cache_update == "new_only")
    r.cache = {detail::last_positions(cached_k, T_past), detail::last_positions(values, T_past)};
  return r;
}

}  // namespace attnlab::kv_cache
