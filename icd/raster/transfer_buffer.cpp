#include "raster/transfer_buffer.h"

#include <algorithm>
#include <cstring>

#include "objects/buffer.h"

namespace duet::raster {

void FillBuffer(Buffer* buffer, VkDeviceSize offset, VkDeviceSize size, uint32_t data) {
  if (size == VK_WHOLE_SIZE) size = (buffer->size - offset) & ~VkDeviceSize{3};
  std::byte* dst = buffer->Data() + offset;
  const VkDeviceSize words = size / 4;
  if (words == 0) return;
  if (data == 0 || data == UINT32_MAX || (data & 0xFF) * 0x01010101u == data) {
    std::memset(dst, static_cast<int>(data & 0xFF), words * 4);
    return;
  }
  // Fill one word, then double the filled span with memcpy: memcpy speed.
  std::memcpy(dst, &data, 4);
  VkDeviceSize done = 4;
  while (done < words * 4) {
    const VkDeviceSize n = std::min(done, words * 4 - done);
    std::memcpy(dst + done, dst, n);
    done += n;
  }
}

void CopyBuffer(const Buffer* src, Buffer* dst, const VkBufferCopy* regions, uint32_t count) {
  for (uint32_t i = 0; i < count; ++i)
    std::memmove(dst->Data() + regions[i].dstOffset, src->Data() + regions[i].srcOffset, regions[i].size);
}

}  // namespace duet::raster
