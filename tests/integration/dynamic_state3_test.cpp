// VK_EXT_extended_dynamic_state3 through the loader: each advertised state
// set by its vkCmdSet*EXT command changes what a draw does, with the
// pipeline's own value for it left different (and ignored).
#include <vector>

#include "graphics_fixture.h"
#include "shaders/flat_color.frag.h"
#include "shaders/flat_vertex_color.frag.h"
#include "shaders/flat_vertex_color.vert.h"

namespace duet_test {
namespace {

constexpr uint32_t kSize = 16;

class DynamicState3Test : public GraphicsTest {
 protected:
  void SetUp() override {
    device_options_.extensions = {VK_EXT_EXTENDED_DYNAMIC_STATE_3_EXTENSION_NAME,
                                  VK_EXT_DEPTH_CLIP_ENABLE_EXTENSION_NAME, VK_EXT_PROVOKING_VERTEX_EXTENSION_NAME,
                                  VK_EXT_DEPTH_CLIP_CONTROL_EXTENSION_NAME};
    depth_clip_.depthClipEnable = VK_TRUE;
    provoking_.provokingVertexLast = VK_TRUE;
    clip_control_.depthClipControl = VK_TRUE;
    eds3_.extendedDynamicState3AlphaToCoverageEnable = VK_TRUE;
    eds3_.extendedDynamicState3AlphaToOneEnable = VK_TRUE;
    eds3_.extendedDynamicState3ProvokingVertexMode = VK_TRUE;
    eds3_.extendedDynamicState3DepthClipNegativeOneToOne = VK_TRUE;
    eds3_.extendedDynamicState3DepthClampEnable = VK_TRUE;
    eds3_.extendedDynamicState3PolygonMode = VK_TRUE;
    eds3_.extendedDynamicState3SampleMask = VK_TRUE;
    eds3_.extendedDynamicState3LogicOpEnable = VK_TRUE;
    eds3_.extendedDynamicState3ColorBlendEnable = VK_TRUE;
    eds3_.extendedDynamicState3ColorBlendEquation = VK_TRUE;
    eds3_.extendedDynamicState3ColorWriteMask = VK_TRUE;
    eds3_.extendedDynamicState3DepthClipEnable = VK_TRUE;
    device_options_.extension_features = {reinterpret_cast<VkBaseOutStructure*>(&eds3_),
                                          reinterpret_cast<VkBaseOutStructure*>(&depth_clip_),
                                          reinterpret_cast<VkBaseOutStructure*>(&provoking_),
                                          reinterpret_cast<VkBaseOutStructure*>(&clip_control_)};
    GraphicsTest::SetUp();
    if (HasFatalFailure()) return;
    target_ = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, {kSize, kSize});
  }

  template <typename F>
  F Command(const char* name) {
    auto f = reinterpret_cast<F>(vkGetDeviceProcAddr(device_, name));
    EXPECT_NE(f, nullptr) << name;
    return f;
  }

  // A rectangle over the middle half of the target (pixels 4..11) in
  // `color` over a clear of `clear`, the dynamic states set by `set`.
  template <typename Set>
  std::vector<uint32_t> Draw(PipelineDesc desc, const std::vector<VkDynamicState>& states, float clear[4],
                             const float color[4], Set set, float z = 0.0f) {
    desc.dynamic_states = states;
    const VkPipeline pipeline = MakePipeline(desc);
    VkCommandBuffer cb = BeginCommands();
    VkClearValue clear_value{};
    for (int i = 0; i < 4; ++i) clear_value.color.float32[i] = clear[i];
    BeginRendering(cb, {{&target_, VK_ATTACHMENT_LOAD_OP_CLEAR, clear_value}});
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    set(cb);
    RectParams rect;
    rect.bounds[0] = rect.bounds[1] = -0.5f;
    rect.bounds[2] = rect.bounds[3] = 0.5f;
    for (int i = 0; i < 4; ++i) rect.color[i] = color[i];
    rect.z = z;
    DrawRect(cb, desc.layout, rect);
    vkCmdEndRendering(cb);
    EndSubmitWait(cb);
    return Read<uint32_t>(target_);
  }

  static bool Inside(uint32_t i) {
    const uint32_t x = i % kSize, y = i / kSize;
    return x >= 4 && x < 12 && y >= 4 && y < 12;
  }

  VkPhysicalDeviceExtendedDynamicState3FeaturesEXT eds3_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT};
  VkPhysicalDeviceDepthClipEnableFeaturesEXT depth_clip_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_ENABLE_FEATURES_EXT};
  VkPhysicalDeviceProvokingVertexFeaturesEXT provoking_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_FEATURES_EXT};
  VkPhysicalDeviceDepthClipControlFeaturesEXT clip_control_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_CONTROL_FEATURES_EXT};
  Target target_;
};

// The pipeline writes every component without blending; the dynamic state
// writes red and alpha only, blending ONE + ONE.
TEST_F(DynamicState3Test, BlendEnableEquationAndWriteMask) {
  const PipelineDesc desc = RectPipeline(Module(kFlatColorFrag), {kSize, kSize});
  auto enable = Command<PFN_vkCmdSetColorBlendEnableEXT>("vkCmdSetColorBlendEnableEXT");
  auto equation = Command<PFN_vkCmdSetColorBlendEquationEXT>("vkCmdSetColorBlendEquationEXT");
  auto mask = Command<PFN_vkCmdSetColorWriteMaskEXT>("vkCmdSetColorWriteMaskEXT");
  ASSERT_FALSE(HasFailure());
  float clear[4] = {0.25f, 0.5f, 0.0f, 0.0f};
  const float color[4] = {0.25f, 0.25f, 1.0f, 1.0f};
  const std::vector<uint32_t> pixels = Draw(
      desc,
      {VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT, VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT,
       VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT},
      clear, color, [&](VkCommandBuffer cb) {
        const VkBool32 on = VK_TRUE;
        enable(cb, 0, 1, &on);
        const VkColorBlendEquationEXT add{VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD,
                                          VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD};
        equation(cb, 0, 1, &add);
        const VkColorComponentFlags ra = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_A_BIT;
        mask(cb, 0, 1, &ra);
      });
  ASSERT_EQ(pixels.size(), kSize * kSize);
  const uint32_t outside = PackRgba8(64, 128, 0, 0);
  const uint32_t inside = PackRgba8(128, 128, 0, 255);  // red 64/255 + 0.25, alpha 0 + 1
  for (uint32_t i = 0; i < pixels.size(); ++i) ASSERT_EQ(pixels[i], Inside(i) ? inside : outside) << i;
}

// Attachment ranges past maxColorAttachments (the application's error) are
// ignored, also one whose first + count wraps in 32 bits (it once passed the
// range check and wrote far outside the state); the draw keeps the valid
// state set before.
TEST_F(DynamicState3Test, BlendRangesPastTheLimitAreIgnored) {
  const PipelineDesc desc = RectPipeline(Module(kFlatColorFrag), {kSize, kSize});
  auto enable = Command<PFN_vkCmdSetColorBlendEnableEXT>("vkCmdSetColorBlendEnableEXT");
  auto equation = Command<PFN_vkCmdSetColorBlendEquationEXT>("vkCmdSetColorBlendEquationEXT");
  auto mask = Command<PFN_vkCmdSetColorWriteMaskEXT>("vkCmdSetColorWriteMaskEXT");
  ASSERT_FALSE(HasFailure());
  float clear[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  const float color[4] = {1.0f, 0.0f, 0.0f, 1.0f};
  const std::vector<uint32_t> pixels = Draw(
      desc,
      {VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT, VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT,
       VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT},
      clear, color, [&](VkCommandBuffer cb) {
        const VkBool32 off[2] = {VK_FALSE, VK_FALSE}, on[2] = {VK_TRUE, VK_TRUE};
        enable(cb, 0, 1, off);
        const VkColorBlendEquationEXT add{VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD,
                                          VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD};
        const VkColorBlendEquationEXT adds[2] = {add, add};
        equation(cb, 0, 1, adds);
        const VkColorComponentFlags all = 0xF, none[2] = {0, 0};
        mask(cb, 0, 1, &all);
        for (const uint32_t first : {0xFFFFFFFFu, 0xFFFFFFFEu, 8u, 7u}) {
          enable(cb, first, 2, on);
          equation(cb, first, 2, adds);
          mask(cb, first, 2, none);
        }
      });
  ASSERT_EQ(pixels.size(), kSize * kSize);
  for (uint32_t i = 0; i < pixels.size(); ++i)
    ASSERT_EQ(pixels[i], Inside(i) ? PackRgba8(255, 0, 0, 255) : 0u) << i;
}

// Polygon mode LINE set at draw time: the rectangle's edges only.
TEST_F(DynamicState3Test, PolygonMode) {
  ASSERT_EQ(features_.fillModeNonSolid, VK_TRUE);
  const PipelineDesc desc = RectPipeline(Module(kFlatColorFrag), {kSize, kSize});
  auto polygon = Command<PFN_vkCmdSetPolygonModeEXT>("vkCmdSetPolygonModeEXT");
  ASSERT_FALSE(HasFailure());
  float clear[4] = {0, 0, 0, 0};
  const float white[4] = {1, 1, 1, 1};
  const std::vector<uint32_t> pixels = Draw(desc, {VK_DYNAMIC_STATE_POLYGON_MODE_EXT}, clear, white,
                                            [&](VkCommandBuffer cb) { polygon(cb, VK_POLYGON_MODE_LINE); });
  ASSERT_EQ(pixels.size(), kSize * kSize);
  EXPECT_EQ(pixels[8 * kSize + 8], 0u);  // the middle stays clear
  uint32_t drawn = 0;
  for (uint32_t p : pixels) drawn += p != 0;
  EXPECT_GT(drawn, 16u);   // the outline...
  EXPECT_LT(drawn, 64u);   // ...not the 8x8 fill
}

// Logic ops turned on at draw time: XOR with what the clear left.
TEST_F(DynamicState3Test, LogicOpEnable) {
  ASSERT_EQ(features_.logicOp, VK_TRUE);
  PipelineDesc desc = RectPipeline(Module(kFlatColorFrag), {kSize, kSize});
  desc.logic_op = VK_LOGIC_OP_XOR;
  auto logic = Command<PFN_vkCmdSetLogicOpEnableEXT>("vkCmdSetLogicOpEnableEXT");
  ASSERT_FALSE(HasFailure());
  float clear[4] = {1, 0, 1, 0};
  const float color[4] = {1, 1, 0, 1};
  const std::vector<uint32_t> pixels = Draw(desc, {VK_DYNAMIC_STATE_LOGIC_OP_ENABLE_EXT}, clear, color,
                                            [&](VkCommandBuffer cb) { logic(cb, VK_TRUE); });
  ASSERT_EQ(pixels.size(), kSize * kSize);
  for (uint32_t i = 0; i < pixels.size(); ++i)
    ASSERT_EQ(pixels[i], Inside(i) ? PackRgba8(0, 255, 255, 255) : PackRgba8(255, 0, 255, 0)) << i;
}

// A sample mask of 0 set at draw time writes nothing.
TEST_F(DynamicState3Test, SampleMask) {
  const PipelineDesc desc = RectPipeline(Module(kFlatColorFrag), {kSize, kSize});
  auto sample_mask = Command<PFN_vkCmdSetSampleMaskEXT>("vkCmdSetSampleMaskEXT");
  ASSERT_FALSE(HasFailure());
  float clear[4] = {0, 0, 0, 0};
  const float white[4] = {1, 1, 1, 1};
  const VkSampleMask none = 0;
  const std::vector<uint32_t> pixels = Draw(desc, {VK_DYNAMIC_STATE_SAMPLE_MASK_EXT}, clear, white, [&](VkCommandBuffer cb) {
    sample_mask(cb, VK_SAMPLE_COUNT_1_BIT, &none);
  });
  ASSERT_EQ(pixels.size(), kSize * kSize);
  for (uint32_t i = 0; i < pixels.size(); ++i) ASSERT_EQ(pixels[i], 0u) << i;
}

// A rectangle beyond the far plane: clipped by default, drawn once depth
// clamp is turned on at draw time, clipped again when depth clipping is
// turned back on as its own dynamic state.
TEST_F(DynamicState3Test, DepthClampAndClip) {
  ASSERT_EQ(features_.depthClamp, VK_TRUE);
  const PipelineDesc desc = RectPipeline(Module(kFlatColorFrag), {kSize, kSize});
  auto clamp = Command<PFN_vkCmdSetDepthClampEnableEXT>("vkCmdSetDepthClampEnableEXT");
  auto clip = Command<PFN_vkCmdSetDepthClipEnableEXT>("vkCmdSetDepthClipEnableEXT");
  ASSERT_FALSE(HasFailure());
  float clear[4] = {0, 0, 0, 0};
  const float white[4] = {1, 1, 1, 1};
  const std::vector<uint32_t> clamped = Draw(desc, {VK_DYNAMIC_STATE_DEPTH_CLAMP_ENABLE_EXT}, clear, white,
                                             [&](VkCommandBuffer cb) { clamp(cb, VK_TRUE); }, 1.5f);
  ASSERT_EQ(clamped.size(), kSize * kSize);
  EXPECT_EQ(clamped[8 * kSize + 8], PackRgba8(255, 255, 255, 255));
  const std::vector<uint32_t> clipped =
      Draw(desc, {VK_DYNAMIC_STATE_DEPTH_CLAMP_ENABLE_EXT, VK_DYNAMIC_STATE_DEPTH_CLIP_ENABLE_EXT}, clear, white,
           [&](VkCommandBuffer cb) {
             clamp(cb, VK_TRUE);
             clip(cb, VK_TRUE);
           },
           1.5f);
  ASSERT_EQ(clipped.size(), kSize * kSize);
  EXPECT_EQ(clipped[8 * kSize + 8], 0u);
}

// Alpha to coverage turned on at draw time drops a fragment of alpha 0 (no
// sample covered) and keeps one of alpha 1; alpha to one turned on writes
// alpha 1 whatever the shader's.
TEST_F(DynamicState3Test, AlphaToCoverageAndAlphaToOne) {
  ASSERT_EQ(features_.alphaToOne, VK_TRUE);
  const PipelineDesc desc = RectPipeline(Module(kFlatColorFrag), {kSize, kSize});
  auto coverage = Command<PFN_vkCmdSetAlphaToCoverageEnableEXT>("vkCmdSetAlphaToCoverageEnableEXT");
  auto one = Command<PFN_vkCmdSetAlphaToOneEnableEXT>("vkCmdSetAlphaToOneEnableEXT");
  ASSERT_FALSE(HasFailure());
  float clear[4] = {0, 0, 0, 0};
  for (float alpha : {0.0f, 1.0f}) {
    const float color[4] = {1, 1, 1, alpha};
    const std::vector<uint32_t> pixels = Draw(desc, {VK_DYNAMIC_STATE_ALPHA_TO_COVERAGE_ENABLE_EXT}, clear, color,
                                              [&](VkCommandBuffer cb) { coverage(cb, VK_TRUE); });
    ASSERT_EQ(pixels.size(), kSize * kSize);
    EXPECT_EQ(pixels[8 * kSize + 8], alpha == 0.0f ? 0u : 0xFFFFFFFFu) << "alpha " << alpha;
  }
  const float half[4] = {1, 1, 1, 0.25f};
  const std::vector<uint32_t> pixels = Draw(desc, {VK_DYNAMIC_STATE_ALPHA_TO_ONE_ENABLE_EXT}, clear, half,
                                            [&](VkCommandBuffer cb) { one(cb, VK_TRUE); });
  ASSERT_EQ(pixels.size(), kSize * kSize);
  EXPECT_EQ(pixels[8 * kSize + 8], 0xFFFFFFFFu);
}

// The provoking vertex mode set at draw time: a triangle's flat colour is
// its last vertex's.
TEST_F(DynamicState3Test, ProvokingVertexMode) {
  PipelineDesc desc = ColorPipeline({kSize, kSize});
  desc.vertex = Module(kFlatVertexColorVert);
  desc.fragment = Module(kFlatVertexColorFrag);
  desc.dynamic_states = {VK_DYNAMIC_STATE_PROVOKING_VERTEX_MODE_EXT};
  auto mode = Command<PFN_vkCmdSetProvokingVertexModeEXT>("vkCmdSetProvokingVertexModeEXT");
  ASSERT_FALSE(HasFailure());
  const VkPipeline pipeline = MakePipeline(desc);
  const std::vector<ColorVertex> triangle = {
      {{-1, -1, 0, 1}, {1, 0, 0, 1}}, {{3, -1, 0, 1}, {0, 1, 0, 1}}, {{-1, 3, 0, 1}, {0, 0, 1, 1}}};
  HostBuffer buffer = Upload(triangle, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  VkCommandBuffer cb = BeginCommands();
  BeginRendering(cb, {{&target_, VK_ATTACHMENT_LOAD_OP_CLEAR, {}}});
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  mode(cb, VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT);
  const VkDeviceSize offset = 0;
  vkCmdBindVertexBuffers(cb, 0, 1, &buffer.buffer, &offset);
  vkCmdDraw(cb, 3, 1, 0, 0);
  vkCmdEndRendering(cb);
  EndSubmitWait(cb);
  const std::vector<uint32_t> pixels = Read<uint32_t>(target_);
  ASSERT_EQ(pixels.size(), kSize * kSize);
  for (uint32_t i = 0; i < pixels.size(); ++i) ASSERT_EQ(pixels[i], PackRgba8(0, 0, 255, 255)) << i;
}

// Clip-space depth -w..w set at draw time: a rectangle at z = 0 lands at
// depth 0.5 (0 with the pipeline's 0..w).
TEST_F(DynamicState3Test, DepthClipNegativeOneToOne) {
  ASSERT_TRUE(Supports(VK_FORMAT_D32_SFLOAT, VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT));
  PipelineDesc desc = RectPipeline(Module(kFlatColorFrag), {kSize, kSize});
  desc.depth_format = VK_FORMAT_D32_SFLOAT;
  desc.depth_stencil.depthTestEnable = VK_TRUE;
  desc.depth_stencil.depthWriteEnable = VK_TRUE;
  desc.depth_stencil.depthCompareOp = VK_COMPARE_OP_ALWAYS;
  desc.dynamic_states = {VK_DYNAMIC_STATE_DEPTH_CLIP_NEGATIVE_ONE_TO_ONE_EXT};
  auto negative = Command<PFN_vkCmdSetDepthClipNegativeOneToOneEXT>("vkCmdSetDepthClipNegativeOneToOneEXT");
  ASSERT_FALSE(HasFailure());
  const VkPipeline pipeline = MakePipeline(desc);
  const Target depth = MakeTarget(VK_FORMAT_D32_SFLOAT, {kSize, kSize});
  VkCommandBuffer cb = BeginCommands();
  VkClearValue far{};
  far.depthStencil.depth = 1.0f;
  BeginRendering(cb, {{&target_, VK_ATTACHMENT_LOAD_OP_CLEAR, {}}}, {&depth, VK_ATTACHMENT_LOAD_OP_CLEAR, far});
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  negative(cb, VK_TRUE);
  DrawRect(cb, desc.layout, RectParams{});
  vkCmdEndRendering(cb);
  EndSubmitWait(cb);
  const std::vector<float> z = Read<float>(depth, VK_IMAGE_ASPECT_DEPTH_BIT);
  ASSERT_EQ(z.size(), kSize * kSize);
  for (uint32_t i = 0; i < z.size(); ++i) ASSERT_EQ(z[i], 0.5f) << i;
}

}  // namespace
}  // namespace duet_test
