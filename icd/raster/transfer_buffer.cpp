#include "raster/transfer_buffer.h"

#include <cstring>

#include "objects/buffer.h"
#include "raster/fill_pattern.h"

namespace duet::raster {

void FillBuffer(Buffer* buffer, VkDeviceSize offset, VkDeviceSize size, uint32_t data) {
  if (size == VK_WHOLE_SIZE) size = (buffer->size - offset) & ~VkDeviceSize{3};
  FillPattern(buffer->Data() + offset, size & ~VkDeviceSize{3}, reinterpret_cast<const std::byte*>(&data), 4);
}

void CopyBuffer(const Buffer* src, Buffer* dst, const VkBufferCopy* regions, uint32_t count) {
  for (uint32_t i = 0; i < count; ++i)
    std::memmove(dst->Data() + regions[i].dstOffset, src->Data() + regions[i].srcOffset, regions[i].size);
}

}  // namespace duet::raster
