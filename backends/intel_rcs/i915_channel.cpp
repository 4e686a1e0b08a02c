#include "backends/intel_rcs/i915_channel.h"

#include <fcntl.h>
#include <libdrm/drm.h>
#include <libdrm/i915_drm.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <vector>

#include "backends/framebuffer/drm.h"
#include "backends/intel_rcs/address_space.h"

namespace duet::intel_rcs {
namespace {

// Retries interrupted calls.
int Ioctl(int fd, unsigned long request, void* arg) { return framebuffer::DrmIoctl(fd, request, arg); }

std::string DriverName(int fd) {
  char name[32] = {};
  drm_version version{};
  version.name = name;
  version.name_len = sizeof(name) - 1;
  if (Ioctl(fd, DRM_IOCTL_VERSION, &version) != 0) return {};
  return std::string(name, std::min<size_t>(version.name_len, sizeof(name) - 1));
}

bool GetParam(int fd, int param, int* value) {
  drm_i915_getparam get{};
  get.param = param;
  get.value = value;
  return Ioctl(fd, DRM_IOCTL_I915_GETPARAM, &get) == 0;
}

class I915Channel final : public Channel {
 public:
  I915Channel(int fd, const ChannelInfo& info, std::string path) : fd_(fd), info_(info), path_(std::move(path)) {
    info_.name = path_.c_str();
  }
  ~I915Channel() override { close(fd_); }

  const ChannelInfo& Info() const override { return info_; }

  std::optional<BufferObject> Create(uint64_t size) override {
    drm_i915_gem_create create{};
    create.size = (size + AddressSpace::kPage - 1) / AddressSpace::kPage * AddressSpace::kPage;
    if (Ioctl(fd_, DRM_IOCTL_I915_GEM_CREATE, &create) != 0) return Failed("GEM_CREATE");
    BufferObject object{create.handle, 0, create.size, nullptr};
    // Write-combined: coherent with the GPU on every part, LLC or not (the
    // CPU only writes batches and reads a few status dwords back).
    for (uint64_t flags : {uint64_t{I915_MMAP_OFFSET_WC}, uint64_t{I915_MMAP_OFFSET_WB}}) {
      drm_i915_gem_mmap_offset map{};
      map.handle = create.handle;
      map.flags = flags;
      if (Ioctl(fd_, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &map) != 0) continue;
      void* p = mmap(nullptr, create.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, static_cast<off_t>(map.offset));
      if (p != MAP_FAILED) {
        object.cpu = static_cast<std::byte*>(p);
        break;
      }
    }
    if (object.cpu == nullptr) {
      Close(object);
      return Failed("GEM_MMAP_OFFSET");
    }
    if (!Place(&object)) {
      munmap(object.cpu, object.size);
      Close(object);
      return std::nullopt;
    }
    std::lock_guard lock(mutex_);
    mapped_.insert(object.handle);
    return object;
  }

  std::optional<BufferObject> WrapHostPages(std::byte* pages, uint64_t size) override {
    drm_i915_gem_userptr userptr{};
    userptr.user_ptr = reinterpret_cast<uintptr_t>(pages);
    userptr.user_size = size;
    if (Ioctl(fd_, DRM_IOCTL_I915_GEM_USERPTR, &userptr) != 0) return Failed("GEM_USERPTR");
    BufferObject object{userptr.handle, 0, size, pages};
    if (!Place(&object)) {
      Close(object);
      return std::nullopt;
    }
    return object;
  }

  void Destroy(const BufferObject& object) override {
    bool mapped;
    {
      std::lock_guard lock(mutex_);
      mapped = mapped_.erase(object.handle) != 0;
    }
    if (mapped) munmap(object.cpu, object.size);
    addresses_.Free(object.gpu_address);
    Close(object);
  }

  std::optional<uint64_t> Submit(const BufferObject& batch, uint32_t batch_bytes, std::span<const BufferObject> objects,
                                 Engine engine) override {
    std::vector<drm_i915_gem_exec_object2> list(objects.size() + 1);
    for (size_t i = 0; i <= objects.size(); ++i) {
      const BufferObject& o = i < objects.size() ? objects[i] : batch;  // the batch goes last
      list[i].handle = o.handle;
      list[i].offset = o.gpu_address;
      list[i].flags =
          EXEC_OBJECT_PINNED | EXEC_OBJECT_SUPPORTS_48B_ADDRESS | (i < objects.size() ? EXEC_OBJECT_WRITE : 0);
    }
    drm_i915_gem_execbuffer2 exec{};
    exec.buffers_ptr = reinterpret_cast<uintptr_t>(list.data());
    exec.buffer_count = static_cast<uint32_t>(list.size());
    exec.batch_len = batch_bytes;
    exec.flags = (engine == Engine::kBlitter ? I915_EXEC_BLT : I915_EXEC_RENDER) | I915_EXEC_NO_RELOC;
    if (Ioctl(fd_, DRM_IOCTL_I915_GEM_EXECBUFFER2, &exec) != 0) {
      Failed("EXECBUFFER2");
      return std::nullopt;
    }
    std::lock_guard lock(mutex_);
    pending_[++last_fence_] = batch.handle;
    return last_fence_;
  }

  WaitStatus Wait(uint64_t fence, uint64_t timeout_ns) override {
    uint32_t handle;
    {
      std::lock_guard lock(mutex_);
      auto it = pending_.find(fence);
      if (it == pending_.end()) return WaitStatus::kDone;
      handle = it->second;
    }
    drm_i915_gem_wait wait{};
    wait.bo_handle = handle;
    wait.timeout_ns = static_cast<int64_t>(timeout_ns);
    const int result = Ioctl(fd_, DRM_IOCTL_I915_GEM_WAIT, &wait);
    if (result != 0 && errno == ETIME) return WaitStatus::kTimeout;
    std::lock_guard lock(mutex_);
    pending_.erase(fence);
    if (result != 0) {
      Failed("GEM_WAIT");
      return WaitStatus::kFailed;
    }
    return WaitStatus::kDone;
  }

 private:
  std::nullopt_t Failed(const char* what) {
    last_error_ = std::string(what) + ": " + std::strerror(errno);
    return std::nullopt;
  }
  bool Place(BufferObject* object) {
    std::optional<uint64_t> address = addresses_.Allocate(object->size);
    if (!address) {
      last_error_ = "GPU address space exhausted";
      return false;
    }
    object->gpu_address = *address;
    return true;
  }
  void Close(const BufferObject& object) {
    drm_gem_close close_arg{};
    close_arg.handle = object.handle;
    Ioctl(fd_, DRM_IOCTL_GEM_CLOSE, &close_arg);
  }

  int fd_;
  ChannelInfo info_;
  std::string path_;
  AddressSpace addresses_;
  std::mutex mutex_;
  uint64_t last_fence_ = 0;
  std::map<uint64_t, uint32_t> pending_;  // fence -> batch handle
  std::set<uint32_t> mapped_;             // objects this channel created and mapped (not userptr)
};

}  // namespace

std::unique_ptr<Channel> OpenI915Channel(std::string* why_not) {
  *why_not = "no i915 render node";
  for (int minor = 128; minor < 192; ++minor) {
    const std::string path = "/dev/dri/renderD" + std::to_string(minor);
    const int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) continue;
    auto reject = [&](std::string reason) {
      *why_not = path + ": " + std::move(reason);
      close(fd);
    };
    if (DriverName(fd) != "i915") {
      close(fd);
      continue;
    }
    int device_id = 0, has_blitter = 0, softpin = 0;
    if (!GetParam(fd, I915_PARAM_CHIPSET_ID, &device_id)) {
      reject("CHIPSET_ID unknown");
      continue;
    }
    std::optional<GpuModel> model = ModelOfDevice(static_cast<uint16_t>(device_id));
    if (!model) {
      char id[16];
      std::snprintf(id, sizeof(id), "0x%04x", device_id);
      reject(std::string("device ") + id + " is not a Gen9, Gen11 or Gen12.0 part");
      continue;
    }
    if (!GetParam(fd, I915_PARAM_HAS_BLT, &has_blitter) || has_blitter == 0) {
      reject("no blitter engine");
      continue;
    }
    if (!GetParam(fd, I915_PARAM_HAS_EXEC_SOFTPIN, &softpin) || softpin == 0) {
      reject("no soft-pinning");
      continue;
    }
    ChannelInfo info{*model, static_cast<uint16_t>(device_id), ""};
    auto channel = std::make_unique<I915Channel>(fd, info, "i915 " + path);
    // userptr: wrap one page of our own.
    void* page = mmap(nullptr, AddressSpace::kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    std::optional<BufferObject> probe;
    if (page != MAP_FAILED) probe = channel->WrapHostPages(static_cast<std::byte*>(page), AddressSpace::kPage);
    if (probe) channel->Destroy(*probe);
    if (page != MAP_FAILED) munmap(page, AddressSpace::kPage);
    if (!probe) {
      *why_not = path + ": userptr refused (" + channel->LastError() + ")";
      continue;  // the channel closes the fd
    }
    return channel;
  }
  return nullptr;
}

}  // namespace duet::intel_rcs
