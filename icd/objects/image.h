#pragma once

#include <vulkan/vulkan_core.h>

#include <cstddef>

#include "objects/memory.h"
#include "texel/image_layout.h"
#include "util/object.h"

namespace duet {

struct Image : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkImage, VK_OBJECT_TYPE_IMAGE);

  Image() : NonDispatchableObject(kObjectType) {}

  VkImageCreateFlags flags = 0;
  VkImageType type = VK_IMAGE_TYPE_2D;
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkExtent3D extent{};
  uint32_t mip_levels = 1;
  uint32_t array_layers = 1;
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  VkImageTiling tiling = VK_IMAGE_TILING_OPTIMAL;
  VkImageUsageFlags usage = 0;
  texel::ImageLayout layout;
  DeviceMemory* memory = nullptr;
  VkDeviceSize memory_offset = 0;

  std::byte* Data() const { return memory != nullptr ? memory->data + memory_offset : nullptr; }
};

struct ImageView : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkImageView, VK_OBJECT_TYPE_IMAGE_VIEW);

  ImageView() : NonDispatchableObject(kObjectType) {}

  Image* image = nullptr;
  VkImageViewType view_type = VK_IMAGE_VIEW_TYPE_2D;
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkComponentMapping components{};
  VkImageSubresourceRange range{};  // REMAINING_* resolved at creation
  VkImageUsageFlags usage = 0;
};

}  // namespace duet
