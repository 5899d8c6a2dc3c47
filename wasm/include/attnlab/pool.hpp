// attnlab/pool.hpp — a fixed pool of worker threads for data-parallel loops (issue 13).
//
//   ThreadPool pool(4);                    // 3 std::threads started here, once; the caller is thread 0
//   pool.run(n, [&](std::size_t item, int thread) { ... }, 2);   // items [0, n) on threads 0 and 1
//
// run() hands out items one at a time from a shared counter (dynamic scheduling: a thread that is
// late, descheduled or slow just takes fewer), the caller works too, and run() returns once every
// item is done. Nothing is allocated and no thread is created per run().
//
// Waking: a worker spins on the job counter for a short while (calls in a loop find it awake),
// then sleeps on a condition variable. Under Emscripten the caller may be a browser's main thread,
// which must not block: it never sleeps here, it only spins on atomics (and on the mutex's short
// critical sections, which Emscripten's futex turns into a spin on that thread).
//
// Workers that have not started yet (a pthread whose Web Worker is still loading) are not waited
// for: each counts itself in when it starts, and only counted-in workers are awaited before the
// next job replaces this one. A worker that wakes after the items ran out finds nothing to do.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace attnlab {

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

class ThreadPool {
 public:
  // threads >= 1: the caller plus threads - 1 workers.
  explicit ThreadPool(int threads) : size_(threads < 1 ? 1 : threads) {
    workers_.reserve(size_ - 1);
    for (int id = 1; id < size_; ++id) workers_.emplace_back([this, id] { work_loop(id); });
  }
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;
  ~ThreadPool() {
    wait_acks();
    {
      std::lock_guard<std::mutex> lock(m_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : workers_) t.join();
  }

  int size() const noexcept { return size_; }

  // f(item, thread) for every item in [0, n), on threads [0, active) (thread 0 is the caller).
  // Not reentrant: one run() at a time, from one thread.
  template <class F>
  void run(std::size_t n, F&& f, int active) {
    if (active > size_) active = size_;
    if (active <= 1 || n <= 1) {
      for (std::size_t i = 0; i < n; ++i) f(i, 0);
      return;
    }
    using Fn = std::remove_reference_t<F>;
    wait_acks();  // every worker that saw the last job is done with it: job_ may be replaced
    {
      std::lock_guard<std::mutex> lock(m_);
      job_ = Job{[](void* ctx, std::size_t i, int t) { (*static_cast<Fn*>(ctx))(i, t); }, &f, n, active};
      next_.store(0, std::memory_order_relaxed);
      done_.store(0, std::memory_order_relaxed);
      acks_.store(0, std::memory_order_relaxed);
      expected_ = registered_;
      gen_.store(gen_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
    }
    cv_.notify_all();
    work(0);
    while (done_.load(std::memory_order_acquire) < n) cpu_relax();
  }

 private:
  struct Job {
    void (*call)(void*, std::size_t, int);
    void* ctx;
    std::size_t n;
    int active;
  };

  void work(int thread) {
    const Job& j = job_;
    if (thread >= j.active) return;
    for (std::size_t i; (i = next_.fetch_add(1, std::memory_order_relaxed)) < j.n;) {
      j.call(j.ctx, i, thread);
      done_.fetch_add(1, std::memory_order_release);
    }
  }

  void wait_acks() {
    while (acks_.load(std::memory_order_acquire) < expected_) cpu_relax();
  }

  void work_loop(int id) {
    std::uint64_t seen;
    {
      std::lock_guard<std::mutex> lock(m_);
      seen = gen_.load(std::memory_order_relaxed);  // jobs published before this are not ours
      ++registered_;
    }
    for (;;) {
      std::uint64_t g = spin_for_job(seen);
      if (g == seen) {
        std::unique_lock<std::mutex> lock(m_);
        cv_.wait(lock, [&] { return stop_ || gen_.load(std::memory_order_relaxed) != seen; });
        if (stop_) return;
        g = gen_.load(std::memory_order_relaxed);
      }
      seen = g;
      work(id);
      acks_.fetch_add(1, std::memory_order_release);
    }
  }

  // Polls gen_ for up to kSpinTime (the clock is read every 256 polls: under Emscripten it is a
  // call into JS). Returns the generation seen last.
  std::uint64_t spin_for_job(std::uint64_t seen) const {
    const auto until = std::chrono::steady_clock::now() + kSpinTime;
    for (;;) {
      for (int i = 0; i < 256; ++i) {
        const std::uint64_t g = gen_.load(std::memory_order_acquire);
        if (g != seen) return g;
        cpu_relax();
      }
      if (std::chrono::steady_clock::now() >= until) return seen;
    }
  }

  static constexpr std::chrono::microseconds kSpinTime{200};

  const int size_;
  std::vector<std::thread> workers_;
  std::mutex m_;
  std::condition_variable cv_;
  bool stop_ = false;     // guarded by m_
  int registered_ = 0;    // guarded by m_: workers that have started
  int expected_ = 0;      // acks the current job waits for (written by the caller only)
  Job job_{};             // written under m_ before gen_ moves on
  std::atomic<std::uint64_t> gen_{0};
  std::atomic<std::size_t> next_{0}, done_{0};
  std::atomic<int> acks_{0};
};

}  // namespace attnlab
