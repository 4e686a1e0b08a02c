// Byte addressing of one layer of an image view, the way attachments are
// addressed: the view's base mip level, layer `layer` counted from the view's
// base array layer. A 2D view of a 3D image addresses depth slices instead.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>

#include "objects/image.h"
#include "raster/image_access.h"

namespace duet::raster {

SubresourceAccess AccessViewLayer(const ImageView& view, VkImageAspectFlags aspect, uint32_t layer);

}  // namespace duet::raster
