// Load-op clears of a render pass instance, written late: each 64x64 tile
// of the render area is cleared when the rasterizer first works in it (the
// draw then finds it in the cache instead of reading back what a clear of
// the whole attachment pushed out), and every tile left when anything else
// needs the attachments (resolves, vkCmdClearAttachments, the end of the
// subpass or rendering, a draw that reads one of the images). A clear of an
// attachment whose values are not kept (store op DONT_CARE, no
// resolve) is written only in tiles a draw works in: when the render pass
// instance ends, the rest is dropped, as the store op allows.
// A clear the image's KnownClear follows (raster/known_clear.h) skips the
// tiles that hold its texel already, and when the instance ends, leaves the
// tiles no draw wrote in known to hold it.
#pragma once

#include <vulkan/vulkan_core.h>

#include <atomic>
#include <cstdint>
#include <vector>

#include "raster/attachment_ops.h"
#include "raster/transfer_clear.h"

namespace duet {

struct Image;
struct ImageView;

namespace raster {

class DeferredClears {
 public:
  // `image_writes`: the device's Device::image_writes, for KnownClear (none:
  // no clear is followed).
  explicit DeferredClears(const std::atomic<uint64_t>* image_writes = nullptr) : image_writes_(image_writes) {}
  DeferredClears(const DeferredClears&) = delete;
  DeferredClears& operator=(const DeferredClears&) = delete;
  ~DeferredClears() { Flush(); }

  // What ClearViewRect(view, aspects, value, area, layers) would write;
  // `kept`: whether the values must reach memory when the instance ends.
  void Add(const ImageView& view, VkImageAspectFlags aspects, const VkClearValue& value, const VkRect2D& area,
           LayerSet layers, bool kept = true);
  bool Empty() const { return pending_.empty(); }
  // Before ClearTile (on one thread): counts tiles of `tile` pixels from here on.
  void UseTiles(int32_t tile);
  // Clears what is pending in the tile whose top-left pixel is (x0, y0), a
  // multiple of the tile size in both; clears not kept only when `drawn`
  // (a draw works in the tile). Threads may clear distinct tiles at once.
  void ClearTile(int32_t x0, int32_t y0, bool drawn);
  // A draw may have written the tile whose top-left pixel is (x0, y0) (as
  // in ClearTile): some sample passed its tests there. Threads may report
  // distinct tiles at once.
  void DrawWrote(int32_t x0, int32_t y0);
  // After UseTiles: the tiles holding pending clears that are kept,
  // [x0, x1) x [y0, y1) in pixels, multiples of the tile size (x0 == x1
  // when there are none).
  void TileBounds(int32_t* x0, int32_t* y0, int32_t* x1, int32_t* y1) const;
  // Clears everything still pending.
  void Flush();
  // The render pass instance ends: clears what is kept, drops the rest.
  void End();
  // Whether a pending clear writes `image`.
  bool Writes(const Image* image) const;

 private:
  struct Pending {
    const ImageView* view;
    VkImageAspectFlags aspects;
    VkClearValue value;
    VkRect2D area;
    LayerSet layers;
    bool kept;
    int32_t tile = 0;  // the tile size `done` counts in (0: none yet)
    int32_t tx0 = 0, ty0 = 0;
    uint32_t columns = 0, rows = 0;
    std::vector<uint8_t> done;  // per tile: cleared already (or held already, when followed)
    // Followed by the image's KnownClear: the image, the clear's texel,
    // Device::image_writes when it began, and per tile whether a draw wrote in it.
    Image* followed = nullptr;
    ClearTexel texel;
    uint64_t image_writes = 0;
    std::vector<uint8_t> written;
  };
  static void SetGrid(Pending* p, int32_t tile);
  void Follow(Pending* p);
  void Write(bool only_kept);
  const std::atomic<uint64_t>* image_writes_;
  std::vector<Pending> pending_;
};

}  // namespace raster
}  // namespace duet
