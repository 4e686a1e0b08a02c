// What identifies this build of the driver: cached compilations from any
// other build are foreign (their layout and their compiler may differ).
#pragma once

#include <cstdint>

namespace duet::pipeline_cache {

// 16 bytes: the linker's GNU build id of the object holding the driver
// (hashed to 16 bytes), or, when it has none, a hash of the version and the
// compilation time.
struct BuildId {
  uint8_t bytes[16];
};
const BuildId& DriverBuildId();

}  // namespace duet::pipeline_cache
