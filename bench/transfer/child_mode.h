// Child mode (--icd M --workload W): runs one workload on the ICD the
// loader finds through M and prints result_line.h's lines. Always exits 0
// once it has printed its result; a failure is an "na" line.
#pragma once

#include "options.h"

namespace duet_bench {

int RunChildMode(const Options& options);

}  // namespace duet_bench
