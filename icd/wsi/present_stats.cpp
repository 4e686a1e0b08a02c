#include "wsi/present_stats.h"

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace duet::wsi {
namespace {

struct Counters {
  std::atomic<uint64_t> frames{0}, clean{0}, partial{0}, full{0};
  std::atomic<uint64_t> dirty_pixels{0}, rects{0}, bands{0}, dropped{0};

  // A static object's destructor runs when the loader unloads the driver
  // or, if it never does, at process exit: either way after the last present.
  ~Counters() {
    const char* enabled = std::getenv("DUET_STATS");
    if (enabled == nullptr || std::strcmp(enabled, "1") != 0) return;
    std::fprintf(stderr,
                 "duet stats: present frames=%" PRIu64 " clean=%" PRIu64 " partial=%" PRIu64 " full=%" PRIu64
                 " dirty_pixels=%" PRIu64 " rects=%" PRIu64 " bands=%" PRIu64 " dropped=%" PRIu64 "\n",
                 frames.load(), clean.load(), partial.load(), full.load(), dirty_pixels.load(), rects.load(),
                 bands.load(), dropped.load());
  }
};

Counters counters;

}  // namespace

void CountPresent(uint64_t dirty_pixels, uint64_t frame_pixels, uint64_t rects, uint64_t bands) {
  ++counters.frames;
  if (dirty_pixels == 0)
    ++counters.clean;
  else if (dirty_pixels >= frame_pixels)
    ++counters.full;
  else
    ++counters.partial;
  counters.dirty_pixels += dirty_pixels;
  counters.rects += rects;
  counters.bands += bands;
}

void CountDropped() { ++counters.dropped; }

PresentCounts CurrentPresentCounts() {
  return {counters.frames.load(),       counters.clean.load(), counters.partial.load(), counters.full.load(),
          counters.dirty_pixels.load(), counters.rects.load(), counters.bands.load(),   counters.dropped.load()};
}

}  // namespace duet::wsi
