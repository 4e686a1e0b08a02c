// GPU virtual addresses of soft-pinned objects: the driver, not the kernel,
// places every object, so batches carry final addresses and need no
// relocations. Page-granular, with an unused page after each range, so a
// blit that overruns lands in unbound addresses (the GPU's scratch page)
// rather than in a neighbour; below the per-process GTT's end (2^47 at
// most, where addresses need no sign extension; 2^36 on some parts).
// Freed ranges merge with free neighbours.
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
  static constexpr uint64_t kMaxEnd = uint64_t{1} << 47;

  explicit AddressSpace(uint64_t end = kMaxEnd);

  // `size` bytes (rounded up to pages) of addresses, or nothing when no
  // free range is large enough.
  std::optional<uint64_t> Allocate(uint64_t size);
  void Free(uint64_t address);

 private:
  std::mutex mutex_;
  std::map<uint64_t, uint64_t> free_;  // address -> bytes; disjoint, never adjacent
  std::map<uint64_t, uint64_t> used_;  // address -> bytes reserved (the guard page included)
};

}  // namespace duet::intel_rcs
