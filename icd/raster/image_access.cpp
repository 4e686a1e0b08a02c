#include "raster/image_access.h"

namespace duet::raster {

VkFormat PlaneFormat(VkFormat format, VkImageAspectFlags aspect) {
  if ((aspect & VK_IMAGE_ASPECT_STENCIL_BIT) != 0) return VK_FORMAT_S8_UINT;
  if ((aspect & VK_IMAGE_ASPECT_DEPTH_BIT) != 0) {
    switch (format) {
      case VK_FORMAT_D16_UNORM:
      case VK_FORMAT_D16_UNORM_S8_UINT: return VK_FORMAT_D16_UNORM;
      case VK_FORMAT_X8_D24_UNORM_PACK32:
      case VK_FORMAT_D24_UNORM_S8_UINT: return VK_FORMAT_X8_D24_UNORM_PACK32;
      default: return VK_FORMAT_D32_SFLOAT;
    }
  }
  return format;
}

SubresourceAccess AccessSubresource(const Image& image, VkImageAspectFlags aspect, uint32_t mip, uint32_t layer) {
  const texel::ImageLayout& layout = image.layout;
  const texel::PlaneLayout& plane = layout.planes[layout.PlaneOf(aspect)];
  const texel::MipLayout& level = plane.mips[mip];
  const texel::FormatInfo* info = texel::GetFormatInfo(image.format);
  SubresourceAccess access;
  access.base = image.Data() + plane.offset + level.offset + layer * level.array_pitch;
  access.row_pitch = level.row_pitch;
  access.slice_pitch = level.depth_pitch;
  access.layer_pitch = level.array_pitch;
  access.block_size = plane.block_size * layout.samples;
  access.block_width = info->block_width;
  access.block_height = info->block_height;
  access.extent = level.extent;
  return access;
}

}  // namespace duet::raster
