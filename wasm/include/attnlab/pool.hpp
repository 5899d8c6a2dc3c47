// attnlab/pool.hpp — a fixed pool of worker threads for data-parallel loops.
//
//   ThreadPool pool(4);                    // 3 std::threads started here, once; the caller is thread 0
//   pool.run(n, [&](std::size_t item, int thread) { ... }, 2);   // items [0, n) on threads 0 and 1
//
// run() hands out items one at a time from a shared counter (dynamic scheduling: a thread that is
// late, descheduled or slow just takes fewer), the caller works too, and run() returns once every
// item is done. Nothing is allocated and no thread is created per run().
//
// Waiting: a worker spins on the job counter for a short while (kSpinTime: calls in a loop find it awake),
// then sleeps on a condition variable; the caller, once out of items, spins as briefly for the
// last ones, then sleeps until the worker finishing the last item wakes it. Under Emscripten the
// caller may be a browser's main thread, which cannot block: there Emscripten's futex wait turns
// that sleep into a spin (Node's main thread and workers really sleep, in Atomics.wait).
//
// The constructor waits (up to 2 s) for the workers to start. One that starts later (a pthread whose
// Web Worker is still loading) is not waited for: each counts itself in when it starts and takes
// part from the next job on; only counted-in workers are awaited before the next job replaces the
// current one. A worker that wakes after the items ran out finds nothing to do.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <system_error>
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
  // The caller plus threads - 1 workers (threads < 1 counts as 1).
  // A thread that cannot be created (under Emscripten: no pre-started Web Worker left) makes the
  // pool smaller, not the program fail: size() says how many there are.
  explicit ThreadPool(int threads) {
    workers_.reserve(threads > 1 ? threads - 1 : 0);
    for (int id = 1; id < threads; ++id) {
      try {
        workers_.emplace_back([this, id] { work_loop(id); });
      } catch (const std::system_error&) {
        break;
      }
    }
    size_ = int(workers_.size()) + 1;
    // Let them start before the first job, which a worker not yet started would not see (a job
    // that waits for one is worse: under Emscripten a pthread may need the caller's event loop to
    // start). Bounded: one that takes longer joins from the next job on.
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    for (;;) {
      {
        std::lock_guard<std::mutex> lock(m_);
        if (registered_ == size_ - 1) break;
      }
      if (std::chrono::steady_clock::now() > until) break;
      std::this_thread::yield();
    }
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

  // Threads that ran at least one item of the last run() (1 if it ran on the caller only):
  // what tests check to see that the workers take part. Waits for the workers that saw it.
  int last_participants() {
    wait_acks();
    return participants_.load(std::memory_order_relaxed);
  }

  // f(item, thread) for every item in [0, n), on threads [0, active) (thread 0 is the caller).
  // Not reentrant: one run() at a time, from one thread.
  template <class F>
  void run(std::size_t n, F&& f, int active) {
    if (active > size_) active = size_;
    using Fn = std::remove_reference_t<F>;
    wait_acks();  // every worker that saw the last job is done with it: job_ may be replaced
    if (active <= 1 || n <= 1) {
      participants_.store(n > 0 ? 1 : 0, std::memory_order_relaxed);
      for (std::size_t i = 0; i < n; ++i) f(i, 0);
      return;
    }
    {
      std::lock_guard<std::mutex> lock(m_);
      job_ = Job{[](void* ctx, std::size_t i, int t) { (*static_cast<Fn*>(ctx))(i, t); }, &f, n, active};
      next_.store(0, std::memory_order_relaxed);
      done_.store(0, std::memory_order_relaxed);
      acks_.store(0, std::memory_order_relaxed);
      participants_.store(0, std::memory_order_relaxed);
      expected_ = registered_;
      gen_.store(gen_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
    }
    cv_.notify_all();
    work(0);
    // The last items usually finish within microseconds; past kSpinTime a worker holding one has
    // probably been descheduled (a busy machine), and spinning would only keep it off a core.
    if (spin_until([&] { return done_.load(std::memory_order_acquire) >= n; })) return;
    std::unique_lock<std::mutex> lock(m_);
    done_cv_.wait(lock, [&] { return done_.load(std::memory_order_acquire) >= n; });
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
    bool ran = false;
    for (std::size_t i; (i = next_.fetch_add(1, std::memory_order_relaxed)) < j.n; ran = true) {
      j.call(j.ctx, i, thread);
      if (done_.fetch_add(1, std::memory_order_acq_rel) + 1 == j.n && thread != 0) {
        std::lock_guard<std::mutex> lock(m_);  // the caller may be asleep in run(): wake it
        done_cv_.notify_one();
      }
    }
    if (ran) participants_.fetch_add(1, std::memory_order_relaxed);
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
      std::uint64_t g = seen;
      if (!spin_until([&] { return (g = gen_.load(std::memory_order_acquire)) != seen; })) {
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

  // Polls ready() for up to kSpinTime (the clock is read every 256 polls: under Emscripten it is a
  // call into JS); true once it holds.
  template <class Ready>
  static bool spin_until(Ready&& ready) {
    const auto until = std::chrono::steady_clock::now() + kSpinTime;
    for (;;) {
      for (int i = 0; i < 256; ++i) {
        if (ready()) return true;
        cpu_relax();
      }
      if (std::chrono::steady_clock::now() >= until) return false;
    }
  }

  // How long to poll before sleeping. Measured here (2 cores, relaxed-mt on 2 threads, T = 256 ...
  // 4096): 200 us was best on an idle machine (T=256: 0.14 ms against 0.17 without spinning; equal
  // from T=1024 on), no spinning best with another process on one core (T=256: 0.33 ms against 0.60;
  // T=4096: 35 against 41 ms), 30 us within a few percent of the best in both cases but T=256 idle.
#ifndef ATTNLAB_POOL_SPIN_US
#define ATTNLAB_POOL_SPIN_US 50
#endif
  static constexpr std::chrono::microseconds kSpinTime{ATTNLAB_POOL_SPIN_US};

  int size_;
  std::vector<std::thread> workers_;
  std::mutex m_;
  std::condition_variable cv_, done_cv_;  // workers wait for a job; the caller for its end
  bool stop_ = false;                     // guarded by m_
  int registered_ = 0;                    // guarded by m_: workers that have started
  int expected_ = 0;                      // acks the current job waits for (written by the caller only)
  Job job_{};                             // written under m_ before gen_ moves on
  std::atomic<std::uint64_t> gen_{0};
  std::atomic<std::size_t> next_{0}, done_{0};
  std::atomic<int> acks_{0}, participants_{0};
};

}  // namespace attnlab
