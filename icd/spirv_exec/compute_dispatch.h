// vkCmdDispatch*: runs a compute pipeline's workgroups. Workgroups are spread
// over the thread pool; within one, its invocations run as waves on one
// thread, and a barrier makes each wave yield until all have reached it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "objects/device_limits.h"
#include "spirv_exec/shader_watchdog.h"

namespace duet {

struct DescriptorSet;
struct Device;
struct Pipeline;

inline constexpr uint32_t kMaxBoundDescriptorSets = limits::kMaxBoundDescriptorSets;
inline constexpr uint32_t kMaxPushConstantBytes = 256;

// What a command buffer has bound for one bind point when it dispatches.
struct ShaderBindings {
  const Pipeline* pipeline = nullptr;
  std::array<const DescriptorSet*, kMaxBoundDescriptorSets> sets{};
  std::array<std::vector<uint32_t>, kMaxBoundDescriptorSets> dynamic_offsets;
  std::array<std::byte, kMaxPushConstantBytes> push_constants{};
};

namespace spirv_exec {

// The watchdog for one dispatch or draw on `device`: a wave that loops
// longer than the device's limit marks it lost (and wakes its waiters);
// every wave given it stops at its next check once the device is lost.
// Draws make it their WorkContext's (util/thread_pool.h), which their
// vertex and fragment waves consult.
ShaderWatchdog DeviceWatchdog(Device* device);

// Runs the workgroups base .. base + count - 1. A workgroup whose wave runs
// longer than the device's watchdog limit marks `device` lost and the
// dispatch stops; so does one that starts after the device was lost.
void RunComputeDispatch(Device* device, const ShaderBindings& bindings, const uint32_t base[3],
                        const uint32_t count[3]);

}  // namespace spirv_exec
}  // namespace duet
