#include "sampled_texture.h"

#include <cstring>

#include "vk_bench_device.h"

namespace duet_bench {

SampledTexture CreateSampledTexture(BenchDevice& device, uint32_t size,
                                    const std::function<uint32_t(uint32_t x, uint32_t y)>& texel) {
  constexpr VkFormat kFormat = VK_FORMAT_R8G8B8A8_UNORM;
  if (!device.SupportsOptimal(kFormat,
                              VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT))
    throw BenchFailure("R8G8B8A8_UNORM cannot be sampled with a linear filter");
  const VkDevice d = device.device();
  const VkImage texture = device.CreateImage(kFormat, {size, size},
                                             VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
  const MappedBuffer staging =
      device.CreateBuffer(uint64_t(size) * size * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  for (uint32_t y = 0; y < size; ++y)
    for (uint32_t x = 0; x < size; ++x) {
      const uint32_t value = texel(x, y);
      std::memcpy(staging.data + (size_t(y) * size + x) * 4, &value, 4);
    }
  device.SubmitAndWait(device.Record([&](VkCommandBuffer cb) {
    VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    barrier.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.image = texture;
    barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                         nullptr, 1, &barrier);
    const VkBufferImageCopy region{0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0},
                                   {size, size, 1}};
    vkCmdCopyBufferToImage(cb, staging.buffer, texture, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
    barrier.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    barrier.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0, 0, nullptr,
                         0, nullptr, 1, &barrier);
  }));
  const VkImageView texture_view = device.CreateImageView(texture, kFormat, VK_IMAGE_ASPECT_COLOR_BIT);

  VkSamplerCreateInfo sampler_info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sampler_info.magFilter = VK_FILTER_LINEAR;
  sampler_info.minFilter = VK_FILTER_LINEAR;
  sampler_info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  sampler_info.addressModeU = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  sampler_info.addressModeV = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  sampler_info.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  sampler_info.maxLod = 0.0f;
  VkSampler sampler = VK_NULL_HANDLE;
  Check(vkCreateSampler(d, &sampler_info, nullptr, &sampler), "vkCreateSampler");
  device.Defer([sampler](VkDevice dev) { vkDestroySampler(dev, sampler, nullptr); });
  return {texture_view, sampler};
}

}  // namespace duet_bench
