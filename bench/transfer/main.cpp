// duet_bench_transfer: transfer throughput of Duet next to lavapipe and
// memcpy, on this machine, in this run. See bench/README.md.
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>

#include "child_mode.h"
#include "host_baseline.h"
#include "icd_run.h"
#include "measure.h"
#include "options.h"
#include "table.h"
#include "workloads.h"

namespace duet_bench {
namespace {

constexpr char kProgram[] = "duet_bench_transfer";

int RunTable(const Options& options) {
  const TimingPlan plan{.quick = options.quick};
  const IcdTarget duet{"duet", options.duet_manifest};
  const IcdTarget lavapipe{"lavapipe", options.lavapipe_manifest};

  std::printf("duet_bench_transfer: GB/s = 1e9 bytes written per second (a copy writes its size).\n"
              "Each ICD runs in processes of its own: one command buffer of N repetitions with a barrier between\n"
              "them; submit + fence wait is timed. memcpy/memset run in this process, same sizes.\n");
  if (options.quick)
    std::printf("--quick: warm-up, then one run of one repetition. A smoke test, not a measurement.\n\n");
  else
    PrintTimingRule(plan, options.Rounds());

  TablePrinter table(38, {"duet GB/s", "lavapipe GB/s", "memcpy GB/s", "duet/memcpy", "duet/lavapipe"});
  table.PrintHeader();
  for (const WorkloadInfo& workload : AllWorkloads()) {
    if (!options.Selected(workload.name)) continue;
    const double memcpy_gbps = HostBaselineGbps(workload.host_op, workload.bytes, plan);
    const std::optional<double> memcpy_rate = memcpy_gbps > 0 ? std::optional(memcpy_gbps * 1e9) : std::nullopt;
    const auto [duet_cell, lavapipe_cell] = RunOnBoth(duet, lavapipe, workload.name, options);
    table.PrintRow(workload.label,
                   {FormatRate(duet_cell.rate, 1e-9), FormatRate(lavapipe_cell.rate, 1e-9),
                    FormatRate(memcpy_rate, 1e-9), FormatRatio(duet_cell.rate, memcpy_rate, true),
                    FormatRatio(duet_cell.rate, lavapipe_cell.rate)});
    table.Collect(duet.label, workload.label, duet_cell);
    table.Collect(lavapipe.label, workload.label, lavapipe_cell);
  }
  table.PrintFooter();
  return 0;
}

int RunChild(const Options& options) {
  const WorkloadInfo& info = *FindWorkload(options.workloads.front());
  ChildSpec spec;
  spec.app_name = kProgram;
  spec.units_per_rep = double(info.bytes);
  spec.prepare = [&info](BenchDevice& device, bool) -> std::unique_ptr<BenchWorkload> {
    return PrepareWorkload(info, device);
  };
  return RunChildMode(options, spec);
}

}  // namespace
}  // namespace duet_bench

int main(int argc, char** argv) {
  int exit_code = 0;
  const auto options =
      duet_bench::ParseOptions(argc, argv, duet_bench::kProgram, duet_bench::AllWorkloadNames(), &exit_code);
  if (!options) return exit_code;
  try {
    return options->icd ? duet_bench::RunChild(*options) : duet_bench::RunTable(*options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "duet_bench_transfer: %s\n", e.what());
    return 1;
  }
}
