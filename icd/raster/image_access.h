// Byte-level addressing of one subresource (aspect plane, mip level, array
// layer) of an image bound to memory, in units of texel blocks. Copies work
// on blocks; format conversions (blits, clears) work on texels of
// uncompressed formats, where a block is a texel.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstddef>
#include <cstdint>

#include "objects/image.h"
#include "texel/format_info.h"

namespace duet::raster {

struct SubresourceAccess {
  std::byte* base = nullptr;       // block (0,0,0) of the layer
  VkDeviceSize row_pitch = 0;      // bytes between block rows
  VkDeviceSize slice_pitch = 0;    // bytes between 3D slices
  VkDeviceSize layer_pitch = 0;    // bytes between array layers
  uint32_t block_size = 0;         // bytes per block, all samples included
  uint32_t block_width = 1, block_height = 1;
  VkExtent3D extent{};             // of the mip level, in texels

  std::byte* Block(uint32_t bx, uint32_t by, uint32_t z) const {
    return base + z * slice_pitch + by * row_pitch + VkDeviceSize{bx} * block_size;
  }
};

// The element format of one aspect's plane: the format itself for colour,
// D16_UNORM / X8_D24_UNORM_PACK32 / D32_SFLOAT for depth, S8_UINT for stencil.
VkFormat PlaneFormat(VkFormat format, VkImageAspectFlags aspect);

SubresourceAccess AccessSubresource(const Image& image, VkImageAspectFlags aspect, uint32_t mip, uint32_t layer);

// Every single aspect bit of `mask`, one at a time.
template <typename F>
void ForEachAspect(VkImageAspectFlags mask, F f) {
  for (VkImageAspectFlags bit : {VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_ASPECT_STENCIL_BIT})
    if ((mask & bit) != 0) f(bit);
}

}  // namespace duet::raster
