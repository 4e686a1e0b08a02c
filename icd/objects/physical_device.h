#pragma once

#include <vulkan/vulkan_core.h>

#include "util/object.h"

namespace duet {

struct Instance;

struct PhysicalDevice : DispatchableObject {
  DUET_OBJECT_TYPE(VkPhysicalDevice, VK_OBJECT_TYPE_PHYSICAL_DEVICE);

  explicit PhysicalDevice(Instance* owner) : DispatchableObject(kObjectType), instance(owner) {}

  Instance* instance;
  VkPhysicalDeviceMemoryProperties memory_properties{};
};

// The one queue family: graphics, compute and transfer.
inline constexpr uint32_t kQueueFamilyCount = 1;
inline constexpr uint32_t kQueuesPerFamily = 4;

// One heap sized from system memory, one host-visible coherent cached type.
VkPhysicalDeviceMemoryProperties MakeMemoryProperties();

}  // namespace duet
