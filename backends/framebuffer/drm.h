// Displays driven through Linux KMS (VK_KHR_display): connected connectors
// of /dev/dri/card* and their modes, and a Target that shows frames in a
// dumb buffer scanned out on the connector (DRM_IOCTL_MODE_SETCRTC), with
// each frame's damage copied in and announced with DRM_IOCTL_MODE_DIRTYFB.
// Plain kernel ioctls through the uapi headers: no libdrm at run time.
// The KMS helpers here also serve the virtio-gpu backend.
// Setting a mode needs DRM master, i.e. no other compositor on that card.
#pragma once

#include <libdrm/drm.h>
#include <libdrm/drm_mode.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backends/framebuffer/framebuffer.h"

namespace duet::framebuffer {

// An open card; closed when the last connector or output using it goes.
class DrmCard {
 public:
  DrmCard(int fd, std::string path);
  ~DrmCard();
  DrmCard(const DrmCard&) = delete;
  DrmCard& operator=(const DrmCard&) = delete;
  int fd() const { return fd_; }
  const std::string& path() const { return path_; }
  const std::string& driver() const { return driver_; }  // the kernel driver: "virtio_gpu", "i915", ...

 private:
  int fd_;
  std::string path_, driver_;
};

// ioctl, retried when a signal interrupts it.
int DrmIoctl(int fd, unsigned long request, void* arg);

struct KmsResources {
  std::vector<uint32_t> crtcs, connectors;  // in the kernel's order
};
bool ReadKmsResources(int fd, KmsResources* out);

struct KmsConnector {
  drm_mode_get_connector header{};
  std::vector<drm_mode_modeinfo> modes;
  std::vector<uint32_t> encoders;
};
// Reading the modes makes the kernel probe the connector again.
bool ReadKmsConnector(int fd, uint32_t id, KmsConnector* out);

// A CRTC that can drive the connector: the one its encoder uses now, else
// the first one any of its encoders can use; 0 when there is none.
uint32_t FindCrtc(int fd, uint32_t connector_id);

struct DrmMode {
  uint32_t width = 0, height = 0;
  uint32_t refresh_millihertz = 0;
  bool preferred = false;
  std::vector<std::byte> kernel_mode;  // struct drm_mode_modeinfo, kept opaque here
};
DrmMode ToDrmMode(const drm_mode_modeinfo& m);

struct DrmConnector {
  std::shared_ptr<DrmCard> card;
  uint32_t connector_id = 0;
  std::string name;  // "HDMI-A-1"
  uint32_t width_mm = 0, height_mm = 0;
  std::vector<DrmMode> modes;  // the preferred one first
};

// Every DRM card that can be opened, in name order. None (and one log line
// saying why) when there is no /dev/dri/card* or none can be opened.
std::vector<std::shared_ptr<DrmCard>> OpenDrmCards();

// The card's connected connectors (none when it is not a KMS device).
std::vector<DrmConnector> ConnectedConnectors(const std::shared_ptr<DrmCard>& card);

// A target that sets `mode` on the connector when an output is created.
std::unique_ptr<Target> CreateDrmTarget(const DrmConnector& connector, const DrmMode& mode);

}  // namespace duet::framebuffer
