#include "backends/virtio_gpu/linux_channel.h"

#include <libdrm/drm_fourcc.h>
#include <libdrm/virtgpu_drm.h>
#include <poll.h>
#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cerrno>
#include <cstring>
#include <map>
#include <set>

#include "backends/virtio_gpu/protocol.h"
#include "util/log.h"

namespace duet::virtio_gpu {
namespace {

using framebuffer::DrmIoctl;

// The 2D resources QEMU accepts: a plain 2D texture, one level, one sample.
constexpr uint32_t kPipeTexture2D = 2;
constexpr uint32_t kBindRenderTarget = 1u << 1;
constexpr uint32_t kBindScanout = 1u << 18;
constexpr int kFlipTimeoutMs = 1000;
constexpr std::chrono::milliseconds kProbeInterval{100};

Mode ModeOf(const drm_mode_modeinfo& m) {
  const framebuffer::DrmMode mode = framebuffer::ToDrmMode(m);
  return {mode.width, mode.height, mode.refresh_millihertz, mode.preferred};
}

class LinuxChannel final : public Channel {
 public:
  struct Scanout {
    uint32_t connector = 0, crtc = 0;
    bool mode_set = false;
    uint32_t width = 0, height = 0;  // of the mode set
    bool enabled = false;
    std::chrono::steady_clock::time_point probed{};  // of `enabled`
  };

  LinuxChannel(std::shared_ptr<framebuffer::DrmCard> card, std::vector<Scanout> scanouts)
      : card_(std::move(card)), fd_(card_->fd()), scanouts_(std::move(scanouts)) {}

  ~LinuxChannel() override {
    while (!resources_.empty()) UnrefResource(resources_.begin()->first);
    for (uint64_t fence : fences_) CloseHandle(static_cast<uint32_t>(fence));
  }

  const char* name() const override { return "virtio_gpu DRM"; }

  bool GetDisplayInfo(std::vector<ScanoutInfo>* out) override {
    out->clear();
    for (const Scanout& s : scanouts_) {
      framebuffer::KmsConnector connector;
      ScanoutInfo info;
      if (framebuffer::ReadKmsConnector(fd_, s.connector, &connector)) {
        info.enabled = connector.header.connection == 1 && !connector.modes.empty();
        for (const drm_mode_modeinfo& m : connector.modes) info.modes.push_back(ModeOf(m));
        // The host's size: the kernel makes it the preferred mode.
        for (const Mode& m : info.modes)
          if (m.preferred && info.rect.width == 0) info.rect = {0, 0, m.width, m.height};
        if (info.rect.width == 0 && !info.modes.empty())
          info.rect = {0, 0, info.modes.front().width, info.modes.front().height};
      }
      out->push_back(std::move(info));
    }
    return true;
  }

  bool ScanoutEnabled(uint32_t scanout) override {
    if (scanout >= scanouts_.size()) return false;
    // The kernel's own status can be stale: on a display-change event it
    // re-reads the display info but checks its connectors before the answer
    // arrives. A probe (GETCONNECTOR without room for modes, as DRM master)
    // asks again; at most every kProbeInterval, the answer kept between.
    Scanout& s = scanouts_[scanout];
    const auto now = std::chrono::steady_clock::now();
    if (now - s.probed < kProbeInterval) return s.enabled;
    framebuffer::KmsConnector connector;
    s.enabled = framebuffer::ReadKmsConnector(fd_, s.connector, &connector) && connector.header.connection == 1;
    s.probed = now;
    return s.enabled;
  }

  bool GetEdid(uint32_t scanout, std::vector<uint8_t>* edid) override {
    if (scanout >= scanouts_.size()) return false;
    drm_mode_obj_get_properties props{};
    props.obj_id = scanouts_[scanout].connector;
    props.obj_type = DRM_MODE_OBJECT_CONNECTOR;
    if (DrmIoctl(fd_, DRM_IOCTL_MODE_OBJ_GETPROPERTIES, &props) != 0) return false;
    std::vector<uint32_t> ids(props.count_props);
    std::vector<uint64_t> values(props.count_props);
    props.props_ptr = reinterpret_cast<uintptr_t>(ids.data());
    props.prop_values_ptr = reinterpret_cast<uintptr_t>(values.data());
    if (DrmIoctl(fd_, DRM_IOCTL_MODE_OBJ_GETPROPERTIES, &props) != 0) return false;
    for (size_t i = 0; i < ids.size() && i < props.count_props; ++i) {
      drm_mode_get_property property{};
      property.prop_id = ids[i];
      if (DrmIoctl(fd_, DRM_IOCTL_MODE_GETPROPERTY, &property) != 0 || std::strcmp(property.name, "EDID") != 0)
        continue;
      drm_mode_get_blob blob{};
      blob.blob_id = static_cast<uint32_t>(values[i]);
      if (blob.blob_id == 0 || DrmIoctl(fd_, DRM_IOCTL_MODE_GETPROPBLOB, &blob) != 0) return false;
      edid->resize(blob.length);
      blob.data = reinterpret_cast<uintptr_t>(edid->data());
      return DrmIoctl(fd_, DRM_IOCTL_MODE_GETPROPBLOB, &blob) == 0;
    }
    return false;
  }

  uint32_t CreateResource(uint32_t width, uint32_t height, Backing* backing) override {
    const uint64_t size = uint64_t{width} * height * 4;
    if (size == 0 || size > UINT32_MAX) return 0;
    drm_virtgpu_resource_create create{};
    create.target = kPipeTexture2D;
    create.format = kFormatB8G8R8X8;
    create.bind = kBindRenderTarget | kBindScanout;
    create.width = width;
    create.height = height;
    create.depth = 1;
    create.array_size = 1;
    create.size = static_cast<uint32_t>(size);
    create.stride = width * 4;  // QEMU's 2D transfers assume the guest stride is the width
    if (DrmIoctl(fd_, DRM_IOCTL_VIRTGPU_RESOURCE_CREATE, &create) != 0) return Fail("VIRTGPU_RESOURCE_CREATE");
    Resource r;
    r.handle = create.bo_handle;
    r.size = size;
    drm_virtgpu_map map{};
    map.handle = r.handle;
    void* pixels = MAP_FAILED;
    if (DrmIoctl(fd_, DRM_IOCTL_VIRTGPU_MAP, &map) == 0)
      pixels = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, static_cast<off_t>(map.offset));
    if (pixels == MAP_FAILED) {
      CloseHandle(r.handle);
      return Fail("mapping a virtio-gpu resource");
    }
    r.pixels = static_cast<std::byte*>(pixels);
    drm_mode_fb_cmd2 fb{};
    fb.width = width;
    fb.height = height;
    fb.pixel_format = DRM_FORMAT_XRGB8888;
    fb.handles[0] = r.handle;
    fb.pitches[0] = width * 4;
    if (DrmIoctl(fd_, DRM_IOCTL_MODE_ADDFB2, &fb) != 0) {
      munmap(r.pixels, size);
      CloseHandle(r.handle);
      return Fail("DRM_IOCTL_MODE_ADDFB2");
    }
    r.fb = fb.fb_id;
    *backing = {r.pixels, size_t{width} * 4};
    resources_[create.res_handle] = r;
    return create.res_handle;
  }

  void UnrefResource(uint32_t resource) override {
    auto it = resources_.find(resource);
    if (it == resources_.end()) return;
    Resource& r = it->second;
    DrmIoctl(fd_, DRM_IOCTL_MODE_RMFB, &r.fb);
    munmap(r.pixels, r.size);
    CloseHandle(r.handle);  // the kernel sends DETACH_BACKING and RESOURCE_UNREF
    flipped_.erase(resource);
    resources_.erase(it);
  }

  bool SetScanout(uint32_t index, uint32_t resource, const Rect& rect) override {
    if (index >= scanouts_.size()) return false;
    Scanout& s = scanouts_[index];
    const auto it = resources_.find(resource);
    if (it == resources_.end()) return false;
    if (s.mode_set && s.width == rect.width && s.height == rect.height && Flip(s, it->second.fb)) {
      flipped_.insert(resource);
      return true;
    }
    // A mode of that size from the connector's list (the kernel's timings).
    framebuffer::KmsConnector connector;
    if (!framebuffer::ReadKmsConnector(fd_, s.connector, &connector)) return false;
    const drm_mode_modeinfo* mode = nullptr;
    for (const drm_mode_modeinfo& m : connector.modes) {
      if (m.hdisplay != rect.width || m.vdisplay != rect.height) continue;
      if (mode == nullptr || (m.type & DRM_MODE_TYPE_PREFERRED) != 0) mode = &m;
    }
    if (mode == nullptr) {
      DUET_WARN("virtio-gpu: scanout %u has no %ux%u mode", index, rect.width, rect.height);
      return false;
    }
    drm_mode_crtc crtc{};
    crtc.crtc_id = s.crtc;
    crtc.fb_id = it->second.fb;
    crtc.set_connectors_ptr = reinterpret_cast<uintptr_t>(&s.connector);
    crtc.count_connectors = 1;
    crtc.mode = *mode;
    crtc.mode_valid = 1;
    if (DrmIoctl(fd_, DRM_IOCTL_MODE_SETCRTC, &crtc) != 0) {
      DUET_WARN("virtio-gpu: DRM_IOCTL_MODE_SETCRTC %ux%u: %s (is another compositor DRM master?)", rect.width,
                rect.height, std::strerror(errno));
      return false;
    }
    s.mode_set = true;
    s.width = rect.width;
    s.height = rect.height;
    flipped_.insert(resource);
    return true;
  }

  bool TransferToHost2D(uint32_t resource, const Rect& box, uint64_t offset) override {
    const auto it = resources_.find(resource);
    if (it == resources_.end() || offset > UINT32_MAX) return false;
    drm_virtgpu_3d_transfer_to_host transfer{};
    transfer.bo_handle = it->second.handle;
    transfer.box = {box.x, box.y, 0, box.width, box.height, 1};
    transfer.offset = static_cast<uint32_t>(offset);
    if (DrmIoctl(fd_, DRM_IOCTL_VIRTGPU_TRANSFER_TO_HOST, &transfer) != 0) {
      DUET_WARN("virtio-gpu: VIRTGPU_TRANSFER_TO_HOST: %s", std::strerror(errno));
      return false;
    }
    return true;
  }

  bool Flush(uint32_t resource, const Rect& rect, uint64_t* fence) override {
    const auto it = resources_.find(resource);
    if (it == resources_.end()) return false;
    if (flipped_.erase(resource) == 0) {
      drm_clip_rect clip{static_cast<uint16_t>(rect.x), static_cast<uint16_t>(rect.y),
                         static_cast<uint16_t>(rect.x + rect.width), static_cast<uint16_t>(rect.y + rect.height)};
      drm_mode_fb_dirty_cmd dirty{};
      dirty.fb_id = it->second.fb;
      dirty.num_clips = 1;
      dirty.clips_ptr = reinterpret_cast<uintptr_t>(&clip);
      if (DrmIoctl(fd_, DRM_IOCTL_MODE_DIRTYFB, &dirty) != 0) {
        DUET_WARN("virtio-gpu: DRM_IOCTL_MODE_DIRTYFB: %s", std::strerror(errno));
        return false;
      }
    }
    if (fence == nullptr) return true;
    const uint32_t handle = FenceResource();
    *fence = handle;
    return handle != 0;
  }

  bool WaitFence(uint64_t fence) override {
    if (fences_.erase(fence) == 0) return false;
    drm_virtgpu_3d_wait wait{};
    wait.handle = static_cast<uint32_t>(fence);
    const bool done = DrmIoctl(fd_, DRM_IOCTL_VIRTGPU_WAIT, &wait) == 0;
    if (!done) DUET_WARN("virtio-gpu: VIRTGPU_WAIT: %s", std::strerror(errno));
    CloseHandle(wait.handle);
    return done;
  }

  // A new 1x1 resource: its creation is a fenced command (0 on failure).
  // WaitFence waits for it and lets it go.
  uint32_t FenceResource() {
    drm_virtgpu_resource_create create{};
    create.target = kPipeTexture2D;
    create.format = kFormatB8G8R8X8;
    create.bind = kBindRenderTarget;
    create.width = create.height = create.depth = create.array_size = 1;
    create.size = 4096;
    create.stride = 4;
    if (DrmIoctl(fd_, DRM_IOCTL_VIRTGPU_RESOURCE_CREATE, &create) != 0) return Fail("VIRTGPU_RESOURCE_CREATE (fence)");
    fences_.insert(create.bo_handle);
    return create.bo_handle;
  }

 private:
  struct Resource {
    uint32_t handle = 0, fb = 0;
    uint64_t size = 0;
    std::byte* pixels = nullptr;
  };

  // A page flip to `fb`, waited for: the kernel has sent SET_SCANOUT and the
  // flush when its event arrives (QEMU sends it at once: no vertical blank).
  bool Flip(const Scanout& s, uint32_t fb) {
    drm_mode_crtc_page_flip flip{};
    flip.crtc_id = s.crtc;
    flip.fb_id = fb;
    flip.flags = DRM_MODE_PAGE_FLIP_EVENT;
    flip.user_data = s.crtc;
    if (DrmIoctl(fd_, DRM_IOCTL_MODE_PAGE_FLIP, &flip) != 0) {
      DUET_WARN("virtio-gpu: DRM_IOCTL_MODE_PAGE_FLIP: %s; setting the mode instead", std::strerror(errno));
      return false;
    }
    for (;;) {
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, kFlipTimeoutMs) != 1) {
        DUET_WARN("virtio-gpu: no page-flip event within %d ms", kFlipTimeoutMs);
        return true;  // the flip was accepted; its event is late
      }
      alignas(8) char events[1024];
      const ssize_t n = read(fd_, events, sizeof events);
      if (n <= 0) continue;
      for (ssize_t at = 0; at + static_cast<ssize_t>(sizeof(drm_event)) <= n;) {
        drm_event header;
        std::memcpy(&header, events + at, sizeof header);
        if (header.length == 0) break;
        if (header.type == DRM_EVENT_FLIP_COMPLETE && at + static_cast<ssize_t>(sizeof(drm_event_vblank)) <= n) {
          drm_event_vblank vblank;
          std::memcpy(&vblank, events + at, sizeof vblank);
          if (vblank.user_data == s.crtc) return true;
        }
        at += header.length;
      }
    }
  }

  void CloseHandle(uint32_t handle) {
    drm_gem_close close{};
    close.handle = handle;
    DrmIoctl(fd_, DRM_IOCTL_GEM_CLOSE, &close);
  }

  uint32_t Fail(const char* what) {
    DUET_WARN("virtio-gpu: %s: %s", what, std::strerror(errno));
    return 0;
  }

  std::shared_ptr<framebuffer::DrmCard> card_;
  int fd_;
  std::vector<Scanout> scanouts_;
  std::map<uint32_t, Resource> resources_;  // by resource id (res_handle)
  std::set<uint32_t> flipped_;              // flipped to since their last flush
  std::set<uint64_t> fences_;               // fence resources not waited on yet
};

}  // namespace

std::unique_ptr<Channel> OpenLinuxChannel(std::shared_ptr<framebuffer::DrmCard> card) {
  const int fd = card->fd();
  const char* path = card->path().c_str();
  if (card->driver() != "virtio_gpu") return nullptr;
  uint64_t features_3d = 0;
  drm_virtgpu_getparam param{VIRTGPU_PARAM_3D_FEATURES, reinterpret_cast<uintptr_t>(&features_3d)};
  if (DrmIoctl(fd, DRM_IOCTL_VIRTGPU_GETPARAM, &param) != 0) {
    DUET_WARN("virtio-gpu: %s: VIRTGPU_GETPARAM failed (%s); using KMS dumb buffers", path, std::strerror(errno));
    return nullptr;
  }
  if (features_3d != 0) {
    DUET_WARN("virtio-gpu: %s runs in 3D (virgl) mode; the 2D backend needs 2D mode: using KMS dumb buffers", path);
    return nullptr;
  }
  framebuffer::KmsResources kms;
  if (!framebuffer::ReadKmsResources(fd, &kms) || kms.connectors.empty()) {
    DUET_WARN("virtio-gpu: %s has no KMS connectors; using KMS dumb buffers", path);
    return nullptr;
  }
  std::vector<LinuxChannel::Scanout> scanouts;
  for (size_t i = 0; i < kms.connectors.size() && i < kMaxScanouts; ++i) {
    LinuxChannel::Scanout s;
    s.connector = kms.connectors[i];
    s.crtc = framebuffer::FindCrtc(fd, s.connector);
    if (s.crtc == 0 && i < kms.crtcs.size()) s.crtc = kms.crtcs[i];  // virtio-gpu: CRTC i drives connector i
    scanouts.push_back(s);
  }
  auto channel = std::make_unique<LinuxChannel>(std::move(card), std::move(scanouts));
  // The fence this backend relies on: one round trip now, or the dumb path.
  const uint32_t fence = channel->FenceResource();
  if (fence == 0 || !channel->WaitFence(fence)) {
    DUET_WARN("virtio-gpu: %s: fenced resource creation does not work; using KMS dumb buffers", path);
    return nullptr;
  }
  return channel;
}

}  // namespace duet::virtio_gpu
