// Embind layer over attnlab::ref (reference.hpp): thin on purpose (STYLE 8).
// Each function takes tensors as JS objects {data, shape} (data: Float64Array, or Uint8Array for
// masks; wasm/index.mjs normalises the input first) and returns plain JS objects whose typed arrays
// are fresh copies, never views of the WASM heap (those die when memory grows).
// A C++ exception never crosses into JS: it comes back as {error: message}, and index.mjs throws it
// as an Error. Compiled by tools/build-wasm together with every other wasm/src/*.cpp.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <exception>
#include <string>

#include "attnlab/reference.hpp"

using emscripten::val;
namespace ref = attnlab::ref;

namespace {

// typed_memory_view has no bool: masks travel as bytes (Uint8Array).
template <class T>
using Elem = std::conditional_t<std::is_same_v<T, bool>, unsigned char, T>;

template <class T>
xt::xarray<T> from_js(const val& t) {
  const auto shape = emscripten::vecFromJSArray<std::size_t>(t["shape"]);
  xt::xarray<T> a = xt::xarray<T>::from_shape(shape);
  // One copy, from the JS typed array straight into the xarray's buffer (bool is one byte here).
  val(emscripten::typed_memory_view(a.size(), reinterpret_cast<Elem<T>*>(a.data())))
      .call<void>("set", t["data"]);
  return a;
}

template <class T>
val to_js(const xt::xarray<T>& a) {
  const char* ctor = std::is_same_v<T, bool> ? "Uint8Array" : "Float64Array";
  val shape = val::array();
  for (auto d : a.shape()) shape.call<void>("push", d);
  val out = val::object();
  // `new Float64Array(view)` copies the heap bytes into a JS-owned buffer.
  out.set("data", val::global(ctor).new_(
                      emscripten::typed_memory_view(a.size(), reinterpret_cast<const Elem<T>*>(a.data()))));
  out.set("shape", shape);
  return out;
}

val result_js(const ref::AttentionResult& r) {
  val o = val::object();
  o.set("out", to_js(r.out));
  o.set("weights", to_js(r.weights));
  return o;
}

std::optional<xt::xarray<bool>> mask_js(const val& m) {
  if (m.isUndefined() || m.isNull()) return std::nullopt;
  return from_js<bool>(m);
}

template <class F>
val guarded(F&& f) {
  try {
    return f();
  } catch (const std::exception& e) {
    val o = val::object();
    o.set("error", std::string(e.what()));
    return o;
  }
}

val causal_mask(double T) {
  return guarded([&] {
    if (!(T >= 0 && T == std::floor(T) && T < 1e9))
      throw std::invalid_argument("causal_mask: T must be a non-negative integer, got " + std::to_string(T));
    return to_js(ref::causal_mask(static_cast<std::size_t>(T)));
  });
}

val softmax(val x, double axis) {
  return guarded([&] { return to_js(ref::softmax(from_js<double>(x), static_cast<std::ptrdiff_t>(axis))); });
}

val matmul(val a, val b) {
  return guarded([&] { return to_js(ref::matmul(from_js<double>(a), from_js<double>(b))); });
}

// opts: {mask?: Tensor(bool), scale?: number, maskedScore?: number}
val attention(val q, val k, val v, val opts) {
  return guarded([&] {
    ref::AttentionOptions o;
    o.mask = mask_js(opts["mask"]);
    if (!opts["scale"].isUndefined() && !opts["scale"].isNull()) o.scale = opts["scale"].as<double>();
    if (!opts["maskedScore"].isUndefined()) o.masked_score = opts["maskedScore"].as<double>();
    return result_js(ref::attention(from_js<double>(q), from_js<double>(k), from_js<double>(v), o));
  });
}

val causal_self_attention(val x, val wq, val wk, val wv) {
  return guarded([&] {
    return result_js(ref::causal_self_attention(from_js<double>(x), from_js<double>(wq),
                                                from_js<double>(wk), from_js<double>(wv)));
  });
}

val attention_loops(val q, val k, val v, val mask) {
  return guarded([&] {
    return result_js(ref::attention_loops(from_js<double>(q), from_js<double>(k), from_js<double>(v),
                                          mask_js(mask)));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attnlab_reference) {
  emscripten::function("ref_causalMask", &causal_mask);
  emscripten::function("ref_softmax", &softmax);
  emscripten::function("ref_matmul", &matmul);
  emscripten::function("ref_attention", &attention);
  emscripten::function("ref_causalSelfAttention", &causal_self_attention);
  emscripten::function("ref_attentionLoops", &attention_loops);
}
