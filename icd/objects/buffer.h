#pragma once

#include <vulkan/vulkan_core.h>

#include <cstddef>

#include "objects/memory.h"
#include "util/object.h"

namespace duet {

struct Buffer : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkBuffer, VK_OBJECT_TYPE_BUFFER);

  Buffer() : NonDispatchableObject(kObjectType) {}

  VkDeviceSize size = 0;
  VkBufferUsageFlags usage = 0;
  VkBufferCreateFlags flags = 0;
  DeviceMemory* memory = nullptr;
  VkDeviceSize memory_offset = 0;

  std::byte* Data() const { return memory != nullptr ? memory->data + memory_offset : nullptr; }
};

struct BufferView : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkBufferView, VK_OBJECT_TYPE_BUFFER_VIEW);

  BufferView() : NonDispatchableObject(kObjectType) {}

  Buffer* buffer = nullptr;
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkDeviceSize offset = 0;
  VkDeviceSize range = 0;  // VK_WHOLE_SIZE resolved at creation
};

}  // namespace duet
