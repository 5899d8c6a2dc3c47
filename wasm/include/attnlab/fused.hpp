// attnlab/fused.hpp — fused float32 scaled dot-product attention for the CPU.
//
//   out[b,h,i,:] = sum_j softmax_j(scale * q[b,h,i,:] . k[b,h,j,:]) * v[b,h,j,:]
//   q (B,H,Tq,d), k (B,H,Tk,d), v (B,H,Tk,dv), out (B,H,Tq,dv), optional weights (B,H,Tq,Tk);
//   all row-major float32. causal: query i sees keys j <= i (top-left aligned, also when Tq != Tk).
//
// How: register blocks of R query rows x tiles of BC keys with an online softmax (running max m and
// sum l, the partial output rescaled by 2^(m_old - m_new)), so the Tq x Tk matrix exists only when
// the caller asks for weights. NB register blocks form a super-block that takes each key tile in
// turn, so a tile is reused from cache by NB*R rows. K is packed per (b,h) into groups of G keys laid out [group][d][G], so
// the score micro-kernel reads it with unit stride; V is packed [dv chunk][key][C] for the same
// reason. Key tiles the causal mask hides from a whole query block are never visited. Scores are
// kept in the log2 domain (q is pre-multiplied by scale*log2(e)) so the softmax needs only exp2.
//
// One source, two paths: `Vec4` uses GCC/Clang vector extensions (SIMD128 under -msimd128, SSE
// natively); `Scalar` is the same algorithm one lane wide, for the baseline WASM build (no
// -msimd128). `attention_f32` picks the path at compile time; tests call both explicitly. Every
// multiply-add of the two inner loops goes through `madd`, which is one fused instruction in the
// relaxed-SIMD build (-mrelaxed-simd) and natively under -mfma, and mul + add everywhere else.
//
// -inf and NaN: masked scores are set to true -INFINITY (no finite sentinel) and never enter the
// row max; exp2 clamps its argument at -127, where the result's exponent field is 0, so -inf (and
// any weight below 2^-127) becomes exactly +0: masked weights are exactly 0. Every row sees key 0
// (top-left causal; Tk >= 1 is required), so the running max is finite from the first tile on and
// no -inf - (-inf) = NaN can arise: a fully masked row cannot be requested through this API. NaN in
// q, k or v reaches the output rows it touches (the clamp keeps NaN), never a finite number.
//
// Tuning (B=1, T=1024, d=64, causal, this repo's tools/bench): 4x2 register tiles are what V8 keeps
// in its 15 usable xmm registers; larger tiles (5x2, 6x2: V8 spills them, 1.6x slower with relaxed
// madd), manual or #pragma unrolling, pointer-stepped loops, 128- and 512-key tiles and an FMA
// exp2 polynomial all measured no faster. Key tiles of 256 beat 128 (longer P.V loops). The score
// kernel also yields each row's tile max, so unmasked tiles need no separate max pass.
// Where the time goes (perf on the native -mfma twin, whose time matches the relaxed WASM build):
// score loop 46%, P.V loop 41%, softmax 7%. At this core's 3.15 GHz the two loops run at 77% and
// 86% of its two 128-bit FMAs per cycle, so with 128-bit vectors the kernel is near its ceiling;
// without FMA (plain SIMD128) each multiply-add is two instructions and the build is ~1.25x slower.
//
// Run: tests/cpp/test_fused.cpp (native, both paths) and tests/js/conformance.test.mjs (the three
// WASM builds) check it against the double reference with tests/conformance/attention.json.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace attnlab::fused {

// ---- the two lane types: identical interface, T is either a 4-lane vector or a float ----------

typedef float f32x4 __attribute__((vector_size(16)));
typedef std::uint32_t u32x4 __attribute__((vector_size(16)));  // unsigned: shifts wrap, no UB

// 2^f on [-0.5, 0.5]: degree-5 near-minimax fit, max relative error 2.5e-7 in float32.
template <class T>
inline T exp2_poly(T f) {
  // Estrin's scheme: the dependency chain is 5 operations long instead of Horner's 10 (one extra mul).
  const T f2 = f * f;
  const T a = f * 0.6931469440f + 1.000000119f;
  const T b = f * 0.05550713092f + 0.2402212024f;
  const T c = f * 0.001327647129f + 0.009675540961f;
  return a + f2 * (b + f2 * c);
}

struct Vec4 {
  using T = f32x4;
  static constexpr int W = 4;
  static const char* name() { return "vec128"; }
  static T splat(float x) { return T{x, x, x, x}; }
  static T load(const float* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  static void store(float* p, T v) { std::memcpy(p, &v, sizeof v); }
  // a * b + c, rounded once or twice: the engine picks (f32x4.relaxed_madd: one FMA instruction on
  // CPUs that have it, else mul + add). Clang 14 (Emscripten 3.1.6) names it __builtin_wasm_fma_f32x4
  // and emits the proposal's early opcode, whose operands meant a + b * c; tools/relaxed-opcodes.mjs
  // rewrites it to the standard relaxed_madd, which takes the same stack (a, b, c) as a * b + c.
  // Natively, a * b + c becomes one FMA under -mfma (GCC contracts it by default).
  static T madd(T a, T b, T c) {
#ifdef __wasm_relaxed_simd__
    return __builtin_wasm_fma_f32x4(a, b, c);
#else
    return a * b + c;
#endif
  }
  // a < b ? b : a keeps a when it is NaN; it is one maxps (SSE) / f32x4.pmax (WASM) instruction.
  static T max(T a, T b) {
#ifdef __wasm_simd128__
    return __builtin_wasm_pmax_f32x4(a, b);  // clang would otherwise pick the slow IEEE f32x4.max
#else
    return a < b ? b : a;
#endif
  }
  static float hmax(T v) { return std::max(std::max(v[0], v[1]), std::max(v[2], v[3])); }
  static float hsum(T v) { return (v[0] + v[1]) + (v[2] + v[3]); }
  // dst[i * stride] = splat(lane i of p): P is spread once per tile, not once per output chunk.
  static void spread(T p, T* dst, std::size_t stride) {
    dst[0] = __builtin_shufflevector(p, p, 0, 0, 0, 0);
    dst[stride] = __builtin_shufflevector(p, p, 1, 1, 1, 1);
    dst[2 * stride] = __builtin_shufflevector(p, p, 2, 2, 2, 2);
    dst[3 * stride] = __builtin_shufflevector(p, p, 3, 3, 3, 3);
  }
  // 2^x for x <= 0. Clamping at -127 makes the exponent field 0, so tiny x and -inf give exactly
  // +0; NaN passes the clamp (max keeps its first operand) and stays NaN.
  static T exp2(T x) {
    x = max(x, splat(-127.0f));
    const T magic = splat(12582912.0f);  // 1.5 * 2^23: adding it rounds to an integer
    const T t = x + magic;
    u32x4 bits;
    std::memcpy(&bits, &t, 16);
    const u32x4 e = (bits - 0x4B400000u + 127u) << 23;  // 0x4B400000 = bits of magic
    T pow2n;
    std::memcpy(&pow2n, &e, 16);
    return exp2_poly(x - (t - magic)) * pow2n;
  }
};

struct Scalar {
  using T = float;
  static constexpr int W = 1;
  static const char* name() { return "scalar"; }
  static T splat(float x) { return x; }
  static T load(const float* p) { return *p; }
  static void store(float* p, T v) { *p = v; }
  static T madd(T a, T b, T c) { return a * b + c; }
  static T max(T a, T b) { return a < b ? b : a; }
  static float hmax(T v) { return v; }
  static float hsum(T v) { return v; }
  static void spread(T p, T* dst, std::size_t) { dst[0] = p; }
  static T exp2(T x) {
    x = max(x, -127.0f);
    const float t = x + 12582912.0f;
    std::uint32_t bits;
    std::memcpy(&bits, &t, 4);
    const std::uint32_t e = (bits - 0x4B400000u + 127u) << 23;
    float pow2n;
    std::memcpy(&pow2n, &e, 4);
    return exp2_poly(x - (t - 12582912.0f)) * pow2n;
  }
};

// Tile shapes per path. R query rows share each K/V load; G keys = NV vectors per score
// accumulator row; C output columns = NVO vectors per P.V accumulator row; BC keys per tile.
// R*NV and R*NVO accumulators stay below the 16 vector registers of x86-64 (V8 keeps one).
template <class P>
struct Tiles;
// NB register blocks of R rows (a super-block of NB*R rows) visit each key tile in turn while it is
// in cache: K and V stream from memory once per NB*R query rows instead of once per R.
template <>
struct Tiles<Vec4> {
  static constexpr int R = 4, NV = 2, NVO = 2, BC = 256, NB = 8;
};
template <>
struct Tiles<Scalar> {
  static constexpr int R = 4, NV = 2, NVO = 2, BC = 128, NB = 8;
};

#if defined(ATTNLAB_FUSED_SCALAR) || (defined(__wasm__) && !defined(__wasm_simd128__))
using DefaultPath = Scalar;
#else
using DefaultPath = Vec4;
#endif

// "simd128" (WASM with -msimd128), "relaxed-simd" (also -mrelaxed-simd: fused multiply-add),
// "scalar" (baseline WASM or ATTNLAB_FUSED_SCALAR), "vec128" (native vector extensions: SSE on
// x86-64, FMA too under -mfma). Set by the compiler's macros, not at run time.
inline const char* kernel_kind() {
#if defined(__wasm_relaxed_simd__) && !defined(ATTNLAB_FUSED_SCALAR)
  return "relaxed-simd";
#elif defined(__wasm_simd128__) && !defined(ATTNLAB_FUSED_SCALAR)
  return "simd128";
#else
  return DefaultPath::name();
#endif
}

// ---- arguments -------------------------------------------------------------------------------

struct Dims {
  std::size_t B = 1, H = 1, Tq = 0, Tk = 0, d = 0, dv = 0;
};
struct Options {
  bool causal = false;
  std::optional<double> scale;  // default 1/sqrt(d)
};

// "" when the shapes can be run, otherwise a message naming what is wrong.
inline std::string check(const Dims& s, const Options& o = {}) {
  const auto shape = [&] {
    return "(B=" + std::to_string(s.B) + ", H=" + std::to_string(s.H) + ", Tq=" + std::to_string(s.Tq) +
           ", Tk=" + std::to_string(s.Tk) + ", d=" + std::to_string(s.d) + ", dv=" + std::to_string(s.dv) + ")";
  };
  if (!s.B || !s.H || !s.Tq || !s.Tk || !s.d || !s.dv) return "attention_f32: every size must be >= 1, got " + shape();
  // The largest buffer (weights, or a padded workspace) must be addressable in bytes (32-bit WASM).
  const double limit = double(std::numeric_limits<std::size_t>::max()) / 8;
  const double bh = double(s.B) * double(s.H);
  for (double n : {bh * s.Tq * s.Tk, bh * s.Tq * s.d, bh * s.Tk * s.d, bh * s.Tk * s.dv, bh * s.Tq * s.dv,
                   double(s.Tk + 64) * (s.d + s.dv + 64)})
    if (n > limit) return "attention_f32: sizes " + shape() + " are too large for this address space";
  if (o.scale && !std::isfinite(*o.scale)) return "attention_f32: scale must be finite";
  return "";
}

// ---- the kernel --------------------------------------------------------------------------------

// The packed copies of K and V (one (b, h) at a time in attention_f32, every (b, h) at once in
// attention_f32_parallel). A caller that runs many calls can keep one Workspace to skip reallocating
// them; they only grow.
struct Workspace {
  std::vector<float> kp, vp;
};

// What one thread needs to run super-blocks: the register blocks' state and the score tile. Kept
// by the caller (one per thread) it only grows, so repeated calls allocate nothing.
template <class P>
struct Scratch {
  std::vector<typename P::T> qs, ps;  // q and p pre-splat: [block][x][r] and [key][r]
  std::vector<float> o, s_tile, m_tile;
};

// The geometry of one call (tile counts, padding, scale) and the two steps every schedule is made
// of: pack() one chunk of keys of one (b, h), and superblock() one run of NB*R query rows of one
// (b, h). A super-block reads only packed K/V and writes only its own rows of out and weights, so
// any order of super-blocks, on any threads, gives bit-identical results.
template <class P>
class Kernel {
  using T = typename P::T;
  static constexpr int W = P::W, R = Tiles<P>::R, NV = Tiles<P>::NV, NVO = Tiles<P>::NVO;
  static constexpr int G = NV * W, C = NVO * W, BC = Tiles<P>::BC, NB = Tiles<P>::NB;
  static_assert(BC % G == 0, "a key tile holds whole key groups");
  // Where a splat from memory is one load (WASM: v128.load32_splat; x86 with AVX: vbroadcastss),
  // the P.V kernel splats p straight from the score tile; plain SSE would need a shuffle per use,
  // so there p is spread into splat vectors once per tile instead.
#if defined(__wasm__) || defined(__AVX__)
  static constexpr bool kSpreadP = false;
#else
  static constexpr bool kSpreadP = W > 1;
#endif

 public:
  static constexpr std::size_t kRows = std::size_t(NB) * R;  // query rows per super-block
  static constexpr std::size_t kPackKeys = 1024;             // keys per pack() chunk (whole groups)
  static_assert(kPackKeys % G == 0, "a pack chunk holds whole key groups");

  Kernel(const Dims& s, const Options& o) : s_(s), causal_(o.causal) {
    const double scale = o.scale ? *o.scale : 1.0 / std::sqrt(double(s.d));
    qscale_ = float(scale * 1.4426950408889634);  // log2(e): softmax in base 2
    tk_pad_ = (s.Tk + G - 1) / G * G;             // tiles read whole groups only, never past this
    nt_ = (s.Tk + BC - 1) / BC;
    dv_pad_ = (s.dv + C - 1) / C * C;
  }

  const Dims& dims() const { return s_; }
  bool causal() const { return causal_; }
  std::size_t kp_size() const { return tk_pad_ * s_.d; }     // packed K of one (b, h)
  std::size_t vp_size() const { return tk_pad_ * dv_pad_; }  // packed V of one (b, h)
  std::size_t superblocks() const { return (s_.Tq + kRows - 1) / kRows; }
  std::size_t pack_chunks() const { return (s_.Tk + kPackKeys - 1) / kPackKeys; }

  // Sizes sc for this call (grow only).
  void prepare(Scratch<P>& sc) const {
    const auto grow = [](auto& v, std::size_t n) {
      if (v.size() < n) v.resize(n);
    };
    grow(sc.qs, NB * s_.d * R);
    if (kSpreadP) grow(sc.ps, BC * R);
    grow(sc.o, NB * R * dv_pad_);
    grow(sc.s_tile, R * BC);
    grow(sc.m_tile, NB * R * nt_);
  }

  // The whole call on the calling thread: (b, h) after (b, h), packing into ws.
  void run(const float* q, const float* k, const float* v, float* out, float* weights, Workspace& ws,
           Scratch<P>& sc) const noexcept {
    for (std::size_t bh = 0; bh < s_.B * s_.H; ++bh) {
      for (std::size_t c = 0; c < pack_chunks(); ++c)
        pack(k + bh * s_.Tk * s_.d, v + bh * s_.Tk * s_.dv, ws.kp.data(), ws.vp.data(), c);
      for (std::size_t i0 = 0; i0 < s_.Tq; i0 += kRows)
        superblock(sc, q + bh * s_.Tq * s_.d, ws.kp.data(), ws.vp.data(), out + bh * s_.Tq * s_.dv,
                   weights ? weights + bh * s_.Tq * s_.Tk : nullptr, i0);
    }
  }

  // K -> kp [group][d][G], V -> vp [chunk][key][C] for keys [c*kPackKeys, (c+1)*kPackKeys) of one
  // (b, h); the last chunk also zeroes the padding keys and columns.
  void pack(const float* k, const float* v, float* kp, float* vp, std::size_t chunk) const noexcept {
    const std::size_t d = s_.d, dv = s_.dv, Tk = s_.Tk;
    const std::size_t j0 = chunk * kPackKeys, j1 = std::min(Tk, j0 + kPackKeys);
    const bool last = j1 == Tk;
    if (last) std::fill(kp + (Tk / G) * d * G, kp + tk_pad_ * d, 0.0f);  // partial + padding groups
    for (std::size_t j = j0; j < j1; ++j) {
      float* kg = kp + (j / G) * d * G + j % G;
      for (std::size_t x = 0; x < d; ++x) kg[x * G] = k[j * d + x];
    }
    for (std::size_t c = 0; c < dv_pad_ / C; ++c) {
      float* vc = vp + c * tk_pad_ * C;
      const std::size_t n = std::min<std::size_t>(C, dv - c * C);
      for (std::size_t j = j0; j < j1; ++j) {
        std::memcpy(vc + j * C, v + j * dv + c * C, n * sizeof(float));
        std::fill(vc + j * C + n, vc + (j + 1) * C, 0.0f);
      }
      if (last) std::fill(vc + Tk * C, vc + tk_pad_ * C, 0.0f);
    }
  }

  // Rows [i0, i0 + NB*R) of one (b, h) (q, out, weights point at that (b, h); kp, vp at its packed
  // K and V): each key tile is visited by every register block that sees it before the next tile is
  // loaded, so K and V stream from memory once per NB*R rows, not once per R.
  void superblock(Scratch<P>& sc, const float* q, const float* kp, const float* vp, float* out, float* weights,
                  std::size_t i0) const noexcept {
    const Ctx cx{kp, vp, sc.s_tile.data(), kSpreadP ? sc.ps.data() : nullptr};
    Rows rb[NB];
    int nb = 0;
    for (; nb < NB && i0 + nb * R < s_.Tq; ++nb) {
      rb[nb].qs = &sc.qs[nb * s_.d * R];
      rb[nb].o = &sc.o[nb * R * dv_pad_];
      rb[nb].m_tile = &sc.m_tile[nb * R * nt_];
      start(rb[nb], q, i0 + nb * R);
    }
    const std::size_t kend = rb[nb - 1].kend;  // the last block sees the most keys
    for (std::size_t t = 0; t * BC < kend; ++t)
      for (int b = 0; b < nb; ++b)
        if (t * BC < rb[b].kend) tile(cx, rb[b], t, weights);
    for (int b = 0; b < nb; ++b) finish(rb[b], out, weights);
  }

  // Keys super-block sb sees in all (its rows x visible keys): what the parallel schedule balances.
  std::size_t superblock_cost(std::size_t sb) const noexcept {
    const std::size_t i0 = sb * kRows, rows = std::min(kRows, s_.Tq - i0);
    return rows * (causal_ ? std::min(s_.Tk, i0 + rows) : s_.Tk);
  }

 private:
  // The call's buffers a tile works on: packed K/V of this (b, h), this thread's score tile.
  struct Ctx {
    const float *kp, *vp;
    float* s_tile;
    T* ps;
  };

  // One register block: R query rows and their online-softmax state.
  struct Rows {
    std::size_t i0, rows, kend;  // first row, rows in use, keys [0, kend) seen by at least one row
    float m[R], l[R];            // running max and sum per row
    T* qs;                       // q pre-scaled and pre-splat, [x][r]: one load per use
    float* o;                    // partial outputs, [chunk][r][C]
    float* m_tile;               // [r][tile]: the running max each tile's weights were taken with
  };

  void start(Rows& rb, const float* q, std::size_t i0) const noexcept {
    const std::size_t rows = std::min<std::size_t>(R, s_.Tq - i0), d = s_.d;
    rb.i0 = i0;
    rb.rows = rows;
    rb.kend = causal_ ? std::min(s_.Tk, i0 + rows) : s_.Tk;
    for (std::size_t x = 0; x < d; ++x)
      for (int r = 0; r < R; ++r)
        rb.qs[x * R + r] = P::splat(std::size_t(r) < rows ? q[(i0 + r) * d + x] * qscale_ : 0.0f);
    std::fill(rb.m, rb.m + R, -std::numeric_limits<float>::infinity());
    std::fill(rb.l, rb.l + R, 0.0f);
    std::fill(rb.o, rb.o + R * dv_pad_, 0.0f);
  }

  // Key tile t for one register block: scores, mask, online softmax, P.V.
  void tile(const Ctx& cx, Rows& rb, std::size_t t, float* weights) const noexcept {
    const std::size_t d = s_.d, i0 = rb.i0;
    float alpha[R];
    const std::size_t j0 = t * BC, jn = std::min<std::size_t>(BC, rb.kend - j0);
    const std::size_t groups = (jn + G - 1) / G, width = groups * G;
    T rmax[R];  // per-row running max of the tile's scores, from the score kernel
    for (auto& x : rmax) x = P::splat(-std::numeric_limits<float>::infinity());
    for (std::size_t g = 0; g < groups; ++g) scores(rb.qs, &cx.kp[(j0 / G + g) * d * G], &cx.s_tile[g * G], rmax);
    if (j0 + width > s_.Tk || (causal_ && j0 + width > i0 + 1)) mask(cx.s_tile, i0, j0, width, rmax);
    bool rescale = false;
    for (int r = 0; r < R; ++r) {
      float* srow = &cx.s_tile[r * BC];
      const float m_new = std::max(rb.m[r], P::hmax(rmax[r]));
      alpha[r] = Scalar::exp2(rb.m[r] - m_new);
      rescale |= alpha[r] != 1.0f;
      const T mv = P::splat(m_new);
      T sum = P::splat(0.0f);
      for (std::size_t j = 0; j < width; j += W) {
        const T p = P::exp2(P::load(srow + j) - mv);
        sum += p;
        P::store(srow + j, p);
        if constexpr (kSpreadP) P::spread(p, &cx.ps[j * R + r], R);
      }
      rb.l[r] = rb.l[r] * alpha[r] + P::hsum(sum);
      rb.m[r] = m_new;
      if (weights && std::size_t(r) < rb.rows) {
        rb.m_tile[r * nt_ + t] = m_new;
        std::memcpy(weights + (i0 + r) * s_.Tk + j0, srow, std::min(width, s_.Tk - j0) * sizeof(float));
      }
    }
    accumulate(cx, rb.o, j0, width, rescale ? alpha : nullptr);
  }

  // out = o / l per row; the row's weights rescaled to the final max and sum.
  void finish(const Rows& rb, float* out, float* weights) const noexcept {
    for (std::size_t r = 0; r < rb.rows; ++r) {
      const float inv = 1.0f / rb.l[r];
      float* orow = out + (rb.i0 + r) * s_.dv;
      for (std::size_t x0 = 0; x0 < s_.dv; x0 += C) {
        const float* oc = &rb.o[((x0 / C) * R + r) * C];
        if (x0 + C <= s_.dv)
          for (int u = 0; u < NVO; ++u) P::store(orow + x0 + u * W, P::load(oc + u * W) * P::splat(inv));
        else
          for (std::size_t x = x0; x < s_.dv; ++x) orow[x] = oc[x - x0] * inv;
      }
      if (weights) finish_weights(weights + (rb.i0 + r) * s_.Tk, &rb.m_tile[r * nt_], rb.kend, rb.m[r], inv);
    }
  }

  // s_tile[r][0..G) = (q_r . k_j) for the G keys of one packed group; rmax[r] takes their max.
  void scores(const T* qs, const float* kg, float* st, T* rmax) const noexcept {
    T acc[R][NV];
    for (auto& row : acc)
      for (auto& a : row) a = P::splat(0.0f);
    for (std::size_t x = 0; x < s_.d; ++x, kg += G, qs += R) {
      T kv[NV];
      for (int u = 0; u < NV; ++u) kv[u] = P::load(kg + u * W);
      for (int r = 0; r < R; ++r)
        for (int u = 0; u < NV; ++u) acc[r][u] = P::madd(qs[r], kv[u], acc[r][u]);
    }
    for (int r = 0; r < R; ++r)
      for (int u = 0; u < NV; ++u) {
        P::store(st + r * BC + u * W, acc[r][u]);
        rmax[r] = P::max(rmax[r], acc[r][u]);
      }
  }

  // -inf where key j is padding (j >= Tk) or hidden (causal, j > i); rmax recomputed without them.
  void mask(float* s_tile, std::size_t i0, std::size_t j0, std::size_t width, T* rmax) const noexcept {
    for (int r = 0; r < R; ++r) {
      const std::size_t lim = causal_ ? std::min(s_.Tk, i0 + r + 1) : s_.Tk;  // first hidden key
      float* srow = &s_tile[r * BC];
      for (std::size_t j = std::max(lim, j0); j < j0 + width; ++j)
        srow[j - j0] = -std::numeric_limits<float>::infinity();
      rmax[r] = P::load(srow);
      for (std::size_t j = W; j < width; j += W) rmax[r] = P::max(rmax[r], P::load(srow + j));
    }
  }

  // o[r][:] = alpha[r] * o[r][:] + sum_j p[r][j] * v[j][:]   (alpha == nullptr: all 1)
  void accumulate(const Ctx& cx, float* o, std::size_t j0, std::size_t width, const float* alpha) const noexcept {
    const float* s_tile = cx.s_tile;
    const T* ps = cx.ps;
    for (std::size_t c = 0; c < dv_pad_ / C; ++c) {
      float* oc = &o[c * R * C];
      T acc[R][NVO];
      for (int r = 0; r < R; ++r)
        for (int u = 0; u < NVO; ++u) acc[r][u] = P::load(oc + r * C + u * W);
      if (alpha)
        for (int r = 0; r < R; ++r)
          for (int u = 0; u < NVO; ++u) acc[r][u] *= P::splat(alpha[r]);
      const float* vc = &cx.vp[(c * tk_pad_ + j0) * C];
      for (std::size_t j = 0; j < width; ++j, vc += C) {
        T vv[NVO];
        for (int u = 0; u < NVO; ++u) vv[u] = P::load(vc + u * W);
        for (int r = 0; r < R; ++r) {
          const T p = kSpreadP ? ps[j * R + r] : P::splat(s_tile[r * BC + j]);
          for (int u = 0; u < NVO; ++u) acc[r][u] = P::madd(p, vv[u], acc[r][u]);
        }
      }
      for (int r = 0; r < R; ++r)
        for (int u = 0; u < NVO; ++u) P::store(oc + r * C + u * W, acc[r][u]);
    }
  }

  // Tile t of the row holds 2^(s - m_tile[t]); rescale to 2^(s - m) / l. Keys >= kend were never
  // visited by this block (all hidden): exactly 0.
  void finish_weights(float* w, const float* m_tile, std::size_t kend, float m, float inv) const noexcept {
    for (std::size_t j0 = 0, t = 0; j0 < kend; j0 += BC, ++t) {
      const float f = Scalar::exp2(m_tile[t] - m) * inv;
      for (std::size_t j = j0, j1 = std::min(kend, j0 + BC); j < j1; ++j) w[j] *= f;
    }
    std::fill(w + kend, w + s_.Tk, 0.0f);
  }

  Dims s_;
  bool causal_;
  float qscale_;
  std::size_t tk_pad_, dv_pad_, nt_;  // keys padded to whole groups; key tiles
};

// Runs attention with the lane type P (tests use both); throws std::invalid_argument on bad shapes.
// weights may be null (then no Tq x Tk buffer exists anywhere); ws may be null (a temporary one).
template <class P>
void attention_f32_with(const float* q, const float* k, const float* v, float* out, float* weights, const Dims& s,
                        const Options& o = {}, Workspace* ws = nullptr) {
  if (const std::string err = check(s, o); !err.empty()) throw std::invalid_argument(err);
  Workspace local;
  Workspace& w = ws ? *ws : local;
  const Kernel<P> kernel(s, o);
  if (w.kp.size() < kernel.kp_size()) w.kp.resize(kernel.kp_size());
  if (w.vp.size() < kernel.vp_size()) w.vp.resize(kernel.vp_size());
  Scratch<P> sc;
  kernel.prepare(sc);
  kernel.run(q, k, v, out, weights, w, sc);
}

// The production entry point: vector path, or scalar in the baseline WASM build.
inline void attention_f32(const float* q, const float* k, const float* v, float* out, float* weights, const Dims& s,
                          const Options& o = {}, Workspace* ws = nullptr) {
  attention_f32_with<DefaultPath>(q, k, v, out, weights, s, o, ws);
}

}  // namespace attnlab::fused
