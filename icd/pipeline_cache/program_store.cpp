#include "pipeline_cache/program_store.h"

#include <cstring>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "objects/device_capabilities.h"
#include "pipeline_cache/build_id.h"

namespace duet::pipeline_cache {
namespace {

constexpr size_t kEntryHeaderSize = 8 + 8 + 4 + 8;

size_t EntrySize(const Blob& blob) { return kEntryHeaderSize + blob->size(); }

}  // namespace

void WriteCacheHeader(uint8_t out[32]) {
  static_assert(sizeof(VkPipelineCacheHeaderVersionOne) == kCacheHeaderSize);
  VkPipelineCacheHeaderVersionOne header{};
  header.headerSize = sizeof header;
  header.headerVersion = VK_PIPELINE_CACHE_HEADER_VERSION_ONE;
  const VkPhysicalDeviceProperties& props = SupportedProperties().core;
  header.vendorID = props.vendorID;
  header.deviceID = props.deviceID;
  std::memcpy(header.pipelineCacheUUID, DriverBuildId().bytes, VK_UUID_SIZE);
  std::memcpy(out, &header, sizeof header);
}

Blob ProgramStore::Find(const StageKey& key) const {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(key);
  return it == entries_.end() ? nullptr : it->second;
}

void ProgramStore::Insert(const StageKey& key, Blob blob) {
  std::lock_guard lock(mutex_);
  if (entries_.emplace(key, std::move(blob)).second) order_.push_back(key);
}

void ProgramStore::Merge(const ProgramStore& other) {
  if (&other == this) return;
  std::vector<std::pair<StageKey, Blob>> theirs;
  {
    std::lock_guard lock(other.mutex_);
    for (const StageKey& key : other.order_) theirs.emplace_back(key, other.entries_.at(key));
  }
  for (auto& [key, blob] : theirs) Insert(key, std::move(blob));
}

size_t ProgramStore::size() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

size_t ProgramStore::DataSize() const {
  std::lock_guard lock(mutex_);
  size_t size = kCacheHeaderSize;
  for (const auto& [key, blob] : entries_) size += EntrySize(blob);
  return size;
}

size_t ProgramStore::WriteData(uint8_t* out, size_t capacity) const {
  if (capacity < kCacheHeaderSize) return 0;
  WriteCacheHeader(out);
  size_t at = kCacheHeaderSize;
  std::lock_guard lock(mutex_);
  for (const StageKey& key : order_) {
    const Blob& blob = entries_.at(key);
    if (capacity - at < EntrySize(blob)) break;
    const uint32_t size = uint32_t(blob->size());
    const uint64_t checksum = XXH3_64bits(blob->data(), blob->size());
    std::memcpy(out + at, &key.low, 8);
    std::memcpy(out + at + 8, &key.high, 8);
    std::memcpy(out + at + 16, &size, 4);
    std::memcpy(out + at + 20, &checksum, 8);
    std::memcpy(out + at + kEntryHeaderSize, blob->data(), blob->size());
    at += EntrySize(blob);
  }
  return at;
}

size_t ProgramStore::LoadData(const void* data, size_t size) {
  if (data == nullptr || size < kCacheHeaderSize) return 0;
  const auto* bytes = static_cast<const uint8_t*>(data);
  uint8_t expected[kCacheHeaderSize];
  WriteCacheHeader(expected);
  if (std::memcmp(bytes, expected, kCacheHeaderSize) != 0) return 0;
  size_t at = kCacheHeaderSize, loaded = 0;
  while (size - at >= kEntryHeaderSize) {
    StageKey key;
    uint32_t length = 0;
    uint64_t checksum = 0;
    std::memcpy(&key.low, bytes + at, 8);
    std::memcpy(&key.high, bytes + at + 8, 8);
    std::memcpy(&length, bytes + at + 16, 4);
    std::memcpy(&checksum, bytes + at + 20, 8);
    const uint8_t* payload = bytes + at + kEntryHeaderSize;
    if (size - at - kEntryHeaderSize < length || XXH3_64bits(payload, length) != checksum) break;
    Insert(key, std::make_shared<const std::vector<uint8_t>>(payload, payload + length));
    at += kEntryHeaderSize + length;
    ++loaded;
  }
  return loaded;
}

}  // namespace duet::pipeline_cache
