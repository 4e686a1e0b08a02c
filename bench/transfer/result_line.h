// What a child run prints on stdout, one line each, and how the parent
// reads it back:
//   device <deviceName>
//   ok <GB/s> <repetitions> <best run seconds>
//   na <reason>
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "measure.h"

namespace duet_bench {

std::string DeviceLine(std::string_view device_name);
std::string OkLine(double gbps, const Timing& timing);
std::string NaLine(std::string_view reason);

struct ChildReport {
  std::string device_name;     // empty if the device was never created
  std::optional<double> gbps;  // set by an "ok" line
  Timing timing;
  std::string failure;         // the reason of an "na" line
  bool complete = false;       // an "ok" or "na" line was seen
};

ChildReport ParseChildOutput(std::string_view out);

}  // namespace duet_bench
