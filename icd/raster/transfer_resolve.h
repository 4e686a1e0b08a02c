// Resolves: each single-sample destination texel from the samples of one
// source pixel. vkCmdResolveImage averages float formats (sRGB averaged in
// linear) and takes sample 0 of integer formats; attachment resolves (render
// passes, dynamic rendering) also choose SAMPLE_ZERO, MIN or MAX, the modes
// depth and stencil resolves use.
#pragma once

#include <vulkan/vulkan_core.h>

#include "raster/image_access.h"
#include "texel/texel_codec.h"

namespace duet {

struct Image;

namespace raster {

void ResolveImage(const Image& src, Image& dst, const VkImageResolve2& region);

// Resolves `extent` pixels of one 2D layer (`src.base` / `dst.base` at the
// layer or 3D slice), unpacked and packed through the codecs of the two
// planes. AVERAGE on an integer codec (stencil, integer colour) takes sample
// 0, which is the only mode Vulkan allows there. The caller clips the region.
void ResolveRect(const texel::TexelCodec& src_codec, const SubresourceAccess& src, VkOffset2D src_offset,
                 const texel::TexelCodec& dst_codec, const SubresourceAccess& dst, VkOffset2D dst_offset,
                 VkExtent2D extent, VkResolveModeFlagBits mode);

}  // namespace raster
}  // namespace duet
