// A command tape: the recorded commands of one command buffer as a flat
// arena of typed records (see the generated cmdtape/tape_records.h). Every
// array and struct an application passed is deep-copied into the same
// arena, so the application may free its memory after the vkCmd* call and
// the tape can be replayed any number of times.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

namespace duet::cmdtape {

enum class Op : uint16_t;

// Precedes every record. Records are 8-byte aligned and laid out back to
// back inside a chunk; `next` links to the following record (possibly in a
// later chunk), so replay never needs to know a record's size.
struct RecordHeader {
  Op op;
  RecordHeader* next;
};

class Tape {
 public:
  // Chunks come from `allocator` (the command pool's; null: the C++ heap).
  explicit Tape(const VkAllocationCallbacks* allocator = nullptr) : allocator_(allocator) {}
  Tape(const Tape&) = delete;
  Tape& operator=(const Tape&) = delete;

  // A new record of type R (a generated *Record struct), zero-initialized,
  // linked after the previous one. Throws std::bad_alloc when memory runs out.
  template <typename R>
  R* Append() {
    static_assert(std::is_trivially_copyable_v<R>);
    auto* header = static_cast<RecordHeader*>(Allocate(sizeof(RecordHeader) + sizeof(R), alignof(std::max_align_t)));
    header->op = R::kOp;
    header->next = nullptr;
    if (last_ != nullptr) last_->next = header;
    else first_ = header;
    last_ = header;
    ++record_count_;
    return new (header + 1) R{};
  }

  // Copies `count` objects into the arena; nullptr for count 0 or a null source.
  template <typename T>
  T* CopyArray(const T* source, size_t count) {
    if (source == nullptr || count == 0) return nullptr;
    void* memory = Allocate(sizeof(T) * count, alignof(T) < 8 ? 8 : alignof(T));
    std::memcpy(memory, source, sizeof(T) * count);
    return static_cast<T*>(memory);
  }

  // `count` elements `stride` bytes apart, copied next to each other.
  template <typename T>
  T* CopyStrided(const T* source, size_t count, size_t stride) {
    if (source == nullptr || count == 0) return nullptr;
    T* copy = static_cast<T*>(Allocate(sizeof(T) * count, alignof(T) < 8 ? 8 : alignof(T)));
    for (size_t i = 0; i < count; ++i)
      std::memcpy(copy + i, reinterpret_cast<const std::byte*>(source) + i * stride, sizeof(T));
    return copy;
  }

  const void* CopyBytes(const void* source, size_t size) {
    return CopyArray(static_cast<const std::byte*>(source), size);
  }

  const char* CopyString(const char* source) {
    return source == nullptr ? nullptr : CopyArray(source, std::strlen(source) + 1);
  }

  // Raw arena memory for generated deep-copy code. Throws std::bad_alloc
  // when the allocator has none (the recorder turns that into
  // VK_ERROR_OUT_OF_HOST_MEMORY at vkEndCommandBuffer).
  void* Allocate(size_t size, size_t alignment);

  // Forgets every record; keeps the first chunk for reuse.
  void Reset();
  // Forgets every record and gives all memory back.
  void Release();

  const RecordHeader* First() const { return first_; }
  size_t RecordCount() const { return record_count_; }
  size_t BytesUsed() const { return bytes_used_; }

 private:
  struct ChunkFree {
    const VkAllocationCallbacks* allocator;
    void operator()(std::byte* memory) const;
  };
  struct Chunk {
    size_t size;
    size_t used;
    std::unique_ptr<std::byte[], ChunkFree> data;
  };
  static constexpr size_t kChunkSize = 16 * 1024;

  const VkAllocationCallbacks* allocator_;
  std::vector<Chunk> chunks_;
  RecordHeader* first_ = nullptr;
  RecordHeader* last_ = nullptr;
  size_t record_count_ = 0;
  size_t bytes_used_ = 0;
};

template <typename R>
const R& RecordOf(const RecordHeader* header) {
  return *reinterpret_cast<const R*>(header + 1);
}

}  // namespace duet::cmdtape
