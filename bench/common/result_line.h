// What a child run prints on stdout, one line each, and how the parent
// reads it back:
//   device <deviceName>
//   fingerprint <text>    optional, before "ok": a summary of the result
//                         the parent compares across drivers
//   ok <rate> <repetitions> <best run seconds>     rate in units per second
//   na <reason>
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "measure.h"

namespace duet_bench {

std::string DeviceLine(std::string_view device_name);
std::string FingerprintLine(std::string_view fingerprint);
std::string OkLine(double rate, const Timing& timing);
std::string NaLine(std::string_view reason);

struct ChildReport {
  std::string device_name;     // empty if the device was never created
  std::string fingerprint;     // empty unless the workload reports one
  std::optional<double> rate;  // set by an "ok" line
  Timing timing;
  std::string failure;         // the reason of an "na" line
  bool complete = false;       // an "ok" or "na" line was seen
};

ChildReport ParseChildOutput(std::string_view out);

}  // namespace duet_bench
