// Buffer transfers (fill, copy). They run at memcpy/memset speed: the
// bytes are plain host memory; large ones go to the Intel GPU's blitter
// when the device has one (`gpu`, null: none).
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>

namespace duet {

struct Buffer;
namespace intel_rcs {
class IntelTransfers;
}

namespace raster {

// `size` may be VK_WHOLE_SIZE (rounded down to a multiple of 4, as the spec says).
void FillBuffer(Buffer* buffer, VkDeviceSize offset, VkDeviceSize size, uint32_t data,
                intel_rcs::IntelTransfers* gpu = nullptr);
// Regions may overlap between source and destination only when the buffers
// differ in memory; overlapping regions of one buffer are undefined by the spec.
void CopyBuffer(const Buffer* src, Buffer* dst, const VkBufferCopy* regions, uint32_t count,
                intel_rcs::IntelTransfers* gpu = nullptr);

}  // namespace raster
}  // namespace duet
