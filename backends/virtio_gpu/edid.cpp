#include "backends/virtio_gpu/edid.h"

#include <numeric>

namespace duet::virtio_gpu {
namespace {

constexpr size_t kBlockSize = 128;
constexpr uint8_t kHeader[8] = {0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00};
constexpr size_t kDescriptors = 54;  // four 18-byte descriptors from here
constexpr uint8_t kMonitorNameTag = 0xfc;

std::optional<Mode> DetailedTiming(std::span<const uint8_t, 18> d) {
  const uint32_t clock_10khz = d[0] | d[1] << 8;
  if (clock_10khz == 0) return std::nullopt;  // a display descriptor, not a timing
  const uint32_t h_active = d[2] | (d[4] & 0xf0) << 4;
  const uint32_t h_blank = d[3] | (d[4] & 0x0f) << 8;
  const uint32_t v_active = d[5] | (d[7] & 0xf0) << 4;
  const uint32_t v_blank = d[6] | (d[7] & 0x0f) << 8;
  const uint64_t pixels_per_frame = uint64_t{h_active + h_blank} * (v_active + v_blank);
  if (h_active == 0 || v_active == 0 || pixels_per_frame == 0) return std::nullopt;
  Mode mode;
  mode.width = h_active;
  mode.height = v_active;
  mode.refresh_millihertz = static_cast<uint32_t>(uint64_t{clock_10khz} * 10'000'000 / pixels_per_frame);
  return mode;
}

std::string MonitorName(std::span<const uint8_t, 18> d) {
  std::string name;
  for (size_t i = 5; i < 18 && d[i] != 0x0a; ++i) name.push_back(static_cast<char>(d[i]));
  while (!name.empty() && name.back() == ' ') name.pop_back();
  return name;
}

}  // namespace

std::optional<EdidInfo> ParseEdid(std::span<const uint8_t> edid) {
  if (edid.size() < kBlockSize || !std::equal(std::begin(kHeader), std::end(kHeader), edid.begin())) return std::nullopt;
  const auto block = edid.first(kBlockSize);
  if (std::accumulate(block.begin(), block.end(), 0u) % 256 != 0) return std::nullopt;
  EdidInfo info;
  info.width_mm = block[21] * 10u;  // centimetres in the EDID
  info.height_mm = block[22] * 10u;
  for (size_t i = 0; i < 4; ++i) {
    const std::span<const uint8_t, 18> d = block.subspan(kDescriptors + 18 * i).first<18>();
    if (std::optional<Mode> mode = DetailedTiming(d)) {
      mode->preferred = info.modes.empty();
      info.modes.push_back(*mode);
    } else if (d[3] == kMonitorNameTag) {
      info.monitor_name = MonitorName(d);
    }
  }
  return info;
}

}  // namespace duet::virtio_gpu
