// mha's reference functions for JS, with the signatures students implement plus a trailing options
// object (the mistakes spec.json declares): core.call("mha.<name>", …), ctx.ref.<name> in suite.mjs.
//   mha.split_heads(x, n_heads, { transpose, heads_first, strided })
//   mha.merge_heads(x, { transpose })
//   mha.multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads, causal = true,
//                            { split_transpose, split_strided, merge_transpose, scale: "d_head" | "d_model" | "none", use_wo })
#include <stdexcept>
#include <string>

#include "attnlab/embind.hpp"
#include "mha/reference/mha.hpp"

using namespace attnlab::js;
namespace mha = attnlab::mha;

namespace {

mha::SplitOptions split_options(val options) {
  mha::SplitOptions o;
  o.transpose = option(options, "transpose", true);
  o.heads_first = option(options, "heads_first", true);
  o.strided = option(options, "strided", false);
  return o;
}

mha::Scale scale_option(val options) {
  const std::string s = option(options, "scale", "d_head");
  if (s == "d_head") return mha::Scale::d_head;
  if (s == "d_model") return mha::Scale::d_model;
  if (s == "none") return mha::Scale::none;
  throw std::invalid_argument("multi_head_attention: option scale must be \"d_head\", \"d_model\" or \"none\", got \"" +
                              s + "\"");
}

val split_heads(val x, val n_heads, val options) {
  return guarded([&] {
    return to_js(mha::split_heads(tensor(x), size(n_heads, "split_heads: n_heads"), split_options(options)));
  });
}

val merge_heads(val x, val options) {
  return guarded([&] {
    mha::MergeOptions o;
    o.transpose = option(options, "transpose", true);
    return to_js(mha::merge_heads(tensor(x), o));
  });
}

val multi_head_attention(val X, val wq, val wk, val wv, val wo, val n_heads, val causal, val options) {
  return guarded([&] {
    mha::Options o;
    o.split.transpose = option(options, "split_transpose", true);
    o.split.strided = option(options, "split_strided", false);
    o.merge.transpose = option(options, "merge_transpose", true);
    o.scale = scale_option(options);
    o.use_wo = option(options, "use_wo", true);
    const auto r = mha::multi_head_attention(tensor(X), tensor(wq), tensor(wk), tensor(wv), tensor(wo),
                                             size(n_heads, "multi_head_attention: n_heads"), flag(causal, true), o);
    return list({to_js(r.out), to_js(r.weights)});
  });
}

}  // namespace

ATTNLAB_BINDINGS(mha) {
  def("mha.split_heads", &split_heads);
  def("mha.merge_heads", &merge_heads);
  def("mha.multi_head_attention", &multi_head_attention);
}
