#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <vector>

#include "spirv_exec/spirv_ingest.h"
#include "util/object.h"

namespace duet {

struct ShaderModule : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkShaderModule, VK_OBJECT_TYPE_SHADER_MODULE);

  ShaderModule() : NonDispatchableObject(kObjectType) {}

  std::vector<uint32_t> words;
};

struct Device;

// The layout rules the device's enabled features allow modules to use.
spirv_exec::ValidationRules ShaderValidationRules(const Device& device);

}  // namespace duet
