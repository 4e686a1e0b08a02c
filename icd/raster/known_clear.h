// What an image holds since its last load-op clear, so that the next one
// leaves alone the tiles that still hold its texel: a background cleared
// frame after frame where nothing is drawn costs no memory traffic.
//
// What is known lives on the image (Image::known_clear) and is kept only
// where nothing can change the image unseen:
// - an image of one subresource (2D, one level, one layer, one sample),
//   cleared whole in its own format (colour; the render area is the whole
//   extent, one layer, no multiview) and stored;
// - in memory the application never mapped and no other resource was ever
//   bound to;
// - while Device::image_writes is unchanged: replay counts there every
//   command that may write image memory other than as an attachment of its
//   render pass instance (cmdtape/replay.cpp).
// A render pass instance forgets what is known of all its attachments when
// it begins, and of its resolve targets when it resolves; a followed clear
// takes what is known first (DeferredClears) and, when the instance ends,
// leaves the tiles where no sample passed its tests (nothing was written)
// as holding its texel.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <vector>

#include "raster/attachment_ops.h"
#include "raster/transfer_clear.h"

namespace duet {

struct Image;
struct ImageView;

namespace raster {

// Whether a load-op clear of `aspects` of `view` over `area` in `layers`
// (stored when `kept`) is one whose result the image's KnownClear follows.
bool FollowsClear(const ImageView& view, VkImageAspectFlags aspects, const VkRect2D& area, const LayerSet& layers,
                  bool kept);

// Takes what is known as a clear of `texel` begins, with Device::image_writes
// at `image_writes`: per tile of the rasterizer's grid (kTileSize tiles from
// the origin), 1 where the tile holds the texel already (empty when nothing
// is known). The image is then unknown until RememberClear.
std::vector<uint8_t> TakeKnownClear(Image& image, const ClearTexel& texel, uint64_t image_writes);

// The clear that began at `image_writes` is written: the tiles where
// `holds` is 1 hold `texel`.
void RememberClear(Image& image, const ClearTexel& texel, uint64_t image_writes, std::vector<uint8_t> holds);

// Something other than a followed clear writes the image.
void ForgetKnownClear(Image& image);

}  // namespace raster
}  // namespace duet
