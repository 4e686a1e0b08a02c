// Counters of the Intel backend. DUET_STATS=1 prints them to stderr when
// the driver is unloaded (or the process exits), when a GPU was used:
//   duet stats: intel_rcs batches=N gpu_bytes=N fallbacks=N
// batches     batches the GPU ran to completion
// gpu_bytes   bytes the GPU's fills and copies wrote
// fallbacks   commands that went back to the CPU after the GPU failed them
#pragma once

#include <cstdint>

namespace duet::intel_rcs {

struct Counts {
  uint64_t batches = 0, gpu_bytes = 0, fallbacks = 0;
};

void CountBatch(uint64_t bytes_written);
void CountFallback();
Counts CurrentCounts();

}  // namespace duet::intel_rcs
