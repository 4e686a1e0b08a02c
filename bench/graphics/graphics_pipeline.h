// Graphics pipelines for dynamic rendering into the RenderTarget (static
// 512x512 viewport and scissor, triangle lists unless said, no blending) and the
// descriptor sets the workloads bind. Objects are destroyed with the
// device; failures throw BenchFailure.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <vector>

namespace duet_bench {

class BenchDevice;

struct GraphicsPipelineDesc {
  std::span<const uint32_t> vertex_spirv;
  std::span<const uint32_t> fragment_spirv;
  std::span<const uint32_t> geometry_spirv;  // empty: no geometry shader
  // Both or neither: tessellation of patches of patch_control_points.
  std::span<const uint32_t> tess_control_spirv, tess_evaluation_spirv;
  uint32_t patch_control_points = 4;
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  std::vector<VkVertexInputBindingDescription> bindings;
  std::vector<VkVertexInputAttributeDescription> attributes;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkCullModeFlags cull_mode = VK_CULL_MODE_NONE;  // front faces are counter-clockwise
  VkFormat depth_format = VK_FORMAT_UNDEFINED;    // set: depth test LESS with writes
  VkPipelineCache cache = VK_NULL_HANDLE;
  const VkSpecializationInfo* specialization = nullptr;  // of every stage
};

// A pipeline the device destroys at its end.
VkPipeline CreateGraphicsPipeline(BenchDevice& device, const GraphicsPipelineDesc& desc);
// A pipeline the caller destroys (its shader modules are made for it and
// destroyed once it exists).
VkPipeline MakeGraphicsPipeline(BenchDevice& device, const GraphicsPipelineDesc& desc);

// A set layout of the given bindings, one descriptor each, and a pipeline
// layout with that one set (or none, when `bindings` is empty) and the
// push constant ranges.
struct SetLayout {
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
};
SetLayout CreateSetLayout(BenchDevice& device, std::span<const VkDescriptorSetLayoutBinding> bindings,
                          std::span<const VkPushConstantRange> push_constants = {});

// Writes one descriptor of `set`: a buffer or an image (the other null).
void WriteDescriptor(BenchDevice& device, VkDescriptorSet set, uint32_t binding, VkDescriptorType type,
                     const VkDescriptorBufferInfo* buffer, const VkDescriptorImageInfo* image);

// One descriptor set of `layout` from a pool of its own, sized by `sizes`.
VkDescriptorSet AllocateSet(BenchDevice& device, VkDescriptorSetLayout layout,
                            std::span<const VkDescriptorPoolSize> sizes);

}  // namespace duet_bench
