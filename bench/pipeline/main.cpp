// duet_bench_pipeline: pipeline creation (pipelines per second) and time
// to first frame, Duet next to lavapipe, on this machine, in this run. See
// bench/README.md.
#include <cstdio>
#include <exception>
#include <optional>
#include <string>

#include "child_process.h"
#include "icd_run.h"
#include "measure.h"
#include "options.h"
#include "pipeline_rows.h"
#include "table.h"

namespace duet_bench {
namespace {

constexpr char kProgram[] = "duet_bench_pipeline";

std::optional<double> Milliseconds(const std::optional<double>& rate, double per_rep) {
  if (!rate || *rate <= 0) return std::nullopt;
  return per_rep / *rate * 1e3;
}

int RunTable(const Options& options) {
  const TimingPlan plan{.quick = options.quick};
  const IcdTarget duet{"duet", options.duet_manifest};
  const IcdTarget lavapipe{"lavapipe", options.lavapipe_manifest};
  std::printf("duet_bench_pipeline: graphics pipelines made per second (vkCreateShaderModule + \n"
              "vkCreateGraphicsPipelines + destroy, timed on the host; the textured cube's and the full-screen ALU\n"
              "shader's pipelines), and for the last row new pipelines that drew their first frame per second\n"
              "(create + record + submit + wait). Each ICD runs in processes of its own with an empty on-disk cache\n"
              "directory (XDG_CACHE_HOME); a specialization constant no shader reads makes each new stage new to\n"
              "every cache. Pipelines from a cache are checked to draw the frame a fresh one draws.\n");
  if (options.quick)
    std::printf("--quick: warm-up, then one run of one repetition. A smoke test, not a measurement.\n\n");
  else
    PrintTimingRule(plan, options.Rounds());

  TablePrinter table(44, {"duet /s", "lavapipe /s", "duet ms", "lavapipe ms", "duet/lavapipe"});
  table.PrintHeader();
  for (const PipelineRow& row : PipelineRows()) {
    if (!options.Selected(row.name)) continue;
    const auto [duet_cell, lavapipe_cell] = RunOnBoth(duet, lavapipe, row.name, options);
    table.PrintRow(row.label, {FormatSignificant(duet_cell.rate), FormatSignificant(lavapipe_cell.rate),
                               FormatSignificant(Milliseconds(duet_cell.rate, row.pipelines_per_rep)),
                               FormatSignificant(Milliseconds(lavapipe_cell.rate, row.pipelines_per_rep)),
                               FormatRatio(duet_cell.rate, lavapipe_cell.rate)});
    table.Collect(duet.label, row.label, duet_cell);
    table.Collect(lavapipe.label, row.label, lavapipe_cell);
  }
  table.AddNote("ms: per pipeline in the creation rows (two per step), per first frame in the last row.");
  table.PrintFooter();
  return 0;
}

}  // namespace
}  // namespace duet_bench

int main(int argc, char** argv) {
  int exit_code = 0;
  const auto options =
      duet_bench::ParseOptions(argc, argv, duet_bench::kProgram, duet_bench::PipelineRowNames(), &exit_code);
  if (!options) return exit_code;
  try {
    if (!options->icd) return duet_bench::RunTable(*options);
    // Before the first loader call: the loader reads these once per process.
    duet_bench::ApplyEnvironment(duet_bench::LoaderEnvironment(*options->icd));
    return duet_bench::RunPipelineRow(*duet_bench::FindPipelineRow(options->workloads.front()), options->quick);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "duet_bench_pipeline: %s\n", e.what());
    return 1;
  }
}
