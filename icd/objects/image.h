#pragma once

#include <vulkan/vulkan_core.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

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

  // What the driver knows the image holds since its last load-op clear
  // (raster/known_clear.h): the tiles that still hold the clear's texel.
  // Queue threads read and write it under `mutex`.
  struct KnownClear {
    std::mutex mutex;
    bool valid = false;
    uint64_t image_writes = 0;  // Device::image_writes when the clear began
    uint32_t texel_size = 0;
    std::byte texel[32]{};
    std::vector<uint8_t> tiles;  // row by row: 1 where the tile holds the texel
  };
  KnownClear known_clear;

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
