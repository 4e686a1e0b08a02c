#include "raster/deferred_clear.h"

#include <algorithm>
#include <cstdint>

#include "objects/image.h"
#include "raster/known_clear.h"
#include "raster/tile_raster.h"

namespace duet::raster {
namespace {

// The intersection of two rectangles (zero size when they do not meet).
VkRect2D Intersect(const VkRect2D& a, int64_t x0, int64_t y0, int64_t x1, int64_t y1) {
  x0 = std::max<int64_t>(x0, a.offset.x);
  y0 = std::max<int64_t>(y0, a.offset.y);
  x1 = std::min<int64_t>(x1, int64_t{a.offset.x} + a.extent.width);
  y1 = std::min<int64_t>(y1, int64_t{a.offset.y} + a.extent.height);
  if (x0 >= x1 || y0 >= y1) return {};
  return {{int32_t(x0), int32_t(y0)}, {uint32_t(x1 - x0), uint32_t(y1 - y0)}};
}

int32_t FloorTo(int32_t v, int32_t tile) { return v >= 0 ? v / tile * tile : -((-v + tile - 1) / tile) * tile; }

}  // namespace

void DeferredClears::Add(const ImageView& view, VkImageAspectFlags aspects, const VkClearValue& value,
                         const VkRect2D& area, LayerSet layers, bool kept) {
  if (area.extent.width == 0 || area.extent.height == 0) return;
  pending_.push_back({&view, aspects, value, area, layers, kept});
  if (image_writes_ != nullptr && FollowsClear(view, aspects, area, layers, kept)) Follow(&pending_.back());
}

// The tile grid over the area (`tile` pixels, from a multiple of it), no
// tile cleared yet.
void DeferredClears::SetGrid(Pending* p, int32_t tile) {
  p->tile = tile;
  p->tx0 = FloorTo(p->area.offset.x, tile);
  p->ty0 = FloorTo(p->area.offset.y, tile);
  p->columns = uint32_t((int64_t{p->area.offset.x} + p->area.extent.width - p->tx0 + tile - 1) / tile);
  p->rows = uint32_t((int64_t{p->area.offset.y} + p->area.extent.height - p->ty0 + tile - 1) / tile);
  p->done.assign(size_t(p->columns) * p->rows, 0);
}

// The rasterizer's grid at once (the area is the whole image, so its grid
// is the image's), the tiles that hold the texel already done.
void DeferredClears::Follow(Pending* p) {
  p->texel = ColorClearTexel(p->view->format, p->value.color);
  if (p->texel.size == 0) return;
  p->followed = p->view->image;
  p->image_writes = image_writes_->load();
  SetGrid(p, kTileSize);
  const std::vector<uint8_t> held = TakeKnownClear(*p->followed, p->texel, p->image_writes);
  std::copy_n(held.begin(), std::min(held.size(), p->done.size()), p->done.begin());
  p->written.assign(p->done.size(), 0);
}

void DeferredClears::UseTiles(int32_t tile) {
  for (Pending& p : pending_)
    if (p.tile == 0) SetGrid(&p, tile);
}

void DeferredClears::ClearTile(int32_t x0, int32_t y0, bool drawn) {
  for (Pending& p : pending_) {
    if (!p.kept && !drawn) continue;
    const int32_t tile = p.tile;
    const VkRect2D rect = Intersect(p.area, x0, y0, int64_t{x0} + tile, int64_t{y0} + tile);
    if (rect.extent.width == 0) continue;
    const uint32_t index = uint32_t((y0 - p.ty0) / tile) * p.columns + uint32_t((x0 - p.tx0) / tile);
    if (p.done[index] != 0) continue;
    p.done[index] = 1;
    ClearViewRect(*p.view, p.aspects, p.value, rect, p.layers);
  }
}

void DeferredClears::DrawWrote(int32_t x0, int32_t y0) {
  for (Pending& p : pending_) {
    if (p.followed == nullptr) continue;
    const uint32_t column = uint32_t((x0 - p.tx0) / p.tile), row = uint32_t((y0 - p.ty0) / p.tile);
    if (column < p.columns && row < p.rows) p.written[row * p.columns + column] = 1;
  }
}

void DeferredClears::TileBounds(int32_t* x0, int32_t* y0, int32_t* x1, int32_t* y1) const {
  *x0 = *y0 = INT32_MAX;
  *x1 = *y1 = INT32_MIN;
  for (const Pending& p : pending_) {
    // (Clears whose tiles are all written need no more visits.)
    if (!p.kept || p.tile == 0 || std::find(p.done.begin(), p.done.end(), uint8_t{0}) == p.done.end()) continue;
    *x0 = std::min(*x0, p.tx0);
    *y0 = std::min(*y0, p.ty0);
    *x1 = std::max(*x1, int32_t(p.tx0 + int64_t(p.columns) * p.tile));
    *y1 = std::max(*y1, int32_t(p.ty0 + int64_t(p.rows) * p.tile));
  }
  if (*x0 >= *x1 || *y0 >= *y1) *x0 = *x1 = *y0 = *y1 = 0;
}

void DeferredClears::Flush() { Write(false); }

void DeferredClears::End() { Write(true); }

void DeferredClears::Write(bool only_kept) {
  for (Pending& p : pending_) {
    if (only_kept && !p.kept) continue;
    if (p.tile == 0) {
      ClearViewRect(*p.view, p.aspects, p.value, p.area, p.layers);
      continue;
    }
    for (uint32_t row = 0; row < p.rows; ++row) {
      for (uint32_t column = 0; column < p.columns; ++column) {
        if (p.done[row * p.columns + column] != 0) continue;
        const int64_t x0 = p.tx0 + int64_t(column) * p.tile, y0 = p.ty0 + int64_t(row) * p.tile;
        const VkRect2D rect = Intersect(p.area, x0, y0, x0 + p.tile, y0 + p.tile);
        if (rect.extent.width != 0) ClearViewRect(*p.view, p.aspects, p.value, rect, p.layers);
      }
    }
  }
  // The instance ends: every tile of a followed clear holds it but those
  // draws wrote in (unless another clear wrote the image too).
  for (Pending& p : pending_) {
    if (!only_kept || p.followed == nullptr) continue;
    const bool alone = std::count_if(pending_.begin(), pending_.end(),
                                     [&](const Pending& q) { return q.view->image == p.followed; }) == 1;
    if (!alone) continue;
    for (uint8_t& w : p.written) w ^= 1;
    RememberClear(*p.followed, p.texel, p.image_writes, std::move(p.written));
  }
  pending_.clear();
}

bool DeferredClears::Writes(const Image* image) const {
  for (const Pending& p : pending_)
    if (p.view->image == image) return true;
  return false;
}

}  // namespace duet::raster
