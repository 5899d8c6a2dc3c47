// attnlab::ref — the double-precision reference for scaled dot-product attention.
//
// The one ground truth (STYLE 1): every expected value in the grader and every fast kernel
// (SIMD, WGSL) is checked against these functions. Plain and readable beats fast here;
// everything is computed and accumulated in double. Semantics follow NumPy:
//   causal_mask(T)          bool (T, T), true on and below the diagonal (query i may see key j <= i)
//   softmax(x, axis)        any rank, any axis; stable (the max along the axis is subtracted);
//                           a score of -inf gives exactly 0; a row that is entirely -inf gives NaN,
//                           exactly like NumPy's exp(x - max) / sum (-inf - -inf = NaN)
//   matmul(a, b)            numpy.matmul: batch axes broadcast, 1-D operands promoted and squeezed
//   attention(Q, K, V, opt) weights = softmax(Q Kᵀ · scale, masked), out = weights @ V
//   attention_loops(...)    the same result from plain nested loops (an independent cross-check)
// Mask broadcasting: the mask's last two axes must be 1 or equal to (T_q, T_k) (a mask never changes
// the sequence lengths); its leading axes broadcast with the batch axes like NumPy.
// Every shape problem throws std::invalid_argument naming the shapes.
// Tests: tests/cpp/test_reference.cpp (tools/build && (cd build && ctest)).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <xtensor/xarray.hpp>
#include <xtensor/xmanipulation.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xoperation.hpp>
#include <xtensor/xreducer.hpp>

namespace attnlab::ref {

using Shape = std::vector<std::size_t>;

// NumPy's spelling: "(2, 3, 5)", "(3,)", "()".
template <class S>
std::string shape_str(const S& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

namespace detail {

[[noreturn]] inline void fail(const std::string& msg) { throw std::invalid_argument(msg); }

template <class S>
Shape to_shape(const S& s) {
  return Shape(s.begin(), s.end());
}

inline std::size_t product(const Shape& s) {
  std::size_t n = 1;
  for (auto d : s) n *= d;
  return n;
}

// All axes but the last two.
template <class S>
Shape batch_of(const S& s) {
  return Shape(s.begin(), s.end() - 2);
}

inline Shape concat(Shape a, std::initializer_list<std::size_t> tail) {
  a.insert(a.end(), tail.begin(), tail.end());
  return a;
}

// NumPy broadcasting of two shapes (right-aligned, equal or 1); nullopt when they clash.
inline std::optional<Shape> broadcast(const Shape& a, const Shape& b) {
  Shape r(std::max(a.size(), b.size()), 1);
  for (std::size_t i = 0; i < r.size(); ++i) {
    const std::size_t x = i < a.size() ? a[a.size() - 1 - i] : 1;
    const std::size_t y = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (x != y && x != 1 && y != 1) return std::nullopt;
    r[r.size() - 1 - i] = x == 1 ? y : x;
  }
  return r;
}

// Flat index into an operand's batch axes `sub` for the flat index `flat` into the broadcast batch
// shape `full` (sub is right-aligned against full; its size-1 axes repeat).
inline std::size_t broadcast_index(const Shape& full, std::size_t flat, const Shape& sub) {
  std::size_t index = 0, stride = 1;
  for (std::size_t i = 0; i < full.size(); ++i) {
    const std::size_t axis = full.size() - 1 - i, coord = flat % full[axis];
    flat /= full[axis];
    if (i < sub.size()) {
      const std::size_t d = sub[sub.size() - 1 - i];
      if (d != 1) index += coord * stride;
      stride *= d;
    }
  }
  return index;
}

// Swap the last two axes (Kᵀ in Q Kᵀ); xtensor 0.24 has no swapaxes.
inline xt::xarray<double> swap_last_two(const xt::xarray<double>& a) {
  std::vector<std::size_t> perm(a.dimension());
  for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = i;
  std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
  return xt::transpose(a, perm);
}

// Shapes of one attention call, validated once for both implementations.
struct AttentionShapes {
  std::size_t Tq, Tk, dk, dv;
  Shape q, k, v, mask;         // operand batch axes; mask padded to >= 2 axes first
  std::size_t mq = 1, mk = 1;  // the mask's last two axes (1 or T_q, 1 or T_k)
  Shape wbatch, obatch;        // batch axes of weights and of out
};

inline AttentionShapes check_attention(const char* fn, const xt::xarray<double>& Q, const xt::xarray<double>& K,
                                       const xt::xarray<double>& V, const xt::xarray<bool>* mask) {
  const std::string f = fn;
  const auto sq = shape_str(Q.shape()), sk = shape_str(K.shape()), sv = shape_str(V.shape());
  if (Q.dimension() < 2) fail(f + ": Q has shape " + sq + " but needs at least 2 axes (..., T_q, d_k)");
  if (K.dimension() < 2) fail(f + ": K has shape " + sk + " but needs at least 2 axes (..., T_k, d_k)");
  if (V.dimension() < 2) fail(f + ": V has shape " + sv + " but needs at least 2 axes (..., T_k, d_v)");
  AttentionShapes s;
  s.Tq = Q.shape()[Q.dimension() - 2];
  s.Tk = K.shape()[K.dimension() - 2];
  s.dk = Q.shape()[Q.dimension() - 1];
  s.dv = V.shape()[V.dimension() - 1];
  if (K.shape()[K.dimension() - 1] != s.dk)
    fail(f + ": Q has shape " + sq + " but K has shape " + sk + ": last axes (d_k) differ");
  if (V.shape()[V.dimension() - 2] != s.Tk)
    fail(f + ": K has shape " + sk + " but V has shape " + sv + ": axis -2 (T_k) differs");
  s.q = batch_of(Q.shape());
  s.k = batch_of(K.shape());
  s.v = batch_of(V.shape());
  auto qk = broadcast(s.q, s.k);
  if (!qk)
    fail(f + ": Q has shape " + sq + " but K has shape " + sk + ": batch axes " + shape_str(s.q) + " and " +
         shape_str(s.k) + " do not broadcast");
  s.wbatch = *qk;
  if (mask) {
    Shape m = to_shape(mask->shape());
    while (m.size() < 2) m.insert(m.begin(), 1);
    s.mq = m[m.size() - 2];
    s.mk = m[m.size() - 1];
    s.mask = batch_of(m);
    auto w = broadcast(s.wbatch, s.mask);
    if ((s.mq != 1 && s.mq != s.Tq) || (s.mk != 1 && s.mk != s.Tk) || !w)
      fail(f + ": mask has shape " + shape_str(mask->shape()) + " but the scores Q K^T have shape " +
           shape_str(concat(s.wbatch, {s.Tq, s.Tk})) + ": not broadcastable");
    s.wbatch = *w;
  }
  auto o = broadcast(s.wbatch, s.v);
  if (!o)
    fail(f + ": V has shape " + sv + " but the weights have shape " + shape_str(concat(s.wbatch, {s.Tq, s.Tk})) +
         ": batch axes do not broadcast");
  s.obatch = *o;
  return s;
}

}  // namespace detail

inline xt::xarray<bool> causal_mask(std::size_t T) {
  xt::xarray<bool> m = xt::zeros<bool>({T, T});
  for (std::size_t i = 0; i < T; ++i)
    for (std::size_t j = 0; j <= i; ++j) m(i, j) = true;
  return m;
}

inline xt::xarray<double> softmax(const xt::xarray<double>& x, std::ptrdiff_t axis = -1) {
  const auto nd = static_cast<std::ptrdiff_t>(x.dimension());
  if (axis < -nd || axis >= nd)
    detail::fail("softmax: axis " + std::to_string(axis) + " is out of range for x of shape " + shape_str(x.shape()));
  if (x.size() == 0) return x;
  const std::size_t ax = static_cast<std::size_t>(axis < 0 ? axis + nd : axis);
  // Subtracting the max keeps exp() finite; exp(-inf - max) is exactly 0.
  const xt::xarray<double> m = xt::amax(x, {ax}, xt::keep_dims);
  const xt::xarray<double> e = xt::exp(x - m);
  const xt::xarray<double> sum = xt::sum(e, {ax}, xt::keep_dims);
  return e / sum;
}

inline xt::xarray<double> matmul(const xt::xarray<double>& a_in, const xt::xarray<double>& b_in) {
  const auto sa = shape_str(a_in.shape()), sb = shape_str(b_in.shape());
  if (a_in.dimension() == 0 || b_in.dimension() == 0)
    detail::fail("matmul: a has shape " + sa + " and b has shape " + sb + ": scalars (0-d arrays) are not allowed");
  // NumPy promotes a 1-D a to (1, n) and a 1-D b to (n, 1), then drops the added axis.
  const bool a_vec = a_in.dimension() == 1, b_vec = b_in.dimension() == 1;
  Shape ash = detail::to_shape(a_in.shape()), bsh = detail::to_shape(b_in.shape());
  if (a_vec) ash.insert(ash.begin(), 1);
  if (b_vec) bsh.push_back(1);
  const std::size_t n = ash[ash.size() - 2], k = ash.back(), m = bsh.back();
  if (bsh[bsh.size() - 2] != k)
    detail::fail("matmul: a has shape " + sa + " but b has shape " + sb + ": a's last axis must equal b's " +
                 (b_vec ? "only" : "second-to-last") + " axis");
  const auto batch = detail::broadcast(detail::batch_of(ash), detail::batch_of(bsh));
  if (!batch)
    detail::fail("matmul: a has shape " + sa + " but b has shape " + sb + ": batch axes " +
                 shape_str(detail::batch_of(ash)) + " and " + shape_str(detail::batch_of(bsh)) + " do not broadcast");
  // Promoting a 1-D operand leaves its row-major layout unchanged, so both are read in place;
  // broadcast_index maps each output batch entry to the operands' own batch entries.
  const Shape a_batch = detail::batch_of(ash), b_batch = detail::batch_of(bsh);
  const std::size_t N = detail::product(*batch);
  xt::xarray<double> R = xt::zeros<double>({N, n, m});
  for (std::size_t b = 0; b < N; ++b) {
    const double* pa = a_in.data() + detail::broadcast_index(*batch, b, a_batch) * n * k;
    const double* pb = b_in.data() + detail::broadcast_index(*batch, b, b_batch) * k * m;
    // i-p-j order walks b's rows contiguously; each r[i][j] still sums its terms in p order.
    for (std::size_t i = 0; i < n; ++i) {
      double* r = R.data() + (b * n + i) * m;
      for (std::size_t p = 0; p < k; ++p) {
        const double aip = pa[i * k + p];
        for (std::size_t j = 0; j < m; ++j) r[j] += aip * pb[p * m + j];
      }
    }
  }
  Shape rsh = *batch;
  if (!a_vec) rsh.push_back(n);
  if (!b_vec) rsh.push_back(m);
  R.reshape(rsh);
  return R;
}

struct AttentionOptions {
  std::optional<xt::xarray<bool>> mask;  // true = may attend; broadcast against (..., T_q, T_k)
  std::optional<double> scale;           // default 1 / sqrt(d_k)
  double masked_score = -std::numeric_limits<double>::infinity();  // written where mask is false
};

struct AttentionResult {
  xt::xarray<double> out, weights;  // (..., T_q, d_v), (..., T_q, T_k)
};

inline AttentionResult attention(const xt::xarray<double>& Q, const xt::xarray<double>& K, const xt::xarray<double>& V,
                                 const AttentionOptions& opt = {}) {
  const auto s = detail::check_attention("attention", Q, K, V, opt.mask ? &*opt.mask : nullptr);
  const double scale = opt.scale.value_or(1.0 / std::sqrt(static_cast<double>(s.dk)));
  xt::xarray<double> scores = matmul(Q, detail::swap_last_two(K)) * scale;
  if (opt.mask) scores = xt::where(*opt.mask, scores, opt.masked_score);
  AttentionResult r;
  r.weights = softmax(scores, -1);
  r.out = matmul(r.weights, V);
  return r;
}

namespace detail {

// causal_self_attention's operands: X (..., T, d_model) with at least 2 axes; W_q, W_k, W_v 2-D
// (d_model, ...); W_q and W_k with the same d_k.
inline void check_self_attention(const xt::xarray<double>& X, const xt::xarray<double>& Wq,
                                 const xt::xarray<double>& Wk, const xt::xarray<double>& Wv) {
  const std::string fn = "causal_self_attention: ";
  if (X.dimension() < 2)
    fail(fn + "X has shape " + shape_str(X.shape()) + " but needs at least 2 axes (..., T, d_model)");
  const std::size_t d_model = X.shape().back();
  const std::pair<const char*, const xt::xarray<double>*> ws[] = {{"W_q", &Wq}, {"W_k", &Wk}, {"W_v", &Wv}};
  for (const auto& [name, w] : ws)
    if (w->dimension() != 2 || w->shape()[0] != d_model)
      fail(fn + "X has shape " + shape_str(X.shape()) + " but " + name + " has shape " + shape_str(w->shape()) +
           ": expected a 2-D (d_model, ...) matrix with d_model = " + std::to_string(d_model));
  if (Wq.shape()[1] != Wk.shape()[1])
    fail(fn + "W_q has shape " + shape_str(Wq.shape()) + " but W_k has shape " + shape_str(Wk.shape()) +
         ": last axes (d_k) differ");
}

}  // namespace detail

// X (..., T, d_model) — usually (T, d_model) or (B, T, d_model); W_q, W_k (d_model, d_k); W_v (d_model, d_v).
inline AttentionResult causal_self_attention(const xt::xarray<double>& X, const xt::xarray<double>& Wq,
                                             const xt::xarray<double>& Wk, const xt::xarray<double>& Wv) {
  detail::check_self_attention(X, Wq, Wk, Wv);
  AttentionOptions opt;
  opt.mask = causal_mask(X.shape()[X.dimension() - 2]);
  return attention(matmul(X, Wq), matmul(X, Wk), matmul(X, Wv), opt);
}

// The same computation as attention() with default scale and -inf masking, written as plain loops over
// raw row-major buffers: an independent cross-check that shares only the shape validation.
inline AttentionResult attention_loops(const xt::xarray<double>& Q, const xt::xarray<double>& K,
                                       const xt::xarray<double>& V,
                                       const std::optional<xt::xarray<bool>>& mask = std::nullopt) {
  const auto s = detail::check_attention("attention_loops", Q, K, V, mask ? &*mask : nullptr);
  const std::size_t Tq = s.Tq, Tk = s.Tk, dk = s.dk, dv = s.dv;
  const double scale = 1.0 / std::sqrt(static_cast<double>(dk));
  const double neg_inf = -std::numeric_limits<double>::infinity();
  AttentionResult r;
  r.weights = xt::zeros<double>(detail::concat(s.wbatch, {Tq, Tk}));
  r.out = xt::zeros<double>(detail::concat(s.obatch, {Tq, dv}));
  const double *q = Q.data(), *k = K.data(), *v = V.data();
  const bool* m = mask ? mask->data() : nullptr;
  double* w = r.weights.data();
  double* o = r.out.data();
  std::vector<double> row(Tk);
  for (std::size_t b = 0; b < detail::product(s.wbatch); ++b) {
    const double* qb = q + detail::broadcast_index(s.wbatch, b, s.q) * Tq * dk;
    const double* kb = k + detail::broadcast_index(s.wbatch, b, s.k) * Tk * dk;
    const bool* mb = m ? m + detail::broadcast_index(s.wbatch, b, s.mask) * s.mq * s.mk : nullptr;
    double* wb = w + b * Tq * Tk;
    for (std::size_t i = 0; i < Tq; ++i) {
      double mx = neg_inf;
      for (std::size_t j = 0; j < Tk; ++j) {
        const bool allowed = !mb || mb[(s.mq == 1 ? 0 : i) * s.mk + (s.mk == 1 ? 0 : j)];
        double dot = 0;
        for (std::size_t p = 0; p < dk; ++p) dot += qb[i * dk + p] * kb[j * dk + p];
        row[j] = allowed ? dot * scale : neg_inf;
        if (row[j] > mx) mx = row[j];
      }
      double sum = 0;
      for (std::size_t j = 0; j < Tk; ++j) sum += (row[j] = std::exp(row[j] - mx));  // all -inf: NaN
      for (std::size_t j = 0; j < Tk; ++j) wb[i * Tk + j] = row[j] / sum;
    }
  }
  for (std::size_t b = 0; b < detail::product(s.obatch); ++b) {
    const double* wb = w + detail::broadcast_index(s.obatch, b, s.wbatch) * Tq * Tk;
    const double* vb = v + detail::broadcast_index(s.obatch, b, s.v) * Tk * dv;
    double* ob = o + b * Tq * dv;
    for (std::size_t i = 0; i < Tq; ++i)
      for (std::size_t c = 0; c < dv; ++c) {
        double acc = 0;
        for (std::size_t j = 0; j < Tk; ++j) acc += wb[i * Tk + j] * vb[j * dv + c];
        ob[i * dv + c] = acc;
      }
  }
  return r;
}

}  // namespace attnlab::ref
