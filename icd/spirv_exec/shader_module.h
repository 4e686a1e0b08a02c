#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <memory_resource>
#include <span>
#include <string>
#include <vector>

#include "spirv_exec/spirv_ingest.h"
#include "util/host_alloc.h"
#include "util/object.h"

namespace duet {

struct ShaderModule : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkShaderModule, VK_OBJECT_TYPE_SHADER_MODULE);

  explicit ShaderModule(const VkAllocationCallbacks* allocator)
      : NonDispatchableObject(kObjectType), memory(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT) {}

  HostMemoryResource memory;  // words
  std::pmr::vector<uint32_t> words{&memory};
};

struct Device;

// The layout rules the device's enabled features allow modules to use.
spirv_exec::ValidationRules ShaderValidationRules(const Device& device);

// The SPIR-V of a pipeline's shader stage: its module's, or (graphics
// pipeline libraries, VK_KHR_maintenance5) that of a VkShaderModuleCreateInfo
// in its chain, checked as vkCreateShaderModule checks (the structure), kept in `storage`.
// Empty (with `error`) when there is neither or it is invalid.
std::span<const uint32_t> StageModuleWords(const VkPipelineShaderStageCreateInfo& stage, std::vector<uint32_t>* storage,
                                           std::string* error);

// The subgroup size a stage runs with: its requiredSubgroupSize
// (VkPipelineShaderStageRequiredSubgroupSizeCreateInfo), else the wave width.
uint32_t StageSubgroupSize(const VkPipelineShaderStageCreateInfo& stage);

}  // namespace duet
