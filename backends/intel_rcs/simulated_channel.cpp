#include "backends/intel_rcs/simulated_channel.h"

#include <cstring>

namespace duet::intel_rcs {
namespace {

// A device id of each generation, for what Info() reports.
uint16_t DeviceIdOf(Generation gen) {
  switch (gen) {
    case Generation::kGen9:
      return 0x1912;
    case Generation::kGen11:
      return 0x8A52;
    case Generation::kGen12:
      return 0x9A49;
  }
  return 0;
}

}  // namespace

SimulatedChannel::SimulatedChannel(Generation gen)
    : info_{*ModelOfDevice(DeviceIdOf(gen)), DeviceIdOf(gen), "simulator"}, simulator_(gen) {}

SimulatedChannel::~SimulatedChannel() = default;

std::optional<BufferObject> SimulatedChannel::Create(uint64_t size) {
  const uint64_t rounded = (size + AddressSpace::kPage - 1) / AddressSpace::kPage * AddressSpace::kPage;
  std::unique_ptr<std::byte[]> storage(new (std::nothrow) std::byte[rounded]());
  if (!storage) return std::nullopt;
  std::optional<uint64_t> address = addresses_.Allocate(rounded);
  if (!address) return std::nullopt;
  std::lock_guard lock(mutex_);
  BufferObject bo{next_handle_++, *address, rounded, storage.get()};
  objects_[bo.handle] = {bo, std::move(storage)};
  return bo;
}

std::optional<BufferObject> SimulatedChannel::WrapHostPages(std::byte* pages, uint64_t size, uint64_t gpu_address) {
  if (reinterpret_cast<uintptr_t>(pages) % AddressSpace::kPage != 0 || size % AddressSpace::kPage != 0 || size == 0) {
    last_error_ = "GEM_USERPTR: pages not page aligned (EINVAL)";
    return std::nullopt;
  }
  std::lock_guard lock(mutex_);
  BufferObject bo{next_handle_++, gpu_address, size, pages};
  objects_[bo.handle] = {bo, nullptr};
  return bo;
}

void SimulatedChannel::Destroy(const BufferObject& object) {
  std::lock_guard lock(mutex_);
  auto it = objects_.find(object.handle);
  if (it == objects_.end()) return;
  if (it->second.storage) addresses_.Free(object.gpu_address);  // wrapped pages sit at the caller's addresses
  objects_.erase(it);
}

std::optional<uint64_t> SimulatedChannel::Submit(const BufferObject& batch, uint32_t batch_bytes,
                                                 std::span<const BufferObject> objects, Engine engine) {
  std::lock_guard lock(mutex_);
  if (lost_ || abandoned_ || refuse_ > 0) {
    if (refuse_ > 0) --refuse_;
    last_error_ = lost_ || abandoned_ ? "EXECBUFFER2: no context (EIO)" : "EXECBUFFER2: refused (injected)";
    return std::nullopt;
  }
  // As the kernel does: every object must exist, once, and sit where it was pinned.
  std::vector<SimulatedObject> memory;
  for (size_t i = 0; i <= objects.size(); ++i) {
    const BufferObject& o = i < objects.size() ? objects[i] : batch;
    auto it = objects_.find(o.handle);
    if (it == objects_.end() || it->second.bo.gpu_address != o.gpu_address) {
      last_error_ = "EXECBUFFER2: unknown object or moved address (EINVAL)";
      return std::nullopt;
    }
    for (size_t j = 0; j < i; ++j)
      if (objects[j].handle == o.handle) {
        last_error_ = "EXECBUFFER2: an object listed twice (EINVAL)";
        return std::nullopt;
      }
    memory.push_back({it->second.bo.gpu_address, it->second.bo.size, it->second.bo.cpu});
  }
  if (batch_bytes % 4 != 0 || batch_bytes > batch.size) {
    last_error_ = "EXECBUFFER2: batch length (EINVAL)";
    return std::nullopt;
  }
  std::vector<uint32_t> dwords(batch_bytes / 4);
  std::memcpy(dwords.data(), batch.cpu, batch_bytes);
  ExecutionResult result = simulator_.Execute(dwords, memory, engine, hang_at_);
  hang_at_ = UINT32_MAX;
  results_.push_back(std::move(result));
  fences_[++last_fence_] = results_.size() - 1;
  return last_fence_;
}

WaitStatus SimulatedChannel::Wait(uint64_t fence, uint64_t) {
  std::lock_guard lock(mutex_);
  if (lost_) {
    last_error_ = "GEM_WAIT: device lost (EIO)";
    return WaitStatus::kFailed;
  }
  auto it = fences_.find(fence);
  if (it == fences_.end()) return WaitStatus::kDone;
  const ExecutionResult& result = results_[it->second];
  if (result.status == ExecutionResult::Status::kHung) return WaitStatus::kTimeout;  // a hung batch stays busy
  fences_.erase(it);
  if (result.status == ExecutionResult::Status::kFaulted) {
    last_error_ = "batch faulted: " + result.error;
    return WaitStatus::kFailed;
  }
  return WaitStatus::kDone;
}

bool SimulatedChannel::Abandon(uint64_t fence) {
  std::lock_guard lock(mutex_);
  abandoned_ = true;  // as a destroyed context: a hung batch writes no more
  fences_.erase(fence);
  return true;
}

void SimulatedChannel::RefuseSubmits(uint32_t count) {
  std::lock_guard lock(mutex_);
  refuse_ = count;
}

void SimulatedChannel::HangAtPacket(uint32_t packet) {
  std::lock_guard lock(mutex_);
  hang_at_ = packet;
}

void SimulatedChannel::Lose() {
  std::lock_guard lock(mutex_);
  lost_ = true;
}

size_t SimulatedChannel::LiveObjects() const {
  std::lock_guard lock(mutex_);
  return objects_.size();
}

}  // namespace duet::intel_rcs
