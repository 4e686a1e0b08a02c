// Where each texel of an image lives in its memory. Images are linear in
// memory whatever their tiling: per aspect plane (depth and stencil of a
// combined format are separate planes, so each copies as plain bytes), then
// per mip level, then per array layer, then slices, rows and texel blocks.
// Multisampled images keep a pixel's samples next to each other.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>

namespace duet::texel {

struct FormatInfo;

inline constexpr uint32_t kMaxMipLevels = 16;
inline constexpr uint32_t kMaxPlanes = 2;

struct MipLayout {
  VkDeviceSize offset;       // from the start of the plane
  VkDeviceSize row_pitch;    // bytes between rows of texel blocks
  VkDeviceSize depth_pitch;  // bytes between 3D slices
  VkDeviceSize array_pitch;  // bytes between array layers
  VkExtent3D extent;         // in texels
};

struct PlaneLayout {
  VkDeviceSize offset;       // from the start of the image
  uint32_t block_size;       // bytes per texel block and sample
  MipLayout mips[kMaxMipLevels];
};

struct ImageLayout {
  uint32_t plane_count = 0;
  uint32_t mip_levels = 0;
  uint32_t array_layers = 0;
  uint32_t samples = 1;
  PlaneLayout planes[kMaxPlanes];
  VkDeviceSize size = 0;  // all planes, levels and layers

  // Plane holding an aspect (DEPTH/STENCIL/COLOR); 0 for a single-aspect image.
  uint32_t PlaneOf(VkImageAspectFlags aspect) const;
  VkSubresourceLayout Subresource(VkImageAspectFlags aspect, uint32_t mip, uint32_t layer) const;
};

// Returns false when the format cannot be laid out (unknown, multi-planar)
// or the image exceeds the limits in objects/device_limits.h.
bool ComputeImageLayout(const VkImageCreateInfo& info, ImageLayout* layout);

}  // namespace duet::texel
