// vkCmdResolveImage: each destination texel is the average of the source
// pixel's samples for float formats (sRGB averaged in linear), and sample 0
// for integer formats.
#pragma once

#include <vulkan/vulkan_core.h>

namespace duet {

struct Image;

namespace raster {

void ResolveImage(const Image& src, Image& dst, const VkImageResolve2& region);

}  // namespace raster
}  // namespace duet
