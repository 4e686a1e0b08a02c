#include "backends/intel_rcs/address_space.h"

#include <algorithm>

namespace duet::intel_rcs {

AddressSpace::AddressSpace(uint64_t end) {
  end = std::min(end, kMaxEnd) / kPage * kPage;
  if (end > kFirst) free_[kFirst] = end - kFirst;
}

std::optional<uint64_t> AddressSpace::Allocate(uint64_t size) {
  if (size == 0 || size > kMaxEnd) return std::nullopt;
  const uint64_t reserved = (size + kPage - 1) / kPage * kPage + kPage;  // + the guard page
  std::lock_guard lock(mutex_);
  // First fit: low addresses are reused before fresh ones are taken.
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second < reserved) continue;
    const uint64_t address = it->first, rest = it->second - reserved;
    free_.erase(it);
    if (rest > 0) free_[address + reserved] = rest;
    used_[address] = reserved;
    return address;
  }
  return std::nullopt;
}

void AddressSpace::Free(uint64_t address) {
  std::lock_guard lock(mutex_);
  auto used = used_.find(address);
  if (used == used_.end()) return;
  uint64_t begin = address, size = used->second;
  used_.erase(used);
  auto next = free_.lower_bound(begin);
  if (next != free_.end() && next->first == begin + size) {
    size += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto previous = std::prev(next);
    if (previous->first + previous->second == begin) {
      begin = previous->first;
      size += previous->second;
      free_.erase(previous);
    }
  }
  free_[begin] = size;
}

}  // namespace duet::intel_rcs
