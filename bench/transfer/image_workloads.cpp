// The image workloads: one 1920x1080 R8G8B8A8_UNORM optimal-tiling image
// as source or destination. Sources are uploaded with
// vkCmdCopyBufferToImage and destinations read back with
// vkCmdCopyImageToBuffer (optimal tiling has no host-visible layout).
#include <cstring>

#include "vk_bench_device.h"
#include "workload_data.h"
#include "workloads.h"

namespace duet_bench {
namespace {

constexpr VkBufferUsageFlags kBufferUsage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
constexpr VkImageUsageFlags kImageUsage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
constexpr VkImageSubresourceLayers kLayers = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
constexpr VkImageSubresourceRange kRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
constexpr VkBufferImageCopy kWholeImage = {0, 0, 0, kLayers, {0, 0, 0}, {kImageExtent.width, kImageExtent.height, 1}};

void Transition(VkCommandBuffer cb, VkImage image, VkImageLayout from, VkImageLayout to) {
  VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  barrier.srcAccessMask = from == VK_IMAGE_LAYOUT_UNDEFINED ? 0 : VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.oldLayout = from;
  barrier.newLayout = to;
  barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = image;
  barrier.subresourceRange = kRange;
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 1, &barrier);
}

// An image filled with the pattern, left in TRANSFER_SRC_OPTIMAL.
VkImage CreateSourceImage(BenchDevice& device, const MappedBuffer& staging) {
  WritePattern(staging.data, kImageBytes);
  VkImage image = device.CreateImage(kImageFormat, kImageExtent, kImageUsage);
  device.SubmitAndWait(device.Record([&](VkCommandBuffer cb) {
    Transition(cb, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    vkCmdCopyBufferToImage(cb, staging.buffer, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &kWholeImage);
    Transition(cb, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  }));
  return image;
}

// An image with undefined contents, left in TRANSFER_DST_OPTIMAL.
VkImage CreateDestinationImage(BenchDevice& device) {
  VkImage image = device.CreateImage(kImageFormat, kImageExtent, kImageUsage);
  device.SubmitAndWait(device.Record([&](VkCommandBuffer cb) {
    Transition(cb, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
  }));
  return image;
}

// Copies a destination image (TRANSFER_DST_OPTIMAL, left so) into a zeroed
// `readback` buffer.
void ReadBack(BenchDevice& device, VkImage image, const MappedBuffer& readback) {
  std::memset(readback.data, 0, kImageBytes);
  device.SubmitAndWait(device.Record([&](VkCommandBuffer cb) {
    Transition(cb, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    vkCmdCopyImageToBuffer(cb, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buffer, 1, &kWholeImage);
    Transition(cb, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
  }));
}

class CopyImage final : public Workload {
 public:
  explicit CopyImage(BenchDevice& device)
      : staging_(device.CreateBuffer(kImageBytes, kBufferUsage)),
        src_(CreateSourceImage(device, staging_)),
        dst_(CreateDestinationImage(device)) {}
  void RecordOnce(VkCommandBuffer cb) override {
    const VkImageCopy region{kLayers, {0, 0, 0}, kLayers, {0, 0, 0}, {kImageExtent.width, kImageExtent.height, 1}};
    vkCmdCopyImage(cb, src_, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                   &region);
  }
  void Verify(BenchDevice& device) override {
    ReadBack(device, dst_, staging_);
    ExpectPattern(staging_.data, kImageBytes, "destination image (read back)");
  }

 private:
  MappedBuffer staging_;
  VkImage src_, dst_;
};

class CopyBufferToImage final : public Workload {
 public:
  explicit CopyBufferToImage(BenchDevice& device)
      : src_(device.CreateBuffer(kImageBytes, kBufferUsage)),
        readback_(device.CreateBuffer(kImageBytes, kBufferUsage)),
        dst_(CreateDestinationImage(device)) {
    WritePattern(src_.data, kImageBytes);
  }
  void RecordOnce(VkCommandBuffer cb) override {
    vkCmdCopyBufferToImage(cb, src_.buffer, dst_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &kWholeImage);
  }
  void Verify(BenchDevice& device) override {
    ReadBack(device, dst_, readback_);
    ExpectPattern(readback_.data, kImageBytes, "destination image (read back)");
  }

 private:
  MappedBuffer src_, readback_;
  VkImage dst_;
};

class CopyImageToBuffer final : public Workload {
 public:
  explicit CopyImageToBuffer(BenchDevice& device)
      : staging_(device.CreateBuffer(kImageBytes, kBufferUsage)),
        dst_(device.CreateBuffer(kImageBytes, kBufferUsage)),
        src_(CreateSourceImage(device, staging_)) {
    std::memset(dst_.data, 0, kImageBytes);
  }
  void RecordOnce(VkCommandBuffer cb) override {
    vkCmdCopyImageToBuffer(cb, src_, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst_.buffer, 1, &kWholeImage);
  }
  void Verify(BenchDevice&) override { ExpectPattern(dst_.data, kImageBytes, "destination buffer"); }

 private:
  MappedBuffer staging_, dst_;
  VkImage src_;
};

class ClearColorImage final : public Workload {
 public:
  explicit ClearColorImage(BenchDevice& device)
      : readback_(device.CreateBuffer(kImageBytes, kBufferUsage)), dst_(CreateDestinationImage(device)) {}
  void RecordOnce(VkCommandBuffer cb) override {
    VkClearColorValue color{};
    std::memcpy(color.float32, kClearColor.data(), sizeof color.float32);
    vkCmdClearColorImage(cb, dst_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &color, 1, &kRange);
  }
  void Verify(BenchDevice& device) override {
    ReadBack(device, dst_, readback_);
    ExpectRepeated(readback_.data, kImageBytes, kClearBytes.data(), kClearBytes.size(),
                   "destination image (read back)");
  }

 private:
  MappedBuffer readback_;
  VkImage dst_;
};

}  // namespace

std::unique_ptr<Workload> MakeCopyImage(BenchDevice& device) { return std::make_unique<CopyImage>(device); }
std::unique_ptr<Workload> MakeCopyBufferToImage(BenchDevice& device) {
  return std::make_unique<CopyBufferToImage>(device);
}
std::unique_ptr<Workload> MakeCopyImageToBuffer(BenchDevice& device) {
  return std::make_unique<CopyImageToBuffer>(device);
}
std::unique_ptr<Workload> MakeClearColorImage(BenchDevice& device) {
  return std::make_unique<ClearColorImage>(device);
}

}  // namespace duet_bench
