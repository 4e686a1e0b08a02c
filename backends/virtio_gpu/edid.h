// What a display's EDID (VESA E-EDID 1.3/1.4, base block) tells a display
// list: the monitor's name, its physical size and the modes of its detailed
// timing descriptors (the first one is the preferred mode).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "backends/virtio_gpu/channel.h"

namespace duet::virtio_gpu {

struct EdidInfo {
  std::string monitor_name;  // empty when the EDID names none
  uint32_t width_mm = 0, height_mm = 0;
  std::vector<Mode> modes;
};

// nullopt when the block is short, lacks the header or fails its checksum.
std::optional<EdidInfo> ParseEdid(std::span<const uint8_t> edid);

}  // namespace duet::virtio_gpu
