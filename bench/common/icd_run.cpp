#include "icd_run.h"

#include <unistd.h>

#include <exception>
#include <sstream>
#include <vector>

#include "child_process.h"
#include "result_line.h"

namespace duet_bench {
namespace {

// The last few lines the child printed on stderr (driver messages), for a
// failure's note.
std::string StderrTail(const std::string& err, size_t max_lines = 3) {
  std::vector<std::string> lines;
  std::istringstream in(err);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) lines.push_back(line);
  std::string tail;
  for (size_t i = lines.size() > max_lines ? lines.size() - max_lines : 0; i < lines.size(); ++i)
    tail += "\n      stderr: " + lines[i];
  return tail;
}

}  // namespace

Cell RunOnIcd(const IcdTarget& target, std::string_view workload, const Options& options) {
  Cell cell;
  if (access(target.manifest.c_str(), R_OK) != 0) {
    cell.note = "manifest " + target.manifest + " not found";
    return cell;
  }
  std::vector<std::string> argv = {SelfExecutable(), "--icd", target.manifest, "--workload", std::string(workload)};
  if (options.quick) argv.emplace_back("--quick");
  ChildOutcome outcome;
  try {
    outcome = RunChildProcess(argv, LoaderEnvironment(target.manifest),
                              std::chrono::seconds(options.ChildTimeoutSeconds()));
  } catch (const std::exception& e) {
    cell.note = std::string("could not run the child: ") + e.what();
    return cell;
  }

  const ChildReport report = ParseChildOutput(outcome.out);
  cell.device_name = report.device_name;
  cell.fingerprint = report.fingerprint;
  cell.rate = report.rate;
  if (!report.complete) {
    cell.note = "the child reported nothing (" + outcome.Describe() + ")" + StderrTail(outcome.err);
  } else if (!report.rate) {
    cell.note = report.failure + StderrTail(outcome.err);
  } else if (!outcome.Succeeded()) {
    cell.note = "measured, but the child then ended with " + outcome.Describe() + StderrTail(outcome.err);
  }
  return cell;
}

namespace {

// Keeps the better of two rounds of one ICD: a failed round stays.
void KeepBest(Cell&& round, bool first_round, Cell* best) {
  if (first_round) {
    *best = std::move(round);
    return;
  }
  if (!best->rate) return;
  if (!round.rate || *round.rate > *best->rate) *best = std::move(round);
}

}  // namespace

CellPair RunOnBoth(const IcdTarget& first, const IcdTarget& second, std::string_view workload,
                   const Options& options) {
  CellPair pair;
  const uint32_t rounds = options.Rounds();
  for (uint32_t r = 0; r < rounds; ++r) {
    const bool first_leads = r % 2 == 0;
    for (int k = 0; k < 2; ++k) {
      const bool is_first = (k == 0) == first_leads;
      Cell cell = RunOnIcd(is_first ? first : second, workload, options);
      KeepBest(std::move(cell), r == 0, is_first ? &pair.first : &pair.second);
    }
  }
  return pair;
}

}  // namespace duet_bench
