// The compute workloads: one vkCmdDispatch each, measured in invocations
// per second, checked against a C++ reference after the timed runs.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "bench_workload.h"
#include "options.h"

namespace duet_bench {

class BenchDevice;

struct ComputeWorkloadInfo {
  std::string_view name;   // command-line name
  std::string_view label;  // table row
  uint64_t invocations;    // per dispatch
  // quick: the smoke test's shorter variant (same shader, same dispatch).
  std::unique_ptr<BenchWorkload> (*make)(BenchDevice&, bool quick);
};

std::span<const ComputeWorkloadInfo> ComputeWorkloads();
std::span<const WorkloadName> ComputeWorkloadNames();
const ComputeWorkloadInfo* FindComputeWorkload(std::string_view name);

}  // namespace duet_bench
