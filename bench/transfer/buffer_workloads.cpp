// vkCmdCopyBuffer and vkCmdFillBuffer over the whole of a 64 MiB buffer.
#include <cstring>

#include "vk_bench_device.h"
#include "workload_data.h"
#include "workloads.h"

namespace duet_bench {
namespace {

constexpr VkBufferUsageFlags kUsage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

class CopyBuffer final : public Workload {
 public:
  explicit CopyBuffer(BenchDevice& device)
      : src_(device.CreateBuffer(kBufferBytes, kUsage)), dst_(device.CreateBuffer(kBufferBytes, kUsage)) {
    WritePattern(src_.data, kBufferBytes);
    std::memset(dst_.data, 0, kBufferBytes);
  }
  void RecordOnce(VkCommandBuffer cb) override {
    const VkBufferCopy region{0, 0, kBufferBytes};
    vkCmdCopyBuffer(cb, src_.buffer, dst_.buffer, 1, &region);
  }
  void Verify(BenchDevice&) override { ExpectPattern(dst_.data, kBufferBytes, "destination buffer"); }

 private:
  MappedBuffer src_, dst_;
};

class FillBuffer final : public Workload {
 public:
  explicit FillBuffer(BenchDevice& device) : dst_(device.CreateBuffer(kBufferBytes, kUsage)) {
    std::memset(dst_.data, 0, kBufferBytes);
  }
  void RecordOnce(VkCommandBuffer cb) override { vkCmdFillBuffer(cb, dst_.buffer, 0, VK_WHOLE_SIZE, kFillWord); }
  void Verify(BenchDevice&) override {
    ExpectRepeated(dst_.data, kBufferBytes, &kFillWord, sizeof kFillWord, "destination buffer");
  }

 private:
  MappedBuffer dst_;
};

}  // namespace

std::unique_ptr<Workload> MakeCopyBuffer(BenchDevice& device) { return std::make_unique<CopyBuffer>(device); }
std::unique_ptr<Workload> MakeFillBuffer(BenchDevice& device) { return std::make_unique<FillBuffer>(device); }

}  // namespace duet_bench
