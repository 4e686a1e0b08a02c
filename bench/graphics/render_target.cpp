#include "render_target.h"

#include <cstring>

namespace duet_bench {
namespace {

constexpr VkImageLayout kDepthLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;

void ImageBarrier(VkCommandBuffer cb, VkImage image, VkImageAspectFlags aspect, VkImageLayout from,
                  VkImageLayout to, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                  VkPipelineStageFlags dst_stage, VkAccessFlags dst_access) {
  VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  barrier.srcAccessMask = src_access;
  barrier.dstAccessMask = dst_access;
  barrier.oldLayout = from;
  barrier.newLayout = to;
  barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = image;
  barrier.subresourceRange = {aspect, 0, 1, 0, 1};
  vkCmdPipelineBarrier(cb, src_stage, dst_stage, 0, 0, nullptr, 0, nullptr, 1, &barrier);
}

}  // namespace

RenderTarget::RenderTarget(BenchDevice& device, bool with_depth) {
  if ((device.queue_flags() & VK_QUEUE_GRAPHICS_BIT) == 0) throw BenchFailure("the queue cannot draw");
  if (!device.dynamic_rendering_enabled()) throw BenchFailure("the device does not report dynamicRendering");
  const VkExtent2D extent{kTargetSize, kTargetSize};
  if (!device.SupportsOptimal(kColorFormat, VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT))
    throw BenchFailure("R8G8B8A8_UNORM is not a colour attachment format");
  color_ = device.CreateImage(kColorFormat, extent,
                              VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
  color_view_ = device.CreateImageView(color_, kColorFormat, VK_IMAGE_ASPECT_COLOR_BIT);
  if (with_depth) {
    // The first depth format both drivers are required to offer one of.
    for (VkFormat format : {VK_FORMAT_D32_SFLOAT, VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D16_UNORM}) {
      if (device.SupportsOptimal(format, VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT)) {
        depth_format_ = format;
        break;
      }
    }
    if (depth_format_ == VK_FORMAT_UNDEFINED) throw BenchFailure("no depth attachment format");
    depth_ = device.CreateImage(depth_format_, extent, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT);
    depth_view_ = device.CreateImageView(depth_, depth_format_, VK_IMAGE_ASPECT_DEPTH_BIT);
  }
  readback_ = device.CreateBuffer(uint64_t(kTargetSize) * kTargetSize * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);

  device.SubmitAndWait(device.Record([&](VkCommandBuffer cb) {
    ImageBarrier(cb, color_, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                 VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
                 VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                 VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT);
    if (depth_ != VK_NULL_HANDLE)
      ImageBarrier(cb, depth_, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_UNDEFINED, kDepthLayout,
                   VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
                   VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT,
                   VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT);
  }));
}

void RenderTarget::Begin(VkCommandBuffer cb) const {
  VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  color.imageView = color_view_;
  color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  color.clearValue.color = {{0.0f, 0.0f, 0.0f, 0.0f}};
  VkRenderingAttachmentInfo depth{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  depth.imageView = depth_view_;
  depth.imageLayout = kDepthLayout;
  depth.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  depth.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  depth.clearValue.depthStencil = {1.0f, 0};

  VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
  info.renderArea = {{0, 0}, {kTargetSize, kTargetSize}};
  info.layerCount = 1;
  info.colorAttachmentCount = 1;
  info.pColorAttachments = &color;
  if (depth_view_ != VK_NULL_HANDLE) info.pDepthAttachment = &depth;
  vkCmdBeginRendering(cb, &info);
}

void RenderTarget::End(VkCommandBuffer cb) const { vkCmdEndRendering(cb); }

void RenderTarget::RecordBetweenFrames(VkCommandBuffer cb) const {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT |
                          VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                          VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  constexpr VkPipelineStageFlags kStages = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
                                           VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT |
                                           VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
  vkCmdPipelineBarrier(cb, kStages, kStages, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

std::vector<uint8_t> RenderTarget::ReadBack(BenchDevice& device) const {
  const size_t bytes = size_t(kTargetSize) * kTargetSize * 4;
  std::memset(readback_.data, 0, bytes);
  device.SubmitAndWait(device.Record([&](VkCommandBuffer cb) {
    ImageBarrier(cb, color_, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                 VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                 VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    const VkBufferImageCopy region{0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0},
                                   {kTargetSize, kTargetSize, 1}};
    vkCmdCopyImageToBuffer(cb, color_, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback_.buffer, 1, &region);
    ImageBarrier(cb, color_, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                 VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                 VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                 VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT);
  }));
  const auto* p = reinterpret_cast<const uint8_t*>(readback_.data);
  return std::vector<uint8_t>(p, p + bytes);
}

}  // namespace duet_bench
