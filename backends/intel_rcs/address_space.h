// GPU virtual addresses of soft-pinned objects: the driver, not the kernel,
// places every object, so batches carry final addresses and need no
// relocations. Page-granular, with a guard page after each object so a blit
// that overruns faults instead of writing a neighbour; below 2^47, where
// addresses need no sign extension.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>

namespace duet::intel_rcs {

class AddressSpace {
 public:
  static constexpr uint64_t kPage = 4096;
  static constexpr uint64_t kFirst = uint64_t{1} << 20;  // address 0 stays unmapped
  static constexpr uint64_t kEnd = uint64_t{1} << 47;

  std::optional<uint64_t> Allocate(uint64_t size);
  void Free(uint64_t address);

 private:
  std::mutex mutex_;
  uint64_t next_ = kFirst;
  std::map<uint64_t, uint64_t> used_;               // address -> reserved bytes
  std::multimap<uint64_t, uint64_t> free_by_size_;  // reserved bytes -> address
};

}  // namespace duet::intel_rcs
