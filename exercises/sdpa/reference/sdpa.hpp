// attnlab::sdpa — the reference of the scaled dot-product attention exercise: the shared engine's
// functions (attnlab/reference.hpp: causal_mask, softmax, attention, causal_self_attention), each with
// an options struct whose defaults are the definition (then the result is the engine's, operation for
// operation) and whose other values compute the classic mistakes a student makes (the exercise's
// diagnoses, spec.json "mistakes"):
//
//   softmax(x, {kind, axis})       kind: the row maximum subtracted (the definition), the maximum of
//                                  the whole array, none, the row minimum; no division by the sum; one
//                                  sum for the whole array; max and sum without keepdims (square 2-D x
//                                  only: NumPy broadcasts the reduced (n,) against the rows). axis: the
//                                  axis normalised (the definition's only).
//   attention(Q, K, V, mask, o)    o.scale: 1/√d_k (the definition), none, 1/d_k, ×√d_k, 1/√d_v,
//                                  1/√T_k, 1/√T_q, after softmax, or a number (o.factor); o.softmax;
//                                  o.mask: where false → o.masked_score (the definition: -inf), the mask
//                                  inverted, ignored, added to the scores, applied to the weights after
//                                  softmax (as 0 or -inf), or a causal triangle of its own instead;
//                                  o.transpose_scores (K·Qᵀ); o.out_from (the weights, the masked or the
//                                  raw scores); o.v_order (V @ weights); o.round_digits; o.swap_return.
//   causal_self_attention(X, W_q, W_k, W_v, o)
//                                  o.attention (as above; its scale may also be 1/√d_model);
//                                  o.own_mask: the causal triangle (j ≤ i), one too wide (j ≤ i + 1),
//                                  the diagonal out (j < i), the upper one (j ≥ i); o.projection: the
//                                  weight matrix each of Q, K, V is projected with.
//
// A mistake that makes no difference on the given inputs (a scale equal to 1/√d_k, a mask mode with
// no mask, a triangle of its own where the given mask is that triangle) throws std::invalid_argument
// ("… changes nothing here"): it cannot be told from the right computation, so it is never named.
// Shape problems throw std::invalid_argument naming the shapes (the engine's checks).
// Tests: reference/test_sdpa.cpp (ctest), reference/oracle.py (NumPy, tests/js/oracle.test.mjs).
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

#include <xtensor/xarray.hpp>

#include "attnlab/reference.hpp"

namespace attnlab::sdpa {

using Array = xt::xarray<double>;
using Mask = xt::xarray<bool>;

enum class SoftmaxKind { stable, global_max, no_max, min_shift, no_norm, all, keepdims };
struct SoftmaxOptions {
  SoftmaxKind kind = SoftmaxKind::stable;
  std::ptrdiff_t axis = -1;  // the other kinds work on the last axis only
};

enum class Scale { d_k, none, d_k_linear, times_sqrt_d_k, d_v, T_k, T_q, d_model, after_softmax };
enum class MaskUse { where, inverted, ignored, added, after_softmax, after_softmax_inf, hardcoded };
enum class OutFrom { weights, masked_scores, scores };
enum class OwnMask { causal, too_wide, strict, upper };
enum Projection { W_q = 0, W_k = 1, W_v = 2 };

struct Options {
  Scale scale = Scale::d_k;
  std::optional<double> factor;  // when set: the scores' factor itself (scale is not used)
  SoftmaxOptions softmax;
  MaskUse mask = MaskUse::where;
  double masked_score = -std::numeric_limits<double>::infinity();
  bool transpose_scores = false;
  OutFrom out_from = OutFrom::weights;
  bool v_order = false;
  int round_digits = -1;  // >= 0: the weights rounded to that many decimals (and out computed from them)
  bool swap_return = false;
};

struct SelfOptions {
  Options attention;
  OwnMask own_mask = OwnMask::causal;
  std::array<Projection, 3> projection = {W_q, W_k, W_v};  // the matrices Q, K and V are made with
};

namespace detail {

using ref::detail::fail;

[[noreturn]] inline void no_difference(const std::string& what) { fail(what + " changes nothing here"); }

// Applies f(row, out, n) to each row (last axis) of x into a new array of x's shape.
template <class F>
Array by_rows(const Array& x, F f) {
  Array out = Array::from_shape(x.shape());
  const std::size_t n = x.dimension() ? x.shape().back() : 1;
  for (std::size_t o = 0; n && o < x.size(); o += n) f(x.data() + o, out.data() + o, n);
  return out;
}

inline double row_max(const double* r, std::size_t n) {
  double m = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < n; ++i) m = r[i] > m ? r[i] : m;
  return m;
}

inline double row_min(const double* r, std::size_t n) {
  double m = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < n; ++i) m = r[i] < m ? r[i] : m;
  return m;
}

// exp(r - shift) / (its row sum, when `normalise`) into o.
inline void shifted_exp(const double* r, double* o, std::size_t n, double shift, bool normalise) {
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += (o[i] = std::exp(r[i] - shift));
  if (normalise)
    for (std::size_t i = 0; i < n; ++i) o[i] /= sum;
}

}  // namespace detail

inline Array softmax(const Array& x, const SoftmaxOptions& o = {}) {
  using detail::by_rows, detail::shifted_exp, detail::row_max;
  if (o.kind == SoftmaxKind::stable) return ref::softmax(x, o.axis);
  if (o.axis != -1) detail::fail("softmax: a mistaken kind is computed over the last axis only");
  switch (o.kind) {
    case SoftmaxKind::global_max: {
      const double m = row_max(x.data(), x.size());
      return by_rows(x, [&](const double* r, double* out, std::size_t n) { shifted_exp(r, out, n, m, true); });
    }
    case SoftmaxKind::no_max:
      return by_rows(x, [](const double* r, double* out, std::size_t n) { shifted_exp(r, out, n, 0, true); });
    case SoftmaxKind::min_shift:
      return by_rows(
          x, [](const double* r, double* out, std::size_t n) { shifted_exp(r, out, n, detail::row_min(r, n), true); });
    case SoftmaxKind::no_norm:
      return by_rows(x,
                     [](const double* r, double* out, std::size_t n) { shifted_exp(r, out, n, row_max(r, n), false); });
    case SoftmaxKind::all: {
      Array e =
          by_rows(x, [](const double* r, double* out, std::size_t n) { shifted_exp(r, out, n, row_max(r, n), false); });
      double sum = 0;
      for (double v : e) sum += v;
      return e / sum;
    }
    case SoftmaxKind::keepdims: {
      // x.max(axis=-1) and e.sum(axis=-1) without keepdims are (n,): NumPy broadcasts them against
      // each row, so entry (i, j) is shifted by row j's maximum and divided by row j's sum.
      if (x.dimension() != 2 || x.shape()[0] != x.shape()[1])
        detail::fail("softmax: without keepdims only a square 2-D x broadcasts, got " + ref::shape_str(x.shape()));
      const std::size_t n = x.shape()[0];
      Array m = Array::from_shape({n}), e = Array::from_shape(x.shape()), s = xt::zeros<double>({n});
      for (std::size_t i = 0; i < n; ++i) m(i) = row_max(x.data() + i * n, n);
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) s(i) += (e(i, j) = std::exp(x(i, j) - m(j)));
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) e(i, j) /= s(j);
      return e;
    }
    default:
      return ref::softmax(x, -1);
  }
}

namespace detail {

// The scores' factor for o on these sizes (d_model: causal_self_attention's, 0 for attention).
inline double scale_factor(const Options& o, const ref::detail::AttentionShapes& s, std::size_t d_model) {
  if (o.factor) return *o.factor;
  const double right = 1.0 / std::sqrt(static_cast<double>(s.dk));
  const auto by = [](std::size_t n) { return 1.0 / std::sqrt(static_cast<double>(n)); };
  switch (o.scale) {
    case Scale::none:
      return 1;
    case Scale::d_k_linear:
      return 1.0 / static_cast<double>(s.dk);
    case Scale::times_sqrt_d_k:
      return std::sqrt(static_cast<double>(s.dk));
    case Scale::d_v:
      return by(s.dv);
    case Scale::T_k:
      return by(s.Tk);
    case Scale::T_q:
      return by(s.Tq);
    case Scale::d_model:
      if (!d_model) fail("attention: a scale by d_model needs causal_self_attention's X");
      return by(d_model);
    case Scale::after_softmax:
      return 1;  // the 1/√d_k comes after softmax
    default:
      return right;
  }
}

inline Mask triangle(std::size_t T, std::ptrdiff_t k, bool upper) {
  Mask m = Mask::from_shape({T, T});
  for (std::size_t i = 0; i < T; ++i)
    for (std::size_t j = 0; j < T; ++j) {
      const bool below = static_cast<std::ptrdiff_t>(j) - static_cast<std::ptrdiff_t>(i) <= k;
      m(i, j) = upper ? !below : below;
    }
  return m;
}

inline ref::AttentionResult attention(const Array& Q, const Array& K, const Array& V, const std::optional<Mask>& given,
                                      const Options& o, std::size_t d_model) {
  const auto s = ref::detail::check_attention("attention", Q, K, V, given ? &*given : nullptr);
  const double scale = scale_factor(o, s, d_model);
  if (!o.factor && o.scale != Scale::d_k &&
      (o.scale == Scale::after_softmax ? s.dk == 1 : scale == 1.0 / std::sqrt(static_cast<double>(s.dk))))
    no_difference("attention: this scale");
  if (o.transpose_scores && s.Tq != s.Tk) fail("attention: K·Qᵀ has the shape of Q·Kᵀ only when T_q = T_k");
  std::optional<Mask> mask = given;
  if (o.mask == MaskUse::hardcoded) {
    if (s.Tq != s.Tk) fail("attention: a causal triangle of its own needs T_q = T_k");
    mask = ref::causal_mask(s.Tq);
    if (given && given->shape() == mask->shape() && *given == *mask) no_difference("attention: its own triangle");
  } else if (!given && (o.mask != MaskUse::where || o.masked_score != ref::AttentionOptions{}.masked_score)) {
    no_difference("attention: a mask mode without a mask");
  }
  const Array raw =
      ref::matmul(o.transpose_scores ? K : Q, ref::detail::swap_last_two(o.transpose_scores ? Q : K)) * scale;
  const bool before = o.mask == MaskUse::where || o.mask == MaskUse::inverted || o.mask == MaskUse::hardcoded;
  Array scores = raw;
  if (mask && before) scores = xt::where(o.mask == MaskUse::inverted ? Mask(!*mask) : *mask, raw, o.masked_score);
  if (mask && o.mask == MaskUse::added) scores = raw + xt::cast<double>(*mask);
  Array w = sdpa::softmax(scores, o.softmax);
  if (mask && o.mask == MaskUse::after_softmax) w = xt::where(*mask, w, 0.0);
  if (mask && o.mask == MaskUse::after_softmax_inf) w = xt::where(*mask, w, -std::numeric_limits<double>::infinity());
  if (o.scale == Scale::after_softmax && !o.factor) w = w * (1.0 / std::sqrt(static_cast<double>(s.dk)));
  if (o.round_digits >= 0) {
    const double f = std::pow(10.0, o.round_digits);
    w = xt::round(w * f) / f;
  }
  ref::AttentionResult r;
  r.weights = w;
  if (o.v_order)
    r.out = ref::matmul(V, w);
  else if (o.out_from == OutFrom::weights)
    r.out = ref::matmul(w, V);
  else  // the scores as weights: masked (with -inf, the definition's) or raw
    r.out = ref::matmul(o.out_from == OutFrom::scores || !mask ? raw : Array(xt::where(*mask, raw, o.masked_score)), V);
  if (o.swap_return) std::swap(r.out, r.weights);
  return r;
}

}  // namespace detail

inline ref::AttentionResult attention(const Array& Q, const Array& K, const Array& V,
                                      const std::optional<Mask>& mask = std::nullopt, const Options& o = {}) {
  return detail::attention(Q, K, V, mask, o, 0);
}

inline ref::AttentionResult causal_self_attention(const Array& X, const Array& Wq, const Array& Wk, const Array& Wv,
                                                  const SelfOptions& o = {}) {
  ref::detail::check_self_attention(X, Wq, Wk, Wv);
  const Array* w[] = {&Wq, &Wk, &Wv};
  const std::size_t T = X.shape()[X.dimension() - 2];
  Mask mask;
  switch (o.own_mask) {
    case OwnMask::too_wide:
      mask = detail::triangle(T, 1, false);
      break;
    case OwnMask::strict:
      mask = detail::triangle(T, -1, false);
      break;
    case OwnMask::upper:
      mask = detail::triangle(T, -1, true);
      break;
    default:
      mask = ref::causal_mask(T);
  }
  return detail::attention(ref::matmul(X, *w[o.projection[0]]), ref::matmul(X, *w[o.projection[1]]),
                           ref::matmul(X, *w[o.projection[2]]), mask, o.attention, X.shape().back());
}

}  // namespace attnlab::sdpa
