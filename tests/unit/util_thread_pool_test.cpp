// ParallelFor runs every index once and returns only when all have run,
// job after job: workers that spin between jobs, sleep, or wake late must
// never miss one or let a job end early.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "util/thread_pool.h"

namespace duet {
namespace {

TEST(ThreadPool, EveryIndexRunsOnceBeforeParallelForReturns) {
  std::vector<std::atomic<uint32_t>> runs(64);
  for (uint32_t job = 0; job < 3000; ++job) {
    const uint32_t count = 1 + job % 64;
    for (uint32_t i = 0; i < count; ++i) runs[i].store(0);
    ParallelFor(count, [&](uint32_t i) { runs[i].fetch_add(1); });
    for (uint32_t i = 0; i < count; ++i) ASSERT_EQ(runs[i].load(), 1u) << "job " << job << " index " << i;
    // Now and then a pause longer than the spin, so that workers sleep.
    if (job % 500 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

TEST(ThreadPool, CallersOnSeveralThreadsEachGetTheirOwnJob) {
  // Each job counts its own indices: one job's items never run in another's.
  std::atomic<uint32_t> total{0};
  auto caller = [&] {
    for (int job = 0; job < 200; ++job) {
      std::atomic<uint32_t> mine{0};
      ParallelFor(8, [&](uint32_t) { mine.fetch_add(1); });
      EXPECT_EQ(mine.load(), 8u);
      total.fetch_add(mine.load());
    }
  };
  std::thread a(caller), b(caller);
  a.join();
  b.join();
  EXPECT_EQ(total.load(), 2u * 200 * 8);
}

}  // namespace
}  // namespace duet
