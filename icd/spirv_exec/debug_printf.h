// debugPrintfEXT's output: a kPrint's format with one invocation's values,
// as the validation layer's debug printf formats them (printf conversions,
// 'l' for 64-bit integers, %vNx for vectors: components joined by ", ").
#pragma once

#include <cstdint>
#include <string>

#include "spirv_exec/ir.h"
#include "spirv_exec/wave.h"

namespace duet::spirv_exec {

std::string FormatDebugPrintf(const PrintCall& call, WaveState& w, uint32_t lane);

// kPrint: logs the message of every active invocation but helpers.
void ExecutePrint(const Program& p, const Inst& in, WaveState& w);

}  // namespace duet::spirv_exec
