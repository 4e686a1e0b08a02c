// The measured workloads: one Vulkan transfer command each, on a 64 MiB
// buffer or a 1920x1080 R8G8B8A8_UNORM optimal-tiling image. "Bytes" is
// what one command writes (for copies, the copy size).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "bench_workload.h"
#include "host_baseline.h"
#include "options.h"

namespace duet_bench {

class BenchDevice;

struct WorkloadInfo {
  std::string_view name;   // command-line name, e.g. "copy_buffer"
  std::string_view label;  // table row, e.g. "vkCmdCopyBuffer 64 MiB"
  uint64_t bytes;          // written per repetition
  HostOp host_op;          // the baseline: memcpy or memset of `bytes`
};

std::span<const WorkloadInfo> AllWorkloads();
std::span<const WorkloadName> AllWorkloadNames();
const WorkloadInfo* FindWorkload(std::string_view name);

// A transfer workload: Verify checks the destination byte for byte; the
// repetitions are separated by RecordRepetitionBarrier.
class Workload : public BenchWorkload {
 public:
  void RecordBetween(VkCommandBuffer cb) override;
};

// Creates the workload's resources on `device` and fills its sources; the
// images are left in the layouts RecordOnce uses. Throws BenchFailure.
std::unique_ptr<Workload> PrepareWorkload(const WorkloadInfo& info, BenchDevice& device);

// The barrier between two repetitions: transfer writes made visible to the
// next transfer, so no driver may merge or reorder the repetitions.
void RecordRepetitionBarrier(VkCommandBuffer cb);

}  // namespace duet_bench
