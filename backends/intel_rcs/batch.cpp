#include "backends/intel_rcs/batch.h"

namespace duet::intel_rcs {

void BatchBuilder::Finish(uint64_t seqno_address, uint32_t seqno) {
  if (engine_ == Engine::kBlitter)
    EncodeMiFlushDw(dwords_, gen_, seqno_address, seqno);
  else
    EncodePipeControl(dwords_, gen_, seqno_address, seqno);
  EncodeMiBatchBufferEnd(dwords_);
  if (dwords_.size() % 2 != 0) EncodeMiNoop(dwords_);  // batch lengths are whole qwords
}

}  // namespace duet::intel_rcs
