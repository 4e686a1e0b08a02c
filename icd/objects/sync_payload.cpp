#include "objects/sync_payload.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace duet {
namespace {

constexpr uint64_t kMagic = 0x6475657453796E63ull;  // "duetSync"
constexpr size_t kPageBytes = 4096;
std::atomic<int> shared_payloads{0};

}  // namespace

bool SharedPayloadsExist() { return shared_payloads.load(std::memory_order_relaxed) > 0; }

bool SyncPayload::Share() {
  if (shared_ != nullptr) return true;
  const int fd = memfd_create("duet-sync-payload", MFD_CLOEXEC);
  if (fd < 0) return false;
  void* page = MAP_FAILED;
  if (ftruncate(fd, kPageBytes) == 0) page = mmap(nullptr, kPageBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (page == MAP_FAILED) {
    close(fd);
    return false;
  }
  auto* p = static_cast<Page*>(page);
  p->value.store(local_);
  p->magic = kMagic;
  shared_ = p;
  fd_ = fd;
  shared_payloads.fetch_add(1);
  return true;
}

int SyncPayload::Export() const {
  return fd_ >= 0 ? fcntl(fd_, F_DUPFD_CLOEXEC, 0) : -1;
}

bool SyncPayload::Import(int fd) {
  struct stat st {};
  if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < off_t(kPageBytes)) return false;
  void* page = mmap(nullptr, kPageBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (page == MAP_FAILED) return false;
  if (static_cast<Page*>(page)->magic != kMagic) {
    munmap(page, kPageBytes);
    return false;
  }
  Release();
  shared_ = static_cast<Page*>(page);
  fd_ = fd;
  shared_payloads.fetch_add(1);
  return true;
}

void SyncPayload::Release() {
  if (shared_ != nullptr) {
    munmap(shared_, kPageBytes);
    shared_payloads.fetch_sub(1);
  }
  if (fd_ >= 0) close(fd_);
  shared_ = nullptr;
  fd_ = -1;
  local_ = 0;
}

}  // namespace duet
