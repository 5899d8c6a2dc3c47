// attnlab::js — what every Embind file needs (wasm/src/*.cpp and each pack's reference/bind.cpp), so
// that a binding is a line per function (STYLE 8: thin, with stated ownership).
//
// Tensors cross as JS objects {data, shape}: data a Float64Array (a Uint8Array of 0/1 for bool),
// shape an array of integers; wasm/index.mjs normalises whatever the caller passed first. Results are
// plain JS objects and arrays whose typed arrays are fresh copies, never views of the WASM heap (views
// die when memory grows). A C++ exception never crosses into JS: `guarded` turns it into {error:
// message}, which index.mjs throws as an Error.
//
// A pack registers its functions as "<slug>.<name>", reachable from JS as core.call("<slug>.<name>", …):
//   ATTNLAB_BINDINGS(demo) { def("demo.split_heads", +[](val x, val h) { return guarded([&] {
//     return to_js(attnlab::demo::split_heads(tensor(x), size(h, "n_heads"))); }); }); }
#pragma once

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <xtensor/xarray.hpp>

namespace attnlab::js {

using emscripten::val;

// typed_memory_view has no bool: masks travel as bytes (Uint8Array).
template <class T>
using Elem = std::conditional_t<std::is_same_v<T, bool>, unsigned char, T>;

/** {data, shape} → xarray: one copy, from the JS typed array straight into the xarray's buffer. */
template <class T = double>
xt::xarray<T> tensor(const val& t) {
  const auto shape = emscripten::vecFromJSArray<std::size_t>(t["shape"]);
  xt::xarray<T> a = xt::xarray<T>::from_shape(shape);
  val(emscripten::typed_memory_view(a.size(), reinterpret_cast<Elem<T>*>(a.data()))).call<void>("set", t["data"]);
  return a;
}

/** A tensor argument that may be null or undefined. */
template <class T = double>
std::optional<xt::xarray<T>> optional_tensor(const val& t) {
  if (t.isUndefined() || t.isNull()) return std::nullopt;
  return tensor<T>(t);
}

/** xarray → {data, shape} with the data copied out of the heap (`new Float64Array(view)` copies). */
template <class T>
val to_js(const xt::xarray<T>& a) {
  const char* ctor = std::is_same_v<T, bool> ? "Uint8Array" : "Float64Array";
  val shape = val::array();
  for (auto d : a.shape()) shape.call<void>("push", d);
  val out = val::object();
  out.set("data",
          val::global(ctor).new_(emscripten::typed_memory_view(a.size(), reinterpret_cast<const Elem<T>*>(a.data()))));
  out.set("shape", shape);
  return out;
}

/** A JS array of values: pairs such as [out, weights] or [k, v]. */
inline val list(std::initializer_list<val> items) {
  val a = val::array();
  for (const auto& v : items) a.call<void>("push", v);
  return a;
}

/** A JS number argument, checked; `what` names it in the error. */
inline double number(const val& v, const char* what) {
  if (!v.isNumber()) throw std::invalid_argument(std::string(what) + " must be a number");
  return v.as<double>();
}

/**
 * A number argument the caller may leave out (a parameter with a default, `eps = 1e-6` in JS, `eps=1e-6` in
 * Python): undefined or null → `fallback`, anything else checked as `number` does.
 */
inline double number(const val& v, const char* what, double fallback) {
  return v.isUndefined() || v.isNull() ? fallback : number(v, what);
}

/** A non-negative integer argument (a size, a count, an offset). */
inline std::size_t size(const val& v, const char* what) {
  const double x = number(v, what);
  if (!(x >= 0 && x == std::floor(x) && x < 9.0e15)) {
    throw std::invalid_argument(std::string(what) + " must be a non-negative integer, got " + std::to_string(x));
  }
  return static_cast<std::size_t>(x);
}

/** A boolean argument (undefined → `fallback`). */
inline bool flag(const val& v, bool fallback) { return v.isUndefined() || v.isNull() ? fallback : v.as<bool>(); }

// Options objects (the last argument of a reference function that can also compute a mistake, see
// exercises/README.md "Diagnoses"): null or undefined means all defaults, as does a missing field.
inline val field(const val& options, const char* key) {
  return options.isUndefined() || options.isNull() ? val::undefined() : options[key];
}
inline double option(const val& options, const char* key, double fallback) {
  const val v = field(options, key);
  return v.isUndefined() || v.isNull() ? fallback : number(v, key);
}
inline bool option(const val& options, const char* key, bool fallback) { return flag(field(options, key), fallback); }
inline std::string option(const val& options, const char* key, const char* fallback) {
  const val v = field(options, key);
  return v.isString() ? v.as<std::string>() : std::string(fallback);
}

/** Runs `f`, turning any C++ exception into {error: message}. */
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

/** Registers `fn` as Module[name]; `name` is "<slug>.<function>" for a pack. */
template <class F>
void def(const char* name, F fn) {
  emscripten::function(name, fn);
}

}  // namespace attnlab::js

// One Embind block per pack (or per file of wasm/src): ATTNLAB_BINDINGS(demo) { def(…); … }
#define ATTNLAB_BINDINGS(name) EMSCRIPTEN_BINDINGS(attnlab_##name)
