// attnlab/fused_parallel.hpp — the fused float32 attention of fused.hpp on a thread pool.
//
//   ThreadPool pool(4);                       // once (pool.hpp)
//   ParallelWorkspace<DefaultPath> ws;        // once; only grows
//   attention_f32_parallel(q, k, v, out, weights, dims, opts, ws, pool, 4);
//
// Same arguments and results as attention_f32 — bit-identical, because every schedule is made of
// the same two steps (Kernel::pack, Kernel::superblock) on the same data: a super-block reads only
// packed K/V and writes only its own rows. The work is one list of items handed out dynamically
// (ThreadPool::run): first the pack chunks of every (b, h), then every (b, h) x super-block of
// NB*R query rows. Super-blocks go out in decreasing order of cost (under the causal mask a late
// block sees many more keys than an early one), so the big ones start first and the small ones
// fill the gaps at the end: the causal triangle ends up balanced within about one small block,
// whichever thread is slow. A super-block waits (spinning) only for the pack chunks of its own
// (b, h), which were all handed out before it. Calls smaller than kMinParallelWork run on the
// calling thread alone: waking the workers would cost more than it saves (tests lower min_work
// to 0 to run every shape through the pool).
//
// Allocation: none per call once ws has grown to the largest shape (packed K/V of every (b, h),
// one Scratch per thread, one counter per (b, h)). Threads: none created, ever; the pool's are.
//
// Run: tests/cpp/test_fused.cpp (natively, 1..7 threads, bit-identical to attention_f32) and
// tests/js/conformance.test.mjs (the -mt WASM builds at 1, 2 and the core count).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "attnlab/fused.hpp"
#include "attnlab/pool.hpp"

namespace attnlab::fused {

template <class P>
struct ParallelWorkspace {
  std::vector<float> kp, vp;                              // packed K and V of every (b, h)
  std::vector<Scratch<P>> scratch;                        // one per thread
  std::unique_ptr<std::atomic<std::uint32_t>[]> pending;  // pack chunks not yet done, per (b, h)
  std::size_t pending_size = 0;
};

// Multiply-adds (visible query-key pairs x (d + dv)) below which a call stays on one thread. About
// 0.1-0.2 ms of work here, against the tens of microseconds a sleeping worker takes to wake.
inline constexpr double kMinParallelWork = double(1 << 20);

// Returns true when the call went through the pool, false when it ran on the caller alone.
template <class P>
bool attention_f32_parallel_with(const float* q, const float* k, const float* v, float* out, float* weights,
                                 const Dims& s, const Options& o, ParallelWorkspace<P>& ws, ThreadPool& pool,
                                 int threads, double min_work = kMinParallelWork) {
  if (const std::string err = check(s, o); !err.empty()) throw std::invalid_argument(err);
  const Kernel<P> kernel(s, o);
  const std::size_t BH = s.B * s.H, nk = kernel.kp_size(), nv = kernel.vp_size();
  const std::size_t chunks = kernel.pack_chunks(), nsb = kernel.superblocks(), rows = Kernel<P>::kRows;
  threads = std::max(1, std::min(threads, pool.size()));

  if (ws.kp.size() < BH * nk) ws.kp.resize(BH * nk);
  if (ws.vp.size() < BH * nv) ws.vp.resize(BH * nv);
  if (ws.scratch.size() < std::size_t(threads)) ws.scratch.resize(threads);
  for (int t = 0; t < threads; ++t) kernel.prepare(ws.scratch[t]);
  if (ws.pending_size < BH) {
    ws.pending.reset(new std::atomic<std::uint32_t>[BH]);
    ws.pending_size = BH;
  }
  float *const kp = ws.kp.data(), *const vp = ws.vp.data();
  const auto kin = [&](std::size_t bh) { return k + bh * s.Tk * s.d; };
  const auto vin = [&](std::size_t bh) { return v + bh * s.Tk * s.dv; };
  const auto block = [&](std::size_t bh, std::size_t sb, int t) {
    kernel.superblock(ws.scratch[t], q + bh * s.Tq * s.d, kp + bh * nk, vp + bh * nv, out + bh * s.Tq * s.dv,
                      weights ? weights + bh * s.Tq * s.Tk : nullptr, sb * rows);
  };

  double work = 0;
  for (std::size_t sb = 0; sb < nsb; ++sb) work += double(kernel.superblock_cost(sb));
  work *= double(BH) * double(s.d + s.dv);
  if (threads == 1 || work < min_work) {
    for (std::size_t bh = 0; bh < BH; ++bh) {
      for (std::size_t c = 0; c < chunks; ++c) kernel.pack(kin(bh), vin(bh), kp + bh * nk, vp + bh * nv, c);
      for (std::size_t sb = 0; sb < nsb; ++sb) block(bh, sb, 0);
    }
    return false;
  }

  for (std::size_t bh = 0; bh < BH; ++bh) ws.pending[bh].store(std::uint32_t(chunks), std::memory_order_relaxed);
  const std::size_t npack = BH * chunks;
  pool.run(
      npack + BH * nsb,
      [&](std::size_t item, int t) {
        if (item < npack) {
          const std::size_t bh = item / chunks;
          kernel.pack(kin(bh), vin(bh), kp + bh * nk, vp + bh * nv, item % chunks);
          ws.pending[bh].fetch_sub(1, std::memory_order_release);
          return;
        }
        // Super-blocks last to first (cost grows with the row under the causal mask), (b, h) innermost.
        const std::size_t m = item - npack, bh = m % BH, sb = nsb - 1 - m / BH;
        while (ws.pending[bh].load(std::memory_order_acquire) != 0) cpu_relax();
        block(bh, sb, t);
      },
      threads);
  return true;
}

// The production entry point of the threaded WASM builds (and of the native tests).
inline bool attention_f32_parallel(const float* q, const float* k, const float* v, float* out, float* weights,
                                   const Dims& s, const Options& o, ParallelWorkspace<DefaultPath>& ws,
                                   ThreadPool& pool, int threads, double min_work = kMinParallelWork) {
  return attention_f32_parallel_with<DefaultPath>(q, k, v, out, weights, s, o, ws, pool, threads, min_work);
}

}  // namespace attnlab::fused
