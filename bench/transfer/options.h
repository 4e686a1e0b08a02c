// Command line of duet_bench_transfer.
//
//   duet_bench_transfer [--quick] [--duet M] [--lavapipe M] [--workload W]...
//       The table: every workload on both ICDs (one child process each)
//       next to memcpy/memset in this process.
//   duet_bench_transfer --icd M --workload W [--quick]
//       Child mode: one workload on the ICD of manifest M; prints the
//       machine-readable lines of result_line.h on stdout.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace duet_bench {

struct Options {
  bool quick = false;        // reps = 1, one timed run: a smoke test, not a measurement
  std::string duet_manifest;
  std::string lavapipe_manifest;
  std::vector<std::string> workloads;  // empty: all
  uint32_t child_timeout_seconds = 0;  // 0: the default for the mode
  std::optional<std::string> icd;      // child mode when set
};

// Parses argv; on a bad or --help command line prints usage (to stderr
// when bad) and returns nullopt with *exit_code set.
std::optional<Options> ParseOptions(int argc, char** argv, int* exit_code);

}  // namespace duet_bench
