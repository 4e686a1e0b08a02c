#include "raster/transfer_buffer.h"

#include <cstring>

#include "objects/buffer.h"
#include "raster/fill_pattern.h"
#include "raster/gpu_place.h"

namespace duet::raster {

void FillBuffer(Buffer* buffer, VkDeviceSize offset, VkDeviceSize size, uint32_t data,
                intel_rcs::IntelTransfers* gpu) {
  if (size == VK_WHOLE_SIZE) size = (buffer->size - offset) & ~VkDeviceSize{3};
  size &= ~VkDeviceSize{3};
  std::byte* at = buffer->Data() + offset;
  const auto* pattern = reinterpret_cast<const std::byte*>(&data);
  if (gpu != nullptr) {
    std::optional<intel_rcs::HostPlace> place = GpuPlace(buffer->memory, at);
    if (place && gpu->Fill(*place, size, {pattern, 4})) return;
  }
  FillPattern(at, size, pattern, 4);
}

void CopyBuffer(const Buffer* src, Buffer* dst, const VkBufferCopy* regions, uint32_t count,
                intel_rcs::IntelTransfers* gpu) {
  for (uint32_t i = 0; i < count; ++i) {
    std::byte* to = dst->Data() + regions[i].dstOffset;
    const std::byte* from = src->Data() + regions[i].srcOffset;
    if (gpu != nullptr) {
      std::optional<intel_rcs::HostPlace> d = GpuPlace(dst->memory, to), s = GpuPlace(src->memory, from);
      if (d && s && gpu->Copy(*d, *s, regions[i].size)) continue;
    }
    std::memmove(to, from, regions[i].size);
  }
}

}  // namespace duet::raster
