// Parent side: one workload on one ICD, in a child process of its own.
#pragma once

#include <optional>
#include <string>

#include "options.h"
#include "workloads.h"

namespace duet_bench {

struct IcdTarget {
  std::string label;     // "duet", "lavapipe"
  std::string manifest;  // ICD manifest path
};

// One cell of the table: a rate, or n/a with the reason in `note`. `note`
// may also be set next to a rate (the child exited badly after reporting).
struct Cell {
  std::optional<double> gbps;
  std::string note;
  std::string device_name;
};

Cell RunOnIcd(const IcdTarget& target, const WorkloadInfo& workload, const Options& options);

}  // namespace duet_bench
