// The command line every benchmark shares.
//
//   <program> [--quick] [--duet M] [--lavapipe M] [--workload W]... [--timeout S] [--rounds N]
//       The table: every workload on both ICDs, N child processes each
//       (the ICDs taking turns), the best counting.
//   <program> --icd M --workload W [--quick]
//       Child mode: one workload on the ICD of manifest M; prints the
//       machine-readable lines of result_line.h on stdout.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace duet_bench {

// A workload as the command line and the table know it.
struct WorkloadName {
  std::string_view name;   // command-line name, e.g. "saxpy"
  std::string_view label;  // table row, e.g. "SAXPY 16M floats"
};

struct Options {
  bool quick = false;        // reps = 1, one timed run: a smoke test, not a measurement
  std::string duet_manifest;
  std::string lavapipe_manifest;
  std::vector<std::string> workloads;  // empty: all
  uint32_t child_timeout_seconds = 0;  // 0: the default for the mode
  uint32_t rounds = 0;                 // --rounds; 0: the default for the mode
  std::optional<std::string> icd;      // child mode when set

  bool Selected(std::string_view workload) const;  // by --workload (all when none was given)
  uint32_t ChildTimeoutSeconds() const;             // --timeout, else 120 (quick: 30)
  uint32_t Rounds() const;                          // --rounds, else 3 (quick: 1)
};

// Parses argv; on a bad or --help command line prints usage (to stderr
// when bad) and returns nullopt with *exit_code set.
std::optional<Options> ParseOptions(int argc, char** argv, std::string_view program,
                                    std::span<const WorkloadName> workloads, int* exit_code);

}  // namespace duet_bench
