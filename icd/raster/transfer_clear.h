// vkCmdClearColorImage and vkCmdClearDepthStencilImage: encode the value
// once into one texel, then fill each layer of each level with it.
#pragma once

#include <vulkan/vulkan_core.h>

namespace duet {

struct Image;

namespace raster {

void ClearColorImage(Image& image, const VkClearColorValue& color, const VkImageSubresourceRange& range);
void ClearDepthStencilImage(Image& image, const VkClearDepthStencilValue& value, const VkImageSubresourceRange& range);

}  // namespace raster
}  // namespace duet
