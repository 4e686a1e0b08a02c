// Parent side: one workload on one ICD, in a child process of its own.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "options.h"

namespace duet_bench {

struct IcdTarget {
  std::string label;     // "duet", "lavapipe"
  std::string manifest;  // ICD manifest path
};

// One cell of the table: a rate (units per second, as the child reported
// it), or n/a with the reason in `note`. `note` may also be set next to a
// rate (the child exited badly after reporting).
struct Cell {
  std::optional<double> rate;
  std::string note;
  std::string device_name;
  std::string fingerprint;  // what the child reported of its result, if anything

  // Turns a measured cell into n/a for `reason` (a wrong result).
  void Reject(std::string reason) {
    rate.reset();
    note = std::move(reason);
  }
};

Cell RunOnIcd(const IcdTarget& target, std::string_view workload, const Options& options);

// A workload on two ICDs, options.Rounds() child processes each, the ICDs
// taking turns (a b b a a b ...: a machine that slows down or speeds up
// during the rounds favours neither). Each cell is its best round, or the
// first round that failed: a failure is never hidden by a good round.
struct CellPair {
  Cell first, second;
};
CellPair RunOnBoth(const IcdTarget& first, const IcdTarget& second, std::string_view workload,
                   const Options& options);

}  // namespace duet_bench
