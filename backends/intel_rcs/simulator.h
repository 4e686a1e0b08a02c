// A command streamer in software: it decodes the packets packets.h builds
// from a batch in simulated GPU memory and executes them (stores, copies,
// fills, post-sync writes), checking every field against the PRM's rules
// (blit_rules.h) and every access against the objects of the submission.
// A malformed batch stops at the packet at fault, with a message naming the
// dword and the field, as a GPU would hang or fault there. Tests also make
// it hang on purpose (simulated_channel.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "backends/intel_rcs/channel.h"
#include "backends/intel_rcs/generation.h"

namespace duet::intel_rcs {

// GPU memory a batch may touch: `size` bytes at `address`, held at `host`.
struct SimulatedObject {
  uint64_t address = 0;
  uint64_t size = 0;
  std::byte* host = nullptr;
};

struct ExecutionResult {
  enum class Status : uint8_t { kCompleted, kHung, kFaulted };
  Status status = Status::kCompleted;
  std::string error;     // kFaulted: "dword 9 (XY_SRC_COPY_BLT at dword 4): Source
                         // Pitch: ..."
  uint32_t packets = 0;  // executed before the end, the hang or the fault
  uint64_t bytes_written = 0;
};

class CommandStreamerSimulator {
 public:
  explicit CommandStreamerSimulator(Generation gen) : gen_(gen) {}

  // Runs `batch` on `engine` over `objects`; stops short of packet
  // `hang_at_packet` (counted from 0) as a hung GPU would.
  ExecutionResult Execute(std::span<const uint32_t> batch, std::span<const SimulatedObject> objects, Engine engine,
                          uint32_t hang_at_packet = UINT32_MAX) const;

  Generation generation() const { return gen_; }

 private:
  Generation gen_;
};

}  // namespace duet::intel_rcs
