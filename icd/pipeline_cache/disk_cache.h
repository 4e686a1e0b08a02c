// The on-disk cache of compiled stages, shared by every process of the
// user: a second run of an application skips shader compilation.
//
// One file per compiled stage in $XDG_CACHE_HOME/duet (~/.cache/duet),
// named by the build id and the stage's key; written to a temporary name
// and renamed, so a reader sees a whole file or none, and two processes
// writing the same stage at once write the same bytes. Each file holds its
// build id, key and checksum, and is ignored unless all three match. When
// the files pass the size bound the least recently used go (a load touches
// its file). Files are written by a thread of the cache's own. DUET_CACHE=0 turns it off; DUET_CACHE_MAX_MB bounds it
// (default 256).
#pragma once

#include <condition_variable>
#include <deque>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "pipeline_cache/program_store.h"
#include "pipeline_cache/stage_key.h"

namespace duet::pipeline_cache {

class DiskCache {
 public:
  // The cache the environment asks for, or null (off, or no directory).
  static std::unique_ptr<DiskCache> FromEnvironment();

  DiskCache(std::string directory, uint64_t max_bytes);

  // Writes what is still queued.
  ~DiskCache();

  // The bytes stored for `key`, or false.
  bool Load(const StageKey& key, std::vector<uint8_t>* bytes);
  // Stores `bytes` for `key`: queued for a thread of the cache's own, so
  // that file system calls stay out of pipeline creation (best effort: a
  // full disk or a read-only directory only costs the next run a
  // compilation).
  void Store(const StageKey& key, Blob bytes);
  // Returns once every queued store is written.
  void Flush();

  const std::string& directory() const { return directory_; }

 private:
  std::string PathOf(const StageKey& key) const;
  // The writer thread, and what only it does.
  void WriteQueued();
  void WriteFile(const StageKey& key, const std::vector<uint8_t>& bytes);
  // Removes the least recently used files while they pass the bound.
  void Evict();

  std::string directory_;
  uint64_t max_bytes_;
  // The writer thread's: temporary file names, and the files' bytes at the
  // last scan plus what it wrote since.
  uint64_t temp_counter_ = 0;
  static constexpr uint64_t kUnknown = UINT64_MAX;
  uint64_t known_bytes_ = kUnknown;

  std::mutex queue_mutex_;
  std::condition_variable queue_cv_;
  std::condition_variable written_cv_;  // a queued store was written
  std::deque<std::pair<StageKey, Blob>> queue_;
  std::unordered_map<StageKey, Blob, StageKeyHash> pending_;  // queued or being written
  bool stopping_ = false;
  std::thread writer_;  // started by the first Store
};

}  // namespace duet::pipeline_cache
