// The rows of duet_bench_pipeline: how fast pipelines are made, from new
// shaders, from the application's pipeline cache, from the driver's
// on-disk cache, and how long a new pipeline takes to its first frame.
#pragma once

#include <span>
#include <string_view>

#include "options.h"

namespace duet_bench {

struct PipelineRow {
  std::string_view name;   // --workload
  std::string_view label;  // table row
  double pipelines_per_rep;
};

std::span<const PipelineRow> PipelineRows();
std::span<const WorkloadName> PipelineRowNames();
const PipelineRow* FindPipelineRow(std::string_view name);

// Child mode: measures `row` on the ICD the loader finds (result_line.h's
// lines on stdout); always returns 0 once the result is printed.
int RunPipelineRow(const PipelineRow& row, bool quick);

}  // namespace duet_bench
