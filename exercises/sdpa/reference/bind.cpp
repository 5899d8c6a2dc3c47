// sdpa's reference functions, with exactly the signatures students implement, reachable from JS as
// core.call("sdpa.<name>", …) (ctx.ref.<name> in suite.mjs). They are the shared engine's
// (wasm/include/attnlab/reference.hpp): this exercise is the one the engine was written for.
#include "attnlab/embind.hpp"
#include "attnlab/reference.hpp"

using namespace attnlab::js;
namespace ref = attnlab::ref;

namespace {

val pair(const ref::AttentionResult& r) { return list({to_js(r.out), to_js(r.weights)}); }

val causal_mask(val T) {
  return guarded([&] { return to_js(ref::causal_mask(size(T, "causal_mask: T"))); });
}

val softmax(val x) {
  return guarded([&] { return to_js(ref::softmax(tensor(x), -1)); });
}

// attention(Q, K, V, mask = null) → [out, weights]
val attention(val q, val k, val v, val mask) {
  return guarded([&] {
    ref::AttentionOptions o;
    o.mask = optional_tensor<bool>(mask);
    return pair(ref::attention(tensor(q), tensor(k), tensor(v), o));
  });
}

// causal_self_attention(X, W_q, W_k, W_v) → [out, weights]
val causal_self_attention(val x, val wq, val wk, val wv) {
  return guarded([&] { return pair(ref::causal_self_attention(tensor(x), tensor(wq), tensor(wk), tensor(wv))); });
}

}  // namespace

ATTNLAB_BINDINGS(sdpa) {
  def("sdpa.causal_mask", &causal_mask);
  def("sdpa.softmax", &softmax);
  def("sdpa.attention", &attention);
  def("sdpa.causal_self_attention", &causal_self_attention);
}
