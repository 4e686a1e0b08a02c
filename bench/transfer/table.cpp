#include "table.h"

#include <algorithm>
#include <cstdio>
#include <optional>

namespace duet_bench {
namespace {

constexpr int kWorkloadWidth = 38;

std::string Rate(const std::optional<double>& gbps) {
  if (!gbps) return "n/a";
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", *gbps);
  return text;
}

std::string Ratio(const std::optional<double>& num, const std::optional<double>& den, bool percent) {
  if (!num || !den || *den <= 0) return "n/a";
  char text[32];
  if (percent)
    std::snprintf(text, sizeof text, "%.0f%%", 100 * *num / *den);
  else
    std::snprintf(text, sizeof text, "%.2fx", *num / *den);
  return text;
}

}  // namespace

void TablePrinter::PrintHeader() const {
  std::printf("| %-*s | duet GB/s | lavapipe GB/s | memcpy GB/s | duet/memcpy | duet/lavapipe |\n", kWorkloadWidth,
              "workload");
  std::printf("|-%s-|----------:|--------------:|------------:|------------:|--------------:|\n",
              std::string(kWorkloadWidth, '-').c_str());
  std::fflush(stdout);
}

void TablePrinter::PrintRow(std::string_view workload, const Cell& duet, const Cell& lavapipe, double memcpy_gbps) {
  const std::optional<double> memcpy_rate = memcpy_gbps > 0 ? std::optional(memcpy_gbps) : std::nullopt;
  std::printf("| %-*.*s | %9s | %13s | %11s | %11s | %13s |\n", kWorkloadWidth, int(workload.size()),
              workload.data(), Rate(duet.gbps).c_str(), Rate(lavapipe.gbps).c_str(), Rate(memcpy_rate).c_str(),
              Ratio(duet.gbps, memcpy_rate, true).c_str(), Ratio(duet.gbps, lavapipe.gbps, false).c_str());
  std::fflush(stdout);
  Collect("duet", workload, duet, &duet_device_, &duet_notes_);
  Collect("lavapipe", workload, lavapipe, &lavapipe_device_, &lavapipe_notes_);
}

void TablePrinter::Collect(std::string_view icd, std::string_view workload, const Cell& cell,
                           std::string* device_name, std::vector<std::string>* notes) {
  if (device_name->empty()) *device_name = cell.device_name;
  if (cell.note.empty()) return;
  // A missing manifest concerns every row: one note for the ICD.
  const bool whole_icd = cell.note.starts_with("manifest ");
  std::string note = std::string(icd) + (whole_icd ? "" : ", " + std::string(workload)) + ": " + cell.note;
  if (std::find(notes->begin(), notes->end(), note) == notes->end()) notes->push_back(std::move(note));
}

void TablePrinter::PrintFooter() const {
  std::printf("\n");
  if (!duet_device_.empty()) std::printf("duet device:     %s\n", duet_device_.c_str());
  if (!lavapipe_device_.empty()) std::printf("lavapipe device: %s\n", lavapipe_device_.c_str());
  if (!duet_notes_.empty() || !lavapipe_notes_.empty()) {
    std::printf("\nnotes:\n");
    for (const std::string& note : duet_notes_) std::printf("  - %s\n", note.c_str());
    for (const std::string& note : lavapipe_notes_) std::printf("  - %s\n", note.c_str());
  }
  std::fflush(stdout);
}

}  // namespace duet_bench
