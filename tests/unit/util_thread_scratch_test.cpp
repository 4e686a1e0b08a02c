// ThreadScratch: one object per live thread, owned by its registry, reused
// by later threads once its thread exits (queue threads come and go with
// devices: the count must follow the threads alive, not the threads ever made).
#include <gtest/gtest.h>

#include <barrier>
#include <thread>
#include <vector>

#include "util/thread_scratch.h"

namespace duet {
namespace {

struct Scratch {
  std::vector<int> values;
};

TEST(ThreadScratch, EachThreadKeepsItsOwnObjectWhileAlive) {
  struct Own : Scratch {};
  Own* first = &ThreadScratch<Own>();
  first->values.assign(1000, 7);
  EXPECT_EQ(&ThreadScratch<Own>(), first);
  EXPECT_EQ(ThreadScratch<Own>().values.size(), 1000u);

  // Threads alive at the same time hold different objects.
  constexpr int kThreads = 4;
  std::vector<Own*> seen(kThreads);
  std::barrier all_hold(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      seen[t] = &ThreadScratch<Own>();
      all_hold.arrive_and_wait();
    });
  }
  for (std::thread& t : threads) t.join();
  for (int a = 0; a < kThreads; ++a) {
    EXPECT_NE(seen[a], first);
    for (int b = a + 1; b < kThreads; ++b) EXPECT_NE(seen[a], seen[b]);
  }
  EXPECT_EQ(ScratchRegistryOf<Own>().Size(), size_t{kThreads + 1});
}

TEST(ThreadScratch, ObjectsOfExitedThreadsAreReusedWithTheirMemory) {
  struct Reused : Scratch {};
  Reused* previous = nullptr;
  for (int round = 0; round < 50; ++round) {
    std::thread([&] {
      Reused& mine = ThreadScratch<Reused>();
      if (previous != nullptr) {
        EXPECT_EQ(&mine, previous) << "round " << round;
        EXPECT_EQ(mine.values.size(), 4096u) << "round " << round;  // what the last thread left
      }
      mine.values.resize(4096);
      previous = &mine;
    }).join();
  }
  EXPECT_EQ(ScratchRegistryOf<Reused>().Size(), 1u);
}

TEST(ThreadScratch, EachTypeIsItsOwnScratch) {
  struct A : Scratch {};
  struct B : Scratch {};
  EXPECT_NE(static_cast<void*>(&ThreadScratch<A>()), static_cast<void*>(&ThreadScratch<B>()));
}

}  // namespace
}  // namespace duet
