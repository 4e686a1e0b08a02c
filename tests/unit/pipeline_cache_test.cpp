// Pipeline caches: the data of a VkPipelineCache, and the on-disk cache
// (round trips, broken and foreign bytes, the size bound, processes that
// write at once).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "pipeline_cache/disk_cache.h"
#include "pipeline_cache/program_store.h"

namespace duet::pipeline_cache {
namespace {

Blob BlobOf(size_t size, uint8_t seed) {
  auto bytes = std::make_shared<std::vector<uint8_t>>(size);
  for (size_t i = 0; i < size; ++i) (*bytes)[i] = uint8_t(seed + i * 7);
  return bytes;
}

std::vector<uint8_t> DataOf(const ProgramStore& store) {
  std::vector<uint8_t> data(store.DataSize());
  EXPECT_EQ(store.WriteData(data.data(), data.size()), data.size());
  return data;
}

TEST(ProgramStoreTest, DataRoundTrips) {
  ProgramStore store;
  for (uint8_t i = 0; i < 5; ++i) store.Insert({i, 100u + i}, BlobOf(100 + i * 50, i));
  const std::vector<uint8_t> data = DataOf(store);
  ProgramStore loaded;
  EXPECT_EQ(loaded.LoadData(data.data(), data.size()), 5u);
  for (uint8_t i = 0; i < 5; ++i) {
    Blob blob = loaded.Find({i, 100u + i});
    ASSERT_NE(blob, nullptr);
    EXPECT_EQ(*blob, *BlobOf(100 + i * 50, i));
  }
  EXPECT_EQ(loaded.Find({9, 9}), nullptr);
  EXPECT_EQ(DataOf(loaded), data);  // insertion order kept: the same bytes
}

TEST(ProgramStoreTest, ShortBuffersGetWholeEntries) {
  ProgramStore store;
  store.Insert({1, 1}, BlobOf(100, 1));
  store.Insert({2, 2}, BlobOf(100, 2));
  const size_t whole = store.DataSize();
  std::vector<uint8_t> data(whole);
  EXPECT_EQ(store.WriteData(data.data(), kCacheHeaderSize - 1), 0u);
  EXPECT_EQ(store.WriteData(data.data(), kCacheHeaderSize), kCacheHeaderSize);
  const size_t one = store.WriteData(data.data(), whole - 1);
  EXPECT_EQ(one, kCacheHeaderSize + (whole - kCacheHeaderSize) / 2);
  ProgramStore loaded;
  EXPECT_EQ(loaded.LoadData(data.data(), one), 1u);
  EXPECT_NE(loaded.Find({1, 1}), nullptr);
}

TEST(ProgramStoreTest, ForeignOrBrokenDataIsIgnored) {
  ProgramStore store;
  store.Insert({1, 1}, BlobOf(64, 1));
  store.Insert({2, 2}, BlobOf(64, 2));
  const std::vector<uint8_t> data = DataOf(store);
  ProgramStore loaded;
  std::vector<uint8_t> foreign = data;
  foreign[16] ^= 1;  // another build's pipelineCacheUUID
  EXPECT_EQ(loaded.LoadData(foreign.data(), foreign.size()), 0u);
  std::vector<uint8_t> other_vendor = data;
  other_vendor[8] ^= 1;
  EXPECT_EQ(loaded.LoadData(other_vendor.data(), other_vendor.size()), 0u);
  EXPECT_EQ(loaded.LoadData(data.data(), 10), 0u);
  EXPECT_EQ(loaded.LoadData(nullptr, 0), 0u);
  // A flipped byte in the first entry's bytes: it and what follows go.
  std::vector<uint8_t> flipped = data;
  flipped[kCacheHeaderSize + 28 + 5] ^= 0x10;
  EXPECT_EQ(loaded.LoadData(flipped.data(), flipped.size()), 0u);
  // Cut inside the second entry: the first is kept.
  EXPECT_EQ(loaded.LoadData(data.data(), data.size() - 1), 1u);
  EXPECT_EQ(loaded.size(), 1u);
}

TEST(ProgramStoreTest, MergeAddsWhatIsMissing) {
  ProgramStore a, b;
  a.Insert({1, 1}, BlobOf(10, 1));
  b.Insert({1, 1}, BlobOf(10, 9));
  b.Insert({2, 2}, BlobOf(10, 2));
  a.Merge(b);
  a.Merge(a);
  EXPECT_EQ(a.size(), 2u);
  EXPECT_EQ(*a.Find({1, 1}), *BlobOf(10, 1));
  EXPECT_EQ(*a.Find({2, 2}), *BlobOf(10, 2));
}

class DiskCacheTest : public testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/duet-disk-cache-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::vector<std::filesystem::path> Files() const {
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(dir_)) files.push_back(e.path());
    return files;
  }

  std::string dir_;
};

TEST_F(DiskCacheTest, StoresAndLoads) {
  DiskCache cache(dir_, 1 << 20);
  std::vector<uint8_t> bytes;
  EXPECT_FALSE(cache.Load({1, 2}, &bytes));
  cache.Store({1, 2}, BlobOf(1000, 3));
  ASSERT_TRUE(cache.Load({1, 2}, &bytes));  // written or not yet
  EXPECT_EQ(bytes, *BlobOf(1000, 3));
  EXPECT_FALSE(cache.Load({1, 3}, &bytes));
  cache.Flush();
  // Another process (another DiskCache) finds it too.
  DiskCache other(dir_, 1 << 20);
  ASSERT_TRUE(other.Load({1, 2}, &bytes));
  EXPECT_EQ(bytes, *BlobOf(1000, 3));
  EXPECT_EQ(Files().size(), 1u);
}

TEST_F(DiskCacheTest, BrokenFilesAreIgnored) {
  DiskCache cache(dir_, 1 << 20);
  cache.Store({1, 2}, BlobOf(1000, 3));
  cache.Flush();
  ASSERT_EQ(Files().size(), 1u);
  const std::filesystem::path file = Files()[0];
  std::vector<uint8_t> bytes;
  {
    // A flipped byte in the payload.
    FILE* f = std::fopen(file.c_str(), "r+b");
    ASSERT_NE(f, nullptr);
    std::fseek(f, 500, SEEK_SET);
    std::fputc(0x5A, f);
    std::fclose(f);
  }
  EXPECT_FALSE(cache.Load({1, 2}, &bytes));
  cache.Store({1, 2}, BlobOf(1000, 3));  // a compilation writes it again
  cache.Flush();
  ASSERT_TRUE(cache.Load({1, 2}, &bytes));
  // Cut short (a process killed mid-write cannot leave this, a full disk could).
  std::filesystem::resize_file(file, 700);
  EXPECT_FALSE(cache.Load({1, 2}, &bytes));
  std::filesystem::resize_file(file, 10);
  EXPECT_FALSE(cache.Load({1, 2}, &bytes));
}

TEST_F(DiskCacheTest, StaysWithinItsBoundDroppingTheLeastRecentlyUsed) {
  // 20 files of ~10 KB under a 100 KB bound.
  DiskCache cache(dir_, 100 << 10);
  std::vector<uint8_t> bytes;
  for (uint64_t i = 0; i < 20; ++i) {
    cache.Store({i, 0}, BlobOf(10000, uint8_t(i)));
    cache.Flush();
    // Key 0 is used all along: it stays.
    ASSERT_TRUE(cache.Load({0, 0}, &bytes)) << i;
    // (File times are compared: let them differ.)
    usleep(2000);
  }
  uintmax_t total = 0;
  for (const auto& f : Files()) total += std::filesystem::file_size(f);
  EXPECT_LE(total, uintmax_t(100 << 10));
  EXPECT_GE(Files().size(), 5u);
  EXPECT_TRUE(cache.Load({0, 0}, &bytes));
  EXPECT_TRUE(cache.Load({19, 0}, &bytes));
  EXPECT_FALSE(cache.Load({1, 0}, &bytes));
}

TEST_F(DiskCacheTest, ProcessesWritingAtOnceLeaveWholeFiles) {
  constexpr int kProcesses = 4;
  constexpr uint64_t kKeys = 40;
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      DiskCache cache(dir_, 64 << 20);
      std::vector<uint8_t> bytes;
      bool ok = true;
      for (int round = 0; round < 5; ++round)
        for (uint64_t k = 0; k < kKeys; ++k) {
          const uint64_t key = (k + uint64_t(p) * 7) % kKeys;
          cache.Store({key, 1}, BlobOf(20000 + key * 100, uint8_t(key)));
          ok = ok && cache.Load({key, 1}, &bytes) && bytes == *BlobOf(20000 + key * 100, uint8_t(key));
        }
      cache.Flush();
      _exit(ok ? 0 : 1);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  EXPECT_EQ(Files().size(), kKeys);  // no temporary file left behind
  DiskCache cache(dir_, 64 << 20);
  std::vector<uint8_t> bytes;
  for (uint64_t k = 0; k < kKeys; ++k) {
    ASSERT_TRUE(cache.Load({k, 1}, &bytes));
    EXPECT_EQ(bytes, *BlobOf(20000 + k * 100, uint8_t(k)));
  }
}

TEST_F(DiskCacheTest, EnvironmentChoosesTheDirectoryOrNone) {
  const char* saved_xdg = std::getenv("XDG_CACHE_HOME");
  const std::string restore = saved_xdg != nullptr ? saved_xdg : "";
  setenv("XDG_CACHE_HOME", dir_.c_str(), 1);
  unsetenv("DUET_CACHE");
  std::unique_ptr<DiskCache> cache = DiskCache::FromEnvironment();
  ASSERT_NE(cache, nullptr);
  EXPECT_EQ(cache->directory(), dir_ + "/duet");
  struct stat st {};
  EXPECT_EQ(stat((dir_ + "/duet").c_str(), &st), 0);
  setenv("DUET_CACHE", "0", 1);
  EXPECT_EQ(DiskCache::FromEnvironment(), nullptr);
  unsetenv("DUET_CACHE");
  if (saved_xdg != nullptr)
    setenv("XDG_CACHE_HOME", restore.c_str(), 1);
  else
    unsetenv("XDG_CACHE_HOME");
}

}  // namespace
}  // namespace duet::pipeline_cache
