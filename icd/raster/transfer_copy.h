// Copies between images and between images and buffers: plain bytes,
// addressed block by block through the image layout. Regions use the
// Vulkan 1.3 "2" structs; the 1.0 commands convert theirs.
#pragma once

#include <vulkan/vulkan_core.h>

namespace duet {

struct Buffer;
struct Image;
namespace intel_rcs {
class IntelTransfers;
}

namespace raster {

// `gpu`: the Intel GPU's blitter takes the slices it can (null: none).
void CopyImage(const Image& src, Image& dst, const VkImageCopy2& region, intel_rcs::IntelTransfers* gpu = nullptr);
void CopyBufferToImage(const Buffer& src, Image& dst, const VkBufferImageCopy2& region);
void CopyImageToBuffer(const Image& src, Buffer& dst, const VkBufferImageCopy2& region);

}  // namespace raster
}  // namespace duet
