#pragma once

#include <vulkan/vulkan_core.h>

#include <cstddef>

#include "util/object.h"

namespace duet {

struct Device;

// Device memory is host memory: "device addresses" are host pointers.
struct DeviceMemory : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkDeviceMemory, VK_OBJECT_TYPE_DEVICE_MEMORY);

  DeviceMemory() : NonDispatchableObject(kObjectType) {}

  VkDeviceSize size = 0;
  uint32_t type_index = 0;
  std::byte* data = nullptr;
  size_t mapped_length = 0;  // the length of the host mapping backing `data`
  bool mapped = false;
};

}  // namespace duet
