#include "raster/transfer_clear.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "objects/image.h"
#include "raster/fill_pattern.h"
#include "raster/gpu_place.h"
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

// `texel` repeated once per sample: the bytes of one pixel.
std::vector<std::byte> PixelPattern(const ClearTexel& texel, uint32_t samples) {
  std::vector<std::byte> pattern;
  pattern.reserve(size_t{texel.size} * samples);
  for (uint32_t s = 0; s < samples; ++s) pattern.insert(pattern.end(), texel.bytes, texel.bytes + texel.size);
  return pattern;
}

// Fills every texel (and sample) of the range's subresources of one aspect
// with `texel`: rows are tightly packed, so a layer is one contiguous span.
void FillRange(Image& image, VkImageAspectFlags aspect, const VkImageSubresourceRange& range,
               const ClearTexel& texel, intel_rcs::IntelTransfers* gpu = nullptr) {
  const std::vector<std::byte> pattern = PixelPattern(texel, image.layout.samples);
  const uint32_t levels = LevelCount(image, range);
  const uint32_t layers = LayerCount(image, range);
  for (uint32_t m = range.baseMipLevel; m < range.baseMipLevel + levels; ++m) {
    for (uint32_t l = range.baseArrayLayer; l < range.baseArrayLayer + layers; ++l) {
      SubresourceAccess access = AccessSubresource(image, aspect, m, l);
      const VkDeviceSize bytes = access.slice_pitch * access.extent.depth;
      if (gpu != nullptr) {
        std::optional<intel_rcs::HostPlace> place = GpuPlace(image.memory, access.base);
        if (place && gpu->Fill(*place, bytes, pattern)) continue;
      }
      FillPattern(access.base, bytes, pattern.data(), pattern.size());
    }
  }
}

}  // namespace

ClearTexel ColorClearTexel(VkFormat format, const VkClearColorValue& color) {
  ClearTexel texel;
  const texel::TexelCodec* codec = texel::GetTexelCodec(format);
  if (codec != nullptr && texel::EncodeClearColor(format, color, texel.bytes)) texel.size = codec->texel_size;
  return texel;
}

ClearTexel DepthClearTexel(VkFormat format, float depth) {
  ClearTexel texel;
  const texel::TexelCodec* codec = texel::GetAspectCodec(format, VK_IMAGE_ASPECT_DEPTH_BIT);
  if (codec == nullptr) return texel;
  texel::PackDepth(format, depth, texel.bytes);
  // Float depth clears are stored as given: values outside [0, 1] are valid
  // only with VK_EXT_depth_range_unrestricted, which asks for exactly that.
  if (PlaneFormat(format, VK_IMAGE_ASPECT_DEPTH_BIT) == VK_FORMAT_D32_SFLOAT && depth == depth)
    std::memcpy(texel.bytes, &depth, 4);
  texel.size = codec->texel_size;
  return texel;
}

ClearTexel StencilClearTexel(uint32_t stencil) {
  ClearTexel texel;
  texel.bytes[0] = texel::EncodeClearStencil(stencil);
  texel.size = 1;
  return texel;
}

void FillRect(const SubresourceAccess& layer, const VkRect2D& rect, const ClearTexel& texel) {
  if (texel.size == 0) return;
  const int64_t x0 = std::max<int64_t>(rect.offset.x, 0), y0 = std::max<int64_t>(rect.offset.y, 0);
  const int64_t x1 = std::min<int64_t>(int64_t{rect.offset.x} + rect.extent.width, layer.extent.width);
  const int64_t y1 = std::min<int64_t>(int64_t{rect.offset.y} + rect.extent.height, layer.extent.height);
  if (x0 >= x1 || y0 >= y1) return;
  const std::vector<std::byte> pixel = PixelPattern(texel, layer.block_size / texel.size);
  const size_t row_bytes = size_t(x1 - x0) * layer.block_size;
  std::byte* first = layer.Block(uint32_t(x0), uint32_t(y0), 0);
  // Full, tightly packed rows are one span: fill it in one go.
  if (row_bytes == layer.row_pitch) {
    FillPattern(first, row_bytes * size_t(y1 - y0), pixel.data(), pixel.size());
    return;
  }
  // Otherwise build one row and copy it down the rectangle.
  FillPattern(first, row_bytes, pixel.data(), pixel.size());
  for (int64_t y = y0 + 1; y < y1; ++y) std::memcpy(layer.Block(uint32_t(x0), uint32_t(y), 0), first, row_bytes);
}

void ClearColorImage(Image& image, const VkClearColorValue& color, const VkImageSubresourceRange& range,
                     intel_rcs::IntelTransfers* gpu) {
  const ClearTexel texel = ColorClearTexel(image.format, color);
  if (texel.size == 0) {
    DUET_ERROR("vkCmdClearColorImage: format %d cannot be cleared", image.format);
    return;
  }
  FillRange(image, VK_IMAGE_ASPECT_COLOR_BIT, range, texel, gpu);
}

void ClearDepthStencilImage(Image& image, const VkClearDepthStencilValue& value, const VkImageSubresourceRange& range) {
  if ((range.aspectMask & VK_IMAGE_ASPECT_DEPTH_BIT) != 0)
    FillRange(image, VK_IMAGE_ASPECT_DEPTH_BIT, range, DepthClearTexel(image.format, value.depth));
  if ((range.aspectMask & VK_IMAGE_ASPECT_STENCIL_BIT) != 0)
    FillRange(image, VK_IMAGE_ASPECT_STENCIL_BIT, range, StencilClearTexel(value.stencil));
}

}  // namespace duet::raster
