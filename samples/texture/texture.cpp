// texture: a mipmapped, anisotropically filtered texture on a ground plane
// in perspective, written to a PNG file:
//
//   texture [--out texture.png]
//
// The texture is made on the CPU (a checkerboard with a grid), copied into
// level 0 of an image, and the rest of its mip chain is built on the device
// by blitting each level into the next, half the size, with linear
// filtering. The sampler filters trilinearly and, when the device has
// samplerAnisotropy, with up to 16 samples along the direction in which
// the plane recedes: far away the squares blur evenly into grey instead of
// flickering (no mipmaps) or smearing (mipmaps without anisotropy).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include "png_file.h"
#include "sample_context.h"
#include "shaders/ground.frag.h"
#include "shaders/ground.vert.h"

namespace {

constexpr uint32_t kTextureSize = 256, kLevels = 9;  // 256x256 down to 1x1
constexpr VkExtent2D kExtent{320, 240};
constexpr VkFormat kFormat = VK_FORMAT_R8G8B8A8_UNORM;

// Warm and cool squares, 32 texels each, with a dark one-texel grid.
std::vector<uint8_t> Checkerboard() {
  std::vector<uint8_t> texels(size_t{kTextureSize} * kTextureSize * 4);
  for (uint32_t y = 0; y < kTextureSize; ++y) {
    for (uint32_t x = 0; x < kTextureSize; ++x) {
      uint8_t* t = &texels[(size_t{y} * kTextureSize + x) * 4];
      const bool warm = ((x / 32) + (y / 32)) % 2 == 0;
      const bool grid = x % 32 == 0 || y % 32 == 0;
      const uint8_t rgb[3] = {uint8_t(warm ? 230 : 60), uint8_t(warm ? 170 : 140), uint8_t(warm ? 80 : 210)};
      for (int c = 0; c < 3; ++c) t[c] = grid ? uint8_t(rgb[c] / 4) : rgb[c];
      t[3] = 255;
    }
  }
  return texels;
}

// Level 0 from `staging`, then each level blitted from the one above; at the
// end every level is ready for sampling.
void UploadWithMipChain(VkCommandBuffer cb, VkImage image, VkBuffer staging) {
  using sample::Barrier;
  Barrier(cb, image, {VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_NONE, 0,
                      VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT});
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {kTextureSize, kTextureSize, 1};
  vkCmdCopyBufferToImage(cb, staging, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
  const sample::Transition written_to_source{VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                             VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                                             VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT};
  for (uint32_t level = 1; level < kLevels; ++level) {
    // The level above is complete: it becomes the source of this one.
    Barrier(cb, image, written_to_source, VK_IMAGE_ASPECT_COLOR_BIT, level - 1, 1);
    const int32_t from = int32_t(kTextureSize >> (level - 1)), to = std::max(1, from / 2);
    VkImageBlit blit{};
    blit.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level - 1, 0, 1};
    blit.srcOffsets[1] = {from, from, 1};
    blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level, 0, 1};
    blit.dstOffsets[1] = {to, to, 1};
    vkCmdBlitImage(cb, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit,
                   VK_FILTER_LINEAR);
  }
  Barrier(cb, image, written_to_source, VK_IMAGE_ASPECT_COLOR_BIT, kLevels - 1, 1);
  Barrier(cb, image, {VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                      VK_PIPELINE_STAGE_2_TRANSFER_BIT, 0, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                      VK_ACCESS_2_SHADER_SAMPLED_READ_BIT});
}

}  // namespace

int main(int argc, char** argv) {
  const std::string out = sample::Option(argc, argv, "--out", "texture.png");
  sample::ContextOptions options;
  options.features.samplerAnisotropy = VK_TRUE;
  sample::Context c = sample::CreateContext("texture", options);
  const float anisotropy = c.features.samplerAnisotropy ? std::min(16.0f, c.properties.limits.maxSamplerAnisotropy) : 1.0f;
  std::printf("texture: %ux%u, %u levels, anisotropy %.0f\n", kTextureSize, kTextureSize, kLevels, anisotropy);

  // The texture and its mip chain.
  const std::vector<uint8_t> texels = Checkerboard();
  sample::Buffer staging = sample::CreateHostBuffer(c, texels.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  std::memcpy(staging.mapped, texels.data(), texels.size());
  VkImageCreateInfo texture_info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  texture_info.imageType = VK_IMAGE_TYPE_2D;
  texture_info.format = kFormat;
  texture_info.extent = {kTextureSize, kTextureSize, 1};
  texture_info.mipLevels = kLevels;
  texture_info.arrayLayers = 1;
  texture_info.samples = VK_SAMPLE_COUNT_1_BIT;
  texture_info.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
  sample::Image texture = sample::CreateImage(c, texture_info, VK_IMAGE_ASPECT_COLOR_BIT);

  VkSamplerCreateInfo sampler_info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sampler_info.magFilter = sampler_info.minFilter = VK_FILTER_LINEAR;
  sampler_info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
  sampler_info.addressModeU = sampler_info.addressModeV = sampler_info.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  sampler_info.anisotropyEnable = anisotropy > 1.0f;
  sampler_info.maxAnisotropy = anisotropy;
  sampler_info.maxLod = VK_LOD_CLAMP_NONE;
  VkSampler sampler;
  sample::Check(vkCreateSampler(c.device, &sampler_info, nullptr, &sampler), "vkCreateSampler");

  // One combined image sampler for the fragment shader.
  sample::DescriptorSet set =
      sample::CreateDescriptorSet(c, {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER}, VK_SHADER_STAGE_FRAGMENT_BIT);
  const VkDescriptorImageInfo image_info{sampler, texture.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = set.set;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  write.pImageInfo = &image_info;
  vkUpdateDescriptorSets(c.device, 1, &write, 0, nullptr);

  // The pipeline: a triangle strip of four vertices made in the vertex shader.
  sample::PipelineDesc desc;
  desc.vertex = sample::CreateShader(c, kGroundVert);
  desc.fragment = sample::CreateShader(c, kGroundFrag);
  desc.layout = sample::CreatePipelineLayout(c, {set.layout}, sizeof(float), VK_SHADER_STAGE_VERTEX_BIT);
  desc.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
  const VkPipeline pipeline = sample::CreateGraphicsPipeline(c, desc);

  VkImageCreateInfo target_info = texture_info;
  target_info.extent = {kExtent.width, kExtent.height, 1};
  target_info.mipLevels = 1;
  target_info.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  sample::Image target = sample::CreateImage(c, target_info, VK_IMAGE_ASPECT_COLOR_BIT);
  sample::Buffer readback = sample::CreateHostBuffer(c, VkDeviceSize{kExtent.width} * kExtent.height * 4,
                                                     VK_BUFFER_USAGE_TRANSFER_DST_BIT);

  VkCommandBuffer cb = sample::BeginCommands(c);
  UploadWithMipChain(cb, texture.image, staging.buffer);
  sample::Barrier(cb, target.image, {VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                     VK_PIPELINE_STAGE_2_NONE, 0, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                     VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT});
  VkRenderingAttachmentInfo attachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  attachment.imageView = target.view;
  attachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  attachment.clearValue.color = {{0.55f, 0.75f, 0.95f, 1.0f}};  // sky
  VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
  rendering.renderArea = {{0, 0}, kExtent};
  rendering.layerCount = 1;
  rendering.colorAttachmentCount = 1;
  rendering.pColorAttachments = &attachment;
  vkCmdBeginRendering(cb, &rendering);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, desc.layout, 0, 1, &set.set, 0, nullptr);
  const float aspect = float(kExtent.width) / float(kExtent.height);
  vkCmdPushConstants(cb, desc.layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof aspect, &aspect);
  sample::SetViewport(cb, kExtent);
  vkCmdDraw(cb, 4, 1, 0, 0);
  vkCmdEndRendering(cb);
  sample::Barrier(cb, target.image, {VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                     VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                     VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                                     VK_ACCESS_2_TRANSFER_READ_BIT});
  sample::CopyImageToBuffer(cb, target.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, kExtent, readback.buffer);
  sample::SubmitAndWait(c, cb);  // (a queue wait makes device writes visible to the host)

  const bool written = sample::WritePng(out.c_str(), kExtent.width, kExtent.height,
                                        static_cast<const uint8_t*>(readback.mapped), kExtent.width * 4);
  if (written) std::printf("wrote %s (%ux%u)\n", out.c_str(), kExtent.width, kExtent.height);

  vkDestroyPipeline(c.device, pipeline, nullptr);
  vkDestroyPipelineLayout(c.device, desc.layout, nullptr);
  vkDestroyShaderModule(c.device, desc.vertex, nullptr);
  vkDestroyShaderModule(c.device, desc.fragment, nullptr);
  sample::Destroy(c, set);
  vkDestroySampler(c.device, sampler, nullptr);
  sample::Destroy(c, readback);
  sample::Destroy(c, target);
  sample::Destroy(c, texture);
  sample::Destroy(c, staging);
  sample::DestroyContext(c);
  return written ? 0 : 1;
}
