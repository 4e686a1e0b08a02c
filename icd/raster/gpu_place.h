// Where bytes of a buffer or image live for the Intel GPU's blitter
// (backends/intel_rcs): the allocation holding them, when vkAllocateMemory
// mapped it (page-aligned, whole pages: what userptr wraps), and their
// offset in it. Imported host memory and unbound resources have none, and
// their transfers stay on the CPU.
#pragma once

#include <cstddef>
#include <optional>

#include "backends/intel_rcs/transfers.h"
#include "objects/memory.h"

namespace duet::raster {

inline std::optional<intel_rcs::HostPlace> GpuPlace(const DeviceMemory* memory, const std::byte* at) {
  if (memory == nullptr || memory->mapped_length == 0 || at < memory->data ||
      at >= memory->data + memory->mapped_length)
    return std::nullopt;
  return intel_rcs::HostPlace{{memory->data, memory->mapped_length}, static_cast<uint64_t>(at - memory->data)};
}

}  // namespace duet::raster
