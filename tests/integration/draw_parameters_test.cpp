// shaderDrawParameters (VK_KHR_shader_draw_parameters): gl_BaseVertex,
// gl_BaseInstance and gl_DrawID in vertex shaders, for direct, indexed and
// indirect draws, and VK_EXT_multi_draw's draws (strided arrays of them).
#include <array>
#include <vector>

#include "graphics_fixture.h"
#include "shaders/draw_parameters.vert.h"
#include "shaders/uint4_varying.frag.h"

namespace duet_test {
namespace {

constexpr VkExtent2D kExtent{16, 4};
using Ids = std::array<uint32_t, 4>;  // base vertex, base instance, draw index, instance index

class DrawParametersTest : public GraphicsTest {
 protected:
  DrawParametersTest() {
    device_options_.extensions.push_back(VK_EXT_MULTI_DRAW_EXTENSION_NAME);
    multi_draw_.multiDraw = VK_TRUE;
    device_options_.extension_features.push_back(reinterpret_cast<VkBaseOutStructure*>(&multi_draw_));
  }
  VkPhysicalDeviceMultiDrawFeaturesEXT multi_draw_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT};

  void SetUp() override {
    GraphicsTest::SetUp();
    if (HasFatalFailure()) return;
    Features13 f = QueryFeatures13();
    if (!f.v11.shaderDrawParameters) GTEST_SKIP() << "shaderDrawParameters is not supported";
    PipelineDesc desc;
    desc.vertex = Module(kDrawParametersVert);
    desc.fragment = Module(kUint4VaryingFrag);
    desc.extent = kExtent;
    desc.color_formats = {VK_FORMAT_R32G32B32A32_UINT};
    pipeline_ = MakePipeline(desc);
    ASSERT_NE(pipeline_, VK_NULL_HANDLE);
    target_ = MakeTarget(VK_FORMAT_R32G32B32A32_UINT, kExtent);
  }

  // Records `draws` into a cleared target and returns, per quarter of its
  // width, the ids its first pixel holds.
  template <typename Fn>
  std::array<Ids, 4> Render(Fn draws) {
    VkCommandBuffer cb = BeginCommands();
    VkClearValue clear{};
    for (uint32_t& c : clear.color.uint32) c = 0xDEAD;
    BeginRendering(cb, {{&target_, VK_ATTACHMENT_LOAD_OP_CLEAR, clear}});
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_);
    draws(cb);
    vkCmdEndRendering(cb);
    EndSubmitWait(cb);
    const std::vector<Ids> pixels = Read<Ids>(target_);
    std::array<Ids, 4> quarters{};
    for (uint32_t q = 0; q < 4 && pixels.size() == kExtent.width * kExtent.height; ++q)
      quarters[q] = pixels[kExtent.width + q * kExtent.width / 4 + 1];
    return quarters;
  }

  static constexpr Ids kClear{0xDEAD, 0xDEAD, 0xDEAD, 0xDEAD};
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  Target target_;
};

TEST_F(DrawParametersTest, DirectDrawsGiveFirstVertexAndFirstInstance) {
  const std::array<Ids, 4> q = Render([](VkCommandBuffer cb) { vkCmdDraw(cb, 6, 1, 7, 4); });
  EXPECT_EQ(q[0], (Ids{7, 4, 0, 4}));
  EXPECT_EQ(q[1], kClear);
}

TEST_F(DrawParametersTest, IndexedDrawsGiveTheVertexOffset) {
  const std::vector<uint32_t> indices = {0, 1, 2, 3, 4, 5};
  HostBuffer index_buffer = Upload(indices, VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  const std::array<Ids, 4> q = Render([&](VkCommandBuffer cb) {
    vkCmdBindIndexBuffer(cb, index_buffer.buffer, 0, VK_INDEX_TYPE_UINT32);
    vkCmdDrawIndexed(cb, 6, 2, 0, 9, 11);
  });
  EXPECT_EQ(q[0], (Ids{9, 11, 0, 12})) << "the second instance is drawn last";
}

TEST_F(DrawParametersTest, IndirectDrawsNumberTheirDraws) {
  const std::vector<VkDrawIndirectCommand> commands = {{6, 1, 20, 1}, {6, 1, 30, 2}, {6, 1, 40, 3}};
  HostBuffer indirect = Upload(commands, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
  const std::array<Ids, 4> q = Render([&](VkCommandBuffer cb) {
    vkCmdDrawIndirect(cb, indirect.buffer, 0, 3, sizeof(VkDrawIndirectCommand));
  });
  EXPECT_EQ(q[0], (Ids{20, 1, 0, 1}));
  EXPECT_EQ(q[1], (Ids{30, 2, 1, 2}));
  EXPECT_EQ(q[2], (Ids{40, 3, 2, 3}));
  EXPECT_EQ(q[3], kClear);
}

// Multi-draw: an array of draws with a stride wider than the struct,
// numbered by gl_DrawID; the indexed form with and without pVertexOffset.
TEST_F(DrawParametersTest, MultiDrawsNumberTheirDraws) {
  auto draw_multi = DeviceProc<PFN_vkCmdDrawMultiEXT>("vkCmdDrawMultiEXT");
  auto draw_multi_indexed = DeviceProc<PFN_vkCmdDrawMultiIndexedEXT>("vkCmdDrawMultiIndexedEXT");
  ASSERT_NE(draw_multi, nullptr);
  ASSERT_NE(draw_multi_indexed, nullptr);
  struct Padded {
    VkMultiDrawInfoEXT info;
    uint32_t padding[3];
  };
  const Padded draws[3] = {{{12, 6}, {9, 9, 9}}, {{24, 6}, {9, 9, 9}}, {{36, 6}, {9, 9, 9}}};
  std::array<Ids, 4> q = Render([&](VkCommandBuffer cb) { draw_multi(cb, 3, &draws[0].info, 1, 5, sizeof(Padded)); });
  EXPECT_EQ(q[0], (Ids{12, 5, 0, 5}));
  EXPECT_EQ(q[1], (Ids{24, 5, 1, 5}));
  EXPECT_EQ(q[2], (Ids{36, 5, 2, 5}));
  EXPECT_EQ(q[3], kClear);

  const std::vector<uint32_t> indices = {0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5};
  HostBuffer index_buffer = Upload(indices, VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  const VkMultiDrawIndexedInfoEXT indexed[2] = {{0, 6, 3}, {6, 6, 4}};
  q = Render([&](VkCommandBuffer cb) {
    vkCmdBindIndexBuffer(cb, index_buffer.buffer, 0, VK_INDEX_TYPE_UINT32);
    draw_multi_indexed(cb, 2, indexed, 1, 0, sizeof(VkMultiDrawIndexedInfoEXT), nullptr);
  });
  EXPECT_EQ(q[0], (Ids{3, 0, 0, 0}));
  EXPECT_EQ(q[1], (Ids{4, 0, 1, 0}));
  const int32_t shared_offset = 8;
  q = Render([&](VkCommandBuffer cb) {
    vkCmdBindIndexBuffer(cb, index_buffer.buffer, 0, VK_INDEX_TYPE_UINT32);
    draw_multi_indexed(cb, 2, indexed, 1, 0, sizeof(VkMultiDrawIndexedInfoEXT), &shared_offset);
  });
  EXPECT_EQ(q[0], (Ids{8, 0, 0, 0}));
  EXPECT_EQ(q[1], (Ids{8, 0, 1, 0}));
}

}  // namespace
}  // namespace duet_test
