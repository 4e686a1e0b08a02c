// Image instructions of the interpreter (see ir.h: kImageRead ... kImageSample).
#pragma once

#include "spirv_exec/wave.h"

namespace duet::spirv_exec {

void ExecuteImageInstruction(const Program& program, const Inst& inst, const ImageBinding* images,
                             const texel::SampledImageState* sampled, WaveState& wave);

}  // namespace duet::spirv_exec
