// The offscreen target every graphics workload draws into: a 512x512
// R8G8B8A8_UNORM colour image and, when asked, a depth image; dynamic
// rendering clears both at the start of each frame.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

#include "vk_bench_device.h"

namespace duet_bench {

constexpr uint32_t kTargetSize = 512;
constexpr VkFormat kColorFormat = VK_FORMAT_R8G8B8A8_UNORM;

class RenderTarget {
 public:
  // Throws BenchFailure if the device lacks dynamic rendering or a depth
  // format the target can use.
  RenderTarget(BenchDevice& device, bool with_depth);

  VkFormat depth_format() const { return depth_format_; }  // VK_FORMAT_UNDEFINED without depth

  // vkCmdBeginRendering: colour cleared to (0, 0, 0, 0), depth to 1.
  void Begin(VkCommandBuffer cb) const;
  void End(VkCommandBuffer cb) const;
  // Between two frames: the previous frame's attachment writes are made
  // visible to the next frame's clears and tests.
  void RecordBetweenFrames(VkCommandBuffer cb) const;

  // The colour image as tightly packed RGBA8 rows (after the last frame).
  std::vector<uint8_t> ReadBack(BenchDevice& device) const;

 private:
  VkImage color_ = VK_NULL_HANDLE;
  VkImageView color_view_ = VK_NULL_HANDLE;
  VkImage depth_ = VK_NULL_HANDLE;
  VkImageView depth_view_ = VK_NULL_HANDLE;
  VkFormat depth_format_ = VK_FORMAT_UNDEFINED;
  MappedBuffer readback_;
};

}  // namespace duet_bench
