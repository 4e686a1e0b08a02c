// The displays of a virtio-gpu device: every enabled scanout (from
// GET_DISPLAY_INFO) is one, named and sized by its EDID when the device
// offers one, with the modes the channel knows (Linux: the kernel's list,
// which already includes the EDID's) or else the EDID's detailed timings,
// and always the size the host asks for as the preferred mode.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/virtio_gpu/channel.h"
#include "backends/virtio_gpu/gpu.h"

namespace duet::virtio_gpu {

struct Display {
  uint32_t scanout = 0;
  std::string name;
  uint32_t width_mm = 0, height_mm = 0;
  std::vector<Mode> modes;  // the preferred one first
};

std::vector<Display> EnumerateDisplays(VirtioGpu& gpu);

}  // namespace duet::virtio_gpu
