// duet_bench_transfer: transfer throughput of Duet next to lavapipe and
// memcpy, on this machine, in this run. See bench/README.md.
#include <algorithm>
#include <cstdio>
#include <exception>

#include "child_mode.h"
#include "host_baseline.h"
#include "icd_run.h"
#include "measure.h"
#include "options.h"
#include "table.h"
#include "workloads.h"

namespace duet_bench {
namespace {

int RunTable(const Options& options) {
  const TimingPlan plan{.quick = options.quick};
  const IcdTarget duet{"duet", options.duet_manifest};
  const IcdTarget lavapipe{"lavapipe", options.lavapipe_manifest};

  std::printf("duet_bench_transfer: GB/s = 1e9 bytes written per second (a copy writes its size).\n"
              "Each ICD runs in its own process: one command buffer of N repetitions with a barrier between\n"
              "them; submit + fence wait is timed. memcpy/memset run in this process, same sizes.\n");
  if (options.quick)
    std::printf("--quick: warm-up, then one run of one repetition. A smoke test, not a measurement.\n\n");
  else
    std::printf("Warm-up once, N chosen for ~%.0f ms per run, best of %u runs.\n\n", plan.target_seconds * 1000,
                plan.timed_runs);

  TablePrinter table;
  table.PrintHeader();
  for (const WorkloadInfo& workload : AllWorkloads()) {
    if (!options.workloads.empty() &&
        std::find(options.workloads.begin(), options.workloads.end(), workload.name) == options.workloads.end())
      continue;
    const double memcpy_gbps = HostBaselineGbps(workload.host_op, workload.bytes, plan);
    const Cell duet_cell = RunOnIcd(duet, workload, options);
    const Cell lavapipe_cell = RunOnIcd(lavapipe, workload, options);
    table.PrintRow(workload.label, duet_cell, lavapipe_cell, memcpy_gbps);
  }
  table.PrintFooter();
  return 0;
}

}  // namespace
}  // namespace duet_bench

int main(int argc, char** argv) {
  int exit_code = 0;
  const auto options = duet_bench::ParseOptions(argc, argv, &exit_code);
  if (!options) return exit_code;
  try {
    return options->icd ? duet_bench::RunChildMode(*options) : duet_bench::RunTable(*options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "duet_bench_transfer: %s\n", e.what());
    return 1;
  }
}
