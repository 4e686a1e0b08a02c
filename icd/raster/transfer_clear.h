// Clears: vkCmdClearColorImage and vkCmdClearDepthStencilImage over whole
// subresources, and the rectangle fills that attachment clears (load ops,
// vkCmdClearAttachments) share with them. A value is encoded once into one
// texel, then copied over every sample of every pixel.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstddef>
#include <cstdint>

#include "raster/image_access.h"

namespace duet {

struct Image;
namespace intel_rcs {
class IntelTransfers;
}

namespace raster {

// `gpu`: the Intel GPU's blitter fills the subresources it can (null: none).
void ClearColorImage(Image& image, const VkClearColorValue& color, const VkImageSubresourceRange& range,
                     intel_rcs::IntelTransfers* gpu = nullptr);
void ClearDepthStencilImage(Image& image, const VkClearDepthStencilValue& value, const VkImageSubresourceRange& range);

// One clear value as the bytes of one texel of an aspect plane.
struct ClearTexel {
  std::byte bytes[32]{};
  uint32_t size = 0;  // 0: the format cannot be cleared
};

// The texel a colour clear writes in `format` (EncodeClearColor's rules).
ClearTexel ColorClearTexel(VkFormat format, const VkClearColorValue& color);
// The depth plane texel of a depth format, and the stencil plane texel.
ClearTexel DepthClearTexel(VkFormat format, float depth);
ClearTexel StencilClearTexel(uint32_t stencil);

// Fills `rect` of one 2D layer (or one slice of a 3D image: `layer.base`
// at that slice) with `texel` in every sample. The rectangle is clipped to
// the subresource's extent.
void FillRect(const SubresourceAccess& layer, const VkRect2D& rect, const ClearTexel& texel);

}  // namespace raster
}  // namespace duet
