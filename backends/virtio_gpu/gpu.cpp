#include "backends/virtio_gpu/gpu.h"

#include <algorithm>
#include <utility>

namespace duet::virtio_gpu {

VirtioGpu::~VirtioGpu() {
  for (uint32_t resource : released_) channel_->UnrefResource(resource);
}

bool VirtioGpu::Show(uint32_t scanout, uint32_t resource, const Rect& rect) {
  std::lock_guard lock(mutex_);
  if (scanout >= on_screen_.size() || !channel_->SetScanout(scanout, resource, rect)) return false;
  const uint32_t replaced = std::exchange(on_screen_[scanout], resource);
  const bool still_shown = std::find(on_screen_.begin(), on_screen_.end(), replaced) != on_screen_.end();
  if (replaced != resource && !still_shown && released_.erase(replaced) != 0) channel_->UnrefResource(replaced);
  return true;
}

void VirtioGpu::Release(uint32_t resource) {
  if (resource == 0) return;
  std::lock_guard lock(mutex_);
  if (std::find(on_screen_.begin(), on_screen_.end(), resource) != on_screen_.end()) {
    released_.insert(resource);
  } else {
    channel_->UnrefResource(resource);
  }
}

uint32_t VirtioGpu::OnScreen(uint32_t scanout) const {
  std::lock_guard lock(mutex_);
  return scanout < on_screen_.size() ? on_screen_[scanout] : 0;
}

}  // namespace duet::virtio_gpu
