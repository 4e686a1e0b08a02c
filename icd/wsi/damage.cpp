#include "wsi/damage.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace duet::wsi {
namespace {

constexpr size_t kPixelBytes = 4;
// Rows are compared in chunks of this many pixels first (one memcmp each);
// only chunks that differ are looked at pixel by pixel, and only at their
// ends, to find the exact first and last changed pixel.
constexpr uint32_t kChunkPixels = 16;

struct Span {
  uint32_t begin, end;  // [begin, end) in pixels
};

bool PixelDiffers(const std::byte* a, const std::byte* b, uint32_t x) {
  return std::memcmp(a + x * kPixelBytes, b + x * kPixelBytes, kPixelBytes) != 0;
}

// The changed runs of one row, joined across gaps shorter than kJoinGapPixels.
void ChangedSpans(const std::byte* row, const std::byte* previous_row, uint32_t width, std::vector<Span>* spans) {
  spans->clear();
  for (uint32_t x = 0; x < width; x += kChunkPixels) {
    const uint32_t n = std::min(kChunkPixels, width - x);
    if (std::memcmp(row + x * kPixelBytes, previous_row + x * kPixelBytes, n * kPixelBytes) == 0) continue;
    uint32_t first = x;
    while (!PixelDiffers(row, previous_row, first)) ++first;
    uint32_t last = x + n - 1;
    while (!PixelDiffers(row, previous_row, last)) --last;
    if (!spans->empty() && first - spans->back().end < kJoinGapPixels)
      spans->back().end = last + 1;
    else
      spans->push_back({first, last + 1});
  }
}

bool Near(uint32_t begin_a, uint32_t end_a, uint32_t begin_b, uint32_t end_b) {
  return begin_a < end_b + kJoinGapPixels && begin_b < end_a + kJoinGapPixels;
}

// Adds one changed span of row y to the band's rectangles.
void AddToBand(const Span& span, uint32_t y, std::vector<Rect>* band) {
  for (Rect& r : *band) {
    if (!Near(r.x, r.x + r.width, span.begin, span.end)) continue;
    const uint32_t begin = std::min(r.x, span.begin);
    const uint32_t end = std::max(r.x + r.width, span.end);
    r = {begin, r.y, end - begin, y + 1 - r.y};
    return;
  }
  band->push_back({span.begin, y, span.end - span.begin, 1});
}

// Growing one rectangle can bring it near another: join until none are.
void JoinNearRects(std::vector<Rect>* band) {
  for (bool joined = true; joined;) {
    joined = false;
    for (size_t i = 0; i < band->size() && !joined; ++i) {
      for (size_t j = i + 1; j < band->size() && !joined; ++j) {
        Rect& a = (*band)[i];
        const Rect& b = (*band)[j];
        if (!Near(a.x, a.x + a.width, b.x, b.x + b.width)) continue;
        const uint32_t x0 = std::min(a.x, b.x), x1 = std::max(a.x + a.width, b.x + b.width);
        const uint32_t y0 = std::min(a.y, b.y), y1 = std::max(a.y + a.height, b.y + b.height);
        a = {x0, y0, x1 - x0, y1 - y0};
        band->erase(band->begin() + static_cast<ptrdiff_t>(j));
        joined = true;
      }
    }
  }
}

// Appends a band's rectangles to the result, extending those of the band
// above (`open`: indices of the rectangles that end where this band starts)
// that cover exactly the same columns. Leaves in `open` the indices of the
// rectangles that now end at the bottom of this band.
void AppendBand(const std::vector<Rect>& band, std::vector<size_t>* open, std::vector<Rect>* rects) {
  std::vector<size_t> now_open;
  for (const Rect& r : band) {
    size_t index = rects->size();
    for (size_t i : *open) {
      Rect& above = (*rects)[i];
      if (above.x == r.x && above.width == r.width && above.y + above.height == r.y) {
        above.height += r.height;
        index = i;
        break;
      }
    }
    if (index == rects->size()) rects->push_back(r);
    now_open.push_back(index);
  }
  *open = std::move(now_open);
}

void CopyRectBytes(const Rect& r, const std::byte* frame, size_t frame_stride, std::byte* previous,
                   size_t previous_stride) {
  for (uint32_t y = r.y; y < r.y + r.height; ++y)
    std::memcpy(previous + y * previous_stride + r.x * kPixelBytes, frame + y * frame_stride + r.x * kPixelBytes,
                r.width * kPixelBytes);
}

}  // namespace

DamageResult DiffAndUpdate(const std::byte* frame, size_t frame_stride, std::byte* previous, size_t previous_stride,
                           uint32_t width, uint32_t height) {
  DamageResult result;
  std::vector<Span> spans;
  std::vector<Rect> band;
  std::vector<size_t> open;  // rectangles that reach the band being scanned
  for (uint32_t band_y = 0; band_y < height; band_y += kBandRows) {
    band.clear();
    const uint32_t band_end = std::min(height, band_y + kBandRows);
    for (uint32_t y = band_y; y < band_end; ++y) {
      const std::byte* row = frame + y * frame_stride;
      std::byte* previous_row = previous + y * previous_stride;
      if (std::memcmp(row, previous_row, width * kPixelBytes) == 0) continue;
      ChangedSpans(row, previous_row, width, &spans);
      for (const Span& span : spans) {
        AddToBand(span, y, &band);
        std::memcpy(previous_row + span.begin * kPixelBytes, row + span.begin * kPixelBytes,
                    (span.end - span.begin) * kPixelBytes);
      }
    }
    JoinNearRects(&band);
    if (!band.empty()) ++result.bands;
    AppendBand(band, &open, &result.rects);
  }
  for (const Rect& r : result.rects) result.pixels += r.Area();
  return result;
}

DamageResult CopyDeclared(std::span<const Rect> declared, const std::byte* frame, size_t frame_stride,
                          std::byte* previous, size_t previous_stride, uint32_t width, uint32_t height,
                          const RectCopier& copier) {
  DamageResult result;
  std::vector<bool> band_touched((height + kBandRows - 1) / kBandRows, false);
  for (const Rect& d : declared) {
    const Rect r = framebuffer::ClipRect(d, {width, height});
    if (r.Area() == 0) continue;
    if (!copier || !copier(r)) CopyRectBytes(r, frame, frame_stride, previous, previous_stride);
    result.rects.push_back(r);
    // Rectangles the application declared may overlap: pixels then counts
    // the shared ones twice, which only overstates the transfer.
    result.pixels += r.Area();
    for (uint32_t b = r.y / kBandRows; b <= (r.y + r.height - 1) / kBandRows; ++b) band_touched[b] = true;
  }
  result.bands = static_cast<uint32_t>(std::count(band_touched.begin(), band_touched.end(), true));
  return result;
}

DamageResult CopyAll(const std::byte* frame, size_t frame_stride, std::byte* previous, size_t previous_stride,
                     uint32_t width, uint32_t height, const RectCopier& copier) {
  DamageResult result;
  const Rect all{0, 0, width, height};
  if (!copier || !copier(all)) CopyRectBytes(all, frame, frame_stride, previous, previous_stride);
  result.rects.push_back(all);
  result.pixels = all.Area();
  result.bands = (height + kBandRows - 1) / kBandRows;
  return result;
}

}  // namespace duet::wsi
