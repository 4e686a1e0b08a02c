#include "pipeline_cache/cache_stats.h"

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace duet::pipeline_cache {
namespace {

struct Counters {
  std::atomic<uint64_t> stages{0}, compiled{0}, app_hits{0}, disk_hits{0}, disk_stores{0}, disk_evicted{0};

  // Runs when the driver is unloaded or the process exits.
  ~Counters() {
    const char* enabled = std::getenv("DUET_STATS");
    if (enabled == nullptr || std::strcmp(enabled, "1") != 0) return;
    std::fprintf(stderr,
                 "duet stats: pipeline_cache stages=%" PRIu64 " compiled=%" PRIu64 " app_hits=%" PRIu64
                 " disk_hits=%" PRIu64 " disk_stores=%" PRIu64 " disk_evicted=%" PRIu64 "\n",
                 stages.load(), compiled.load(), app_hits.load(), disk_hits.load(), disk_stores.load(),
                 disk_evicted.load());
  }
};

Counters counters;

}  // namespace

void CountStage() { ++counters.stages; }
void CountCompiled() { ++counters.compiled; }
void CountAppHit() { ++counters.app_hits; }
void CountDiskHit() { ++counters.disk_hits; }
void CountDiskStore() { ++counters.disk_stores; }
void CountDiskEviction() { ++counters.disk_evicted; }

CacheCounts CurrentCacheCounts() {
  return {counters.stages.load(),    counters.compiled.load(),    counters.app_hits.load(),
          counters.disk_hits.load(), counters.disk_stores.load(), counters.disk_evicted.load()};
}

}  // namespace duet::pipeline_cache
