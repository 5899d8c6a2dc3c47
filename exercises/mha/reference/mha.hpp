// attnlab::mha — the reference of the multi-head attention exercise (double precision, NumPy shapes),
// on the shared engine (attnlab/reference.hpp: matmul, causal_mask, attention with a mask and a scale).
//
//   split_heads(x, n_heads)      (…, T, d_model) → (…, n_heads, T, d_head), d_head = d_model / n_heads;
//                                head h holds columns h·d_head … (h+1)·d_head − 1 of x
//   merge_heads(x)               (…, H, T, d_head) → (…, T, H·d_head), the inverse of split_heads
//   multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads, causal = true)
//                                → {out (…, T, d_model), weights (…, H, T, T)}: per-head attention of
//                                split_heads(X W_q), split_heads(X W_k), split_heads(X W_v), each scaled
//                                by 1/√d_head (and causally masked when `causal`), merged, times W_o
//
// Each function takes an options struct whose defaults are the definition; the other values compute
// the classic mistakes a student makes (the exercise's diagnoses, spec.json "mistakes"): a reshape
// without the transpose, columns taken with a stride, the head axis left after T, the scale by
// √d_model or none, W_o forgotten. Later packs include this header (kv_cache: split_heads(x, n_heads)
// and merge_heads(x) with the defaults).
// Shape problems throw std::invalid_argument naming the shapes; d_model not divisible by n_heads says so.
// Tests: reference/test_mha.cpp (ctest), reference/oracle.py (NumPy, tests/js/oracle.test.mjs).
#pragma once

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <xtensor/xarray.hpp>
#include <xtensor/xmanipulation.hpp>

#include "attnlab/reference.hpp"

namespace attnlab::mha {

using Array = xt::xarray<double>;
using ref::shape_str;

struct SplitOptions {
  bool transpose = true;    // false: x reshaped straight into (…, H, T, d_head), no axes moved (heads get rows)
  bool heads_first = true;  // false: the (…, T, H, d_head) reshape returned as it is (the head axis after T)
  bool strided = false;     // true: reshaped as (…, T, d_head, H), so head h gets columns h, h + H, h + 2H, …
};

struct MergeOptions {
  bool transpose = true;  // false: (…, H, T, d_head) reshaped straight into (…, T, H·d_head)
};

enum class Scale { d_head, d_model, none };

struct Options {
  SplitOptions split;  // heads_first is not used here (it changes the shapes, not the values)
  MergeOptions merge;
  Scale scale = Scale::d_head;  // the scores' scale: 1/√d_head (the definition), 1/√d_model, or 1
  bool use_wo = true;           // false: out is the merged heads, W_o never applied
};

namespace detail {

[[noreturn]] inline void fail(const std::string& msg) { throw std::invalid_argument(msg); }

inline std::vector<std::size_t> shape_of(const Array& a) { return {a.shape().begin(), a.shape().end()}; }

// A copy of `a` with another shape of the same size (row-major data unchanged, NumPy's reshape).
inline Array reshaped(const Array& a, const std::vector<std::size_t>& shape) {
  Array r = a;
  r.reshape(shape);
  return r;
}

// Swaps axes i and j (counted from the end, 1 = the last) of `a`.
inline Array swap_from_end(const Array& a, std::size_t i, std::size_t j) {
  std::vector<std::size_t> perm(a.dimension());
  for (std::size_t k = 0; k < perm.size(); ++k) perm[k] = k;
  std::swap(perm[perm.size() - i], perm[perm.size() - j]);
  return xt::transpose(a, perm);
}

}  // namespace detail

/** d_model / n_heads, or an error that says why there is no such d_head. */
inline std::size_t head_size(std::size_t d_model, std::size_t n_heads, const char* fn) {
  const std::string f = fn;
  if (n_heads == 0) detail::fail(f + ": n_heads must be at least 1");
  if (d_model % n_heads != 0)
    detail::fail(f + ": d_model = " + std::to_string(d_model) +
                 " is not divisible by n_heads = " + std::to_string(n_heads));
  return d_model / n_heads;
}

inline Array split_heads(const Array& x, std::size_t n_heads, const SplitOptions& o = {}) {
  if (x.dimension() < 2)
    detail::fail("split_heads: x has shape " + shape_str(x.shape()) + " but needs at least 2 axes (..., T, d_model)");
  auto shape = detail::shape_of(x);
  const std::size_t T = shape[shape.size() - 2], d_model = shape.back();
  const std::size_t d_head = head_size(d_model, n_heads, "split_heads");
  shape.resize(shape.size() - 2);  // the leading axes
  auto with = [&](std::size_t a, std::size_t b, std::size_t c) {
    auto s = shape;
    s.insert(s.end(), {a, b, c});
    return s;
  };
  if (!o.transpose) return detail::reshaped(x, with(n_heads, T, d_head));
  if (o.strided) {
    // (…, T, d_head, H): axis -1 is the head; move it before T → (…, H, T, d_head).
    const Array y = detail::reshaped(x, with(T, d_head, n_heads));
    std::vector<std::size_t> perm(y.dimension());
    for (std::size_t k = 0; k < perm.size(); ++k) perm[k] = k;
    const std::size_t n = perm.size();
    perm[n - 3] = n - 1, perm[n - 2] = n - 3, perm[n - 1] = n - 2;
    return xt::transpose(y, perm);
  }
  const Array y = detail::reshaped(x, with(T, n_heads, d_head));
  if (!o.heads_first) return y;
  return detail::swap_from_end(y, 3, 2);
}

inline Array merge_heads(const Array& x, const MergeOptions& o = {}) {
  if (x.dimension() < 3)
    detail::fail("merge_heads: x has shape " + shape_str(x.shape()) + " but needs at least 3 axes (..., H, T, d_head)");
  auto shape = detail::shape_of(x);
  const std::size_t n = shape.size(), H = shape[n - 3], T = shape[n - 2], d_head = shape[n - 1];
  shape.resize(n - 3);
  shape.insert(shape.end(), {T, H * d_head});
  return detail::reshaped(o.transpose ? Array(detail::swap_from_end(x, 3, 2)) : x, shape);
}

inline ref::AttentionResult multi_head_attention(const Array& X, const Array& Wq, const Array& Wk, const Array& Wv,
                                                 const Array& Wo, std::size_t n_heads, bool causal = true,
                                                 const Options& o = {}) {
  const std::string fn = "multi_head_attention: ";
  if (X.dimension() < 2)
    detail::fail(fn + "X has shape " + shape_str(X.shape()) + " but needs at least 2 axes (..., T, d_model)");
  const std::size_t T = X.shape()[X.dimension() - 2], d_model = X.shape().back();
  const std::size_t d_head = head_size(d_model, n_heads, "multi_head_attention");
  const std::pair<const char*, const Array*> ws[] = {{"W_q", &Wq}, {"W_k", &Wk}, {"W_v", &Wv}, {"W_o", &Wo}};
  for (const auto& [name, w] : ws)
    if (w->dimension() != 2 || w->shape()[0] != d_model || w->shape()[1] != d_model)
      detail::fail(fn + "X has shape " + shape_str(X.shape()) + " but " + name + " has shape " + shape_str(w->shape()) +
                   ": expected (d_model, d_model) with d_model = " + std::to_string(d_model));
  SplitOptions split = o.split;
  split.heads_first = true;  // a (…, T, H, d_head) layout gives other shapes: not a mistake this computes
  const Array q = split_heads(ref::matmul(X, Wq), n_heads, split);
  const Array k = split_heads(ref::matmul(X, Wk), n_heads, split);
  const Array v = split_heads(ref::matmul(X, Wv), n_heads, split);
  ref::AttentionOptions a;
  if (causal) a.mask = ref::causal_mask(T);  // (T, T), broadcast over every head and batch entry
  a.scale = o.scale == Scale::d_head    ? 1 / std::sqrt(double(d_head))
            : o.scale == Scale::d_model ? 1 / std::sqrt(double(d_model))
                                        : 1.0;
  ref::AttentionResult r = ref::attention(q, k, v, a);
  r.out = merge_heads(r.out, o.merge);
  if (o.use_wo) r.out = ref::matmul(r.out, Wo);
  return r;
}

}  // namespace attnlab::mha
