// Process-wide pipeline cache counters. DUET_STATS=1 prints them to stderr
// when the driver is unloaded (or the process exits), one line:
//   duet stats: pipeline_cache stages=N compiled=N app_hits=N disk_hits=N disk_stores=N disk_evicted=N
// stages       shader stages pipelines were created with
// compiled     of those, compiled from SPIR-V
// app_hits     found in the application's VkPipelineCache
// disk_hits    found in the on-disk cache
// disk_stores  files written to the on-disk cache
// disk_evicted files removed to keep it within its bound
#pragma once

#include <cstdint>

namespace duet::pipeline_cache {

struct CacheCounts {
  uint64_t stages = 0, compiled = 0, app_hits = 0, disk_hits = 0, disk_stores = 0, disk_evicted = 0;
};

void CountStage();
void CountCompiled();
void CountAppHit();
void CountDiskHit();
void CountDiskStore();
void CountDiskEviction();
CacheCounts CurrentCacheCounts();

}  // namespace duet::pipeline_cache
