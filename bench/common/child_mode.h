// Child mode (--icd M --workload W): runs one workload on the ICD the
// loader finds through M and prints result_line.h's lines. Always exits 0
// once it has printed its result; a failure is an "na" line.
#pragma once

#include <functional>
#include <memory>

#include "bench_workload.h"
#include "options.h"
#include "vk_bench_device.h"

namespace duet_bench {

struct ChildSpec {
  const char* app_name = "duet_bench";
  DeviceFeatureRequest features;
  double units_per_rep = 1;  // the rate is units_per_rep * reps / best run seconds
  // Creates the workload's resources on the device (may throw). `quick`
  // is --quick: a workload may shorten its work (never change what it
  // runs) to keep the smoke test short.
  std::function<std::unique_ptr<BenchWorkload>(BenchDevice&, bool quick)> prepare;
};

int RunChildMode(const Options& options, const ChildSpec& spec);

}  // namespace duet_bench
