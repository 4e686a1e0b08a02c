// What the driver advertises for each format: the one policy behind
// vkGetPhysicalDeviceFormatProperties*, vkGetPhysicalDeviceImageFormatProperties*
// and the format checks at image, view and buffer-view creation.
#pragma once

#include <vulkan/vulkan_core.h>

#include <span>

namespace duet::texel {

struct FormatFeatures {
  VkFormatFeatureFlags2 linear, optimal, buffer;
};

// All zero for formats the driver does not support.
FormatFeatures GetFormatFeatures(VkFormat format);

// The limits of an image created with these parameters, following the
// rules of vkGetPhysicalDeviceImageFormatProperties. Returns
// VK_ERROR_FORMAT_NOT_SUPPORTED (and zeroes *out) when such an image cannot
// be created. view_formats is VkImageFormatListCreateInfo's list; it only
// matters with VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_EXTENDED_USAGE_BIT,
// where usage may be backed by any format a view can have.
VkResult GetImageFormatLimits(VkFormat format, VkImageType type, VkImageTiling tiling, VkImageUsageFlags usage,
                              VkImageCreateFlags flags, VkImageFormatProperties* out,
                              std::span<const VkFormat> view_formats = {});

// VkFormatProperties carries only the bits that exist in VkFormatFeatureFlags
// (bits 0..30); the upper ones are reported through VkFormatProperties3 only.
inline VkFormatFeatureFlags LegacyFormatFeatures(VkFormatFeatureFlags2 features) {
  return static_cast<VkFormatFeatureFlags>(features & 0x7FFFFFFFu);
}

}  // namespace duet::texel
