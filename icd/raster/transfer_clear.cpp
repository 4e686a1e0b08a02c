#include "raster/transfer_clear.h"

#include <vector>

#include "objects/image.h"
#include "raster/fill_pattern.h"
#include "raster/image_access.h"
#include "texel/texel_codec.h"
#include "util/log.h"

namespace duet::raster {
namespace {

uint32_t LevelCount(const Image& image, const VkImageSubresourceRange& range) {
  return range.levelCount == VK_REMAINING_MIP_LEVELS ? image.mip_levels - range.baseMipLevel : range.levelCount;
}

uint32_t LayerCount(const Image& image, const VkImageSubresourceRange& range) {
  return range.layerCount == VK_REMAINING_ARRAY_LAYERS ? image.array_layers - range.baseArrayLayer
                                                       : range.layerCount;
}

// Fills every texel (and sample) of the range's subresources of one aspect
// with `texel`: rows are tightly packed, so a layer is one contiguous span.
void FillRange(Image& image, VkImageAspectFlags aspect, const VkImageSubresourceRange& range,
               const std::byte* texel, size_t texel_size) {
  std::vector<std::byte> pattern;
  for (uint32_t s = 0; s < image.layout.samples; ++s) pattern.insert(pattern.end(), texel, texel + texel_size);
  const uint32_t levels = LevelCount(image, range);
  const uint32_t layers = LayerCount(image, range);
  for (uint32_t m = range.baseMipLevel; m < range.baseMipLevel + levels; ++m) {
    for (uint32_t l = range.baseArrayLayer; l < range.baseArrayLayer + layers; ++l) {
      SubresourceAccess access = AccessSubresource(image, aspect, m, l);
      FillPattern(access.base, access.slice_pitch * access.extent.depth, pattern.data(), pattern.size());
    }
  }
}

}  // namespace

void ClearColorImage(Image& image, const VkClearColorValue& color, const VkImageSubresourceRange& range) {
  std::byte texel[32];
  if (!texel::EncodeClearColor(image.format, color, texel)) {
    DUET_ERROR("vkCmdClearColorImage: format %d cannot be cleared", image.format);
    return;
  }
  FillRange(image, VK_IMAGE_ASPECT_COLOR_BIT, range, texel, texel::GetTexelCodec(image.format)->texel_size);
}

void ClearDepthStencilImage(Image& image, const VkClearDepthStencilValue& value, const VkImageSubresourceRange& range) {
  if ((range.aspectMask & VK_IMAGE_ASPECT_DEPTH_BIT) != 0) {
    std::byte texel[4];
    texel::PackDepth(image.format, value.depth, texel);
    const size_t size = PlaneFormat(image.format, VK_IMAGE_ASPECT_DEPTH_BIT) == VK_FORMAT_D16_UNORM ? 2 : 4;
    FillRange(image, VK_IMAGE_ASPECT_DEPTH_BIT, range, texel, size);
  }
  if ((range.aspectMask & VK_IMAGE_ASPECT_STENCIL_BIT) != 0) {
    const std::byte stencil = texel::EncodeClearStencil(value.stencil);
    FillRange(image, VK_IMAGE_ASPECT_STENCIL_BIT, range, &stencil, 1);
  }
}

}  // namespace duet::raster
