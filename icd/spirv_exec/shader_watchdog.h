// The watchdog for runaway shaders. A shader that loops for ever would hold
// its queue thread (and every fence behind it) for ever; instead, a wave
// that has run longer than the device's limit stops, and the device is
// marked lost, so waits return VK_ERROR_DEVICE_LOST as on a GPU reset.
//
// Only loops can run for ever (SPIR-V has no recursion and everything is
// inlined), so waves check at loop back edges, and only every
// kWatchdogCheckInterval of them: the clock is read only by waves that loop
// a lot, and a wave's time is counted from its first check.
//
// A command of legal size can also run for ever in a software driver
// (65535^3 workgroups, 2^32 instances): a whole dispatch or draw may take
// kCommandLimitFactor times the limit, counted from its watchdog's
// construction (one per command), checked between workgroup batches and
// instances.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>

#include "spirv_exec/wave.h"

namespace duet::spirv_exec {

class ShaderWatchdog {
 public:
  // `stop`: set (by anyone) once the work must stop, e.g. the device's lost
  // flag. `limit_ns` <= 0: no time limit. `on_expire` runs when a wave
  // exceeds the limit, before the wave stops; it must set *stop (it may
  // run on several threads at once).
  ShaderWatchdog(const std::atomic<bool>* stop, int64_t limit_ns, std::function<void()> on_expire)
      : stop_(stop), limit_ns_(limit_ns), on_expire_(std::move(on_expire)), started_ns_(SteadyNowNs()) {}

  bool Stopped() const { return stop_->load(std::memory_order_relaxed); }

  // Called by a wave every kWatchdogCheckInterval back edges: true when it must stop.
  bool Check(WaveState& wave) const;
  // Called between pieces of a command: true when it must stop (stopped,
  // or running longer than kCommandLimitFactor times the limit).
  bool CommandExpired() const;

  static int64_t SteadyNowNs();

 private:
  const std::atomic<bool>* stop_;
  int64_t limit_ns_;
  std::function<void()> on_expire_;
  int64_t started_ns_;
};

inline constexpr int64_t kCommandLimitFactor = 6;

// DUET_WATCHDOG_MS (milliseconds; 0 disables the limit), 10 s by default,
// in nanoseconds. Read when a device is created.
int64_t WatchdogLimitFromEnvironment();

}  // namespace duet::spirv_exec
