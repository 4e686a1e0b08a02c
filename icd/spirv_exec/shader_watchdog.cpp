#include "spirv_exec/shader_watchdog.h"

#include <chrono>
#include <cstdlib>

namespace duet::spirv_exec {
namespace {

constexpr int64_t kDefaultLimitMs = 10000;

}  // namespace

int64_t ShaderWatchdog::SteadyNowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

bool ShaderWatchdog::CommandExpired() const {
  if (Stopped()) return true;
  if (limit_ns_ <= 0 || SteadyNowNs() - started_ns_ <= limit_ns_ * kCommandLimitFactor) return false;
  if (on_expire_) on_expire_();
  return true;
}

bool ShaderWatchdog::Check(WaveState& wave) const {
  if (Stopped()) return true;
  if (limit_ns_ <= 0) return false;
  const int64_t now = SteadyNowNs();
  if (wave.watch_started_ns == 0) {
    wave.watch_started_ns = now;
    return false;
  }
  if (now - wave.watch_started_ns <= limit_ns_) return false;
  if (on_expire_) on_expire_();
  return true;
}

int64_t WatchdogLimitFromEnvironment() {
  int64_t ms = kDefaultLimitMs;
  if (const char* text = std::getenv("DUET_WATCHDOG_MS"); text != nullptr && *text != '\0') {
    char* end = nullptr;
    const long long value = std::strtoll(text, &end, 10);
    // Beyond a day is "no limit" in practice; the cap keeps the product in range.
    if (end != text && *end == '\0' && value >= 0) ms = value < 86400000 ? value : 86400000;
  }
  return ms * 1000000;
}

}  // namespace duet::spirv_exec
