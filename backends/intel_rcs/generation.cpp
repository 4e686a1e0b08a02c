#include "backends/intel_rcs/generation.h"

#include <array>

namespace duet::intel_rcs {
namespace {

// Device ids grouped by platform: the ids of one platform share their upper
// bits (the kernel's i915_pciids.h lists them one by one).
struct IdRange {
  uint16_t first, last;
  GpuModel model;
};

constexpr std::array kRanges{
    IdRange{0x1900, 0x193F, {Generation::kGen9, "Skylake"}},
    IdRange{0x1A84, 0x1A85, {Generation::kGen9, "Broxton"}},
    IdRange{0x5A84, 0x5A85, {Generation::kGen9, "Apollo Lake"}},
    IdRange{0x3184, 0x3185, {Generation::kGen9, "Gemini Lake"}},
    IdRange{0x5900, 0x593F, {Generation::kGen9, "Kaby Lake"}},
    IdRange{0x87C0, 0x87CA, {Generation::kGen9, "Amber Lake"}},
    IdRange{0x3E90, 0x3EA9, {Generation::kGen9, "Coffee Lake"}},
    IdRange{0x9B21, 0x9BCC, {Generation::kGen9, "Comet Lake"}},
    IdRange{0x8A50, 0x8A71, {Generation::kGen11, "Ice Lake"}},
    IdRange{0x4541, 0x4571, {Generation::kGen11, "Elkhart Lake"}},
    IdRange{0x4E51, 0x4E71, {Generation::kGen11, "Jasper Lake"}},
    IdRange{0x9A40, 0x9AF8, {Generation::kGen12, "Tiger Lake"}},
    IdRange{0x4C80, 0x4C9A, {Generation::kGen12, "Rocket Lake"}},
    IdRange{0x4626, 0x462A, {Generation::kGen12, "Alder Lake"}},
    IdRange{0x4680, 0x46D4, {Generation::kGen12, "Alder Lake"}},
    IdRange{0xA780, 0xA7AF, {Generation::kGen12, "Raptor Lake"}},
};

}  // namespace

std::optional<GpuModel> ModelOfDevice(uint16_t pci_device_id) {
  for (const IdRange& range : kRanges)
    if (pci_device_id >= range.first && pci_device_id <= range.last) return range.model;
  return std::nullopt;
}

const char* GenerationName(Generation generation) {
  switch (generation) {
    case Generation::kGen9:
      return "Gen9";
    case Generation::kGen11:
      return "Gen11";
    case Generation::kGen12:
      return "Gen12";
  }
  return "?";
}

}  // namespace duet::intel_rcs
