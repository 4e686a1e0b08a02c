#include "backends/framebuffer/framebuffer.h"

#include <cstdlib>

namespace duet::framebuffer {

uint64_t RefreshIntervalFromEnvironment(uint32_t default_hz) {
  uint32_t hz = default_hz;
  if (const char* value = std::getenv("DUET_REFRESH_HZ"); value != nullptr && value[0] != '\0')
    hz = static_cast<uint32_t>(std::strtoul(value, nullptr, 10));
  return hz == 0 ? 0 : 1'000'000'000ull / hz;
}

}  // namespace duet::framebuffer
