// compute: image processing in a compute shader, checked on the CPU.
//
//   compute [--out compute.png]
//
// A 300x200 picture made on the CPU is blurred (5x5 box) by blur.comp,
// which stages each workgroup's tile in shared memory and reduces the
// picture's luminance with subgroup operations before one atomic per
// subgroup. The program computes the same blur and statistics on the CPU,
// prints both, writes the blurred picture to a PNG file and exits with 1
// when any pixel or statistic differs (the arithmetic is integer: results
// must match exactly on every driver).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "png_file.h"
#include "sample_context.h"
#include "shaders/blur.comp.h"

namespace {

constexpr uint32_t kWidth = 300, kHeight = 200, kRadius = 2;

// Rings of colour on a diagonal gradient, with some sharp edges to blur.
std::vector<uint32_t> Picture() {
  std::vector<uint32_t> pixels(size_t{kWidth} * kHeight);
  for (uint32_t y = 0; y < kHeight; ++y) {
    for (uint32_t x = 0; x < kWidth; ++x) {
      const double dx = double(x) - 150, dy = double(y) - 100, ring = std::sqrt(dx * dx + dy * dy) / 12.0;
      const uint32_t r = (x * 255) / kWidth, g = (y * 255) / kHeight;
      const uint32_t b = int(ring) % 2 == 0 ? 230 : 20;
      const bool bar = x % 50 < 4;
      pixels[size_t{y} * kWidth + x] = (bar ? 255 : r) | ((bar ? 255 : g) << 8) | (b << 16) | (255u << 24);
    }
  }
  return pixels;
}

struct Statistics {
  uint32_t luminance_sum = 0, brightest = 0;
};

// What blur.comp computes, one pixel at a time.
std::vector<uint32_t> BlurOnCpu(const std::vector<uint32_t>& source, Statistics* stats) {
  std::vector<uint32_t> out(source.size());
  for (int y = 0; y < int(kHeight); ++y) {
    for (int x = 0; x < int(kWidth); ++x) {
      uint32_t sum[3] = {};
      for (int dy = -int(kRadius); dy <= int(kRadius); ++dy) {
        for (int dx = -int(kRadius); dx <= int(kRadius); ++dx) {
          const int sx = std::clamp(x + dx, 0, int(kWidth) - 1), sy = std::clamp(y + dy, 0, int(kHeight) - 1);
          const uint32_t p = source[size_t(sy) * kWidth + sx];
          for (int c = 0; c < 3; ++c) sum[c] += (p >> (8 * c)) & 255;
        }
      }
      const uint32_t r = sum[0] / 25, g = sum[1] / 25, b = sum[2] / 25;
      out[size_t(y) * kWidth + x] = r | (g << 8) | (b << 16) | (255u << 24);
      const uint32_t luminance = (r * 77 + g * 150 + b * 29) >> 8;
      stats->luminance_sum += luminance;
      stats->brightest = std::max(stats->brightest, luminance);
    }
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string out = sample::Option(argc, argv, "--out", "compute.png");
  sample::Context c = sample::CreateContext("compute", {});
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
  vkGetPhysicalDeviceProperties2(c.physical, &properties);
  const VkSubgroupFeatureFlags needed = VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_ARITHMETIC_BIT;
  if ((subgroup.supportedOperations & needed) != needed || !(subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT)) {
    std::fprintf(stderr, "the device has no subgroup arithmetic in compute shaders\n");
    return 1;
  }
  std::printf("subgroups of %u invocations\n", subgroup.subgroupSize);

  const std::vector<uint32_t> picture = Picture();
  const VkDeviceSize bytes = picture.size() * sizeof(uint32_t);
  sample::Buffer source = sample::CreateHostBuffer(c, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  sample::Buffer blurred = sample::CreateHostBuffer(c, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  sample::Buffer statistics = sample::CreateHostBuffer(c, sizeof(Statistics), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  std::memcpy(source.mapped, picture.data(), bytes);
  std::memset(statistics.mapped, 0, sizeof(Statistics));

  // Three storage buffers, in one descriptor set.
  sample::DescriptorSet set = sample::CreateDescriptorSet(
      c, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
      VK_SHADER_STAGE_COMPUTE_BIT);
  const VkDescriptorBufferInfo buffer_infos[3] = {
      {source.buffer, 0, VK_WHOLE_SIZE}, {blurred.buffer, 0, VK_WHOLE_SIZE}, {statistics.buffer, 0, VK_WHOLE_SIZE}};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = set.set;
  write.descriptorCount = 3;
  write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  write.pBufferInfo = buffer_infos;
  vkUpdateDescriptorSets(c.device, 1, &write, 0, nullptr);

  const VkPipelineLayout layout =
      sample::CreatePipelineLayout(c, {set.layout}, 2 * sizeof(uint32_t), VK_SHADER_STAGE_COMPUTE_BIT);
  const VkShaderModule shader = sample::CreateShader(c, kBlurComp);
  VkComputePipelineCreateInfo pipeline_info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pipeline_info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  pipeline_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipeline_info.stage.module = shader;
  pipeline_info.stage.pName = "main";
  pipeline_info.layout = layout;
  VkPipeline pipeline;
  sample::Check(vkCreateComputePipelines(c.device, VK_NULL_HANDLE, 1, &pipeline_info, nullptr, &pipeline),
                "vkCreateComputePipelines");

  VkCommandBuffer cb = sample::BeginCommands(c);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set.set, 0, nullptr);
  const uint32_t size[2] = {kWidth, kHeight};
  vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof size, size);
  vkCmdDispatch(cb, (kWidth + 15) / 16, (kHeight + 15) / 16, 1);  // partial workgroups at the edges
  VkMemoryBarrier2 to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
  to_host.srcStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
  to_host.srcAccessMask = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
  to_host.dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT;
  to_host.dstAccessMask = VK_ACCESS_2_HOST_READ_BIT;
  VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dependency.memoryBarrierCount = 1;
  dependency.pMemoryBarriers = &to_host;
  vkCmdPipelineBarrier2(cb, &dependency);
  sample::SubmitAndWait(c, cb);

  Statistics expected;
  const std::vector<uint32_t> reference = BlurOnCpu(picture, &expected);
  const auto* result = static_cast<const uint32_t*>(blurred.mapped);
  const auto* stats = static_cast<const Statistics*>(statistics.mapped);
  size_t wrong = 0;
  for (size_t i = 0; i < reference.size(); ++i) wrong += result[i] != reference[i];
  const double pixels = double(kWidth) * kHeight;
  std::printf("device: mean luminance %.3f, brightest %u\n", stats->luminance_sum / pixels, stats->brightest);
  std::printf("cpu:    mean luminance %.3f, brightest %u\n", expected.luminance_sum / pixels, expected.brightest);
  std::printf("%zu of %.0f blurred pixels differ from the CPU's\n", wrong, pixels);
  const bool agree =
      wrong == 0 && stats->luminance_sum == expected.luminance_sum && stats->brightest == expected.brightest;
  const bool written = sample::WritePng(out.c_str(), kWidth, kHeight, reinterpret_cast<const uint8_t*>(result), kWidth * 4);
  if (written) std::printf("wrote %s (%ux%u)\n", out.c_str(), kWidth, kHeight);
  std::printf(agree ? "verified: the device's results are the CPU's\n" : "FAILED: the device's results differ\n");

  vkDestroyPipeline(c.device, pipeline, nullptr);
  vkDestroyShaderModule(c.device, shader, nullptr);
  vkDestroyPipelineLayout(c.device, layout, nullptr);
  sample::Destroy(c, set);
  sample::Destroy(c, statistics);
  sample::Destroy(c, blurred);
  sample::Destroy(c, source);
  sample::DestroyContext(c);
  return agree && written ? 0 : 1;
}
