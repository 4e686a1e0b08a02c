#include "backends/intel_rcs/address_space.h"

namespace duet::intel_rcs {

std::optional<uint64_t> AddressSpace::Allocate(uint64_t size) {
  if (size == 0 || size > kEnd) return std::nullopt;
  const uint64_t reserved = (size + kPage - 1) / kPage * kPage + kPage;  // + the guard page
  std::lock_guard lock(mutex_);
  // Reuse the smallest freed range that fits, else take fresh addresses.
  auto it = free_by_size_.lower_bound(reserved);
  if (it != free_by_size_.end()) {
    const uint64_t address = it->second;
    used_[address] = it->first;
    free_by_size_.erase(it);
    return address;
  }
  if (kEnd - next_ < reserved) return std::nullopt;
  const uint64_t address = next_;
  next_ += reserved;
  used_[address] = reserved;
  return address;
}

void AddressSpace::Free(uint64_t address) {
  std::lock_guard lock(mutex_);
  auto it = used_.find(address);
  if (it == used_.end()) return;
  free_by_size_.emplace(it->second, address);
  used_.erase(it);
}

}  // namespace duet::intel_rcs
