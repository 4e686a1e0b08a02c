// The memcpy/memset baseline: the same number of bytes written by the host
// in this process, under the same timing rule (measure.h).
#pragma once

#include <cstdint>

#include "measure.h"

namespace duet_bench {

enum class HostOp { kCopy, kFill };

// GB/s of memcpy (kCopy) or memset (kFill) of `bytes` bytes.
double HostBaselineGbps(HostOp op, uint64_t bytes, const TimingPlan& plan);

}  // namespace duet_bench
