#include "backends/virtio_gpu/transfer_plan.h"

#include <algorithm>
#include <utility>

#include "backends/framebuffer/pixels.h"

namespace duet::virtio_gpu {

std::vector<Rect> MergeRects(std::span<const Rect> rects, Extent extent) {
  std::vector<Rect> clipped;
  std::vector<uint32_t> edges;
  for (const Rect& rect : rects) {
    const Rect r = framebuffer::ClipRect(rect, extent);
    if (r.Area() == 0) continue;
    clipped.push_back(r);
    edges.push_back(r.y);
    edges.push_back(r.y + r.height);
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());

  std::vector<Rect> out;
  std::vector<std::pair<uint32_t, uint32_t>> runs, previous_runs;  // [begin, end) columns
  std::vector<size_t> open;  // out[] index of the rectangle each previous run extends
  for (size_t band = 0; band + 1 < edges.size(); ++band) {
    const uint32_t top = edges[band], bottom = edges[band + 1];
    runs.clear();
    for (const Rect& r : clipped)
      if (r.y <= top && r.y + r.height >= bottom) runs.push_back({r.x, r.x + r.width});
    std::sort(runs.begin(), runs.end());
    size_t merged = 0;
    for (const auto& run : runs) {
      if (merged != 0 && run.first <= runs[merged - 1].second) {
        runs[merged - 1].second = std::max(runs[merged - 1].second, run.second);
      } else {
        runs[merged++] = run;
      }
    }
    runs.resize(merged);
    // A band continues the rectangles above it when it touches them and has the same runs.
    const bool continues = !open.empty() && runs == previous_runs && out[open.front()].y + out[open.front()].height == top;
    if (continues) {
      for (size_t index : open) out[index].height = bottom - out[index].y;
    } else {
      open.clear();
      for (const auto& [begin, end] : runs) {
        open.push_back(out.size());
        out.push_back({begin, top, end - begin, bottom - top});
      }
    }
    previous_runs = runs;
  }
  return out;
}

namespace {

bool Intersect(const Rect& a, const Rect& b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

}  // namespace

std::vector<Rect> CoalesceRects(std::span<const Rect> rects, double max_waste) {
  std::vector<Rect> out;
  for (size_t i = 0; i < rects.size(); ++i) {
    const Rect& r = rects[i];
    bool joined = false;
    for (size_t j = out.size(); j-- > 0 && !joined;) {
      Rect& above = out[j];
      if (above.y + above.height != r.y) continue;
      const Rect both[] = {above, r};
      const Rect bounds = Bounds(both);
      if (static_cast<double>(bounds.Area()) > static_cast<double>(above.Area() + r.Area()) * (1.0 + max_waste))
        continue;
      bool clear = true;
      for (size_t k = 0; k < out.size() && clear; ++k) clear = k == j || !Intersect(out[k], bounds);
      for (size_t k = i + 1; k < rects.size() && clear; ++k) clear = !Intersect(rects[k], bounds);
      if (!clear) continue;
      above = bounds;
      joined = true;
    }
    if (!joined) out.push_back(r);
  }
  return out;
}

Rect Bounds(std::span<const Rect> rects) {
  if (rects.empty()) return {};
  uint32_t x0 = UINT32_MAX, y0 = UINT32_MAX, x1 = 0, y1 = 0;
  for (const Rect& r : rects) {
    x0 = std::min(x0, r.x);
    y0 = std::min(y0, r.y);
    x1 = std::max(x1, r.x + r.width);
    y1 = std::max(y1, r.y + r.height);
  }
  return {x0, y0, x1 - x0, y1 - y0};
}

}  // namespace duet::virtio_gpu
