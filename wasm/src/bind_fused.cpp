// Embind layer over attnlab::fused (fused.hpp), the float32 fast path (the fused kernel the conformance table checks).
// fused_attention_f32 copies q, k, v (JS Float32Arrays) into heap buffers it owns (kept for the next
// call), runs the kernel and returns {out, weights?} as fresh JS-owned Float32Arrays (a view would
// die when memory grows), or {error: message}. Argument checks with JS-level messages live in wasm/fused.mjs; the C++ check
// here is the last line. Compiled by tools/build-wasm with every other wasm/src/*.cpp.
// In the threaded builds (-pthread: attnlab-*-mt) the kernel runs on a pool (fused_parallel.hpp)
// that fused_start_threads(n) creates once, right after load (wasm/index.mjs), from the Web Workers
// Emscripten pre-started for it (PTHREAD_POOL_SIZE = n - 1); fused_set_threads(k) then uses k <= n
// of them. JS only ever runs on the calling thread: the workers run the kernel and nothing else.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "attnlab/fused.hpp"
#ifdef __EMSCRIPTEN_PTHREADS__
#include "attnlab/fused_parallel.hpp"
#endif

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
#ifdef __EMSCRIPTEN_PTHREADS__
  fused::ParallelWorkspace<fused::DefaultPath> pws;
  attnlab::ThreadPool* pool = nullptr;  // created once, never destroyed (lives as long as the module)
  int threads = 1;
  double min_work = fused::kMinParallelWork;
  bool last_parallel = false;
#endif
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
#ifdef __EMSCRIPTEN_PTHREADS__
  if (b.pool)
    b.last_parallel = fused::attention_f32_parallel(qh, kh, vh, b.out.data(), weights ? w.data() : nullptr, s, o, b.pws,
                                                    *b.pool, b.threads, b.min_work);
  else
#endif
    fused::attention_f32(qh, kh, vh, b.out.data(), weights ? w.data() : nullptr, s, o, &b.ws);
  val r = val::object();
  r.set("out", to_js(b.out.data(), no));
  if (weights) r.set("weights", to_js(w.data(), w.size()));
  return r;
}

std::string kernel_kind() { return fused::kernel_kind(); }

// Threads: in a single-threaded build there is one and start/set return 1. In a threaded build
// start_threads(n) creates the pool of n (n - 1 workers) the first time and returns its size;
// set_threads(k) uses min(k, size) of them and returns that; threads() is what calls use now.
#ifdef __EMSCRIPTEN_PTHREADS__
int start_threads(int n) {
  Buffers& b = buffers();
  if (!b.pool) {
    b.pool = new attnlab::ThreadPool(n);
    b.threads = b.pool->size();
  }
  return b.pool->size();
}
int set_threads(int k) {
  Buffers& b = buffers();
  b.threads = std::max(1, std::min(k, b.pool ? b.pool->size() : 1));
  return b.threads;
}
int threads() { return buffers().threads; }
int max_threads() { return buffers().pool ? buffers().pool->size() : 1; }
// Tests: how many threads ran part of the last call (1: it stayed on the caller), and the size below
// which calls stay on the caller (0: every call goes through the pool; NaN: the default).
int last_call_threads() {
  Buffers& b = buffers();
  return b.last_parallel ? b.pool->last_participants() : 1;
}
void set_min_parallel_work(double w) { buffers().min_work = std::isnan(w) ? fused::kMinParallelWork : w; }
#else
int last_call_threads() { return 1; }
void set_min_parallel_work(double) {}
int start_threads(int) { return 1; }
int set_threads(int) { return 1; }
int threads() { return 1; }
int max_threads() { return 1; }
#endif

// Current size of the WASM linear memory; it never shrinks, so after a call it is that call's peak.
double heap_bytes() { return double(__builtin_wasm_memory_size(0)) * 65536.0; }

}  // namespace

EMSCRIPTEN_BINDINGS(attnlab_fused) {
  emscripten::function("fused_attention_f32", &attention_f32);
  emscripten::function("fused_kernel_kind", &kernel_kind);
  emscripten::function("fused_heap_bytes", &heap_bytes);
  emscripten::function("fused_start_threads", &start_threads);
  emscripten::function("fused_set_threads", &set_threads);
  emscripten::function("fused_threads", &threads);
  emscripten::function("fused_max_threads", &max_threads);
  emscripten::function("fused_last_call_threads", &last_call_threads);
  emscripten::function("fused_set_min_parallel_work", &set_min_parallel_work);
}
