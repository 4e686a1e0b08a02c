#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <vector>

#include "util/object.h"

namespace duet {

struct ShaderModule : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkShaderModule, VK_OBJECT_TYPE_SHADER_MODULE);

  ShaderModule() : NonDispatchableObject(kObjectType) {}

  std::vector<uint32_t> words;
};

}  // namespace duet
