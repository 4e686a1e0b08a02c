// The printed table (Markdown): a left-aligned workload column, then
// right-aligned columns the benchmark names; rows are printed as each is
// measured, then the device names and notes explaining every n/a.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "icd_run.h"

namespace duet_bench {

class TablePrinter {
 public:
  TablePrinter(int workload_width, std::vector<std::string> headers);

  void PrintHeader() const;
  // One cell per header.
  void PrintRow(std::string_view workload, const std::vector<std::string>& cells) const;
  // Remembers the ICD's device name and the cell's note (if any).
  void Collect(std::string_view icd, std::string_view workload, const Cell& cell);
  // A note of the benchmark's own (e.g. a skipped cross-driver check).
  void AddNote(std::string note);
  // Device names and the notes collected from the rows.
  void PrintFooter() const;

 private:
  int workload_width_;
  std::vector<std::string> headers_;
  std::vector<std::pair<std::string, std::string>> devices_;  // (icd, device name), first seen first
  std::vector<std::pair<std::string, std::string>> notes_;    // (icd, note); icd "" for AddNote
};

// "n/a", or rate * scale with `decimals` decimals.
std::string FormatRate(const std::optional<double>& rate, double scale = 1, int decimals = 2);
// "n/a", or value * scale with three significant digits in fixed notation
// (1234, 26.3, 0.283).
std::string FormatSignificant(const std::optional<double>& value, double scale = 1);
// num/den as "1.23x" or "45%"; "n/a" when either is missing.
std::string FormatRatio(const std::optional<double>& num, const std::optional<double>& den, bool percent = false);

}  // namespace duet_bench
