#include "pipeline_cache/disk_cache.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "pipeline_cache/build_id.h"
#include "pipeline_cache/cache_stats.h"
#include "util/log.h"

namespace duet::pipeline_cache {
namespace {

constexpr char kMagic[8] = {'D', 'U', 'E', 'T', 'I', 'R', 'C', '1'};
constexpr uint64_t kDefaultMaxBytes = 256ull << 20;

// What a file starts with; its bytes follow.
struct FileHeader {
  char magic[8];
  uint8_t build_id[16];
  StageKey key;
  uint64_t size;      // of the bytes
  uint64_t checksum;  // XXH3-64 of the bytes
};
static_assert(sizeof(FileHeader) == 56, "no padding: the header is written as it is");

bool WriteAll(int fd, const uint8_t* data, size_t size) {
  while (size > 0) {
    const ssize_t n = write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= size_t(n);
  }
  return true;
}

bool ReadAll(int fd, uint8_t* data, size_t size) {
  while (size > 0) {
    const ssize_t n = read(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= size_t(n);
  }
  return true;
}

// mkdir -p, for the cache directory.
bool MakeDirectories(const std::string& path) {
  for (size_t at = 1; at <= path.size(); ++at) {
    if (at != path.size() && path[at] != '/') continue;
    const std::string prefix = path.substr(0, at);
    if (mkdir(prefix.c_str(), 0755) != 0 && errno != EEXIST) return false;
  }
  return true;
}

}  // namespace

std::unique_ptr<DiskCache> DiskCache::FromEnvironment() {
  if (const char* enabled = std::getenv("DUET_CACHE"); enabled != nullptr && std::strcmp(enabled, "0") == 0)
    return nullptr;
  std::string directory;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && xdg[0] == '/')
    directory = std::string(xdg) + "/duet";
  else if (const char* home = std::getenv("HOME"); home != nullptr && home[0] == '/')
    directory = std::string(home) + "/.cache/duet";
  else
    return nullptr;
  uint64_t max_bytes = kDefaultMaxBytes;
  if (const char* text = std::getenv("DUET_CACHE_MAX_MB"); text != nullptr && *text != '\0') {
    char* end = nullptr;
    const unsigned long long mb = std::strtoull(text, &end, 10);
    if (end != nullptr && *end == '\0') max_bytes = std::min<unsigned long long>(mb, 1ull << 32) << 20;
  }
  if (!MakeDirectories(directory)) {
    DUET_INFO("pipeline cache: cannot make %s (%s): no on-disk cache", directory.c_str(), std::strerror(errno));
    return nullptr;
  }
  return std::make_unique<DiskCache>(std::move(directory), max_bytes);
}

DiskCache::DiskCache(std::string directory, uint64_t max_bytes)
    : directory_(std::move(directory)), max_bytes_(max_bytes) {}

std::string DiskCache::PathOf(const StageKey& key) const {
  // Builds share the directory; their files never share a name.
  XXH3_state_t state;
  XXH3_128bits_reset(&state);
  XXH3_128bits_update(&state, DriverBuildId().bytes, sizeof(BuildId::bytes));
  XXH3_128bits_update(&state, &key.low, 8);
  XXH3_128bits_update(&state, &key.high, 8);
  const XXH128_hash_t name = XXH3_128bits_digest(&state);
  return directory_ + "/" + StageKey{name.low64, name.high64}.Hex() + ".ir";
}

DiskCache::~DiskCache() {
  {
    std::lock_guard lock(queue_mutex_);
    stopping_ = true;
  }
  queue_cv_.notify_all();
  if (writer_.joinable()) writer_.join();
}

bool DiskCache::Load(const StageKey& key, std::vector<uint8_t>* bytes) {
  {
    // Stored by this process and not written yet.
    std::lock_guard lock(queue_mutex_);
    if (auto it = pending_.find(key); it != pending_.end()) {
      *bytes = *it->second;
      return true;
    }
  }
  const std::string path = PathOf(key);
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  FileHeader header;
  struct stat st {};
  bool ok = fstat(fd, &st) == 0 && uint64_t(st.st_size) >= sizeof header &&
            ReadAll(fd, reinterpret_cast<uint8_t*>(&header), sizeof header) &&
            std::memcmp(header.magic, kMagic, sizeof kMagic) == 0 &&
            std::memcmp(header.build_id, DriverBuildId().bytes, sizeof header.build_id) == 0 && header.key == key &&
            header.size == uint64_t(st.st_size) - sizeof header;
  if (ok) {
    bytes->resize(header.size);
    ok = ReadAll(fd, bytes->data(), header.size) && XXH3_64bits(bytes->data(), header.size) == header.checksum;
  }
  if (ok) futimens(fd, nullptr);  // recently used: evicted last
  close(fd);
  if (!ok) {
    // A torn or foreign file: the compilation stores a good one again.
    DUET_DEBUG("pipeline cache: ignoring %s", path.c_str());
    bytes->clear();
  }
  return ok;
}

void DiskCache::Store(const StageKey& key, Blob bytes) {
  {
    std::lock_guard lock(queue_mutex_);
    if (stopping_ || !pending_.emplace(key, bytes).second) return;
    queue_.emplace_back(key, std::move(bytes));
    if (!writer_.joinable()) writer_ = std::thread([this] { WriteQueued(); });
  }
  queue_cv_.notify_one();
}

void DiskCache::WriteQueued() {
  std::unique_lock lock(queue_mutex_);
  for (;;) {
    queue_cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    // (Drained before stopping: what the application compiled is kept.)
    if (queue_.empty()) return;
    auto [key, bytes] = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    WriteFile(key, *bytes);
    lock.lock();
    pending_.erase(key);
    written_cv_.notify_all();
  }
}

void DiskCache::Flush() {
  std::unique_lock lock(queue_mutex_);
  written_cv_.wait(lock, [this] { return pending_.empty(); });
}

void DiskCache::WriteFile(const StageKey& key, const std::vector<uint8_t>& bytes) {
  const std::string path = PathOf(key);
  const std::string temp = path + ".tmp." + std::to_string(getpid()) + "." + std::to_string(++temp_counter_);
  const int fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return;
  FileHeader header;
  std::memcpy(header.magic, kMagic, sizeof kMagic);
  std::memcpy(header.build_id, DriverBuildId().bytes, sizeof header.build_id);
  header.key = key;
  header.size = bytes.size();
  header.checksum = XXH3_64bits(bytes.data(), bytes.size());
  const bool ok = WriteAll(fd, reinterpret_cast<const uint8_t*>(&header), sizeof header) &&
                  WriteAll(fd, bytes.data(), bytes.size());
  close(fd);
  if (!ok || rename(temp.c_str(), path.c_str()) != 0) {
    unlink(temp.c_str());
    return;
  }
  CountDiskStore();
  // The directory is scanned when this process first stores and when what
  // it knows of passes the bound (other processes' files are seen then).
  const uint64_t file_bytes = sizeof header + bytes.size();
  if (known_bytes_ == kUnknown || known_bytes_ + file_bytes > max_bytes_)
    Evict();
  else
    known_bytes_ += file_bytes;
}

void DiskCache::Evict() {
  DIR* dir = opendir(directory_.c_str());
  if (dir == nullptr) return;
  struct File {
    std::string path;
    uint64_t bytes;
    timespec used;
  };
  std::vector<File> files;
  uint64_t total = 0;
  while (const dirent* e = readdir(dir)) {
    const size_t length = std::strlen(e->d_name);
    const bool finished = length > 3 && std::strcmp(e->d_name + length - 3, ".ir") == 0;
    const bool temporary = std::strstr(e->d_name, ".ir.tmp.") != nullptr;
    if (!finished && !temporary) continue;
    struct stat st {};
    if (fstatat(dirfd(dir), e->d_name, &st, 0) != 0 || !S_ISREG(st.st_mode)) continue;
    // Another process's temporary file is its own, unless that process
    // died writing it an hour ago.
    if (temporary) {
      if (st.st_mtim.tv_sec + 3600 < time(nullptr)) unlinkat(dirfd(dir), e->d_name, 0);
      continue;
    }
    files.push_back({directory_ + "/" + e->d_name, uint64_t(st.st_size), st.st_mtim});
    total += uint64_t(st.st_size);
  }
  closedir(dir);
  known_bytes_ = total;
  if (total <= max_bytes_) return;
  std::sort(files.begin(), files.end(), [](const File& a, const File& b) {
    return a.used.tv_sec != b.used.tv_sec ? a.used.tv_sec < b.used.tv_sec : a.used.tv_nsec < b.used.tv_nsec;
  });
  // Down to three quarters, so that the next stores do not scan again at once.
  for (const File& f : files) {
    if (total <= max_bytes_ / 4 * 3) break;
    if (unlink(f.path.c_str()) == 0) CountDiskEviction();
    total -= f.bytes;
  }
  known_bytes_ = total;
}

}  // namespace duet::pipeline_cache
