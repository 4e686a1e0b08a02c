#include "backends/virtio_gpu/displays.h"

#include <algorithm>

#include "backends/virtio_gpu/edid.h"

namespace duet::virtio_gpu {
namespace {

constexpr uint32_t kDefaultRefreshMillihertz = 60'000;

void AddMode(std::vector<Mode>* modes, Mode mode) {
  auto same = [&](const Mode& m) {
    return m.width == mode.width && m.height == mode.height && m.refresh_millihertz == mode.refresh_millihertz;
  };
  if (auto it = std::find_if(modes->begin(), modes->end(), same); it != modes->end()) {
    it->preferred |= mode.preferred;
  } else {
    modes->push_back(mode);
  }
}

}  // namespace

std::vector<Display> EnumerateDisplays(VirtioGpu& gpu) {
  std::vector<ScanoutInfo> scanouts;
  if (!gpu.With([&](Channel& c) { return c.GetDisplayInfo(&scanouts); })) return {};
  std::vector<Display> displays;
  for (uint32_t index = 0; index < scanouts.size(); ++index) {
    const ScanoutInfo& scanout = scanouts[index];
    if (!scanout.enabled || scanout.rect.width == 0 || scanout.rect.height == 0) continue;
    Display display;
    display.scanout = index;
    std::vector<uint8_t> edid_bytes;
    std::optional<EdidInfo> edid;
    if (gpu.With([&](Channel& c) { return c.GetEdid(index, &edid_bytes); })) edid = ParseEdid(edid_bytes);
    const std::string monitor = edid && !edid->monitor_name.empty() ? edid->monitor_name : "virtio-gpu";
    display.name = monitor + " (virtio-gpu scanout " + std::to_string(index) + ")";
    if (edid) {
      display.width_mm = edid->width_mm;
      display.height_mm = edid->height_mm;
    }
    for (const Mode& m : scanout.modes) AddMode(&display.modes, m);
    if (scanout.modes.empty() && edid)
      for (const Mode& m : edid->modes) AddMode(&display.modes, m);
    // The host's size is the preferred mode (it shows it without scaling):
    // the one of that size the channel preferred, else the first, else 60 Hz.
    auto host_size = [&](const Mode& m) { return m.width == scanout.rect.width && m.height == scanout.rect.height; };
    auto preferred = std::find_if(display.modes.begin(), display.modes.end(),
                                  [&](const Mode& m) { return host_size(m) && m.preferred; });
    if (preferred == display.modes.end()) preferred = std::find_if(display.modes.begin(), display.modes.end(), host_size);
    Mode first = preferred != display.modes.end()
                     ? *preferred
                     : Mode{scanout.rect.width, scanout.rect.height, kDefaultRefreshMillihertz, true};
    if (preferred != display.modes.end()) display.modes.erase(preferred);
    for (Mode& m : display.modes) m.preferred = false;
    first.preferred = true;
    display.modes.insert(display.modes.begin(), first);
    displays.push_back(std::move(display));
  }
  return displays;
}

}  // namespace duet::virtio_gpu
