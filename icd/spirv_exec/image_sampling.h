// kImageSample: filtered reads through a sampler, over the active lanes,
// by the texel sampling library (texel/sample.h).
#pragma once

#include "spirv_exec/wave.h"

namespace duet::spirv_exec {

void SampleImage(const SampleOperands& operands, const Inst& inst, const texel::SampledImageState& state,
                 WaveState& wave);

}  // namespace duet::spirv_exec
