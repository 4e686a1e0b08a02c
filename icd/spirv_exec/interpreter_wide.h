// 64-bit integer operations of the interpreter (ir.h: kWide).
#pragma once

#include "spirv_exec/wave.h"

namespace duet::spirv_exec {

void ExecuteWideInstruction(const Inst& inst, WaveState& wave);

}  // namespace duet::spirv_exec
