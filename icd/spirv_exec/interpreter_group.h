// Subgroup operations of the interpreter (ir.h: kGroup). A subgroup is a
// wave, so each operation reads the registers of the wave's other lanes.
#pragma once

#include "spirv_exec/wave.h"

namespace duet::spirv_exec {

void ExecuteGroupInstruction(const Inst& inst, WaveState& wave);

}  // namespace duet::spirv_exec
