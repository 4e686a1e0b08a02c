// duet_bench_compute: compute throughput (invocations per second) of Duet
// next to lavapipe, on this machine, in this run. See bench/README.md.
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <string>

#include "child_mode.h"
#include "compute_workloads.h"
#include "icd_run.h"
#include "measure.h"
#include "options.h"
#include "table.h"

namespace duet_bench {
namespace {

constexpr char kProgram[] = "duet_bench_compute";

// Milliseconds per dispatch, from a rate in invocations per second.
std::optional<double> MillisecondsPerDispatch(const std::optional<double>& rate, uint64_t invocations) {
  if (!rate || *rate <= 0) return std::nullopt;
  return double(invocations) / *rate * 1e3;
}

int RunTable(const Options& options) {
  const TimingPlan plan{.quick = options.quick};
  const IcdTarget duet{"duet", options.duet_manifest};
  const IcdTarget lavapipe{"lavapipe", options.lavapipe_manifest};

  std::printf("duet_bench_compute: Minv/s = millions of shader invocations per second (one dispatch = the\n"
              "row's problem, one invocation per element). Each ICD runs in processes of its own: one command buffer\n"
              "of N dispatches with a compute barrier between them; submit + fence wait is timed. Results are\n"
              "checked against a C++ reference after the timed runs (n/a if wrong).\n");
  if (options.quick)
    std::printf("--quick: warm-up, then one run of one dispatch; the ALU loop runs 32 rounds, not 256.\n"
                "A smoke test, not a measurement.\n\n");
  else
    PrintTimingRule(plan, options.Rounds());

  TablePrinter table(36, {"invocations", "duet Minv/s", "lavapipe Minv/s", "duet ms", "lavapipe ms",
                          "duet/lavapipe"});
  table.PrintHeader();
  for (const ComputeWorkloadInfo& workload : ComputeWorkloads()) {
    if (!options.Selected(workload.name)) continue;
    const auto [duet_cell, lavapipe_cell] = RunOnBoth(duet, lavapipe, workload.name, options);
    table.PrintRow(workload.label,
                   {std::to_string(workload.invocations), FormatSignificant(duet_cell.rate, 1e-6),
                    FormatSignificant(lavapipe_cell.rate, 1e-6),
                    FormatSignificant(MillisecondsPerDispatch(duet_cell.rate, workload.invocations)),
                    FormatSignificant(MillisecondsPerDispatch(lavapipe_cell.rate, workload.invocations)),
                    FormatRatio(duet_cell.rate, lavapipe_cell.rate)});
    table.Collect(duet.label, workload.label, duet_cell);
    table.Collect(lavapipe.label, workload.label, lavapipe_cell);
  }
  table.PrintFooter();
  return 0;
}

int RunChild(const Options& options) {
  const ComputeWorkloadInfo& info = *FindComputeWorkload(options.workloads.front());
  ChildSpec spec;
  spec.app_name = kProgram;
  spec.units_per_rep = double(info.invocations);
  spec.prepare = info.make;
  return RunChildMode(options, spec);
}

}  // namespace
}  // namespace duet_bench

int main(int argc, char** argv) {
  int exit_code = 0;
  const auto options =
      duet_bench::ParseOptions(argc, argv, duet_bench::kProgram, duet_bench::ComputeWorkloadNames(), &exit_code);
  if (!options) return exit_code;
  try {
    return options->icd ? duet_bench::RunChild(*options) : duet_bench::RunTable(*options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "duet_bench_compute: %s\n", e.what());
    return 1;
  }
}
