// Interim: sampling returns zero until the texel sampling library is wired.
#include "spirv_exec/image_sampling.h"

#include "util/log.h"

namespace duet::spirv_exec {

void SampleImage(const SampleOperands&, const Inst& inst, const ImageBinding&, const ImageBinding&, WaveState& w) {
  LogUnimplemented("image sampling");
  for (uint32_t c = 0; c < 4; ++c) {
    uint32_t* r = w.Register(inst.dst + c);
    for (uint32_t l = 0; l < kWaveWidth; ++l)
      if ((w.active >> l) & 1) r[l] = 0;
  }
}

}  // namespace duet::spirv_exec
