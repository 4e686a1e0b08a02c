// A compute fixture for the block-compressed texture tests: images of a
// compressed format, views and samplers, block uploads, and reading texels
// back through sample_points.comp (texelFetch or textureLod per point).
#pragma once

#include <array>
#include <cstring>
#include <span>
#include <vector>

#include "compute_fixture.h"
#include "shaders/sample_points.comp.h"

namespace duet_test {

class CompressedTextureFixture : public ComputeFixture {
 protected:
  static constexpr VkImageUsageFlags kUsage =
      VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  static constexpr VkImageSubresourceLayers kLevel0{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};

  VkImage MakeCompressedImage(VkFormat format, VkExtent3D extent, uint32_t mips = 1, uint32_t layers = 1,
                              VkImageUsageFlags usage = kUsage, VkImageCreateFlags flags = 0) {
    VkImageCreateInfo ci = ImageInfo(VK_IMAGE_TYPE_2D, format, extent, mips, layers, usage);
    ci.flags = flags;
    return MakeGeneralImage(ci);
  }

  // A 2D view of `levels` levels (every one by default); `usage` (when not
  // 0) restricts the image's usage for the view.
  VkImageView MakeView(VkImage image, VkFormat format, VkImageUsageFlags usage = 0,
                       uint32_t levels = VK_REMAINING_MIP_LEVELS) {
    VkImageViewUsageCreateInfo view_usage{VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO, nullptr, usage};
    VkImageViewCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    ci.pNext = usage != 0 ? &view_usage : nullptr;
    ci.image = image;
    ci.viewType = VK_IMAGE_VIEW_TYPE_2D;
    ci.format = format;
    ci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, levels, 0, 1};
    VkImageView view = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateImageView(device_, &ci, nullptr, &view), VK_SUCCESS);
    Defer([this, view] { vkDestroyImageView(device_, view, nullptr); });
    return view;
  }

  VkSampler MakeSampler(VkFilter filter, VkSamplerMipmapMode mip_mode) {
    VkSamplerCreateInfo ci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    ci.magFilter = ci.minFilter = filter;
    ci.mipmapMode = mip_mode;
    ci.addressModeU = ci.addressModeV = ci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    ci.maxLod = VK_LOD_CLAMP_NONE;
    VkSampler sampler = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateSampler(device_, &ci, nullptr, &sampler), VK_SUCCESS);
    Defer([this, sampler] { vkDestroySampler(device_, sampler, nullptr); });
    return sampler;
  }

  // Copies block bytes (rows of blocks, tightly packed) into a level of a
  // layer.
  void Upload(VkImage image, uint32_t mip, uint32_t layer, VkExtent3D texels, std::span<const uint8_t> bytes) {
    HostBuffer staging = MakeHostBuffer(bytes.size());
    ASSERT_NE(staging.data, nullptr);
    std::memcpy(staging.data, bytes.data(), bytes.size());
    const VkBufferImageCopy region{0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, mip, layer, 1}, {0, 0, 0}, texels};
    VkCommandBuffer cb = BeginCommands();
    vkCmdCopyBufferToImage(cb, staging.buffer, image, VK_IMAGE_LAYOUT_GENERAL, 1, &region);
    ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  }

  // Runs sample_points.comp over `points` (x, y, level or LOD, fetch) with the
  // view and sampler, and returns one RGBA per point.
  std::vector<std::array<float, 4>> SamplePoints(VkImageView view, VkSampler sampler,
                                                 const std::vector<std::array<float, 4>>& points) {
    const uint32_t count = uint32_t(points.size());
    HostBuffer in = StorageBuffer(count * 16);
    HostBuffer out = StorageBuffer(count * 16);
    if (in.data == nullptr || out.data == nullptr) return {};
    std::memcpy(in.data, points.data(), count * 16);
    std::memset(out.data, 0xFF, count * 16);
    BufferBinding texture;
    texture.type = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    texture.view = view;
    texture.sampler = sampler;
    const Kernel k = MakeKernelWithBindings(kSamplePointsComp, {texture, {in.buffer}, {out.buffer}}, 4);
    Run(k, (count + 31) / 32, 1, 1, &count, 4);
    std::vector<std::array<float, 4>> results(count);
    std::memcpy(results.data(), out.data, count * 16);
    return results;
  }
};

}  // namespace duet_test
