#include "table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace duet_bench {

TablePrinter::TablePrinter(int workload_width, std::vector<std::string> headers)
    : workload_width_(workload_width), headers_(std::move(headers)) {}

void TablePrinter::PrintHeader() const {
  std::string title = "| " + std::string("workload") + std::string(size_t(workload_width_) - 8, ' ') + " |";
  std::string rule = "|-" + std::string(size_t(workload_width_), '-') + "-|";
  for (const std::string& h : headers_) {
    title += " " + h + " |";
    rule += std::string(h.size() + 1, '-') + ":|";
  }
  std::printf("%s\n%s\n", title.c_str(), rule.c_str());
  std::fflush(stdout);
}

void TablePrinter::PrintRow(std::string_view workload, const std::vector<std::string>& cells) const {
  std::printf("| %-*.*s |", workload_width_, int(workload.size()), workload.data());
  for (size_t i = 0; i < headers_.size(); ++i) {
    const std::string& text = i < cells.size() ? cells[i] : std::string("n/a");
    std::printf(" %*s |", int(headers_[i].size()), text.c_str());
  }
  std::printf("\n");
  std::fflush(stdout);
}

void TablePrinter::Collect(std::string_view icd, std::string_view workload, const Cell& cell) {
  const bool known = std::any_of(devices_.begin(), devices_.end(), [&](const auto& d) { return d.first == icd; });
  if (!known && !cell.device_name.empty()) devices_.emplace_back(std::string(icd), cell.device_name);
  if (cell.note.empty()) return;
  // A missing manifest concerns every row: one note for the ICD.
  const bool whole_icd = cell.note.starts_with("manifest ");
  std::string note = std::string(icd) + (whole_icd ? "" : ", " + std::string(workload)) + ": " + cell.note;
  const bool seen = std::any_of(notes_.begin(), notes_.end(), [&](const auto& n) { return n.second == note; });
  if (!seen) notes_.emplace_back(std::string(icd), std::move(note));
}

void TablePrinter::AddNote(std::string note) { notes_.emplace_back(std::string(), std::move(note)); }

void TablePrinter::PrintFooter() const {
  std::printf("\n");
  for (const auto& [icd, name] : devices_) {
    const std::string label = icd + " device:";
    std::printf("%-16s %s\n", label.c_str(), name.c_str());
  }
  if (!notes_.empty()) {
    // Grouped by ICD in the order the ICDs first appear, the benchmark's
    // own notes last.
    std::vector<std::string> order;
    for (const auto& n : notes_)
      if (!n.first.empty() && std::find(order.begin(), order.end(), n.first) == order.end()) order.push_back(n.first);
    order.emplace_back();
    std::printf("\nnotes:\n");
    for (const std::string& icd : order)
      for (const auto& n : notes_)
        if (n.first == icd) std::printf("  - %s\n", n.second.c_str());
  }
  std::fflush(stdout);
}

std::string FormatRate(const std::optional<double>& rate, double scale, int decimals) {
  if (!rate) return "n/a";
  char text[48];
  std::snprintf(text, sizeof text, "%.*f", decimals, *rate * scale);
  return text;
}

std::string FormatSignificant(const std::optional<double>& value, double scale) {
  if (!value) return "n/a";
  const double v = *value * scale;
  const double magnitude = std::fabs(v);
  const int decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : magnitude >= 0.1 ? 3 : 4;
  return FormatRate(v, 1, decimals);
}

std::string FormatRatio(const std::optional<double>& num, const std::optional<double>& den, bool percent) {
  if (!num || !den || *den <= 0) return "n/a";
  char text[48];
  if (percent)
    std::snprintf(text, sizeof text, "%.0f%%", 100 * *num / *den);
  else
    std::snprintf(text, sizeof text, "%.2fx", *num / *den);
  return text;
}

}  // namespace duet_bench
