// What child mode runs: one measured piece of GPU work, recorded N times
// into one command buffer with a barrier between repetitions.
#pragma once

#include <vulkan/vulkan.h>

#include <string>

namespace duet_bench {

class BenchDevice;

class BenchWorkload {
 public:
  virtual ~BenchWorkload() = default;
  // Records one repetition of the measured work.
  virtual void RecordOnce(VkCommandBuffer cb) = 0;
  // Records what separates two repetitions: a barrier that makes the
  // previous repetition's writes visible, so no driver merges or reorders
  // them.
  virtual void RecordBetween(VkCommandBuffer cb) = 0;
  // After the timed runs: throws BenchFailure unless the result is right
  // (work that does nothing has no throughput to report).
  virtual void Verify(BenchDevice& device) = 0;
  // After Verify: a one-line summary of the result that the parent
  // compares across drivers; empty when there is none.
  virtual std::string Fingerprint() const { return {}; }
};

}  // namespace duet_bench
