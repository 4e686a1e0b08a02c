#include "raster/attachment_ops.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "objects/image.h"
#include "raster/transfer_clear.h"
#include "raster/transfer_resolve.h"
#include "raster/view_access.h"
#include "texel/format_info.h"
#include "texel/texel_codec.h"
#include "util/log.h"

namespace duet::raster {
namespace {

// Calls f(layer) for each layer of the set that the view has: a clear or
// resolve never writes past the view, whatever the command asked for.
template <typename F>
void ForEachLayer(const ImageView& view, LayerSet layers, F f) {
  if (layers.view_mask != 0) {
    for (uint32_t mask = layers.view_mask; mask != 0; mask &= mask - 1) {
      const uint32_t layer = uint32_t(std::countr_zero(mask));
      if (layer < view.range.layerCount) f(layer);
    }
    return;
  }
  const uint32_t end = std::min<uint64_t>(uint64_t{layers.base} + layers.count, view.range.layerCount);
  for (uint32_t layer = layers.base; layer < end; ++layer) f(layer);
}

// `rect` clipped to a subresource's extent; zero size when outside.
VkRect2D ClipRect(const VkRect2D& rect, const VkExtent3D& extent) {
  const int64_t x0 = std::max<int64_t>(rect.offset.x, 0), y0 = std::max<int64_t>(rect.offset.y, 0);
  const int64_t x1 = std::min<int64_t>(int64_t{rect.offset.x} + rect.extent.width, extent.width);
  const int64_t y1 = std::min<int64_t>(int64_t{rect.offset.y} + rect.extent.height, extent.height);
  if (x0 >= x1 || y0 >= y1) return {};
  return {{int32_t(x0), int32_t(y0)}, {uint32_t(x1 - x0), uint32_t(y1 - y0)}};
}

}  // namespace

VkImageAspectFlags FormatAspects(VkFormat format) {
  const texel::FormatInfo* info = texel::GetFormatInfo(format);
  if (info == nullptr) return 0;
  if (!info->has_depth && !info->has_stencil) return VK_IMAGE_ASPECT_COLOR_BIT;
  return (info->has_depth ? VK_IMAGE_ASPECT_DEPTH_BIT : 0) | (info->has_stencil ? VK_IMAGE_ASPECT_STENCIL_BIT : 0);
}

void ClearViewRect(const ImageView& view, VkImageAspectFlags aspects, const VkClearValue& value, const VkRect2D& rect,
                   LayerSet layers) {
  ForEachAspect(aspects & FormatAspects(view.format), [&](VkImageAspectFlags aspect) {
    ClearTexel texel;
    if (aspect == VK_IMAGE_ASPECT_COLOR_BIT) {
      texel = ColorClearTexel(view.format, value.color);
      if (texel.size == 0) DUET_ERROR("attachment clear: format %d cannot be cleared", view.format);
    } else if (aspect == VK_IMAGE_ASPECT_DEPTH_BIT) {
      texel = DepthClearTexel(view.format, value.depthStencil.depth);
    } else {
      texel = StencilClearTexel(value.depthStencil.stencil);
    }
    ForEachLayer(view, layers, [&](uint32_t layer) { FillRect(AccessViewLayer(view, aspect, layer), rect, texel); });
  });
}

void ResolveViewRect(const ImageView& src, const ImageView& dst, VkImageAspectFlagBits aspect,
                     VkResolveModeFlagBits mode, const VkRect2D& rect, LayerSet layers) {
  if (mode == VK_RESOLVE_MODE_NONE) return;
  const texel::TexelCodec* src_codec = texel::GetAspectCodec(src.format, aspect);
  const texel::TexelCodec* dst_codec = texel::GetAspectCodec(dst.format, aspect);
  if (src_codec == nullptr || dst_codec == nullptr) {
    DUET_ERROR("attachment resolve: format %d to %d cannot be resolved", src.format, dst.format);
    return;
  }
  ForEachLayer(src, layers, [&](uint32_t layer) {
    if (layer >= dst.range.layerCount) return;
    const SubresourceAccess from = AccessViewLayer(src, aspect, layer);
    const SubresourceAccess to = AccessViewLayer(dst, aspect, layer);
    const VkRect2D clipped = ClipRect(ClipRect(rect, from.extent), to.extent);
    ResolveRect(*src_codec, from, clipped.offset, *dst_codec, to, clipped.offset, clipped.extent, mode);
  });
}

void ExpandViewRect(const ImageView& src, const ImageView& dst, VkImageAspectFlagBits aspect, const VkRect2D& rect,
                    LayerSet layers) {
  ForEachLayer(src, layers, [&](uint32_t layer) {
    if (layer >= dst.range.layerCount) return;
    const SubresourceAccess from = AccessViewLayer(src, aspect, layer);
    const SubresourceAccess to = AccessViewLayer(dst, aspect, layer);
    if (from.block_size == 0 || to.block_size % from.block_size != 0) return;
    const uint32_t samples = to.block_size / from.block_size;
    const VkRect2D clipped = ClipRect(ClipRect(rect, from.extent), to.extent);
    for (uint32_t y = uint32_t(clipped.offset.y); y < uint32_t(clipped.offset.y) + clipped.extent.height; ++y)
      for (uint32_t x = uint32_t(clipped.offset.x); x < uint32_t(clipped.offset.x) + clipped.extent.width; ++x)
        for (uint32_t s = 0; s < samples; ++s)
          std::memcpy(to.Block(x, y, 0) + s * from.block_size, from.Block(x, y, 0), from.block_size);
  });
}

}  // namespace duet::raster
