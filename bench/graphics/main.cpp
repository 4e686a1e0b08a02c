// duet_bench_graphics: offscreen frames per second of Duet next to
// lavapipe at 512x512, on this machine, in this run. See bench/README.md.
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <string>

#include "child_mode.h"
#include "graphics_workloads.h"
#include "icd_run.h"
#include "image_check.h"
#include "measure.h"
#include "options.h"
#include "table.h"

namespace duet_bench {
namespace {

constexpr char kProgram[] = "duet_bench_graphics";

std::optional<double> MillisecondsPerFrame(const std::optional<double>& fps) {
  if (!fps || *fps <= 0) return std::nullopt;
  return 1e3 / *fps;
}

int RunTable(const Options& options) {
  const TimingPlan plan{.quick = options.quick};
  const IcdTarget duet{"duet", options.duet_manifest};
  const IcdTarget lavapipe{"lavapipe", options.lavapipe_manifest};

  std::printf("duet_bench_graphics: fps = frames per second, offscreen at 512x512 RGBA8 (a frame: dynamic\n"
              "rendering that clears colour and depth, then the row's draw). Each ICD runs in processes of its own:\n"
              "one command buffer of N frames with an attachment barrier between them; submit + fence wait is\n"
              "timed. The last frame is read back: the child checks coverage and colour, then Duet's frame is\n"
              "compared with lavapipe's (16x16-block means, with a tolerance); n/a if wrong.\n");
  if (options.quick)
    std::printf("--quick: warm-up, then one run of one frame. A smoke test, not a measurement.\n\n");
  else
    PrintTimingRule(plan, options.Rounds());

  TablePrinter table(46, {"duet fps", "lavapipe fps", "duet ms", "lavapipe ms", "duet/lavapipe"});
  table.PrintHeader();
  for (const GraphicsWorkloadInfo& workload : GraphicsWorkloads()) {
    if (!options.Selected(workload.name)) continue;
    auto [duet_cell, lavapipe_cell] = RunOnBoth(duet, lavapipe, workload.name, options);
    if (duet_cell.rate) {
      if (lavapipe_cell.rate && !lavapipe_cell.fingerprint.empty()) {
        if (auto mismatch = CompareFingerprints(duet_cell.fingerprint, lavapipe_cell.fingerprint, workload.tolerance))
          duet_cell.Reject(*mismatch);
      } else {
        table.AddNote("duet, " + std::string(workload.label) +
                      ": frame checked on its own only (no lavapipe frame to compare with)");
      }
    }
    table.PrintRow(workload.label,
                   {FormatSignificant(duet_cell.rate), FormatSignificant(lavapipe_cell.rate),
                    FormatSignificant(MillisecondsPerFrame(duet_cell.rate)),
                    FormatSignificant(MillisecondsPerFrame(lavapipe_cell.rate)),
                    FormatRatio(duet_cell.rate, lavapipe_cell.rate)});
    table.Collect(duet.label, workload.label, duet_cell);
    table.Collect(lavapipe.label, workload.label, lavapipe_cell);
  }
  table.PrintFooter();
  return 0;
}

int RunChild(const Options& options) {
  const GraphicsWorkloadInfo& info = *FindGraphicsWorkload(options.workloads.front());
  ChildSpec spec;
  spec.app_name = kProgram;
  spec.features.dynamic_rendering = true;
  spec.units_per_rep = 1;  // frames
  spec.prepare = [&info](BenchDevice& device, bool) { return info.make(device); };
  return RunChildMode(options, spec);
}

}  // namespace
}  // namespace duet_bench

int main(int argc, char** argv) {
  int exit_code = 0;
  const auto options =
      duet_bench::ParseOptions(argc, argv, duet_bench::kProgram, duet_bench::GraphicsWorkloadNames(), &exit_code);
  if (!options) return exit_code;
  try {
    return options->icd ? duet_bench::RunChild(*options) : duet_bench::RunTable(*options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "duet_bench_graphics: %s\n", e.what());
    return 1;
  }
}
