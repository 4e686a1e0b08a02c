#include "backends/framebuffer/wayland.h"

#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client-core.h>
// Only the request opcodes, enums and listener structs are used from the
// protocol header: its inline wrappers would need libwayland at link time.
#include <wayland-client-protocol.h>

#include <cstring>
#include <vector>

#include "backends/framebuffer/pixels.h"
#include "util/log.h"

namespace duet::framebuffer {
namespace {

struct WaylandLibrary {
#define DUET_WL_FUNCTION(name) decltype(&::name) name = nullptr
  DUET_WL_FUNCTION(wl_display_create_queue);
  DUET_WL_FUNCTION(wl_event_queue_destroy);
  DUET_WL_FUNCTION(wl_display_roundtrip_queue);
  DUET_WL_FUNCTION(wl_display_dispatch_queue);
  DUET_WL_FUNCTION(wl_display_dispatch_queue_pending);
  DUET_WL_FUNCTION(wl_display_flush);
  DUET_WL_FUNCTION(wl_display_get_error);
  DUET_WL_FUNCTION(wl_proxy_create_wrapper);
  DUET_WL_FUNCTION(wl_proxy_wrapper_destroy);
  DUET_WL_FUNCTION(wl_proxy_set_queue);
  DUET_WL_FUNCTION(wl_proxy_marshal_flags);
  DUET_WL_FUNCTION(wl_proxy_add_listener);
  DUET_WL_FUNCTION(wl_proxy_destroy);
  DUET_WL_FUNCTION(wl_proxy_get_version);
#undef DUET_WL_FUNCTION
  const wl_interface* registry_interface = nullptr;
  const wl_interface* shm_interface = nullptr;
  const wl_interface* shm_pool_interface = nullptr;
  const wl_interface* buffer_interface = nullptr;
};

#define DUET_LOAD(name, ok) \
  ok = ((lib->name = reinterpret_cast<decltype(lib->name)>(dlsym(handle, #name))) != nullptr) && ok

bool LoadInto(WaylandLibrary* lib) {
  void* handle = dlopen("libwayland-client.so.0", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (handle == nullptr) {
    DUET_WARN("Wayland presentation unavailable: %s", dlerror());
    return false;
  }
  bool ok = true;
  DUET_LOAD(wl_display_create_queue, ok);
  DUET_LOAD(wl_event_queue_destroy, ok);
  DUET_LOAD(wl_display_roundtrip_queue, ok);
  DUET_LOAD(wl_display_dispatch_queue, ok);
  DUET_LOAD(wl_display_dispatch_queue_pending, ok);
  DUET_LOAD(wl_display_flush, ok);
  DUET_LOAD(wl_display_get_error, ok);
  DUET_LOAD(wl_proxy_create_wrapper, ok);
  DUET_LOAD(wl_proxy_wrapper_destroy, ok);
  DUET_LOAD(wl_proxy_set_queue, ok);
  DUET_LOAD(wl_proxy_marshal_flags, ok);
  DUET_LOAD(wl_proxy_add_listener, ok);
  DUET_LOAD(wl_proxy_destroy, ok);
  DUET_LOAD(wl_proxy_get_version, ok);
  lib->registry_interface = static_cast<const wl_interface*>(dlsym(handle, "wl_registry_interface"));
  lib->shm_interface = static_cast<const wl_interface*>(dlsym(handle, "wl_shm_interface"));
  lib->shm_pool_interface = static_cast<const wl_interface*>(dlsym(handle, "wl_shm_pool_interface"));
  lib->buffer_interface = static_cast<const wl_interface*>(dlsym(handle, "wl_buffer_interface"));
  ok = ok && lib->registry_interface && lib->shm_interface && lib->shm_pool_interface && lib->buffer_interface;
  if (!ok) DUET_WARN("Wayland presentation unavailable: libwayland-client.so.0 lacks a symbol");
  return ok;
}

#undef DUET_LOAD

const WaylandLibrary* LoadWayland() {
  static WaylandLibrary library;
  static const bool loaded = LoadInto(&library);
  return loaded ? &library : nullptr;
}

wl_proxy* AsProxy(void* object) { return static_cast<wl_proxy*>(object); }

// A private event queue and the display's wl_shm bound on it.
class ShmConnection {
 public:
  ShmConnection(const WaylandLibrary& wl, wl_display* display) : wl_(wl), display_(display) {
    queue_ = wl_.wl_display_create_queue(display_);
    wl_proxy* wrapper = AsProxy(wl_.wl_proxy_create_wrapper(display_));
    wl_.wl_proxy_set_queue(wrapper, queue_);
    registry_ = wl_.wl_proxy_marshal_flags(wrapper, WL_DISPLAY_GET_REGISTRY, wl_.registry_interface,
                                           wl_.wl_proxy_get_version(wrapper), 0, nullptr);
    wl_.wl_proxy_wrapper_destroy(wrapper);
    static const wl_registry_listener kListener = {&ShmConnection::Global, &ShmConnection::GlobalRemove};
    wl_.wl_proxy_add_listener(registry_, reinterpret_cast<void (**)(void)>(const_cast<wl_registry_listener*>(&kListener)),
                              this);
    wl_.wl_display_roundtrip_queue(display_, queue_);
  }

  ~ShmConnection() {
    if (shm_ != nullptr) wl_.wl_proxy_destroy(shm_);
    if (registry_ != nullptr) wl_.wl_proxy_destroy(registry_);
    wl_.wl_event_queue_destroy(queue_);
  }
  ShmConnection(const ShmConnection&) = delete;
  ShmConnection& operator=(const ShmConnection&) = delete;

  wl_proxy* shm() const { return shm_; }
  wl_event_queue* queue() const { return queue_; }

 private:
  static void Global(void* data, wl_registry*, uint32_t name, const char* interface, uint32_t) {
    auto* self = static_cast<ShmConnection*>(data);
    if (std::strcmp(interface, "wl_shm") != 0 || self->shm_ != nullptr) return;
    self->shm_ = self->wl_.wl_proxy_marshal_flags(self->registry_, WL_REGISTRY_BIND, self->wl_.shm_interface, 1, 0,
                                                  name, self->wl_.shm_interface->name, 1u, nullptr);
  }
  static void GlobalRemove(void*, wl_registry*, uint32_t) {}

  const WaylandLibrary& wl_;
  wl_display* display_;
  wl_event_queue* queue_ = nullptr;
  wl_proxy* registry_ = nullptr;
  wl_proxy* shm_ = nullptr;
};

class WaylandOutput final : public Output {
 public:
  static constexpr uint32_t kBuffers = 3;
  // A buffer that missed this many rectangles is brought up to date whole.
  static constexpr size_t kMaxMissedRects = 64;

  WaylandOutput(const WaylandLibrary& wl, wl_display* display, wl_surface* surface, Extent extent)
      : wl_(wl), display_(display), surface_(AsProxy(surface)), extent_(extent), connection_(wl, display) {}

  bool Start() {
    if (connection_.shm() == nullptr) {
      DUET_ERROR("Wayland: the compositor offers no wl_shm");
      return false;
    }
    stride_ = size_t{extent_.width} * kBytesPerPixel;
    const size_t buffer_size = stride_ * extent_.height;
    pool_size_ = buffer_size * kBuffers;
    const int fd = memfd_create("duet-wl-shm", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, static_cast<off_t>(pool_size_)) != 0) {
      if (fd >= 0) close(fd);
      DUET_ERROR("Wayland: cannot make %zu bytes of shared memory", pool_size_);
      return false;
    }
    void* memory = mmap(nullptr, pool_size_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (memory == MAP_FAILED) {
      close(fd);
      return false;
    }
    memory_ = static_cast<std::byte*>(memory);
    wl_proxy* pool = wl_.wl_proxy_marshal_flags(connection_.shm(), WL_SHM_CREATE_POOL, wl_.shm_pool_interface,
                                                wl_.wl_proxy_get_version(connection_.shm()), 0, nullptr, fd,
                                                static_cast<int32_t>(pool_size_));
    close(fd);  // the compositor has its own copy of the descriptor now
    static const wl_buffer_listener kListener = {&WaylandOutput::Released};
    for (uint32_t i = 0; i < kBuffers; ++i) {
      Buffer& b = buffers_[i];
      b.owner = this;
      b.pixels = memory_ + i * buffer_size;
      b.proxy = wl_.wl_proxy_marshal_flags(pool, WL_SHM_POOL_CREATE_BUFFER, wl_.buffer_interface,
                                           wl_.wl_proxy_get_version(pool), 0, nullptr,
                                           static_cast<int32_t>(i * buffer_size), static_cast<int32_t>(extent_.width),
                                           static_cast<int32_t>(extent_.height), static_cast<int32_t>(stride_),
                                           uint32_t{WL_SHM_FORMAT_XRGB8888});
      wl_.wl_proxy_add_listener(b.proxy, reinterpret_cast<void (**)(void)>(const_cast<wl_buffer_listener*>(&kListener)),
                                &b);
      b.missed.push_back({0, 0, extent_.width, extent_.height});  // never written
    }
    // Buffers keep the pool's memory alive; the pool object itself can go.
    wl_.wl_proxy_marshal_flags(pool, WL_SHM_POOL_DESTROY, nullptr, wl_.wl_proxy_get_version(pool),
                               WL_MARSHAL_FLAG_DESTROY);
    return true;
  }

  ~WaylandOutput() override {
    for (Buffer& b : buffers_)
      if (b.proxy != nullptr)
        wl_.wl_proxy_marshal_flags(b.proxy, WL_BUFFER_DESTROY, nullptr, wl_.wl_proxy_get_version(b.proxy),
                                   WL_MARSHAL_FLAG_DESTROY);
    if (memory_ != nullptr) munmap(memory_, pool_size_);
    wl_.wl_display_flush(display_);
  }

  Status Present(const Frame& frame, std::span<const Rect> damage) override {
    if (wl_.wl_display_get_error(display_) != 0) return Status::kLost;
    if (damage.empty()) return Status::kOk;
    for (Buffer& b : buffers_) {
      b.missed.insert(b.missed.end(), damage.begin(), damage.end());
      if (b.missed.size() > kMaxMissedRects) b.missed.assign(1, {0, 0, extent_.width, extent_.height});
    }
    Buffer* buffer = FreeBuffer();
    if (buffer == nullptr) return Status::kLost;
    for (const Rect& r : buffer->missed) CopyRect(frame, ClipRect(r, extent_), buffer->pixels, stride_, PixelFormat::kBgra8888);
    buffer->missed.clear();
    buffer->busy = true;

    const uint32_t surface_version = wl_.wl_proxy_get_version(surface_);
    wl_.wl_proxy_marshal_flags(surface_, WL_SURFACE_ATTACH, nullptr, surface_version, 0, buffer->proxy, 0, 0);
    for (const Rect& r : damage) {
      // damage_buffer (version 4) is in buffer pixels; plain damage is in
      // surface coordinates, the same while the buffer scale is 1.
      const uint32_t opcode = surface_version >= 4 ? WL_SURFACE_DAMAGE_BUFFER : WL_SURFACE_DAMAGE;
      wl_.wl_proxy_marshal_flags(surface_, opcode, nullptr, surface_version, 0, static_cast<int32_t>(r.x),
                                 static_cast<int32_t>(r.y), static_cast<int32_t>(r.width),
                                 static_cast<int32_t>(r.height));
    }
    wl_.wl_proxy_marshal_flags(surface_, WL_SURFACE_COMMIT, nullptr, surface_version, 0);
    wl_.wl_display_flush(display_);
    return wl_.wl_display_get_error(display_) != 0 ? Status::kLost : Status::kOk;
  }

 private:
  struct Buffer {
    WaylandOutput* owner = nullptr;
    wl_proxy* proxy = nullptr;
    std::byte* pixels = nullptr;
    bool busy = false;  // attached; the compositor may read it until it releases it
    std::vector<Rect> missed;
  };

  static void Released(void* data, wl_buffer*) { static_cast<Buffer*>(data)->busy = false; }

  // A buffer the compositor is not reading, waiting for a release if needed.
  Buffer* FreeBuffer() {
    wl_.wl_display_dispatch_queue_pending(display_, connection_.queue());
    for (;;) {
      for (Buffer& b : buffers_)
        if (!b.busy) return &b;
      if (wl_.wl_display_dispatch_queue(display_, connection_.queue()) < 0) return nullptr;
    }
  }

  const WaylandLibrary& wl_;
  wl_display* display_;
  wl_proxy* surface_;
  Extent extent_;
  ShmConnection connection_;
  size_t stride_ = 0, pool_size_ = 0;
  std::byte* memory_ = nullptr;
  Buffer buffers_[kBuffers];
};

class WaylandTarget final : public Target {
 public:
  WaylandTarget(const WaylandLibrary& wl, wl_display* display, wl_surface* surface)
      : wl_(wl), display_(display), surface_(surface) {}

  // A Wayland surface takes the size of the buffers attached to it.
  Status CurrentExtent(std::optional<Extent>* extent) override {
    extent->reset();
    return wl_.wl_display_get_error(display_) != 0 ? Status::kLost : Status::kOk;
  }
  // Paced at a nominal 60 Hz (DUET_REFRESH_HZ): frame callbacks never come
  // for a hidden surface, and a swapchain must not hang on one.
  uint64_t RefreshInterval() const override { return RefreshIntervalFromEnvironment(60); }

  std::unique_ptr<Output> CreateOutput(Extent extent, PixelFormat) override {
    auto output = std::make_unique<WaylandOutput>(wl_, display_, surface_, extent);
    if (!output->Start()) return nullptr;
    return output;
  }

 private:
  const WaylandLibrary& wl_;
  wl_display* display_;
  wl_surface* surface_;
};

}  // namespace

std::unique_ptr<Target> CreateWaylandTarget(wl_display* display, wl_surface* surface) {
  const WaylandLibrary* wl = LoadWayland();
  if (wl == nullptr || display == nullptr || surface == nullptr) return nullptr;
  return std::make_unique<WaylandTarget>(*wl, display, surface);
}

bool WaylandDisplaySupported(wl_display* display) {
  const WaylandLibrary* wl = LoadWayland();
  if (wl == nullptr || display == nullptr) return false;
  ShmConnection connection(*wl, display);
  return connection.shm() != nullptr;
}

}  // namespace duet::framebuffer
