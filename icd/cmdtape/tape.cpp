#include "cmdtape/tape.h"

#include <algorithm>

#include "util/host_alloc.h"

namespace duet::cmdtape {

void* Tape::Allocate(size_t size, size_t alignment) {
  if (!chunks_.empty()) {
    Chunk& chunk = chunks_.back();
    size_t offset = (chunk.used + alignment - 1) / alignment * alignment;
    if (offset + size <= chunk.size) {
      chunk.used = offset + size;
      bytes_used_ += size;
      return chunk.data.get() + offset;
    }
  }
  // Chunks grow with the tape so a long recording needs few of them; an
  // oversized array gets a chunk of its own size.
  size_t chunk_size = std::max({kChunkSize, size + alignment, chunks_.empty() ? 0 : chunks_.back().size * 2});
  chunk_size = std::min(chunk_size, std::max(size + alignment, size_t{1} << 20));
  chunks_.reserve(chunks_.size() + 1);  // a failure below leaves chunks_ as it was
  auto* memory = static_cast<std::byte*>(
      HostAllocate(allocator_, chunk_size, alignof(std::max_align_t), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT));
  if (memory == nullptr) throw std::bad_alloc();
  chunks_.push_back(Chunk{chunk_size, 0, std::unique_ptr<std::byte[], ChunkFree>(memory, ChunkFree{allocator_})});
  return Allocate(size, alignment);
}

void Tape::ChunkFree::operator()(std::byte* memory) const { HostFree(allocator, memory); }

void Tape::Reset() {
  if (chunks_.size() > 1) chunks_.erase(chunks_.begin() + 1, chunks_.end());
  if (!chunks_.empty()) chunks_.front().used = 0;
  first_ = last_ = nullptr;
  record_count_ = 0;
  bytes_used_ = 0;
}

void Tape::Release() {
  Reset();
  chunks_.clear();
  chunks_.shrink_to_fit();
}

}  // namespace duet::cmdtape
