// Integer colour formats multisample like the others: 4x R32_UINT images
// are reported, rendered to per sample, resolved (an integer resolve takes
// sample 0) and fetched sample by sample (usampler2DMS).
#include <vector>

#include "graphics_fixture.h"
#include "shaders/fetch_samples_uint.frag.h"
#include "shaders/uint_color.frag.h"

namespace duet_test {
namespace {

constexpr VkExtent2D kExtent{8, 4};
constexpr VkFormat kFormat = VK_FORMAT_R32_UINT;

class MultisampleIntegerTest : public GraphicsTest {};

TEST_F(MultisampleIntegerTest, IntegerAttachmentsReportFourSamples) {
  VkPhysicalDeviceVulkan12Properties v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &v12};
  vkGetPhysicalDeviceProperties2(phys_, &props);
  EXPECT_TRUE(v12.framebufferIntegerColorSampleCounts & VK_SAMPLE_COUNT_4_BIT);
  EXPECT_TRUE(props.properties.limits.sampledImageIntegerSampleCounts & VK_SAMPLE_COUNT_4_BIT);
  for (VkFormat format : {VK_FORMAT_R32_UINT, VK_FORMAT_R8G8B8A8_SINT, VK_FORMAT_R16G16_UINT,
                          VK_FORMAT_A2B10G10R10_UINT_PACK32}) {
    for (VkImageUsageFlags usage : {VkImageUsageFlags(VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT),
                                    VkImageUsageFlags(VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT)}) {
      VkImageFormatProperties p{};
      ASSERT_EQ(vkGetPhysicalDeviceImageFormatProperties(phys_, format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                         usage, 0, &p),
                VK_SUCCESS);
      EXPECT_EQ(p.sampleCounts & props.properties.limits.framebufferColorSampleCounts,
                props.properties.limits.framebufferColorSampleCounts)
          << "format " << format << " usage 0x" << std::hex << usage;
    }
  }
}

// The left half of a 4x R32_UINT target (cleared to 7) is drawn with 42:
// every sample holds its pixel's value, the SAMPLE_ZERO resolve takes it,
// and a second pass fetches the four samples of each pixel.
TEST_F(MultisampleIntegerTest, RenderResolveAndFetchSamples) {
  PipelineDesc desc = RectPipeline(Module(kUintColorFrag), kExtent);
  desc.color_formats = {kFormat};
  desc.samples = VK_SAMPLE_COUNT_4_BIT;
  const VkPipeline pipeline = MakePipeline(desc);
  ASSERT_NE(pipeline, VK_NULL_HANDLE);

  VkImageCreateInfo ci = ImageInfo(VK_IMAGE_TYPE_2D, kFormat, {kExtent.width, kExtent.height, 1}, 1, 1,
                                   VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT);
  ci.samples = VK_SAMPLE_COUNT_4_BIT;
  const VkImage multisampled = MakeGeneralImage(ci);
  ASSERT_NE(multisampled, VK_NULL_HANDLE);
  const VkImageView multisampled_view =
      MakeView(multisampled, VK_IMAGE_VIEW_TYPE_2D, kFormat, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1});
  const Target resolved = MakeTarget(kFormat, kExtent);

  VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  color.imageView = multisampled_view;
  color.imageLayout = VK_IMAGE_LAYOUT_GENERAL;
  color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  color.clearValue.color.uint32[0] = 7;
  color.resolveMode = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT;
  color.resolveImageView = resolved.view;
  color.resolveImageLayout = VK_IMAGE_LAYOUT_GENERAL;
  VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
  info.renderArea = {{0, 0}, kExtent};
  info.layerCount = 1;
  info.colorAttachmentCount = 1;
  info.pColorAttachments = &color;

  // The second pass: fetch_samples_uint.frag over the whole target.
  DescriptorSet set = MakeDescriptorSet({VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER});
  VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  WriteSampler(set, 0, MakeSampler(sci), multisampled_view);
  PipelineDesc fetch_desc = RectPipeline(Module(kFetchSamplesUintFrag), kExtent, {set.layout});
  fetch_desc.color_formats = {kFormat};
  const VkPipeline fetch = MakePipeline(fetch_desc);
  ASSERT_NE(fetch, VK_NULL_HANDLE);
  const Target sums = MakeTarget(kFormat, kExtent);

  VkCommandBuffer cb = BeginCommands();
  vkCmdBeginRendering(cb, &info);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  RectParams left;
  left.bounds[2] = 0;  // x from -1 to 0: pixel columns 0..3
  left.seed = 42;
  DrawRect(cb, desc.layout, left);
  vkCmdEndRendering(cb);
  FullBarrier(cb);
  BeginRendering(cb, {{&sums, VK_ATTACHMENT_LOAD_OP_CLEAR}});
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, fetch);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, fetch_desc.layout, 0, 1, &set.set, 0, nullptr);
  DrawRect(cb, fetch_desc.layout, RectParams{});
  vkCmdEndRendering(cb);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));

  const std::vector<uint32_t> resolved_pixels = Read<uint32_t>(resolved);
  const std::vector<uint32_t> sum_pixels = Read<uint32_t>(sums);
  ASSERT_EQ(resolved_pixels.size(), size_t(kExtent.width * kExtent.height));
  ASSERT_EQ(sum_pixels.size(), resolved_pixels.size());
  for (uint32_t y = 0; y < kExtent.height; ++y) {
    for (uint32_t x = 0; x < kExtent.width; ++x) {
      const uint32_t expected = x < kExtent.width / 2 ? 42u : 7u;
      EXPECT_EQ(resolved_pixels[y * kExtent.width + x], expected) << "resolved pixel " << x << "," << y;
      EXPECT_EQ(sum_pixels[y * kExtent.width + x], expected * 1111u) << "samples of pixel " << x << "," << y;
    }
  }
}

}  // namespace
}  // namespace duet_test
