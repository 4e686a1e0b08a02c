#include "raster/view_access.h"

namespace duet::raster {

SubresourceAccess AccessViewLayer(const ImageView& view, VkImageAspectFlags aspect, uint32_t layer) {
  const Image& image = *view.image;
  const uint32_t index = view.range.baseArrayLayer + layer;
  if (image.type != VK_IMAGE_TYPE_3D) return AccessSubresource(image, aspect, view.range.baseMipLevel, index);
  SubresourceAccess access = AccessSubresource(image, aspect, view.range.baseMipLevel, 0);
  access.base += index * access.slice_pitch;
  return access;
}

}  // namespace duet::raster
