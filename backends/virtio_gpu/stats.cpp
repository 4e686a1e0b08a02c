#include "backends/virtio_gpu/stats.h"

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace duet::virtio_gpu {
namespace {

struct Counters {
  std::atomic<uint64_t> frames{0}, clean{0}, transfers{0}, bytes{0}, flushes{0}, fence_waits{0}, fence_wait_ns{0};

  // Runs at unload or exit, after the last present (like the WSI's counters).
  ~Counters() {
    const char* enabled = std::getenv("DUET_STATS");
    if (enabled == nullptr || std::strcmp(enabled, "1") != 0 || frames + clean == 0) return;
    std::fprintf(stderr,
                 "duet stats: virtio_gpu frames=%" PRIu64 " clean=%" PRIu64 " transfers=%" PRIu64 " bytes=%" PRIu64
                 " flushes=%" PRIu64 " fence_waits=%" PRIu64 " fence_wait_ms=%.3f\n",
                 frames.load(), clean.load(), transfers.load(), bytes.load(), flushes.load(), fence_waits.load(),
                 static_cast<double>(fence_wait_ns.load()) / 1e6);
  }
};

Counters counters;

}  // namespace

void CountFrame() { ++counters.frames; }
void CountClean() { ++counters.clean; }
void CountTransfer(uint64_t bytes) {
  ++counters.transfers;
  counters.bytes += bytes;
}
void CountFlush() { ++counters.flushes; }
void CountFenceWait(uint64_t nanoseconds) {
  ++counters.fence_waits;
  counters.fence_wait_ns += nanoseconds;
}

Counts CurrentCounts() {
  return {counters.frames.load(),  counters.clean.load(),       counters.transfers.load(),
          counters.bytes.load(),   counters.flushes.load(),     counters.fence_waits.load(),
          counters.fence_wait_ns.load()};
}

}  // namespace duet::virtio_gpu
