#include "host_baseline.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

namespace duet_bench {
namespace {

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};
using HostBlock = std::unique_ptr<std::byte, FreeDeleter>;

HostBlock AllocateTouched(uint64_t bytes, int value) {
  const size_t rounded = (bytes + 63) / 64 * 64;
  auto* p = static_cast<std::byte*>(std::aligned_alloc(64, rounded));
  if (p == nullptr) throw std::bad_alloc();
  std::memset(p, value, rounded);  // fault every page in before timing
  return HostBlock(p);
}

// Tells the compiler the bytes at p are used, so a copy into them that is
// never read back is not removed.
inline void KeepWritten(void* p) { asm volatile("" : : "r"(p) : "memory"); }

}  // namespace

double HostBaselineGbps(HostOp op, uint64_t bytes, const TimingPlan& plan) {
  HostBlock src = AllocateTouched(bytes, 0x5a);
  HostBlock dst = AllocateTouched(bytes, 0);
  const TimedRun run = [&](uint32_t reps) {
    const auto start = std::chrono::steady_clock::now();
    for (uint32_t i = 0; i < reps; ++i) {
      if (op == HostOp::kCopy)
        std::memcpy(dst.get(), src.get(), bytes);
      else
        std::memset(dst.get(), int(0xa5 + i), bytes);
      KeepWritten(dst.get());
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  return GigabytesPerSecond(bytes, MeasureBest(run, plan));
}

}  // namespace duet_bench
