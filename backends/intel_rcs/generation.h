// Which Intel GPU generation a PCI device id is, among those whose packets
// the encoder knows: Gen9 (Skylake .. Comet Lake), Gen11 (Ice Lake, Elkhart
// Lake, Jasper Lake), Gen12.0 (Tiger Lake, Rocket Lake, Alder Lake, Raptor
// Lake). Gen12.5 and later (DG2, Meteor Lake) dropped the legacy XY_ blits
// and discrete cards copy system memory no faster than the CPU: neither is
// a target.
#pragma once

#include <cstdint>
#include <optional>

namespace duet::intel_rcs {

enum class Generation : uint8_t { kGen9 = 9, kGen11 = 11, kGen12 = 12 };

struct GpuModel {
  Generation generation;
  const char* platform;  // "Skylake", "Tiger Lake", ...
};

std::optional<GpuModel> ModelOfDevice(uint16_t pci_device_id);

const char* GenerationName(Generation generation);

}  // namespace duet::intel_rcs
