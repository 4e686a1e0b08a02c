#include "wsi/present_engine.h"

#include <sys/mman.h>

#include <algorithm>

#include "objects/sync.h"
#include "util/log.h"
#include "wsi/damage.h"
#include "wsi/present_stats.h"

namespace duet::wsi {

using Clock = std::chrono::steady_clock;

PresentEngine::PresentEngine(const EngineConfig& config, std::vector<EngineImage> images,
                             std::unique_ptr<framebuffer::Output> output)
    : config_(config), output_(std::move(output)) {
  const size_t page = 4096;
  shown_length_ = std::max(page, (size_t{config.extent.width} * config.extent.height * 4 + page - 1) / page * page);
  void* pages = mmap(nullptr, shown_length_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (pages == MAP_FAILED) throw std::bad_alloc();
  shown_ = static_cast<std::byte*>(pages);
  slots_.resize(images.size());
  for (size_t i = 0; i < images.size(); ++i) slots_[i].image = images[i];
  thread_ = std::thread([this] { Run(); });
}

PresentEngine::~PresentEngine() {
  Stop();
  if (config_.gpu != nullptr) config_.gpu->Forget(shown_);
  munmap(shown_, shown_length_);
}

bool PresentEngine::lost() const {
  std::lock_guard lock(mutex_);
  return lost_;
}

bool PresentEngine::out_of_date() const {
  std::lock_guard lock(mutex_);
  return out_of_date_;
}

bool PresentEngine::InFlight() const {
  return std::any_of(slots_.begin(), slots_.end(), [](const Slot& s) {
    return s.state == ImageState::kQueued || s.state == ImageState::kReady || s.state == ImageState::kPresenting;
  });
}

VkResult PresentEngine::Acquire(uint64_t timeout_ns, uint32_t* index) {
  const Clock::time_point deadline = DeadlineAfter(timeout_ns);
  auto free_slot = [&] {
    return std::find_if(slots_.begin(), slots_.end(), [](const Slot& s) { return s.state == ImageState::kFree; });
  };
  std::unique_lock lock(mutex_);
  for (;;) {
    if (lost_) return VK_ERROR_SURFACE_LOST_KHR;
    if (auto it = free_slot(); it != slots_.end()) {
      it->state = ImageState::kAcquired;
      *index = static_cast<uint32_t>(it - slots_.begin());
      return VK_SUCCESS;
    }
    if (timeout_ns == 0) return VK_NOT_READY;
    // Every image is with the application, so none can come back by
    // waiting (it acquired more than the spec allows): do not hang it.
    if (!InFlight()) {
      DUET_WARN("vkAcquireNextImageKHR: every swapchain image is already acquired");
      return VK_TIMEOUT;
    }
    if (deadline == Clock::time_point::max()) {
      changed_.wait(lock);
    } else if (changed_.wait_until(lock, deadline) == std::cv_status::timeout && free_slot() == slots_.end()) {
      return VK_TIMEOUT;
    }
  }
}

bool PresentEngine::Unacquire(uint32_t index) {
  {
    std::lock_guard lock(mutex_);
    if (index >= slots_.size() || slots_[index].state != ImageState::kAcquired) return false;
    slots_[index].state = ImageState::kFree;
  }
  changed_.notify_all();
  return true;
}

void PresentEngine::Queue(uint32_t index, VkPresentModeKHR mode, std::vector<framebuffer::Rect> declared,
                          bool has_declared, std::function<void()> released, uint64_t present_id) {
  std::lock_guard lock(mutex_);
  Slot& slot = slots_[index];
  slot.present_id = present_id;
  slot.state = ImageState::kQueued;
  slot.mode = mode;
  slot.declared = std::move(declared);
  slot.has_declared = has_declared;
  slot.released = std::move(released);
}

void PresentEngine::FreePresented(uint32_t index, Callbacks* run_later) {
  Slot& slot = slots_[index];
  slot.state = ImageState::kFree;
  if (slot.released) run_later->push_back(std::move(slot.released));
  slot.released = nullptr;
}

void PresentEngine::Reached(uint64_t present_id) {
  presented_id_ = std::max(presented_id_, present_id);
}

VkResult PresentEngine::WaitPresented(uint64_t id, uint64_t timeout_ns) {
  const Clock::time_point deadline = DeadlineAfter(timeout_ns);
  std::unique_lock lock(mutex_);
  auto done = [&] { return presented_id_ >= id || lost_ || out_of_date_ || stopped_; };
  if (deadline == Clock::time_point::max()) {
    changed_.wait(lock, done);
  } else if (!changed_.wait_until(lock, deadline, done)) {
    return VK_TIMEOUT;
  }
  if (presented_id_ >= id) return VK_SUCCESS;
  if (lost_) return VK_ERROR_SURFACE_LOST_KHR;
  return VK_ERROR_OUT_OF_DATE_KHR;  // refused, or the swapchain went
}

void PresentEngine::Ready(uint32_t index, bool discard) {
  Callbacks released;
  {
    std::lock_guard lock(mutex_);
    if (discard || stopping_) {
      Reached(slots_[index].present_id);
      FreePresented(index, &released);
    } else {
      // MAILBOX: the newest image replaces the one waiting for the refresh
      // (only images presented as MAILBOX: earlier modes keep their frames).
      if (slots_[index].mode == VK_PRESENT_MODE_MAILBOX_KHR) {
        std::erase_if(ready_, [&](uint32_t waiting) {
          if (slots_[waiting].mode != VK_PRESENT_MODE_MAILBOX_KHR) return false;
          Reached(slots_[waiting].present_id);
          FreePresented(waiting, &released);
          CountDropped();
          return true;
        });
      }
      slots_[index].state = ImageState::kReady;
      ready_.push_back(index);
    }
  }
  changed_.notify_all();
  for (const auto& callback : released) callback();
}

void PresentEngine::Drain(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  if (!changed_.wait_for(lock, timeout, [&] { return !InFlight(); }))
    DUET_WARN("swapchain destroyed while presents are still waiting for their semaphores");
}

void PresentEngine::Stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
  {
    std::lock_guard lock(mutex_);
    stopped_ = true;  // nothing more will be shown
  }
  changed_.notify_all();
  // The window may go with the swapchain: nothing may touch it afterwards,
  // even if a late present keeps this engine alive.
  output_.reset();
}

Clock::time_point PresentEngine::NextRefresh(bool relaxed) {
  const Clock::time_point now = Clock::now();
  const auto interval = std::chrono::nanoseconds(config_.refresh_interval_ns);
  if (last_refresh_ == Clock::time_point{}) {
    last_refresh_ = now;  // the first frame starts the refresh clock
    return now;
  }
  // Refreshes happen on a fixed beat; a frame ready after one waits for the next.
  Clock::time_point next = last_refresh_ + interval;
  if (next < now && relaxed) next = now;  // late: at once
  if (next < now) next += interval * ((now - next) / interval + 1);
  last_refresh_ = next;
  return next;
}

void PresentEngine::Run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return stopping_ || !ready_.empty(); });
    if (ready_.empty()) return;  // stopping, nothing left to show
    const bool paced =
        config_.refresh_interval_ns != 0 && slots_[ready_.front()].mode != VK_PRESENT_MODE_IMMEDIATE_KHR;
    if (paced && !stopping_) {
      const Clock::time_point refresh = NextRefresh(slots_[ready_.front()].mode == VK_PRESENT_MODE_FIFO_RELAXED_KHR);
      changed_.wait_until(lock, refresh, [&] { return stopping_; });
    }
    // A MAILBOX newcomer may have replaced the image while we waited.
    const uint32_t index = ready_.front();
    ready_.pop_front();
    Slot& slot = slots_[index];
    slot.state = ImageState::kPresenting;
    std::vector<framebuffer::Rect> declared = std::move(slot.declared);
    const bool has_declared = slot.has_declared;
    const uint64_t present_id = slot.present_id;
    lock.unlock();
    Show(index, std::move(declared), has_declared);
    lock.lock();
    Reached(present_id);  // after the backend returned: the frame is out
    changed_.notify_all();
  }
}

void PresentEngine::Show(uint32_t index, std::vector<framebuffer::Rect> declared, bool has_declared) {
  const EngineImage& image = slots_[index].image;  // slots_ never resizes
  const uint32_t width = config_.extent.width, height = config_.extent.height;
  const size_t shown_stride = size_t{width} * 4;
  // Copies (not the diff, which reads both frames anyway) may go to the GPU.
  RectCopier copier;
  if (config_.gpu != nullptr && image.gpu_place) {
    copier = [&](const Rect& r) {
      intel_rcs::HostPlace from = *image.gpu_place;
      from.offset += r.y * image.row_pitch + size_t{r.x} * 4;
      const intel_rcs::HostPlace to{{shown_, shown_length_}, r.y * shown_stride + size_t{r.x} * 4};
      return image.row_pitch <= UINT32_MAX &&
             config_.gpu->CopyRect(to, static_cast<uint32_t>(shown_stride), from,
                                   static_cast<uint32_t>(image.row_pitch), r.width * 4, r.height);
    };
  }
  DamageResult damage;
  if (!shown_valid_) {
    damage = CopyAll(image.pixels, image.row_pitch, shown_, shown_stride, width, height, copier);
    shown_valid_ = true;
  } else if (has_declared) {
    damage = CopyDeclared(declared, image.pixels, image.row_pitch, shown_, shown_stride, width, height, copier);
  } else {
    damage = DiffAndUpdate(image.pixels, image.row_pitch, shown_, shown_stride, width, height);
  }
  Callbacks released;
  {
    std::lock_guard lock(mutex_);
    FreePresented(index, &released);
  }
  changed_.notify_all();
  for (const auto& callback : released) callback();

  CountPresent(damage.pixels, uint64_t{width} * height, damage.rects.size(), damage.bands);
  const framebuffer::Frame frame{shown_, width, height, shown_stride, config_.format};
  const framebuffer::Status status = output_->Present(frame, damage.rects);
  if (status == framebuffer::Status::kLost || status == framebuffer::Status::kOutOfDate) {
    std::lock_guard lock(mutex_);
    (status == framebuffer::Status::kLost ? lost_ : out_of_date_) = true;
    changed_.notify_all();
  }
}

}  // namespace duet::wsi
