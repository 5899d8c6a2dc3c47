// sdpa's reference functions for JS, with the signatures students implement plus a trailing options
// object (the mistakes spec.json declares, reference/sdpa.hpp): core.call("sdpa.<name>", …), ctx.ref.<name>
// in suite.mjs. Without options they are the shared engine's functions (wasm/include/attnlab/reference.hpp).
//   sdpa.causal_mask(T)
//   sdpa.softmax(x, { softmax: "stable" | "global_max" | "no_max" | "min_shift" | "no_norm" | "all" | "keepdims", axis })
//   sdpa.attention(Q, K, V, mask = null, { scale: "d_k" | "none" | "d_k_linear" | "times_sqrt_d_k" | "d_v" | "T_k" |
//                  "T_q" | "after_softmax" | a number, softmax, axis, mask: "where" | "inverted" | "ignored" | "added" |
//                  "after_softmax" | "after_softmax_inf" | "hardcoded", masked_score, transpose_scores,
//                  out_from: "weights" | "masked_scores" | "scores", v_order, round_digits, swap_return })
//   sdpa.causal_self_attention(X, W_q, W_k, W_v, { …attention's (scale also "d_model"),
//                  own_mask: "causal" | "too_wide" | "strict" | "upper", projection: ["W_q", "W_k", "W_v"] })
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "attnlab/embind.hpp"
#include "sdpa/reference/sdpa.hpp"

using namespace attnlab::js;
namespace ref = attnlab::ref;
namespace sdpa = attnlab::sdpa;

namespace {

// The value of string option `key` among `names` (the first is the default).
template <class E>
E choice(val options, const char* fn, const char* key, const std::vector<std::pair<const char*, E>>& names) {
  const std::string s = option(options, key, names.front().first);
  for (const auto& [name, value] : names)
    if (s == name) return value;
  std::string known;
  for (const auto& [name, value] : names) known += (known.empty() ? "\"" : ", \"") + std::string(name) + "\"";
  throw std::invalid_argument(std::string(fn) + ": option " + key + " must be one of " + known + ", got \"" + s + "\"");
}

sdpa::SoftmaxOptions softmax_options(val options, const char* fn) {
  using K = sdpa::SoftmaxKind;
  sdpa::SoftmaxOptions o;
  o.kind = choice<K>(options, fn, "softmax",
                     {{"stable", K::stable},
                      {"global_max", K::global_max},
                      {"no_max", K::no_max},
                      {"min_shift", K::min_shift},
                      {"no_norm", K::no_norm},
                      {"all", K::all},
                      {"keepdims", K::keepdims}});
  o.axis = static_cast<std::ptrdiff_t>(option(options, "axis", -1.0));
  return o;
}

sdpa::Options attention_options(val options, const char* fn) {
  using S = sdpa::Scale;
  using M = sdpa::MaskUse;
  using O = sdpa::OutFrom;
  sdpa::Options o;
  if (field(options, "scale").isNumber())
    o.factor = option(options, "scale", 1.0);
  else
    o.scale = choice<S>(options, fn, "scale",
                        {{"d_k", S::d_k},
                         {"none", S::none},
                         {"d_k_linear", S::d_k_linear},
                         {"times_sqrt_d_k", S::times_sqrt_d_k},
                         {"d_v", S::d_v},
                         {"T_k", S::T_k},
                         {"T_q", S::T_q},
                         {"d_model", S::d_model},
                         {"after_softmax", S::after_softmax}});
  o.softmax = softmax_options(options, fn);
  o.mask = choice<M>(options, fn, "mask",
                     {{"where", M::where},
                      {"inverted", M::inverted},
                      {"ignored", M::ignored},
                      {"added", M::added},
                      {"after_softmax", M::after_softmax},
                      {"after_softmax_inf", M::after_softmax_inf},
                      {"hardcoded", M::hardcoded}});
  o.masked_score = option(options, "masked_score", o.masked_score);
  o.transpose_scores = option(options, "transpose_scores", false);
  o.out_from = choice<O>(options, fn, "out_from",
                         {{"weights", O::weights}, {"masked_scores", O::masked_scores}, {"scores", O::scores}});
  o.v_order = option(options, "v_order", false);
  o.round_digits = static_cast<int>(option(options, "round_digits", -1.0));
  o.swap_return = option(options, "swap_return", false);
  return o;
}

val pair(const ref::AttentionResult& r) { return list({to_js(r.out), to_js(r.weights)}); }

val causal_mask(val T) {
  return guarded([&] { return to_js(ref::causal_mask(size(T, "causal_mask: T"))); });
}

val softmax(val x, val options) {
  return guarded([&] { return to_js(sdpa::softmax(tensor(x), softmax_options(options, "softmax"))); });
}

// attention(Q, K, V, mask = null, options) → [out, weights]
val attention(val q, val k, val v, val mask, val options) {
  return guarded([&] {
    return pair(sdpa::attention(tensor(q), tensor(k), tensor(v), optional_tensor<bool>(mask),
                                attention_options(options, "attention")));
  });
}

// causal_self_attention(X, W_q, W_k, W_v, options) → [out, weights]
val causal_self_attention(val x, val wq, val wk, val wv, val options) {
  return guarded([&] {
    using M = sdpa::OwnMask;
    const char* fn = "causal_self_attention";
    sdpa::SelfOptions o;
    o.attention = attention_options(options, fn);
    o.own_mask =
        choice<M>(options, fn, "own_mask",
                  {{"causal", M::causal}, {"too_wide", M::too_wide}, {"strict", M::strict}, {"upper", M::upper}});
    const val p = field(options, "projection");
    if (!p.isUndefined() && !p.isNull()) {
      const auto names = emscripten::vecFromJSArray<std::string>(p);
      if (names.size() != 3)
        throw std::invalid_argument("causal_self_attention: option projection must name 3 matrices");
      for (std::size_t i = 0; i < 3; ++i) {
        const std::string& n = names[i];
        if (n != "W_q" && n != "W_k" && n != "W_v")
          throw std::invalid_argument("causal_self_attention: option projection names W_q, W_k or W_v, got \"" + n +
                                      "\"");
        o.projection[i] = n == "W_q" ? sdpa::W_q : n == "W_k" ? sdpa::W_k : sdpa::W_v;
      }
    }
    return pair(sdpa::causal_self_attention(tensor(x), tensor(wq), tensor(wk), tensor(wv), o));
  });
}

}  // namespace

ATTNLAB_BINDINGS(sdpa) {
  def("sdpa.causal_mask", &causal_mask);
  def("sdpa.softmax", &softmax);
  def("sdpa.attention", &attention);
  def("sdpa.causal_self_attention", &causal_self_attention);
}
