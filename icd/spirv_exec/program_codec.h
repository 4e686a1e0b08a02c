// Compiled programs as bytes, for pipeline caches: a Program as the
// translator leaves it (before PrepareExecution, whose kernels depend on the
// instruction set of the run that loads it).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "spirv_exec/ir.h"

namespace duet::spirv_exec {

// Appends `program`'s bytes to `out`. Only this build's DecodeProgram reads
// them: the layout follows the structs, checked by size.
void EncodeProgram(const Program& program, std::vector<uint8_t>* out);

// The program `bytes` hold, or false when they end early, run on, or hold
// values no translation makes. The program still needs PrepareExecution.
bool DecodeProgram(std::span<const uint8_t> bytes, Program* program);

}  // namespace duet::spirv_exec
