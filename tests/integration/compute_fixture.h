// Compute pipelines over buffers for the shader tests: a QueueTest that
// builds a pipeline from SPIR-V (compiled from tests/shaders at build time)
// with buffer (or image) descriptors at set 0, bindings 0..n-1, optional
// push constants and specialization, and dispatches it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "vk_fixture.h"

namespace duet_test {

class ComputeFixture : public QueueTest {
 protected:
  // glslang gives compute shaders LocalSizeId, which needs maintenance4
  // (enabled with the shader features).
  ComputeFixture() { device_options_.shader_features = true; }

  struct Kernel {
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkDescriptorSet set = VK_NULL_HANDLE;
  };

  // One buffer descriptor: `range` bytes from `offset` (VK_WHOLE_SIZE: to the end).
  // Image descriptor types (sampled, storage, combined image sampler) take
  // `view` and `sampler` instead, in VK_IMAGE_LAYOUT_GENERAL; texel buffer
  // types take `texel_view`.
  struct BufferBinding {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    VkDeviceSize offset = 0;
    VkDeviceSize range = VK_WHOLE_SIZE;
    VkImageView view = VK_NULL_HANDLE;
    VkSampler sampler = VK_NULL_HANDLE;
    VkBufferView texel_view = VK_NULL_HANDLE;
    // Buffers of array elements 1, 2... of a buffer binding (whole buffers).
    std::vector<VkBuffer> more_elements = {};
  };

  // The pipeline, its layout and a written descriptor set; objects go away at TearDown.
  Kernel MakeKernelWithBindings(std::span<const uint32_t> code, const std::vector<BufferBinding>& bindings,
                                uint32_t push_bytes, const VkSpecializationInfo* specialization = nullptr);
  // Storage buffers over whole buffers (the common case).
  Kernel MakeKernel(std::span<const uint32_t> code, const std::vector<VkBuffer>& buffers, uint32_t push_bytes);
  // The pipeline and its layout over `set_layouts`, without a descriptor set.
  Kernel MakePipeline(std::span<const uint32_t> code, const std::vector<VkDescriptorSetLayout>& set_layouts,
                      uint32_t push_bytes, const VkSpecializationInfo* specialization = nullptr);
  // One set of `layout` from a pool of its own with `sizes` (destroyed at TearDown).
  VkDescriptorSet AllocateSet(VkDescriptorSetLayout layout, const std::vector<VkDescriptorPoolSize>& sizes);
  // A 2D view of mip 0, layer 0 of a colour image (destroyed at TearDown unless told otherwise).
  VkImageView MakeImageView(VkImage image, VkFormat format, bool destroy_at_teardown = true);

  // vkCreateComputePipelines' result for `code` under an empty layout (for rejection tests).
  VkResult TryCreatePipeline(std::span<const uint32_t> code, const VkSpecializationInfo* specialization = nullptr);

  // Records bind + push + dispatch, submits and waits (ASSERTs success).
  void Run(const Kernel& k, uint32_t x, uint32_t y = 1, uint32_t z = 1, const void* push = nullptr,
           uint32_t push_bytes = 0);

  HostBuffer StorageBuffer(VkDeviceSize size);

  // Chained to the VkComputePipelineCreateInfo of the pipelines made after it is set.
  const void* pipeline_next_ = nullptr;
  // Chained to their shader stage (e.g. a required subgroup size), and its flags.
  const void* stage_next_ = nullptr;
  VkPipelineShaderStageCreateFlags stage_flags_ = 0;
};

}  // namespace duet_test
