// Clears and resolves of image views over a rectangle of some layers: the
// attachment operations of render passes, dynamic rendering and
// vkCmdClearAttachments, built on the transfer clear and resolve rows.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>

namespace duet {

struct ImageView;

namespace raster {

// The layers of a view an operation covers: with multiview the view mask's
// bits, else `count` layers from `base`, both counted from the view's base
// array layer.
struct LayerSet {
  uint32_t view_mask = 0;
  uint32_t base = 0;
  uint32_t count = 1;
};

// Clears `aspects` (those the view's format has) of `view` over `rect`:
// colour from value.color in the view's format, depth and stencil from
// value.depthStencil.
void ClearViewRect(const ImageView& view, VkImageAspectFlags aspects, const VkClearValue& value, const VkRect2D& rect,
                   LayerSet layers);

// Resolves one aspect of the multisampled `src` into `dst` over `rect`
// (the same pixels in both), with `mode` (VK_RESOLVE_MODE_*).
void ResolveViewRect(const ImageView& src, const ImageView& dst, VkImageAspectFlagBits aspect,
                     VkResolveModeFlagBits mode, const VkRect2D& rect, LayerSet layers);

// The reverse: each texel of single-sampled `src` over `rect` into every
// sample of multisampled `dst` (the same format), as multisampled
// rendering to single-sampled attachments loads them.
void ExpandViewRect(const ImageView& src, const ImageView& dst, VkImageAspectFlagBits aspect, const VkRect2D& rect,
                    LayerSet layers);

// The aspects a format has (COLOR, or DEPTH and/or STENCIL).
VkImageAspectFlags FormatAspects(VkFormat format);

}  // namespace raster
}  // namespace duet
