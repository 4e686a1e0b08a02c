// 64-bit float operations of the interpreter (ir.h: kDouble).
#pragma once

#include "spirv_exec/wave.h"

namespace duet::spirv_exec {

void ExecuteDoubleInstruction(const Inst& inst, WaveState& wave);

}  // namespace duet::spirv_exec
