// A compute pipeline whose set 0 binds storage buffers at bindings 0..n-1,
// with push constants, ready to record dispatches. Every object is
// destroyed with the device; failures throw BenchFailure.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>

namespace duet_bench {

class BenchDevice;

class ComputeKernel {
 public:
  ComputeKernel(BenchDevice& device, std::span<const uint32_t> spirv, std::span<const VkBuffer> storage_buffers,
                uint32_t push_constant_bytes);

  // Binds the pipeline and set, pushes `push` (push_constant_bytes of it)
  // and dispatches groups.
  void RecordDispatch(VkCommandBuffer cb, const void* push, uint32_t groups_x, uint32_t groups_y = 1,
                      uint32_t groups_z = 1) const;

 private:
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
  uint32_t push_constant_bytes_ = 0;
};

// Compute writes made visible to the next dispatch's reads and writes.
void RecordComputeBarrier(VkCommandBuffer cb);

}  // namespace duet_bench
