// What a VkPipelineCache holds: compiled stages (encoded programs) by the
// key of their compilation, and the data vkGetPipelineCacheData gives out
// and pInitialData brings back:
//   VkPipelineCacheHeaderVersionOne (pipelineCacheUUID = the build id)
//   then per entry: key (2 x u64), size (u32), XXH3-64 of the bytes (u64), bytes
// Data from another build, or whose header is broken, is ignored whole;
// an entry whose checksum fails, and what follows it, is dropped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "pipeline_cache/stage_key.h"

namespace duet::pipeline_cache {

using Blob = std::shared_ptr<const std::vector<uint8_t>>;

class ProgramStore {
 public:
  Blob Find(const StageKey& key) const;
  void Insert(const StageKey& key, Blob blob);
  // Adds `other`'s entries this store lacks.
  void Merge(const ProgramStore& other);

  size_t DataSize() const;
  // Writes the header and the whole entries that fit in `capacity` bytes;
  // returns the bytes written, or 0 when not even the header fits.
  size_t WriteData(uint8_t* out, size_t capacity) const;
  // Adds the entries of `data` (vkCreatePipelineCache's pInitialData, or a
  // file); returns how many.
  size_t LoadData(const void* data, size_t size);

  size_t size() const;

 private:
  mutable std::mutex mutex_;
  std::unordered_map<StageKey, Blob, StageKeyHash> entries_;
  std::vector<StageKey> order_;  // insertion order: the data comes out the same each time
};

// The header every VkPipelineCache's data starts with.
void WriteCacheHeader(uint8_t out[32]);
inline constexpr size_t kCacheHeaderSize = 32;

}  // namespace duet::pipeline_cache
