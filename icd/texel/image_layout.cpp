#include "texel/image_layout.h"

#include <algorithm>

#include "objects/device_limits.h"
#include "texel/format_info.h"

namespace duet::texel {
namespace {

constexpr VkDeviceSize kSubresourceAlignment = 16;

VkDeviceSize AlignUp(VkDeviceSize v, VkDeviceSize a) { return (v + a - 1) / a * a; }

// Bytes per texel of each plane: depth planes hold D16 as 2 bytes and D24
// (X8_D24 and D24S8) or D32 as 4; stencil planes 1 byte.
uint32_t PlaneBlockSizes(const FormatInfo& format, uint32_t sizes[kMaxPlanes]) {
  if (!format.has_depth && !format.has_stencil) {
    sizes[0] = format.block_size;
    return 1;
  }
  uint32_t count = 0;
  for (uint32_t c = 0; c < format.component_count; ++c) {
    if (format.components[c].name == 'D') sizes[count++] = format.components[c].bits <= 16 ? 2 : 4;
  }
  if (format.has_stencil) sizes[count++] = 1;
  return count;
}

}  // namespace

uint32_t ImageLayout::PlaneOf(VkImageAspectFlags aspect) const {
  return (aspect & VK_IMAGE_ASPECT_STENCIL_BIT) != 0 && plane_count > 1 ? 1 : 0;
}

VkSubresourceLayout ImageLayout::Subresource(VkImageAspectFlags aspect, uint32_t mip, uint32_t layer) const {
  const PlaneLayout& plane = planes[PlaneOf(aspect)];
  const MipLayout& level = plane.mips[mip];
  VkSubresourceLayout out{};
  out.offset = plane.offset + level.offset + layer * level.array_pitch;
  out.size = level.array_pitch;
  out.rowPitch = level.row_pitch;
  out.arrayPitch = level.array_pitch;
  out.depthPitch = level.depth_pitch;
  return out;
}

bool ComputeImageLayout(const VkImageCreateInfo& info, ImageLayout* layout) {
  const FormatInfo* format = GetFormatInfo(info.format);
  if (format == nullptr || format->plane_count > 1 || info.mipLevels == 0 || info.mipLevels > kMaxMipLevels ||
      info.arrayLayers == 0 || info.extent.width == 0 || info.extent.height == 0 || info.extent.depth == 0)
    return false;

  *layout = ImageLayout{};
  layout->mip_levels = info.mipLevels;
  layout->array_layers = info.arrayLayers;
  layout->samples = static_cast<uint32_t>(info.samples);
  uint32_t block_sizes[kMaxPlanes];
  layout->plane_count = PlaneBlockSizes(*format, block_sizes);

  VkDeviceSize offset = 0;
  for (uint32_t p = 0; p < layout->plane_count; ++p) {
    PlaneLayout& plane = layout->planes[p];
    plane.offset = offset;
    plane.block_size = block_sizes[p];
    VkDeviceSize plane_size = 0;
    for (uint32_t m = 0; m < info.mipLevels; ++m) {
      MipLayout& mip = plane.mips[m];
      mip.extent = {std::max(info.extent.width >> m, 1u), std::max(info.extent.height >> m, 1u),
                    std::max(info.extent.depth >> m, 1u)};
      const VkDeviceSize blocks_x = (mip.extent.width + format->block_width - 1) / format->block_width;
      const VkDeviceSize blocks_y = (mip.extent.height + format->block_height - 1) / format->block_height;
      const VkDeviceSize blocks_z = (mip.extent.depth + format->block_depth - 1) / format->block_depth;
      mip.offset = plane_size;
      mip.row_pitch = blocks_x * plane.block_size * layout->samples;
      mip.depth_pitch = mip.row_pitch * blocks_y;
      mip.array_pitch = AlignUp(mip.depth_pitch * blocks_z, kSubresourceAlignment);
      plane_size += mip.array_pitch * info.arrayLayers;
      if (plane_size > limits::kMaxResourceSize) return false;
    }
    offset = AlignUp(offset + plane_size, limits::kImageAlignment);
  }
  layout->size = offset;
  return layout->size <= limits::kMaxResourceSize;
}

}  // namespace duet::texel
