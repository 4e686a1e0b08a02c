#include "backends/framebuffer/headless.h"

#include <sys/stat.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "backends/framebuffer/pixels.h"
#include "backends/framebuffer/png_writer.h"
#include "util/log.h"

namespace duet::framebuffer {
namespace {

std::atomic<uint32_t> dumped_frames{0};

// The output keeps its own copy of the screen and changes it only through
// the damage rectangles, as a real display would: a dump therefore shows
// what a window would, and any damage the WSI missed shows up in it.
class HeadlessOutput final : public Output {
 public:
  HeadlessOutput(Extent extent, PixelFormat format)
      : extent_(extent), format_(format), pixels_(size_t{extent.width} * extent.height * kBytesPerPixel) {
    if (const char* dir = std::getenv("DUET_DUMP_FRAMES"); dir != nullptr && dir[0] != '\0') {
      dump_dir_ = dir;
      mkdir(dir, 0755);  // may exist already
    }
  }

  Status Present(const Frame& frame, std::span<const Rect> damage) override {
    const size_t stride = size_t{extent_.width} * kBytesPerPixel;
    for (const Rect& rect : damage) CopyRect(frame, ClipRect(rect, extent_), pixels_.data(), stride, format_);
    if (dump_dir_.empty()) return Status::kOk;
    char name[32];
    std::snprintf(name, sizeof name, "/frame_%06u.png", dumped_frames.fetch_add(1));
    const Frame screen{pixels_.data(), extent_.width, extent_.height, stride, format_};
    return WritePng((dump_dir_ + name).c_str(), screen) ? Status::kOk : Status::kFailed;
  }

 private:
  Extent extent_;
  PixelFormat format_;
  std::vector<std::byte> pixels_;
  std::string dump_dir_;
};

class HeadlessTarget final : public Target {
 public:
  Status CurrentExtent(std::optional<Extent>* extent) override {
    extent->reset();  // the swapchain decides
    return Status::kOk;
  }
  // No display refreshes: frames go out when they are ready unless
  // DUET_REFRESH_HZ simulates one.
  uint64_t RefreshInterval() const override { return RefreshIntervalFromEnvironment(0); }
  std::unique_ptr<Output> CreateOutput(Extent extent, PixelFormat format) override {
    return std::make_unique<HeadlessOutput>(extent, format);
  }
};

}  // namespace

std::unique_ptr<Target> CreateHeadlessTarget() { return std::make_unique<HeadlessTarget>(); }

}  // namespace duet::framebuffer
