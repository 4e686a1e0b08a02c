// Stores and atomics from fragment and vertex shaders
// (fragmentStoresAndAtomics, vertexPipelineStoresAndAtomics): every covered
// fragment stores once, helper invocations (the uncovered pixels of a
// quad) never do; with EarlyFragmentTests only the fragments that pass the
// depth test run, without it the tests come after the shader, so fragments
// that fail them have stored too; every vertex invocation stores, also
// when nothing is rasterized. Helpers do store to their own variables. The
// sample mask test comes before shading. Stores before a discard stay.
#include <cstring>

#include "graphics_fixture.h"
#include "shaders/flat_color.frag.h"
#include "shaders/private_derivative.frag.h"
#include "shaders/rect_store.vert.h"
#include "shaders/store_fragments.frag.h"
#include "shaders/store_fragments_early.frag.h"
#include "shaders/store_then_discard.frag.h"

namespace duet_test {
namespace {

class ShaderStoresTest : public GraphicsTest {
 protected:
  static constexpr VkExtent2D kExtent{64, 48};

  void SetUp() override {
    GraphicsTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (!features_.fragmentStoresAndAtomics || !features_.vertexPipelineStoresAndAtomics)
      GTEST_SKIP() << "fragmentStoresAndAtomics / vertexPipelineStoresAndAtomics not supported";
    stores_ = Upload(std::vector<uint32_t>(1 + kExtent.width * kExtent.height, 0), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    set_ = MakeDescriptorSet({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
    WriteBuffer(set_, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, stores_.buffer);
  }

  // Pixels [x0, x1) x [y0, y1) at depth z in `color`; `seed` is the row length.
  static RectParams Rect(uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1, float z) {
    RectParams p;
    p.bounds[0] = Ndc(x0, kExtent.width);
    p.bounds[1] = Ndc(y0, kExtent.height);
    p.bounds[2] = Ndc(x1, kExtent.width);
    p.bounds[3] = Ndc(y1, kExtent.height);
    p.z = z;
    p.color[0] = p.color[3] = 1;
    p.color[1] = p.color[2] = 0;
    p.seed = kExtent.width;
    return p;
  }

  const uint32_t* Stored() const { return reinterpret_cast<const uint32_t*>(stores_.data); }
  uint32_t Count() const { return Stored()[0]; }
  uint32_t Pixel(uint32_t x, uint32_t y) const { return Stored()[1 + y * kExtent.width + x]; }
  static uint32_t Tag(uint32_t x, uint32_t y) { return 1 + x + 1000 * y; }

  // A pipeline of `fragment` with the storage buffer at set 0, and a D32
  // depth test LESS that writes when `depth`.
  PipelineDesc Storing(const uint32_t* code, size_t bytes, bool depth) {
    PipelineDesc desc = RectPipeline(Module(code, bytes), kExtent, {set_.layout});
    if (depth) TestDepth(&desc);
    return desc;
  }

  // A D32 depth test LESS that writes.
  static void TestDepth(PipelineDesc* desc) {
    desc->depth_format = VK_FORMAT_D32_SFLOAT;
    desc->depth_stencil.depthTestEnable = VK_TRUE;
    desc->depth_stencil.depthWriteEnable = VK_TRUE;
    desc->depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
  }

  // One rendering into `color` (cleared): `rect` through `pipeline` with
  // the storage buffer bound; waits for it.
  void DrawOne(VkPipeline pipeline, VkPipelineLayout layout, const Target& color, const RectParams& rect) {
    VkCommandBuffer cb = BeginCommands();
    BeginRendering(cb, {{&color, VK_ATTACHMENT_LOAD_OP_CLEAR}});
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set_.set, 0, nullptr);
    DrawRect(cb, layout, rect);
    vkCmdEndRendering(cb);
    EndSubmitWait(cb);
  }

  // The left half of the target at depth 0.25 (no stores), then the whole
  // target at 0.5 through `fragment`, which stores.
  void DrawBehindAHalf(const uint32_t* fragment, size_t bytes) {
    const Target color = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
    const Target depth = MakeTarget(VK_FORMAT_D32_SFLOAT, kExtent);
    PipelineDesc front = RectPipeline(Module(kFlatColorFrag), kExtent);
    TestDepth(&front);
    const PipelineDesc behind = Storing(fragment, bytes, true);
    const VkPipeline front_pipeline = MakePipeline(front), behind_pipeline = MakePipeline(behind);
    VkClearValue far;
    far.depthStencil = {1.0f, 0};
    VkCommandBuffer cb = BeginCommands();
    BeginRendering(cb, {{&color, VK_ATTACHMENT_LOAD_OP_CLEAR}}, {&depth, VK_ATTACHMENT_LOAD_OP_CLEAR, far});
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, front_pipeline);
    DrawRect(cb, front.layout, Rect(0, 0, kExtent.width / 2, kExtent.height, 0.25f));
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, behind_pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, behind.layout, 0, 1, &set_.set, 0, nullptr);
    DrawRect(cb, behind.layout, Rect(0, 0, kExtent.width, kExtent.height, 0.5f));
    vkCmdEndRendering(cb);
    EndSubmitWait(cb);
  }

  HostBuffer stores_;
  DescriptorSet set_;
};

TEST_F(ShaderStoresTest, CoveredFragmentsStoreOnceAndHelpersNever) {
  const PipelineDesc desc = Storing(kStoreFragmentsFrag, sizeof kStoreFragmentsFrag, false);
  const VkPipeline pipeline = MakePipeline(desc);
  const Target color = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
  // Odd edges: the quads along them are half covered, their other pixels helpers.
  const uint32_t x0 = 3, y0 = 5, x1 = 21, y1 = 17;
  DrawOne(pipeline, desc.layout, color, Rect(x0, y0, x1, y1, 0.5f));
  EXPECT_EQ(Count(), (x1 - x0) * (y1 - y0));
  for (uint32_t y = 0; y < kExtent.height; ++y)
    for (uint32_t x = 0; x < kExtent.width; ++x) {
      const bool covered = x >= x0 && x < x1 && y >= y0 && y < y1;
      ASSERT_EQ(Pixel(x, y), covered ? Tag(x, y) : 0u) << "pixel " << x << "," << y;
    }
  const std::vector<uint32_t> pixels = Read<uint32_t>(color);
  ASSERT_EQ(pixels.size(), size_t(kExtent.width) * kExtent.height);
  EXPECT_EQ(pixels[size_t(y0) * kExtent.width + x0], 0xFF0000FFu);
}

TEST_F(ShaderStoresTest, EarlyFragmentTestsRunOnlyPassingFragments) {
  DrawBehindAHalf(kStoreFragmentsEarlyFrag, sizeof kStoreFragmentsEarlyFrag);
  EXPECT_EQ(Count(), kExtent.width / 2 * kExtent.height);
  for (uint32_t y = 0; y < kExtent.height; ++y)
    for (uint32_t x = 0; x < kExtent.width; ++x)
      ASSERT_EQ(Pixel(x, y), x >= kExtent.width / 2 ? Tag(x, y) : 0u) << "pixel " << x << "," << y;
}

TEST_F(ShaderStoresTest, LateTestsComeAfterEveryFragmentStored) {
  DrawBehindAHalf(kStoreFragmentsFrag, sizeof kStoreFragmentsFrag);
  EXPECT_EQ(Count(), kExtent.width * kExtent.height);
  for (uint32_t y = 0; y < kExtent.height; ++y)
    for (uint32_t x = 0; x < kExtent.width; ++x) ASSERT_EQ(Pixel(x, y), Tag(x, y)) << "pixel " << x << "," << y;
}

TEST_F(ShaderStoresTest, EveryVertexInvocationStores) {
  PipelineDesc desc = RectPipeline(Module(kFlatColorFrag), kExtent, {set_.layout});
  desc.vertex = Module(kRectStoreVert);
  const VkPipeline pipeline = MakePipeline(desc);
  const Target color = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
  DrawOne(pipeline, desc.layout, color, Rect(0, 0, 8, 8, 0.5f));  // four vertices
  // The spec lets an implementation shade a vertex more than once; Duet
  // shades each once per instance.
  EXPECT_EQ(Count(), 4u);
  for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(Stored()[1 + i], i + 7) << "vertex " << i;
  EXPECT_EQ(Stored()[5], 0u);
}

// Rasterizer discard, or a scissor outside the render area: no fragment, but
// the vertex shader still runs.
TEST_F(ShaderStoresTest, VerticesStoreWhenNothingIsRasterized) {
  for (const bool discard : {true, false}) {
    SCOPED_TRACE(discard ? "rasterizer discard" : "scissor outside the render area");
    std::memset(stores_.data, 0, stores_.size);
    PipelineDesc desc = RectPipeline(Module(kFlatColorFrag), kExtent, {set_.layout});
    desc.vertex = Module(kRectStoreVert);
    desc.rasterization.rasterizerDiscardEnable = discard ? VK_TRUE : VK_FALSE;
    if (!discard) desc.scissor = {{int32_t(kExtent.width), 0}, {8, 8}};
    const VkPipeline pipeline = MakePipeline(desc);
    const Target color = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
    DrawOne(pipeline, desc.layout, color, Rect(0, 0, 8, 8, 0.5f));
    EXPECT_EQ(Count(), 4u);
    for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(Stored()[1 + i], i + 7) << "vertex " << i;
    const std::vector<uint32_t> pixels = Read<uint32_t>(color);
    ASSERT_FALSE(pixels.empty());
    EXPECT_EQ(pixels[0], 0u) << "nothing rasterized";
  }
}

// Helpers store to (and load from) their own variables: derivatives of a
// value kept in a local array are right in half-covered quads too.
TEST_F(ShaderStoresTest, HelpersKeepTheirOwnVariables) {
  const PipelineDesc desc = Storing(kPrivateDerivativeFrag, sizeof kPrivateDerivativeFrag, false);
  const VkPipeline pipeline = MakePipeline(desc);
  const Target color = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
  const uint32_t x0 = 3, y0 = 5, x1 = 21, y1 = 17;  // odd edges: helpers along them
  DrawOne(pipeline, desc.layout, color, Rect(x0, y0, x1, y1, 0.5f));  // mode 0: values[0]
  for (uint32_t y = 0; y < kExtent.height; ++y)
    for (uint32_t x = 0; x < kExtent.width; ++x) {
      const bool covered = x >= x0 && x < x1 && y >= y0 && y < y1;
      ASSERT_EQ(Pixel(x, y), covered ? 2u + 100u * 4u : 0u) << "pixel " << x << "," << y;
    }
}

// The static sample mask is tested before shading: a fragment whose covered
// samples it all clears never runs (nor stores).
TEST_F(ShaderStoresTest, SampleMaskDropsFragmentsBeforeShading) {
  struct Case {
    VkSampleCountFlagBits samples;
    VkSampleMask mask;
    uint32_t fragments;  // of the 8x8 rectangle
  };
  for (const Case c : {Case{VK_SAMPLE_COUNT_1_BIT, 0x0u, 0}, Case{VK_SAMPLE_COUNT_4_BIT, 0x0u, 0},
                       Case{VK_SAMPLE_COUNT_4_BIT, 0x1u, 64}, Case{VK_SAMPLE_COUNT_1_BIT, 0x1u, 64}}) {
    SCOPED_TRACE(testing::Message() << c.samples << " samples, mask " << c.mask);
    std::memset(stores_.data, 0, stores_.size);
    PipelineDesc desc = Storing(kStoreFragmentsFrag, sizeof kStoreFragmentsFrag, false);
    desc.samples = c.samples;
    desc.sample_mask = c.mask;
    const VkPipeline pipeline = MakePipeline(desc);
    Target color;
    if (c.samples == VK_SAMPLE_COUNT_1_BIT) {
      color = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
    } else {
      VkImageCreateInfo info = ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM,
                                         {kExtent.width, kExtent.height, 1}, 1, 1, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
      info.samples = c.samples;
      color.format = VK_FORMAT_R8G8B8A8_UNORM;
      color.extent = kExtent;
      color.image = MakeGeneralImage(info);
      ASSERT_NE(color.image, VK_NULL_HANDLE);
      color.view = MakeView(color.image, VK_IMAGE_VIEW_TYPE_2D, color.format, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1});
    }
    DrawOne(pipeline, desc.layout, color, Rect(8, 8, 16, 16, 0.5f));
    EXPECT_EQ(Count(), c.fragments);
    EXPECT_EQ(Pixel(8, 8), c.fragments != 0 ? Tag(8, 8) : 0u);
  }
}

// What a fragment stored (to a buffer and to a storage image) before it
// discards itself stays; its colour does not reach the attachment.
TEST_F(ShaderStoresTest, StoresBeforeADiscardStay) {
  const DescriptorSet set = MakeDescriptorSet({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE});
  const Target marks = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent, VK_IMAGE_USAGE_STORAGE_BIT);
  WriteBuffer(set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, stores_.buffer);
  WriteImageDescriptor(set, 1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_NULL_HANDLE, marks.view);
  const PipelineDesc desc = RectPipeline(Module(kStoreThenDiscardFrag), kExtent, {set.layout});
  const VkPipeline pipeline = MakePipeline(desc);
  const Target color = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
  const uint32_t x0 = 4, y0 = 6, x1 = 20, y1 = 14;
  VkCommandBuffer cb = BeginCommands();
  BeginRendering(cb, {{&color, VK_ATTACHMENT_LOAD_OP_CLEAR}});
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, desc.layout, 0, 1, &set.set, 0, nullptr);
  DrawRect(cb, desc.layout, Rect(x0, y0, x1, y1, 0.5f));
  vkCmdEndRendering(cb);
  EndSubmitWait(cb);
  EXPECT_EQ(Count(), (x1 - x0) * (y1 - y0));
  const std::vector<uint32_t> colors = Read<uint32_t>(color), marked = Read<uint32_t>(marks);
  ASSERT_EQ(colors.size(), size_t(kExtent.width) * kExtent.height);
  ASSERT_EQ(marked.size(), colors.size());
  for (uint32_t y = 0; y < kExtent.height; ++y)
    for (uint32_t x = 0; x < kExtent.width; ++x) {
      const bool covered = x >= x0 && x < x1 && y >= y0 && y < y1;
      const size_t i = size_t(y) * kExtent.width + x;
      ASSERT_EQ(Pixel(x, y), covered ? Tag(x, y) : 0u) << "pixel " << x << "," << y;
      ASSERT_EQ(marked[i], covered ? 0xFF0000FFu : 0u) << "pixel " << x << "," << y;
      ASSERT_EQ(colors[i], covered && x % 2 == 0 ? 0xFF0000FFu : 0u) << "pixel " << x << "," << y;
    }
}

}  // namespace
}  // namespace duet_test
