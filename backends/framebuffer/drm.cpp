#include "backends/framebuffer/drm.h"

#include <dirent.h>
#include <fcntl.h>
#include <libdrm/drm.h>
#include <libdrm/drm_mode.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "backends/framebuffer/pixels.h"
#include "util/log.h"

namespace duet::framebuffer {

DrmCard::DrmCard(int fd, std::string path) : fd_(fd), path_(std::move(path)) {
  char name[64] = {};
  drm_version version{};
  version.name = name;
  version.name_len = sizeof name - 1;
  if (DrmIoctl(fd_, DRM_IOCTL_VERSION, &version) == 0) driver_ = name;
}

DrmCard::~DrmCard() { close(fd_); }

int DrmIoctl(int fd, unsigned long request, void* arg) {
  int r;
  do {
    r = ioctl(fd, request, arg);
  } while (r == -1 && (errno == EINTR || errno == EAGAIN));
  return r;
}

namespace {

template <typename T>
uint64_t UserPointer(std::vector<T>& v) {
  return reinterpret_cast<uintptr_t>(v.data());
}

const char* ConnectorTypeName(uint32_t type) {
  switch (type) {
    case DRM_MODE_CONNECTOR_VGA: return "VGA";
    case DRM_MODE_CONNECTOR_DVII: return "DVI-I";
    case DRM_MODE_CONNECTOR_DVID: return "DVI-D";
    case DRM_MODE_CONNECTOR_DisplayPort: return "DP";
    case DRM_MODE_CONNECTOR_HDMIA: return "HDMI-A";
    case DRM_MODE_CONNECTOR_HDMIB: return "HDMI-B";
    case DRM_MODE_CONNECTOR_LVDS: return "LVDS";
    case DRM_MODE_CONNECTOR_eDP: return "eDP";
    case DRM_MODE_CONNECTOR_VIRTUAL: return "Virtual";
    case DRM_MODE_CONNECTOR_DSI: return "DSI";
    default: return "Unknown";
  }
}

}  // namespace

bool ReadKmsResources(int fd, KmsResources* out) {
  drm_mode_card_res res{};
  if (DrmIoctl(fd, DRM_IOCTL_MODE_GETRESOURCES, &res) != 0) return false;
  // Counts can change between the two calls (hotplug); one retry is plenty here.
  std::vector<uint32_t> fbs(res.count_fbs), encoders(res.count_encoders);
  out->crtcs.resize(res.count_crtcs);
  out->connectors.resize(res.count_connectors);
  res.fb_id_ptr = UserPointer(fbs);
  res.crtc_id_ptr = UserPointer(out->crtcs);
  res.connector_id_ptr = UserPointer(out->connectors);
  res.encoder_id_ptr = UserPointer(encoders);
  if (DrmIoctl(fd, DRM_IOCTL_MODE_GETRESOURCES, &res) != 0) return false;
  out->crtcs.resize(std::min<size_t>(out->crtcs.size(), res.count_crtcs));
  out->connectors.resize(std::min<size_t>(out->connectors.size(), res.count_connectors));
  return true;
}

bool ReadKmsConnector(int fd, uint32_t id, KmsConnector* out) {
  drm_mode_get_connector c{};
  c.connector_id = id;
  if (DrmIoctl(fd, DRM_IOCTL_MODE_GETCONNECTOR, &c) != 0) return false;
  std::vector<uint32_t> props(c.count_props);
  std::vector<uint64_t> prop_values(c.count_props);
  out->modes.resize(c.count_modes);
  out->encoders.resize(c.count_encoders);
  c.modes_ptr = UserPointer(out->modes);
  c.encoders_ptr = UserPointer(out->encoders);
  c.props_ptr = UserPointer(props);
  c.prop_values_ptr = UserPointer(prop_values);
  if (DrmIoctl(fd, DRM_IOCTL_MODE_GETCONNECTOR, &c) != 0) return false;
  out->modes.resize(std::min<size_t>(out->modes.size(), c.count_modes));
  out->encoders.resize(std::min<size_t>(out->encoders.size(), c.count_encoders));
  out->header = c;
  return true;
}

DrmMode ToDrmMode(const drm_mode_modeinfo& m) {
  DrmMode mode;
  mode.width = m.hdisplay;
  mode.height = m.vdisplay;
  // The exact rate from the timings when they are there, else the rounded one.
  const uint64_t pixels_per_frame = uint64_t{m.htotal} * m.vtotal;
  mode.refresh_millihertz = pixels_per_frame != 0 ? static_cast<uint32_t>(uint64_t{m.clock} * 1000000 / pixels_per_frame)
                                                  : m.vrefresh * 1000;
  mode.preferred = (m.type & DRM_MODE_TYPE_PREFERRED) != 0;
  mode.kernel_mode.resize(sizeof m);
  std::memcpy(mode.kernel_mode.data(), &m, sizeof m);
  return mode;
}

uint32_t FindCrtc(int fd, uint32_t connector_id) {
  KmsConnector info;
  KmsResources resources;
  if (!ReadKmsConnector(fd, connector_id, &info) || !ReadKmsResources(fd, &resources)) return 0;
  std::vector<uint32_t> encoders = info.encoders;
  if (info.header.encoder_id != 0) encoders.insert(encoders.begin(), info.header.encoder_id);
  for (uint32_t encoder_id : encoders) {
    drm_mode_get_encoder encoder{};
    encoder.encoder_id = encoder_id;
    if (DrmIoctl(fd, DRM_IOCTL_MODE_GETENCODER, &encoder) != 0) continue;
    if (encoder_id == info.header.encoder_id && encoder.crtc_id != 0) return encoder.crtc_id;
    for (size_t i = 0; i < resources.crtcs.size() && i < 32; ++i)
      if (encoder.possible_crtcs & (1u << i)) return resources.crtcs[i];
  }
  return 0;
}

std::vector<DrmConnector> ConnectedConnectors(const std::shared_ptr<DrmCard>& card) {
  std::vector<DrmConnector> out;
  KmsResources resources;
  if (!ReadKmsResources(card->fd(), &resources)) return out;  // not a KMS device (render-only)
  for (uint32_t id : resources.connectors) {
    KmsConnector info;
    if (!ReadKmsConnector(card->fd(), id, &info) || info.header.connection != 1 /* connected */ || info.modes.empty())
      continue;
    DrmConnector connector;
    connector.card = card;
    connector.connector_id = id;
    connector.name = std::string(ConnectorTypeName(info.header.connector_type)) + "-" +
                     std::to_string(info.header.connector_type_id);
    connector.width_mm = info.header.mm_width;
    connector.height_mm = info.header.mm_height;
    for (const drm_mode_modeinfo& m : info.modes) connector.modes.push_back(ToDrmMode(m));
    std::stable_partition(connector.modes.begin(), connector.modes.end(),
                          [](const DrmMode& m) { return m.preferred; });
    out.push_back(std::move(connector));
  }
  return out;
}

namespace {

class DrmOutput final : public Output {
 public:
  DrmOutput(std::shared_ptr<DrmCard> card, Extent extent) : card_(std::move(card)), extent_(extent) {}

  // Creates, maps and scans out the dumb buffer; false (logged) on failure.
  bool Start(uint32_t connector_id, const DrmMode& mode) {
    const int fd = card_->fd();
    drm_mode_create_dumb create{};
    create.width = extent_.width;
    create.height = extent_.height;
    create.bpp = 32;
    if (DrmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &create) != 0) return Fail("DRM_IOCTL_MODE_CREATE_DUMB");
    handle_ = create.handle;
    pitch_ = create.pitch;
    size_ = create.size;
    drm_mode_fb_cmd fb{};
    fb.width = extent_.width;
    fb.height = extent_.height;
    fb.pitch = pitch_;
    fb.bpp = 32;
    fb.depth = 24;
    fb.handle = handle_;
    if (DrmIoctl(fd, DRM_IOCTL_MODE_ADDFB, &fb) != 0) return Fail("DRM_IOCTL_MODE_ADDFB");
    fb_id_ = fb.fb_id;
    drm_mode_map_dumb map{};
    map.handle = handle_;
    if (DrmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &map) != 0) return Fail("DRM_IOCTL_MODE_MAP_DUMB");
    void* pixels = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, static_cast<off_t>(map.offset));
    if (pixels == MAP_FAILED) return Fail("mmap of the dumb buffer");
    pixels_ = static_cast<std::byte*>(pixels);
    std::memset(pixels_, 0, size_);

    crtc_.crtc_id = FindCrtc(fd, connector_id);
    if (crtc_.crtc_id == 0) return Fail("finding a CRTC for the connector");
    saved_crtc_.crtc_id = crtc_.crtc_id;
    DrmIoctl(fd, DRM_IOCTL_MODE_GETCRTC, &saved_crtc_);  // restored when the output goes
    connector_id_ = connector_id;
    crtc_.fb_id = fb_id_;
    crtc_.set_connectors_ptr = reinterpret_cast<uintptr_t>(&connector_id_);
    crtc_.count_connectors = 1;
    std::memcpy(&crtc_.mode, mode.kernel_mode.data(), sizeof crtc_.mode);
    crtc_.mode_valid = 1;
    if (DrmIoctl(fd, DRM_IOCTL_MODE_SETCRTC, &crtc_) != 0) return Fail("DRM_IOCTL_MODE_SETCRTC (is another compositor DRM master?)");
    return true;
  }

  ~DrmOutput() override {
    const int fd = card_->fd();
    if (saved_crtc_.mode_valid) {
      saved_crtc_.set_connectors_ptr = reinterpret_cast<uintptr_t>(&connector_id_);
      saved_crtc_.count_connectors = 1;
      DrmIoctl(fd, DRM_IOCTL_MODE_SETCRTC, &saved_crtc_);
    }
    if (pixels_ != nullptr) munmap(pixels_, size_);
    if (fb_id_ != 0) DrmIoctl(fd, DRM_IOCTL_MODE_RMFB, &fb_id_);
    if (handle_ != 0) {
      drm_mode_destroy_dumb destroy{};
      destroy.handle = handle_;
      DrmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &destroy);
    }
  }

  Status Present(const Frame& frame, std::span<const Rect> damage) override {
    if (damage.empty()) return Status::kOk;
    std::vector<drm_clip_rect> clips;
    for (const Rect& rect : damage) {
      const Rect r = ClipRect(rect, extent_);
      if (r.Area() == 0) continue;
      CopyRect(frame, r, pixels_, pitch_, PixelFormat::kBgra8888);  // XRGB8888
      clips.push_back({static_cast<uint16_t>(r.x), static_cast<uint16_t>(r.y), static_cast<uint16_t>(r.x + r.width),
                       static_cast<uint16_t>(r.y + r.height)});
    }
    // Drivers that scan out of the dumb buffer directly need no notice and
    // may not implement DIRTYFB; those that upload (virtio-gpu, USB) do.
    drm_mode_fb_dirty_cmd dirty{};
    dirty.fb_id = fb_id_;
    dirty.num_clips = static_cast<uint32_t>(clips.size());
    dirty.clips_ptr = UserPointer(clips);
    if (DrmIoctl(card_->fd(), DRM_IOCTL_MODE_DIRTYFB, &dirty) != 0 && errno != ENOSYS && errno != EINVAL) {
      DUET_WARN("DRM_IOCTL_MODE_DIRTYFB: %s", std::strerror(errno));
      return errno == ENODEV ? Status::kLost : Status::kFailed;
    }
    return Status::kOk;
  }

 private:
  bool Fail(const char* what) {
    DUET_ERROR("DRM display: %s failed: %s", what, std::strerror(errno));
    return false;
  }

  std::shared_ptr<DrmCard> card_;
  Extent extent_;
  uint32_t handle_ = 0, pitch_ = 0, fb_id_ = 0, connector_id_ = 0;
  uint64_t size_ = 0;
  std::byte* pixels_ = nullptr;
  drm_mode_crtc crtc_{}, saved_crtc_{};
};

class DrmTarget final : public Target {
 public:
  DrmTarget(const DrmConnector& connector, const DrmMode& mode)
      : card_(connector.card), connector_id_(connector.connector_id), mode_(mode) {}

  Status CurrentExtent(std::optional<Extent>* extent) override {
    *extent = Extent{mode_.width, mode_.height};
    return Status::kOk;
  }

  uint64_t RefreshInterval() const override {
    return mode_.refresh_millihertz != 0 ? 1'000'000'000'000ull / mode_.refresh_millihertz : 0;
  }

  std::unique_ptr<Output> CreateOutput(Extent extent, PixelFormat) override {
    auto output = std::make_unique<DrmOutput>(card_, extent);
    if (!output->Start(connector_id_, mode_)) return nullptr;
    return output;
  }

 private:
  std::shared_ptr<DrmCard> card_;
  uint32_t connector_id_;
  DrmMode mode_;
};

}  // namespace

std::vector<std::shared_ptr<DrmCard>> OpenDrmCards() {
  std::vector<std::shared_ptr<DrmCard>> opened;
  DIR* dir = opendir("/dev/dri");
  if (dir == nullptr) {
    DUET_WARN("VK_KHR_display: no displays: there is no DRM device (/dev/dri does not exist)");
    return opened;
  }
  std::vector<std::string> cards;
  while (dirent* e = readdir(dir))
    if (std::strncmp(e->d_name, "card", 4) == 0) cards.push_back(std::string("/dev/dri/") + e->d_name);
  closedir(dir);
  std::sort(cards.begin(), cards.end());
  if (cards.empty()) DUET_WARN("VK_KHR_display: no displays: there is no DRM device (no /dev/dri/card*)");
  for (const std::string& path : cards) {
    const int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) {
      DUET_WARN("VK_KHR_display: cannot open %s: %s", path.c_str(), std::strerror(errno));
      continue;
    }
    opened.push_back(std::make_shared<DrmCard>(fd, path));
  }
  return opened;
}

std::unique_ptr<Target> CreateDrmTarget(const DrmConnector& connector, const DrmMode& mode) {
  return std::make_unique<DrmTarget>(connector, mode);
}

}  // namespace duet::framebuffer
