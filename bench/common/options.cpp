#include "options.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#ifndef DUET_ICD_MANIFEST
#error "DUET_ICD_MANIFEST must name the build tree's duet_icd.json"
#endif
#ifndef DUET_LAVAPIPE_MANIFEST
#error "DUET_LAVAPIPE_MANIFEST must name lavapipe's ICD manifest"
#endif

namespace duet_bench {
namespace {

void PrintUsage(std::FILE* out, std::string_view program, std::span<const WorkloadName> workloads) {
  const int n = int(program.size());
  const char* p = program.data();
  std::fprintf(out,
               "usage: %.*s [--quick] [--duet MANIFEST] [--lavapipe MANIFEST]\n"
               "       %*s [--workload NAME]... [--timeout SECONDS] [--rounds N]\n"
               "       %.*s --icd MANIFEST --workload NAME [--quick]   (one child run)\n"
               "\n"
               "  --quick      one repetition, one timed run (smoke test; the numbers mean little)\n"
               "  --duet       Duet's manifest (default %s)\n"
               "  --lavapipe   lavapipe's manifest (default %s)\n"
               "  --workload   run only this workload (repeatable)\n"
               "  --timeout    seconds a child may take before it is killed (default 120, quick 30)\n"
               "  --rounds     child processes per ICD and workload, the ICDs taking turns; the best\n"
               "               counts (default 3, quick 1)\n"
               "\nworkloads:\n",
               n, p, n, "", n, p, DUET_ICD_MANIFEST, DUET_LAVAPIPE_MANIFEST);
  for (const WorkloadName& w : workloads)
    std::fprintf(out, "  %-22.*s %.*s\n", int(w.name.size()), w.name.data(), int(w.label.size()), w.label.data());
}

}  // namespace

bool Options::Selected(std::string_view workload) const {
  return workloads.empty() || std::find(workloads.begin(), workloads.end(), workload) != workloads.end();
}

uint32_t Options::ChildTimeoutSeconds() const {
  return child_timeout_seconds != 0 ? child_timeout_seconds : quick ? 30 : 120;
}

uint32_t Options::Rounds() const {
  if (rounds != 0) return rounds;
  return quick ? 1 : 3;
}

std::optional<Options> ParseOptions(int argc, char** argv, std::string_view program,
                                    std::span<const WorkloadName> workloads, int* exit_code) {
  Options o;
  o.duet_manifest = DUET_ICD_MANIFEST;
  o.lavapipe_manifest = DUET_LAVAPIPE_MANIFEST;
  auto bad = [&](const char* why, std::string_view arg) -> std::optional<Options> {
    std::fprintf(stderr, "%.*s: %s: %.*s\n\n", int(program.size()), program.data(), why, int(arg.size()),
                 arg.data());
    PrintUsage(stderr, program, workloads);
    *exit_code = 2;
    return std::nullopt;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--help" || arg == "-h") {
      PrintUsage(stdout, program, workloads);
      *exit_code = 0;
      return std::nullopt;
    } else if (arg == "--quick") {
      o.quick = true;
    } else if (arg == "--duet" && has_value) {
      o.duet_manifest = argv[++i];
    } else if (arg == "--lavapipe" && has_value) {
      o.lavapipe_manifest = argv[++i];
    } else if (arg == "--icd" && has_value) {
      o.icd = argv[++i];
    } else if (arg == "--workload" && has_value) {
      const std::string_view name = argv[++i];
      const bool known = std::any_of(workloads.begin(), workloads.end(),
                                     [&](const WorkloadName& w) { return w.name == name; });
      if (!known) return bad("unknown workload", name);
      o.workloads.emplace_back(name);
    } else if (arg == "--rounds" && has_value) {
      const int rounds = std::atoi(argv[++i]);
      if (rounds <= 0) return bad("bad round count", argv[i]);
      o.rounds = uint32_t(rounds);
    } else if (arg == "--timeout" && has_value) {
      const int seconds = std::atoi(argv[++i]);
      if (seconds <= 0) return bad("bad timeout", argv[i]);
      o.child_timeout_seconds = uint32_t(seconds);
    } else {
      return bad("bad argument", arg);
    }
  }
  if (o.icd && o.workloads.size() != 1) return bad("--icd needs exactly one --workload", *o.icd);
  return o;
}

}  // namespace duet_bench
