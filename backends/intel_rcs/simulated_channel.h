// Channel over the command-streamer simulator: objects are host memory at
// addresses of a private address space, a submission runs at once on the
// calling thread, and its fence says how it ended. Faults are injected for
// tests: refused submissions, a hang at a chosen packet, a lost device.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backends/intel_rcs/channel.h"
#include "backends/intel_rcs/simulator.h"

namespace duet::intel_rcs {

class SimulatedChannel final : public Channel {
 public:
  explicit SimulatedChannel(Generation gen);
  ~SimulatedChannel() override;

  const ChannelInfo& Info() const override { return info_; }
  std::optional<BufferObject> Create(uint64_t size) override;
  std::optional<BufferObject> WrapHostPages(std::byte* pages, uint64_t size, uint64_t gpu_address) override;
  void Destroy(const BufferObject& object) override;
  std::optional<uint64_t> Submit(const BufferObject& batch, uint32_t batch_bytes, std::span<const BufferObject> objects,
                                 Engine engine) override;
  WaitStatus Wait(uint64_t fence, uint64_t timeout_ns) override;
  bool Abandon(uint64_t fence) override;

  // Fault injection.
  void RefuseSubmits(uint32_t count);  // the next `count` submissions fail
  void HangAtPacket(uint32_t packet);  // the next batch stops before this
                                       // packet, never completing
  void Lose();                         // every later submission and wait fails

  // What the simulator reported for each submission, in order.
  const std::vector<ExecutionResult>& Results() const { return results_; }
  size_t LiveObjects() const;

 private:
  struct Object {
    BufferObject bo;
    std::unique_ptr<std::byte[]> storage;  // Create()d objects; wrapped pages stay the caller's
  };

  ChannelInfo info_;
  CommandStreamerSimulator simulator_;
  mutable std::mutex mutex_;
  uint32_t next_handle_ = 1;
  std::map<uint32_t, Object> objects_;
  uint64_t last_fence_ = 0;
  std::map<uint64_t, size_t> fences_;  // fence -> its entry of results_
  std::vector<ExecutionResult> results_;
  uint32_t refuse_ = 0;
  uint32_t hang_at_ = UINT32_MAX;
  bool lost_ = false;
  bool abandoned_ = false;  // a batch was abandoned: no more submissions
};

}  // namespace duet::intel_rcs
