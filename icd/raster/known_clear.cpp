#include "raster/known_clear.h"

#include <cstring>
#include <mutex>

#include "objects/image.h"

namespace duet::raster {

bool FollowsClear(const ImageView& view, VkImageAspectFlags aspects, const VkRect2D& area, const LayerSet& layers,
                  bool kept) {
  const Image& image = *view.image;
  const DeviceMemory* memory = image.memory;
  return kept && aspects == VK_IMAGE_ASPECT_COLOR_BIT && image.type == VK_IMAGE_TYPE_2D && image.mip_levels == 1 &&
         image.array_layers == 1 && image.samples == VK_SAMPLE_COUNT_1_BIT && view.format == image.format &&
         area.offset.x == 0 && area.offset.y == 0 && area.extent.width == image.extent.width &&
         area.extent.height == image.extent.height && layers.view_mask == 0 && layers.base == 0 && layers.count == 1 &&
         memory != nullptr && !memory->ever_mapped && memory->bound_resources == 1;
}

std::vector<uint8_t> TakeKnownClear(Image& image, const ClearTexel& texel, uint64_t image_writes) {
  Image::KnownClear& known = image.known_clear;
  std::lock_guard lock(known.mutex);
  const bool same = known.valid && known.image_writes == image_writes && known.texel_size == texel.size &&
                    std::memcmp(known.texel, texel.bytes, texel.size) == 0;
  known.valid = false;
  if (!same) return {};
  return std::move(known.tiles);
}

void RememberClear(Image& image, const ClearTexel& texel, uint64_t image_writes, std::vector<uint8_t> holds) {
  Image::KnownClear& known = image.known_clear;
  std::lock_guard lock(known.mutex);
  known.valid = true;
  known.image_writes = image_writes;
  known.texel_size = texel.size;
  std::memcpy(known.texel, texel.bytes, texel.size);
  known.tiles = std::move(holds);
}

void ForgetKnownClear(Image& image) {
  Image::KnownClear& known = image.known_clear;
  std::lock_guard lock(known.mutex);
  known.valid = false;
}

}  // namespace duet::raster
