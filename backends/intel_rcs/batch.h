// A batch as the kernel takes it: the packets of one move, then the write
// of a sequence number that says the engine got past them (MI_FLUSH_DW on
// the blitter, a CS-stalling PIPE_CONTROL on the render engine), then
// MI_BATCH_BUFFER_END, padded with MI_NOOP to whole qwords.
#pragma once

#include <cstdint>

#include "backends/intel_rcs/channel.h"
#include "backends/intel_rcs/packets.h"

namespace duet::intel_rcs {

class BatchBuilder {
 public:
  BatchBuilder(Generation gen, Engine engine, Dwords packets = {})
      : gen_(gen), engine_(engine), dwords_(std::move(packets)) {}

  Generation generation() const { return gen_; }
  Engine engine() const { return engine_; }
  // The packets so far; encoders append to it.
  Dwords& packets() { return dwords_; }

  // Ends the batch: `seqno` written at `seqno_address` (qword aligned, bit
  // 5 clear) once the packets before it are done.
  void Finish(uint64_t seqno_address, uint32_t seqno);

  const Dwords& dwords() const { return dwords_; }
  uint64_t bytes() const { return dwords_.size() * sizeof(uint32_t); }

 private:
  Generation gen_;
  Engine engine_;
  Dwords dwords_;
};

}  // namespace duet::intel_rcs
