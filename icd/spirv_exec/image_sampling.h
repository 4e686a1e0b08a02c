// kImageSample: filtered reads through a sampler, over the active lanes.
#pragma once

#include "spirv_exec/wave.h"

namespace duet::spirv_exec {

// `image` holds the view; `sampler` the sampler (the same binding for
// combined image samplers).
void SampleImage(const SampleOperands& operands, const Inst& inst, const ImageBinding& image,
                 const ImageBinding& sampler, WaveState& wave);

}  // namespace duet::spirv_exec
