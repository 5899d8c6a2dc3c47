// Embind layer over attnlab::fused (fused.hpp), the float32 fast path of issue 4.
// fused_attention_f32 copies q, k, v (JS Float32Arrays) into heap buffers it owns (kept for the next
// call), runs the kernel and returns {out, weights?} as fresh JS-owned Float32Arrays (a view would
// die when memory grows), or {error: message}. Argument checks with JS-level messages live in wasm/fused.mjs; the C++ check
// here is the last line. Compiled by tools/build-wasm with every other wasm/src/*.cpp.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <string>
#include <vector>

#include "attnlab/fused.hpp"

using emscripten::val;
namespace fused = attnlab::fused;

namespace {

val error(const std::string& msg) {
  val o = val::object();
  o.set("error", msg);
  return o;
}

// Heap buffers kept between calls (they only grow): repeated calls of one size then cost two copies
// and the kernel, no allocation. The weights buffer (Tq x Tk) is released after each call.
struct Buffers {
  std::vector<float> q, k, v, out;
  fused::Workspace ws;
};
Buffers& buffers() {
  static Buffers b;
  return b;
}

float* from_js(std::vector<float>& buf, const val& a, std::size_t n) {
  if (buf.size() < n) buf.resize(n);
  val(emscripten::typed_memory_view(n, buf.data())).call<void>("set", a);
  return buf.data();
}

val to_js(const float* data, std::size_t n) {
  return val::global("Float32Array").new_(emscripten::typed_memory_view(n, data));
}

// scale: NaN means the default 1/sqrt(d) (JS null/undefined).
val attention_f32(const val& q, const val& k, const val& v, std::size_t B, std::size_t H, std::size_t Tq,
                  std::size_t Tk, std::size_t d, std::size_t dv, bool causal, double scale, bool weights) {
  const fused::Dims s{B, H, Tq, Tk, d, dv};
  fused::Options o;
  o.causal = causal;
  if (!std::isnan(scale)) o.scale = scale;
  if (const std::string err = fused::check(s, o); !err.empty()) return error(err);
  const std::size_t nq = B * H * Tq * d, nk = B * H * Tk * d, nv = B * H * Tk * dv, no = B * H * Tq * dv;
  for (auto [name, arr, n] : {std::tuple{"q", &q, nq}, {"k", &k, nk}, {"v", &v, nv}})
    if ((*arr)["length"].as<std::size_t>() != n)
      return error(std::string("attention_f32: ") + name + " has " +
                   std::to_string((*arr)["length"].as<std::size_t>()) + " values, the shape needs " +
                   std::to_string(n));
  Buffers& b = buffers();
  const float *qh = from_js(b.q, q, nq), *kh = from_js(b.k, k, nk), *vh = from_js(b.v, v, nv);
  if (b.out.size() < no) b.out.resize(no);
  std::vector<float> w(weights ? B * H * Tq * Tk : 0);
  fused::attention_f32(qh, kh, vh, b.out.data(), weights ? w.data() : nullptr, s, o, &b.ws);
  val r = val::object();
  r.set("out", to_js(b.out.data(), no));
  if (weights) r.set("weights", to_js(w.data(), w.size()));
  return r;
}

std::string kernel_kind() { return fused::kernel_kind(); }

// Current size of the WASM linear memory; it never shrinks, so after a call it is that call's peak.
double heap_bytes() { return double(__builtin_wasm_memory_size(0)) * 65536.0; }

}  // namespace

EMSCRIPTEN_BINDINGS(attnlab_fused) {
  emscripten::function("fused_attention_f32", &attention_f32);
  emscripten::function("fused_kernel_kind", &kernel_kind);
  emscripten::function("fused_heap_bytes", &heap_bytes);
}
