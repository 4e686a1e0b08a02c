#include "raster/transfer_copy.h"

#include <algorithm>
#include <cstring>

#include "objects/buffer.h"
#include "objects/image.h"
#include "raster/gpu_place.h"
#include "raster/image_access.h"

namespace duet::raster {
namespace {

uint32_t DivideRoundingUp(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// How many slices a region covers, and whether an image steps through them
// by 3D depth or by array layer: copies between 3D images and 2D arrays map
// depth slices to layers.
uint32_t SliceCount(const Image& a, const Image& b, const VkImageSubresourceLayers& layers, const VkExtent3D& extent) {
  return (a.type == VK_IMAGE_TYPE_3D || b.type == VK_IMAGE_TYPE_3D) ? extent.depth : layers.layerCount;
}

// Block (0,0) of slice `s` of a region starting at `offset`.
std::byte* SliceBase(const Image& image, VkImageAspectFlags aspect, const VkImageSubresourceLayers& layers,
                     const VkOffset3D& offset, uint32_t s, SubresourceAccess* access_out) {
  const bool volume = image.type == VK_IMAGE_TYPE_3D;
  SubresourceAccess access =
      AccessSubresource(image, aspect, layers.mipLevel, layers.baseArrayLayer + (volume ? 0 : s));
  *access_out = access;
  return access.Block(offset.x / access.block_width, offset.y / access.block_height,
                      volume ? offset.z + s : 0);
}

}  // namespace

void CopyImage(const Image& src, Image& dst, const VkImageCopy2& region, intel_rcs::IntelTransfers* gpu) {
  const uint32_t slices = SliceCount(src, dst, region.srcSubresource, region.extent);
  ForEachAspect(region.srcSubresource.aspectMask, [&](VkImageAspectFlags aspect) {
    // Multi-planar formats are not supported, so the destination aspect is the source's.
    for (uint32_t s = 0; s < slices; ++s) {
      SubresourceAccess from, to;
      std::byte* src_row = SliceBase(src, aspect, region.srcSubresource, region.srcOffset, s, &from);
      std::byte* dst_row = SliceBase(dst, aspect, region.dstSubresource, region.dstOffset, s, &to);
      // The extent is in source texels; block counts are the same on both sides.
      const uint32_t blocks_x = DivideRoundingUp(region.extent.width, from.block_width);
      const uint32_t rows = DivideRoundingUp(region.extent.height, from.block_height);
      const size_t row_bytes = size_t{blocks_x} * from.block_size;
      if (gpu != nullptr && to.row_pitch <= UINT32_MAX && from.row_pitch <= UINT32_MAX && row_bytes <= UINT32_MAX) {
        std::optional<intel_rcs::HostPlace> to_place = GpuPlace(dst.memory, dst_row),
                                            from_place = GpuPlace(src.memory, src_row);
        if (to_place && from_place &&
            gpu->CopyRect(*to_place, static_cast<uint32_t>(to.row_pitch), *from_place,
                          static_cast<uint32_t>(from.row_pitch),
                          static_cast<uint32_t>(row_bytes), rows))
          continue;
      }
      for (uint32_t y = 0; y < rows; ++y)
        std::memmove(dst_row + y * to.row_pitch, src_row + y * from.row_pitch, row_bytes);
    }
  });
}

namespace {

// Walks the rows of a buffer<->image region, calling copy(image_row, buffer_row, bytes).
template <typename CopyRow>
void ForEachBufferImageRow(const Image& image, std::byte* buffer_data, const VkBufferImageCopy2& region,
                           CopyRow copy_row) {
  const VkImageAspectFlags aspect = region.imageSubresource.aspectMask;
  const uint32_t row_texels = region.bufferRowLength != 0 ? region.bufferRowLength : region.imageExtent.width;
  const uint32_t image_rows = region.bufferImageHeight != 0 ? region.bufferImageHeight : region.imageExtent.height;
  const bool volume = image.type == VK_IMAGE_TYPE_3D;
  const uint32_t slices = volume ? region.imageExtent.depth : region.imageSubresource.layerCount;
  for (uint32_t s = 0; s < slices; ++s) {
    SubresourceAccess access;
    std::byte* image_row = SliceBase(image, aspect, region.imageSubresource, region.imageOffset, s, &access);
    const VkDeviceSize buffer_row_pitch = VkDeviceSize{DivideRoundingUp(row_texels, access.block_width)} *
                                          access.block_size;
    const VkDeviceSize buffer_slice_pitch = buffer_row_pitch * DivideRoundingUp(image_rows, access.block_height);
    std::byte* buffer_row = buffer_data + region.bufferOffset + s * buffer_slice_pitch;
    const uint32_t rows = DivideRoundingUp(region.imageExtent.height, access.block_height);
    const size_t row_bytes = size_t{DivideRoundingUp(region.imageExtent.width, access.block_width)} * access.block_size;
    for (uint32_t y = 0; y < rows; ++y)
      copy_row(image_row + y * access.row_pitch, buffer_row + y * buffer_row_pitch, row_bytes);
  }
}

}  // namespace

void CopyBufferToImage(const Buffer& src, Image& dst, const VkBufferImageCopy2& region) {
  ForEachBufferImageRow(dst, src.Data(), region,
                        [](std::byte* image, const std::byte* buffer, size_t n) { std::memcpy(image, buffer, n); });
}

void CopyImageToBuffer(const Image& src, Buffer& dst, const VkBufferImageCopy2& region) {
  ForEachBufferImageRow(src, dst.Data(), region,
                        [](const std::byte* image, std::byte* buffer, size_t n) { std::memcpy(buffer, image, n); });
}

}  // namespace duet::raster
