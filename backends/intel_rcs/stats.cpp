#include "backends/intel_rcs/stats.h"

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace duet::intel_rcs {
namespace {

struct Counters {
  std::atomic<uint64_t> batches{0}, gpu_bytes{0}, fallbacks{0};

  ~Counters() {
    const char* enabled = std::getenv("DUET_STATS");
    if (enabled == nullptr || std::strcmp(enabled, "1") != 0 || batches + fallbacks == 0) return;
    std::fprintf(stderr, "duet stats: intel_rcs batches=%" PRIu64 " gpu_bytes=%" PRIu64 " fallbacks=%" PRIu64 "\n",
                 batches.load(), gpu_bytes.load(), fallbacks.load());
  }
};

Counters counters;

}  // namespace

void CountBatch(uint64_t bytes_written) {
  ++counters.batches;
  counters.gpu_bytes += bytes_written;
}
void CountFallback() { ++counters.fallbacks; }
Counts CurrentCounts() { return {counters.batches.load(), counters.gpu_bytes.load(), counters.fallbacks.load()}; }

}  // namespace duet::intel_rcs
