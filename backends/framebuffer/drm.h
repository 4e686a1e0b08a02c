// Displays driven through Linux KMS (VK_KHR_display): connected connectors
// of /dev/dri/card* and their modes, and a Target that shows frames in a
// dumb buffer scanned out on the connector (DRM_IOCTL_MODE_SETCRTC), with
// each frame's damage copied in and announced with DRM_IOCTL_MODE_DIRTYFB.
// Plain kernel ioctls through the uapi headers: no libdrm at run time.
// Setting a mode needs DRM master, i.e. no other compositor on that card.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backends/framebuffer/framebuffer.h"

namespace duet::framebuffer {

class DrmCard;

struct DrmMode {
  uint32_t width = 0, height = 0;
  uint32_t refresh_millihertz = 0;
  bool preferred = false;
  std::vector<std::byte> kernel_mode;  // struct drm_mode_modeinfo, kept opaque here
};

struct DrmConnector {
  std::shared_ptr<DrmCard> card;
  uint32_t connector_id = 0;
  std::string name;  // "HDMI-A-1"
  uint32_t width_mm = 0, height_mm = 0;
  std::vector<DrmMode> modes;  // the preferred one first
};

// The connected connectors of every DRM card that can be opened. None (and
// one log line saying why) when there is no /dev/dri/card* or none can be
// opened.
std::vector<DrmConnector> EnumerateDrmConnectors();

// A target that sets `mode` on the connector when an output is created.
std::unique_ptr<Target> CreateDrmTarget(const DrmConnector& connector, const DrmMode& mode);

}  // namespace duet::framebuffer
