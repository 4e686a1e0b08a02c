#include "util/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

namespace duet {
namespace {

thread_local WorkContext tls_context;

class ThreadPool {
 public:
  explicit ThreadPool(uint32_t threads) {
    for (uint32_t i = 1; i < threads; ++i) workers_.emplace_back([this] { WorkerLoop(); });
  }

  ~ThreadPool() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
  }

  uint32_t Size() const { return static_cast<uint32_t>(workers_.size()) + 1; }

  void Run(uint32_t count, const std::function<void(uint32_t)>& fn) {
    std::lock_guard serialize(run_mutex_);
    {
      std::lock_guard lock(mutex_);
      job_ = &fn;
      job_context_ = tls_context;
      job_count_ = count;
      next_.store(0);
      busy_.store(static_cast<uint32_t>(workers_.size()));
      generation_.store(generation_.load() + 1);
    }
    wake_.notify_all();
    Work();
    // The workers' last items usually end soon: wait for them awake.
    SpinWhile([&] { return busy_.load(std::memory_order_acquire) != 0; });
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return busy_.load() == 0; });
    job_ = nullptr;
  }

 private:
  void Work() {
    for (uint32_t i = next_.fetch_add(1); i < job_count_; i = next_.fetch_add(1)) (*job_)(i);
  }

  // DUET_POOL_SPIN_US, 250 by default.
  static std::chrono::microseconds SpinTime() {
    const char* env = std::getenv("DUET_POOL_SPIN_US");
    return std::chrono::microseconds(env != nullptr ? std::max(0, std::atoi(env)) : 250);
  }

  // Spins (with pause) while `busy()` holds, for at most SpinTime(). A
  // thread that sleeps instead takes tens of microseconds to wake on a
  // virtual machine: a frame's draw would start with one thread.
  template <typename Busy>
  static void SpinWhile(Busy busy) {
    static const std::chrono::microseconds spin_time = SpinTime();
    if (spin_time.count() == 0) return;
    const auto until = std::chrono::steady_clock::now() + spin_time;
    while (busy()) {
      for (int i = 0; i < 32; ++i) Pause();
      if (std::chrono::steady_clock::now() >= until) return;
    }
  }

  static void Pause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
  }

  void WorkerLoop() {
    uint64_t seen = 0;
    for (;;) {
      // The next job usually follows soon (the next draw, the next frame).
      SpinWhile([&] { return generation_.load(std::memory_order_acquire) == seen && !stopping_.load(); });
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return stopping_.load() || generation_.load() != seen; });
        if (stopping_) return;
        seen = generation_.load();
      }
      {
        // The job runs with its caller's context.
        ScopedWorkContext context(job_context_);
        Work();
      }
      std::lock_guard lock(mutex_);
      if (busy_.fetch_sub(1) == 1) done_.notify_all();
    }
  }

  std::vector<std::thread> workers_;
  std::mutex run_mutex_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(uint32_t)>* job_ = nullptr;
  WorkContext job_context_;
  uint32_t job_count_ = 0;
  std::atomic<uint32_t> next_{0};
  // Written under mutex_ (so that sleepers miss no change), read while spinning too.
  std::atomic<uint32_t> busy_{0};
  std::atomic<uint64_t> generation_{0};
  std::atomic<bool> stopping_{false};
};

uint32_t ConfiguredThreads() {
  if (const char* env = std::getenv("DUET_THREADS")) {
    const int n = std::atoi(env);
    if (n > 0) return static_cast<uint32_t>(n);
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

ThreadPool& Pool() {
  static ThreadPool pool(ConfiguredThreads());
  return pool;
}

}  // namespace

const WorkContext& CurrentWorkContext() { return tls_context; }

ScopedWorkContext::ScopedWorkContext(const WorkContext& context) : saved_(tls_context) { tls_context = context; }

ScopedWorkContext::~ScopedWorkContext() { tls_context = saved_; }

void ParallelFor(uint32_t count, const std::function<void(uint32_t)>& fn) {
  if (count == 1 || Pool().Size() == 1) {
    for (uint32_t i = 0; i < count; ++i) fn(i);
    return;
  }
  Pool().Run(count, fn);
}

uint32_t ThreadCount() { return Pool().Size(); }

}  // namespace duet
