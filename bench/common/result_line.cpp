#include "result_line.h"

#include <cstdio>
#include <sstream>

namespace duet_bench {
namespace {

std::string OneLine(std::string_view text) {
  std::string s(text);
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

}  // namespace

std::string DeviceLine(std::string_view device_name) { return "device " + OneLine(device_name) + "\n"; }

std::string FingerprintLine(std::string_view fingerprint) { return "fingerprint " + OneLine(fingerprint) + "\n"; }

std::string OkLine(double rate, const Timing& timing) {
  char line[128];
  std::snprintf(line, sizeof line, "ok %.9g %u %.9f\n", rate, timing.reps, timing.best_seconds);
  return line;
}

std::string NaLine(std::string_view reason) { return "na " + OneLine(reason) + "\n"; }

ChildReport ParseChildOutput(std::string_view out) {
  ChildReport report;
  std::istringstream lines{std::string(out)};
  std::string line;
  while (std::getline(lines, line)) {
    const std::string_view rest = line.size() > 3 ? std::string_view(line).substr(3) : std::string_view();
    if (line.starts_with("device ")) {
      report.device_name = std::string(std::string_view(line).substr(7));
    } else if (line.starts_with("fingerprint ")) {
      report.fingerprint = std::string(std::string_view(line).substr(12));
    } else if (line.starts_with("ok ")) {
      std::istringstream fields{std::string(rest)};
      double rate = 0;
      if (fields >> rate >> report.timing.reps >> report.timing.best_seconds) {
        report.rate = rate;
        report.complete = true;
      }
    } else if (line.starts_with("na ")) {
      report.failure = std::string(rest);
      report.complete = true;
    }
  }
  return report;
}

}  // namespace duet_bench
