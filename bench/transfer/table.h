// The printed table (Markdown), one row per workload, printed as each row
// is measured, then notes explaining every n/a.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "icd_run.h"

namespace duet_bench {

class TablePrinter {
 public:
  void PrintHeader() const;
  void PrintRow(std::string_view workload, const Cell& duet, const Cell& lavapipe, double memcpy_gbps);
  // Device names and the notes collected from the rows.
  void PrintFooter() const;

 private:
  void Collect(std::string_view icd, std::string_view workload, const Cell& cell, std::string* device_name,
               std::vector<std::string>* notes);

  std::vector<std::string> duet_notes_;
  std::vector<std::string> lavapipe_notes_;
  std::string duet_device_;
  std::string lavapipe_device_;
};

}  // namespace duet_bench
