#include "backends/intel_rcs/i915_channel.h"

#include <fcntl.h>
#include <libdrm/drm.h>
#include <libdrm/i915_drm.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
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

// What the probe learnt about the device and the context made for us.
struct Device {
  int fd = -1;
  ChannelInfo info;
  std::string path;
  bool llc = false;
  uint32_t context = 0;
  uint64_t gtt_end = AddressSpace::kMaxEnd;
};

class I915Channel final : public Channel {
 public:
  explicit I915Channel(Device device) : Channel(device.gtt_end), device_(std::move(device)) {
    device_.info.name = device_.path.c_str();
  }
  ~I915Channel() override {
    if (device_.context != 0) DestroyContext();
    close(device_.fd);
  }

  const ChannelInfo& Info() const override { return device_.info; }

  std::optional<BufferObject> Create(uint64_t size) override {
    drm_i915_gem_create create{};
    create.size = (size + AddressSpace::kPage - 1) / AddressSpace::kPage * AddressSpace::kPage;
    if (Ioctl(device_.fd, DRM_IOCTL_I915_GEM_CREATE, &create) != 0) return Failed("GEM_CREATE");
    BufferObject object{create.handle, 0, create.size, nullptr};
    // Write-back where the GPU snoops the CPU's caches (LLC parts: objects
    // are LLC-cached there), write-combined elsewhere.
    drm_i915_gem_mmap_offset map{};
    map.handle = create.handle;
    map.flags = device_.llc ? I915_MMAP_OFFSET_WB : I915_MMAP_OFFSET_WC;
    if (Ioctl(device_.fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &map) == 0) {
      void* p =
          mmap(nullptr, create.size, PROT_READ | PROT_WRITE, MAP_SHARED, device_.fd, static_cast<off_t>(map.offset));
      if (p != MAP_FAILED) object.cpu = static_cast<std::byte*>(p);
    }
    if (object.cpu == nullptr) {
      Failed("GEM_MMAP_OFFSET");
      Close(object);
      return std::nullopt;
    }
    std::optional<uint64_t> address = addresses_.Allocate(object.size);
    if (!address) {
      last_error_ = "GPU address space exhausted";
      munmap(object.cpu, object.size);
      Close(object);
      return std::nullopt;
    }
    object.gpu_address = *address;
    std::lock_guard lock(mutex_);
    created_.insert(object.handle);
    return object;
  }

  std::optional<BufferObject> WrapHostPages(std::byte* pages, uint64_t size, uint64_t gpu_address) override {
    drm_i915_gem_userptr userptr{};
    userptr.user_ptr = reinterpret_cast<uintptr_t>(pages);
    userptr.user_size = size;
    if (Ioctl(device_.fd, DRM_IOCTL_I915_GEM_USERPTR, &userptr) != 0) return Failed("GEM_USERPTR");
    return BufferObject{userptr.handle, gpu_address, size, pages};
  }

  void Destroy(const BufferObject& object) override {
    bool created;
    {
      std::lock_guard lock(mutex_);
      created = created_.erase(object.handle) != 0;
    }
    if (created) {  // wrapped pages stay the caller's, at the caller's addresses
      munmap(object.cpu, object.size);
      addresses_.Free(object.gpu_address);
    }
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
    exec.rsvd1 = device_.context;
    if (device_.context == 0 || Ioctl(device_.fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &exec) != 0) {
      Failed("EXECBUFFER2");
      return std::nullopt;
    }
    std::lock_guard lock(mutex_);
    pending_[++last_fence_] = batch.handle;
    return last_fence_;
  }

  WaitStatus Wait(uint64_t fence, uint64_t timeout_ns) override {
    std::optional<uint32_t> handle = Pending(fence);
    if (!handle) return WaitStatus::kDone;
    drm_i915_gem_wait wait{};
    wait.bo_handle = *handle;
    wait.timeout_ns = static_cast<int64_t>(timeout_ns);
    const int result = Ioctl(device_.fd, DRM_IOCTL_I915_GEM_WAIT, &wait);
    if (result != 0 && errno == ETIME) return WaitStatus::kTimeout;
    if (result != 0) Failed("GEM_WAIT");
    std::lock_guard lock(mutex_);
    pending_.erase(fence);
    return result == 0 ? WaitStatus::kDone : WaitStatus::kFailed;
  }

  // Our context is not persistent: destroying it cancels what it still has
  // queued or running (the engine is reset if it must), and the batch's
  // object is idle once that is done.
  bool Abandon(uint64_t fence) override {
    if (device_.context != 0) DestroyContext();
    std::optional<uint32_t> handle = Pending(fence);
    if (!handle) return true;
    drm_i915_gem_wait wait{};
    wait.bo_handle = *handle;
    wait.timeout_ns = 10'000'000'000;
    return Ioctl(device_.fd, DRM_IOCTL_I915_GEM_WAIT, &wait) == 0;
  }

 private:
  std::nullopt_t Failed(const char* what) {
    last_error_ = std::string(what) + ": " + std::strerror(errno);
    return std::nullopt;
  }
  void Close(const BufferObject& object) {
    drm_gem_close close_arg{};
    close_arg.handle = object.handle;
    Ioctl(device_.fd, DRM_IOCTL_GEM_CLOSE, &close_arg);
  }
  void DestroyContext() {
    drm_i915_gem_context_destroy destroy{};
    destroy.ctx_id = device_.context;
    Ioctl(device_.fd, DRM_IOCTL_I915_GEM_CONTEXT_DESTROY, &destroy);
    device_.context = 0;
  }
  std::optional<uint32_t> Pending(uint64_t fence) {
    std::lock_guard lock(mutex_);
    auto it = pending_.find(fence);
    if (it == pending_.end()) return std::nullopt;
    return it->second;
  }

  Device device_;
  std::mutex mutex_;
  uint64_t last_fence_ = 0;
  std::map<uint64_t, uint32_t> pending_;  // fence -> batch handle
  std::set<uint32_t> created_;            // objects Create() made (mapped, own addresses)
};

// A context of our own, not persistent (destroying it cancels its work)
// and bannable (the default), and the size of its address space.
bool CreateContext(Device* device, std::string* why_not) {
  drm_i915_gem_context_create create{};
  if (Ioctl(device->fd, DRM_IOCTL_I915_GEM_CONTEXT_CREATE, &create) != 0) {
    *why_not = device->path + ": GEM_CONTEXT_CREATE: " + std::strerror(errno);
    return false;
  }
  device->context = create.ctx_id;
  drm_i915_gem_context_param param{};
  param.ctx_id = device->context;
  param.param = I915_CONTEXT_PARAM_PERSISTENCE;
  param.value = 0;
  Ioctl(device->fd, DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM, &param);  // kernels before 5.7 lack it
  param = {};
  param.ctx_id = device->context;
  param.param = I915_CONTEXT_PARAM_GTT_SIZE;
  if (Ioctl(device->fd, DRM_IOCTL_I915_GEM_CONTEXT_GETPARAM, &param) == 0 && param.value != 0)
    device->gtt_end = param.value;
  return true;
}

}  // namespace

std::unique_ptr<Channel> OpenI915Channel(std::string* why_not) {
  *why_not = "no i915 render node";
  for (int minor = 128; minor < 192; ++minor) {
    Device device;
    device.path = "/dev/dri/renderD" + std::to_string(minor);
    device.fd = open(device.path.c_str(), O_RDWR | O_CLOEXEC);
    if (device.fd < 0) continue;
    auto reject = [&](std::string reason) {
      *why_not = device.path + ": " + std::move(reason);
      close(device.fd);
    };
    if (DriverName(device.fd) != "i915") {
      close(device.fd);
      continue;
    }
    int device_id = 0, has_blitter = 0, softpin = 0, llc = 0;
    if (!GetParam(device.fd, I915_PARAM_CHIPSET_ID, &device_id)) {
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
    if (!GetParam(device.fd, I915_PARAM_HAS_BLT, &has_blitter) || has_blitter == 0) {
      reject("no blitter engine");
      continue;
    }
    if (!GetParam(device.fd, I915_PARAM_HAS_EXEC_SOFTPIN, &softpin) || softpin == 0) {
      reject("no soft-pinning");
      continue;
    }
    device.llc = GetParam(device.fd, I915_PARAM_HAS_LLC, &llc) && llc != 0;
    device.info = ChannelInfo{*model, static_cast<uint16_t>(device_id), ""};
    if (!CreateContext(&device, why_not)) {
      close(device.fd);
      continue;
    }
    const std::string path = device.path;
    auto channel = std::make_unique<I915Channel>(std::move(device));
    // userptr: wrap one page of our own.
    void* page = mmap(nullptr, AddressSpace::kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    std::optional<BufferObject> probe;
    std::optional<uint64_t> address = channel->ReserveAddresses(AddressSpace::kPage);
    if (page != MAP_FAILED && address)
      probe = channel->WrapHostPages(static_cast<std::byte*>(page), AddressSpace::kPage, *address);
    if (probe) channel->Destroy(*probe);
    if (address) channel->ReleaseAddresses(*address);
    if (page != MAP_FAILED) munmap(page, AddressSpace::kPage);
    if (!probe) {
      *why_not = path + ": userptr refused (" + channel->LastError() + ")";
      continue;  // the channel closes its fd
    }
    return channel;
  }
  return nullptr;
}

}  // namespace duet::intel_rcs
