// Several viewports (multiViewport) picked per primitive by the vertex
// shader's ViewportIndex, each with its own scissor and depth range, and
// framebuffer layers picked by its Layer (shaderOutputViewportIndex,
// shaderOutputLayer); fragment shaders read ViewportIndex.
#include <vector>

#include "graphics_fixture.h"
#include "shaders/multi_viewport.frag.h"
#include "shaders/multi_viewport.vert.h"

namespace duet_test {
namespace {

constexpr uint32_t kSize = 32;
constexpr VkExtent2D kExtent{kSize, kSize};
constexpr uint32_t kHalf = kSize / 2;

class MultiViewportTest : public GraphicsTest {
 protected:
  void SetUp() override {
    GraphicsTest::SetUp();
    if (HasFatalFailure()) return;
    ASSERT_EQ(features_.multiViewport, VK_TRUE);
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(phys_, &properties);
    ASSERT_GE(properties.limits.maxViewports, 16u);
    VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v12};
    vkGetPhysicalDeviceFeatures2(phys_, &features);
    ASSERT_EQ(v12.shaderOutputViewportIndex, VK_TRUE);
    ASSERT_EQ(v12.shaderOutputLayer, VK_TRUE);
  }

  PipelineDesc Desc() {
    PipelineDesc desc;
    desc.vertex = Module(kMultiViewportVert);
    desc.fragment = Module(kMultiViewportFrag);
    desc.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
    desc.extent = kExtent;
    desc.layout = MakePipelineLayout({}, 4);
    return desc;
  }

  // `instances` quads in vertex shader mode `mode` into a cleared RGBA8 target: its pixels.
  std::vector<uint32_t> DrawInstances(const PipelineDesc& desc, uint32_t mode, uint32_t instances) {
    const VkPipeline pipeline = MakePipeline(desc);
    const Target target = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
    VkCommandBuffer cb = BeginCommands();
    BeginRendering(cb, {{&target, VK_ATTACHMENT_LOAD_OP_CLEAR, {}}});
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdPushConstants(cb, desc.layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4, &mode);
    vkCmdDraw(cb, 4, instances, 0, 0);
    vkCmdEndRendering(cb);
    EndSubmitWait(cb);
    return Read<uint32_t>(target);
  }

  static uint32_t Expected(uint32_t viewport, uint32_t instance) {
    return PackRgba8(viewport * 32, instance * 32, 255, 255);
  }
};

// Instance i draws a full-viewport quad into viewport i: the four quadrants,
// viewport 3's scissor keeping only its left half.
TEST_F(MultiViewportTest, ViewportIndexPicksViewportAndScissor) {
  PipelineDesc desc = Desc();
  for (uint32_t i = 0; i < 4; ++i) {
    const float x = float((i % 2) * kHalf), y = float((i / 2) * kHalf);
    desc.viewports.push_back({x, y, float(kHalf), float(kHalf), 0, 1});
    desc.scissors.push_back({{int32_t(x), int32_t(y)}, {i == 3 ? kHalf / 2 : kHalf, kHalf}});
  }
  const std::vector<uint32_t> pixels = DrawInstances(desc, 0, 4);
  ASSERT_EQ(pixels.size(), kSize * kSize);
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      const uint32_t viewport = (y / kHalf) * 2 + x / kHalf;
      const bool scissored = viewport == 3 && x >= kHalf + kHalf / 2;
      ASSERT_EQ(pixels[y * kSize + x], scissored ? 0u : Expected(viewport, viewport)) << x << "," << y;
    }
}

// Viewports 0 and 1 both cover the target; instances 0, 1, 2 draw into
// viewports 0, 1, 0: the last one drawn (instance 2) stays, whatever the
// viewports.
TEST_F(MultiViewportTest, OverlappingViewportsKeepPrimitiveOrder) {
  PipelineDesc desc = Desc();
  for (int i = 0; i < 2; ++i) {
    desc.viewports.push_back({0, 0, float(kSize), float(kSize), 0, 1});
    desc.scissors.push_back({{0, 0}, kExtent});
  }
  const std::vector<uint32_t> pixels = DrawInstances(desc, 2, 3);
  ASSERT_EQ(pixels.size(), kSize * kSize);
  for (uint32_t i = 0; i < kSize * kSize; ++i) ASSERT_EQ(pixels[i], Expected(0, 2)) << "pixel " << i;
}

// Instance i draws into layer i of a 3-layer colour attachment (instance 3
// into a layer the framebuffer does not have: nothing).
TEST_F(MultiViewportTest, LayerPicksTheFramebufferLayer) {
  constexpr uint32_t kLayers = 3;
  PipelineDesc desc = Desc();
  const VkPipeline pipeline = MakePipeline(desc);
  const Target target = MakeLayeredTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent, kLayers);
  ASSERT_NE(target.view, VK_NULL_HANDLE);
  VkCommandBuffer cb = BeginCommands();
  BeginRendering(cb, {{&target, VK_ATTACHMENT_LOAD_OP_CLEAR, {}}}, {}, kLayers);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  const uint32_t mode = 1;
  vkCmdPushConstants(cb, desc.layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4, &mode);
  vkCmdDraw(cb, 4, kLayers + 1, 0, 0);
  vkCmdEndRendering(cb);
  EndSubmitWait(cb);
  for (uint32_t layer = 0; layer < kLayers; ++layer) {
    const std::vector<uint32_t> pixels = Read<uint32_t>(target, VK_IMAGE_ASPECT_COLOR_BIT, layer);
    ASSERT_EQ(pixels.size(), kSize * kSize);
    for (uint32_t i = 0; i < kSize * kSize; ++i)
      ASSERT_EQ(pixels[i], Expected(0, layer)) << "layer " << layer << " pixel " << i;
  }

}

}  // namespace
}  // namespace duet_test
