// The payload of a fence (0 or 1) or semaphore (a binary one's 0 or 1, a
// timeline's counter): a value in the object, or one in a page of a memfd
// that other devices and processes share through opaque fds
// (VK_KHR_external_fence_fd, VK_KHR_external_semaphore_fd). Local values
// are guarded by Device::sync_mutex; shared ones are atomics, and nobody
// notifies this process when another one changes them, so waits poll
// while any shared payload exists (SharedPayloadsExist).
#pragma once

#include <atomic>
#include <cstdint>

namespace duet {

class SyncPayload {
 public:
  SyncPayload() = default;
  SyncPayload(const SyncPayload&) = delete;
  SyncPayload& operator=(const SyncPayload&) = delete;
  ~SyncPayload() { Release(); }

  uint64_t Load() const { return shared_ != nullptr ? shared_->value.load() : local_; }
  void Store(uint64_t value) {
    if (shared_ != nullptr)
      shared_->value.store(value);
    else
      local_ = value;
  }
  bool shared() const { return shared_ != nullptr; }

  // Moves the value into a new shared page; false when no memfd could be made.
  bool Share();
  // A new fd of the shared page (Share() first), or -1.
  int Export() const;
  // Takes the page of `fd` (one Export gave, in any process) and owns fd;
  // false, owning nothing, when fd is not such a page.
  bool Import(int fd);
  // Back to a local value (0), unmapping any shared page.
  void Release();

 private:
  struct Page {
    uint64_t magic;
    std::atomic<uint64_t> value;
  };
  uint64_t local_ = 0;
  Page* shared_ = nullptr;
  int fd_ = -1;
};

// Whether any payload of this process is shared (waits must poll then).
bool SharedPayloadsExist();

}  // namespace duet
