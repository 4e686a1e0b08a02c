#include "backends/virtio_gpu/scanout_output.h"

#include <chrono>

#include "backends/framebuffer/pixels.h"
#include "backends/virtio_gpu/stats.h"
#include "backends/virtio_gpu/transfer_plan.h"
#include "util/log.h"

namespace duet::virtio_gpu {

using framebuffer::Status;

ScanoutOutput::ScanoutOutput(std::shared_ptr<VirtioGpu> gpu, uint32_t scanout, framebuffer::Extent extent)
    : gpu_(std::move(gpu)), scanout_(scanout), extent_(extent) {}

ScanoutOutput::~ScanoutOutput() {
  for (const Buffer& buffer : buffers_) gpu_->Release(buffer.resource);
}

bool ScanoutOutput::Start() {
  for (Buffer& buffer : buffers_) {
    buffer.resource = gpu_->With([&](Channel& channel) {
      return channel.CreateResource(extent_.width, extent_.height, &buffer.backing);
    });
    if (buffer.resource == 0) {
      DUET_ERROR("virtio-gpu: cannot create a %ux%u resource for scanout %u", extent_.width, extent_.height, scanout_);
      return false;
    }
  }
  return true;
}

std::vector<Rect> ScanoutOutput::Missing(const Buffer& buffer) const {
  const uint64_t behind = frame_ - buffer.holds;
  if (buffer.holds == 0 || behind > history_.size()) return {Rect{0, 0, extent_.width, extent_.height}};
  std::vector<Rect> rects;
  for (size_t i = history_.size() - behind; i < history_.size(); ++i)
    rects.insert(rects.end(), history_[i].begin(), history_[i].end());
  return CoalesceRects(MergeRects(rects, extent_));
}

bool ScanoutOutput::Update(Buffer& buffer, const framebuffer::Frame& frame, std::span<const Rect> rects) {
  for (const Rect& rect : rects) {
    framebuffer::CopyRect(frame, rect, buffer.backing.pixels, buffer.backing.stride,
                          framebuffer::PixelFormat::kBgra8888);  // B8G8R8X8
    const TransferBox box = BoxFor(rect, buffer.backing.stride);
    if (!gpu_->With([&](Channel& c) { return c.TransferToHost2D(buffer.resource, box.box, box.offset); }))
      return false;
    DUET_INFO("virtio-gpu: transfer res %u %u,%u %ux%u", buffer.resource, rect.x, rect.y, rect.width, rect.height);
    CountTransfer(rect.Area() * 4);
  }
  buffer.holds = frame_;
  return true;
}

Status ScanoutOutput::Present(const framebuffer::Frame& frame, std::span<const Rect> damage) {
  if (!gpu_->With([&](Channel& c) { return c.ScanoutEnabled(scanout_); })) {
    DUET_WARN("virtio-gpu: scanout %u is gone (disabled or unplugged)", scanout_);
    return Status::kLost;
  }
  std::vector<Rect> changed = MergeRects(damage, extent_);
  if (shown_ >= 0 && changed.empty()) {
    CountClean();
    return Status::kOk;
  }
  ++frame_;
  history_.push_back(changed);
  if (history_.size() > kBuffers) history_.pop_front();

  const bool first = shown_ < 0;
  const int target = first ? 0 : 1 - shown_;
  // The first frame fills every resource, so that the next ones only catch up.
  for (size_t i = 0; i < buffers_.size(); ++i) {
    if (!first && static_cast<int>(i) != target) continue;
    if (!Update(buffers_[i], frame, Missing(buffers_[i]))) return Status::kFailed;
  }
  Buffer& buffer = buffers_[target];
  if (!gpu_->Show(scanout_, buffer.resource, Rect{0, 0, extent_.width, extent_.height})) {
    DUET_ERROR("virtio-gpu: scanout %u refused a %ux%u frame%s", scanout_, extent_.width, extent_.height,
               first ? " (mode set failed: the previous mode stays)" : "");
    return first ? Status::kOutOfDate : Status::kFailed;
  }
  shown_ = target;
  CountFrame();

  uint64_t fence = 0;
  const Rect flushed = first ? Rect{0, 0, extent_.width, extent_.height} : Bounds(changed);
  if (!gpu_->With([&](Channel& c) { return c.Flush(buffer.resource, flushed, &fence); })) return Status::kFailed;
  CountFlush();
  const auto start = std::chrono::steady_clock::now();
  const bool done = gpu_->With([&](Channel& c) { return c.WaitFence(fence); });
  CountFenceWait(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
  return done ? Status::kOk : Status::kFailed;
}

Status ScanoutTarget::CurrentExtent(std::optional<framebuffer::Extent>* extent) {
  *extent = framebuffer::Extent{mode_.width, mode_.height};
  return gpu_->With([&](Channel& c) { return c.ScanoutEnabled(scanout_); }) ? Status::kOk : Status::kLost;
}

uint64_t ScanoutTarget::RefreshInterval() const {
  return mode_.refresh_millihertz != 0 ? 1'000'000'000'000ull / mode_.refresh_millihertz : 0;
}

std::unique_ptr<framebuffer::Output> ScanoutTarget::CreateOutput(framebuffer::Extent extent, framebuffer::PixelFormat) {
  auto output = std::make_unique<ScanoutOutput>(gpu_, scanout_, extent);
  if (!output->Start()) return nullptr;
  return output;
}

}  // namespace duet::virtio_gpu
