// Embind layer over attnlab::ref (reference.hpp), the attention engine every pack builds on: thin on
// purpose (STYLE 8), with the conversions of attnlab/embind.hpp (tensors in as {data, shape}, results
// out as fresh copies, C++ exceptions as {error}). wasm/index.mjs wraps these as core.causalMask,
// core.softmax, … Compiled by tools/build-wasm together with every other wasm/src/*.cpp and every
// pack's reference/bind.cpp.
#include <cmath>
#include <string>

#include "attnlab/embind.hpp"
#include "attnlab/prng.hpp"
#include "attnlab/reference.hpp"

using namespace attnlab::js;
namespace ref = attnlab::ref;

namespace {

val result_js(const ref::AttentionResult& r) {
  val o = val::object();
  o.set("out", to_js(r.out));
  o.set("weights", to_js(r.weights));
  return o;
}

val causal_mask(val T) {
  return guarded([&] { return to_js(ref::causal_mask(size(T, "causal_mask: T"))); });
}

val softmax(val x, val axis) {
  return guarded(
      [&] { return to_js(ref::softmax(tensor(x), static_cast<std::ptrdiff_t>(number(axis, "softmax: axis")))); });
}

val matmul(val a, val b) {
  return guarded([&] { return to_js(ref::matmul(tensor(a), tensor(b))); });
}

// opts: {mask?: Tensor(bool), scale?: number, maskedScore?: number}
val attention(val q, val k, val v, val opts) {
  return guarded([&] {
    ref::AttentionOptions o;
    o.mask = optional_tensor<bool>(opts["mask"]);
    if (!opts["scale"].isUndefined() && !opts["scale"].isNull()) o.scale = number(opts["scale"], "attention: scale");
    if (!opts["maskedScore"].isUndefined()) o.masked_score = number(opts["maskedScore"], "attention: maskedScore");
    return result_js(ref::attention(tensor(q), tensor(k), tensor(v), o));
  });
}

val causal_self_attention(val x, val wq, val wk, val wv) {
  return guarded([&] { return result_js(ref::causal_self_attention(tensor(x), tensor(wq), tensor(wk), tensor(wv))); });
}

val attention_loops(val q, val k, val v, val mask) {
  return guarded(
      [&] { return result_js(ref::attention_loops(tensor(q), tensor(k), tensor(v), optional_tensor<bool>(mask))); });
}

// The grader's Rng.normals (grader/core/prng.mjs) on a stream whose mulberry32 state is `state`: n
// normals times `scale` and the state after them, the numbers its JS loop draws, bit for bit
// (prng.hpp), without that loop's cold start in a process that grades once.
val rng_normals(val state, val n, val scale) {
  return guarded([&] {
    const double s = number(state, "rng_normals: state");
    if (!(s >= 0 && s < 4294967296.0 && s == std::floor(s)))
      throw std::invalid_argument("rng_normals: state must be a uint32");
    attnlab::Rng rng(static_cast<std::uint32_t>(s));
    const auto values = rng.normals(size(n, "rng_normals: n"), number(scale, "rng_normals: scale"));
    val o = val::object();
    o.set("values", val::global("Float64Array").new_(emscripten::typed_memory_view(values.size(), values.data())));
    o.set("state", rng.state());
    return o;
  });
}

}  // namespace

ATTNLAB_BINDINGS(reference) {
  def("rng_normals", &rng_normals);
  def("ref_causalMask", &causal_mask);
  def("ref_softmax", &softmax);
  def("ref_matmul", &matmul);
  def("ref_attention", &attention);
  def("ref_causalSelfAttention", &causal_self_attention);
  def("ref_attentionLoops", &attention_loops);
}
