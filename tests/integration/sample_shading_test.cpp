// Sample-rate shading and the interpolation qualifiers that depend on
// samples (sampleRateShading): gl_SampleID / gl_SamplePosition /
// gl_SampleMaskIn, minSampleShading, `sample` and `centroid` inputs; and
// polygon modes LINE and POINT (fillModeNonSolid). Multisampled targets are
// resolved (averaged) into single-sampled ones, whose values tell per-pixel
// from per-sample shading apart: the shaders output squares of positions
// within the pixel, whose average over the standard 4x positions differs
// from the square of the centre's.
#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>

#include "graphics_fixture.h"
#include "shaders/centroid_interpolation.frag.h"
#include "shaders/flat_color.frag.h"
#include "shaders/offset_interpolation.frag.h"
#include "shaders/pixel_position.vert.h"
#include "shaders/sample_builtins.frag.h"
#include "shaders/sample_fragcoord.frag.h"
#include "shaders/sample_interpolation.frag.h"
#include "shaders/sample_mask_count.frag.h"

namespace duet_test {
namespace {

// The standard 4-sample positions within a pixel.
constexpr double kPositions[4][2] = {{0.375, 0.125}, {0.875, 0.375}, {0.125, 0.625}, {0.625, 0.875}};
// ... and the 2- and 8-sample ones (16ths of a pixel).
constexpr int kPositions2[2][2] = {{12, 12}, {4, 4}};
constexpr int kPositions8[8][2] = {{9, 5}, {7, 11}, {13, 9}, {5, 3}, {3, 13}, {1, 7}, {11, 15}, {15, 1}};

// UNORM8 of a value, as an attachment stores it.
double Unorm8(double v) { return std::floor(v * 255.0 + 0.5); }

// The resolved UNORM8 value of per-sample values f(sample).
template <typename F>
double ResolvedAverage(F f) {
  double sum = 0;
  for (int s = 0; s < 4; ++s) sum += Unorm8(f(s));
  return sum / 4;
}

class SampleShadingTest : public GraphicsTest {
 protected:
  static constexpr VkExtent2D kExtent{16, 4};

  SampleShadingTest() {
    device_options_.extensions = {"VK_EXT_extended_dynamic_state3"};
    eds3_.extendedDynamicState3RasterizationSamples = VK_TRUE;
    device_options_.extension_features = {reinterpret_cast<VkBaseOutStructure*>(&eds3_)};
  }
  VkPhysicalDeviceExtendedDynamicState3FeaturesEXT eds3_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT};
  // Recorded after the pipeline is bound (dynamic state).
  std::function<void(VkCommandBuffer)> before_draw_;

  void SetUp() override {
    GraphicsTest::SetUp();
    if (HasFatalFailure()) return;
    if (!features_.sampleRateShading) GTEST_SKIP() << "sampleRateShading is not supported";
  }

  // Draws rectangle `rect` (rect.vert or pixel_position.vert) with `desc`
  // into a cleared 4x RGBA8 target and returns the resolved pixels.
  std::vector<uint32_t> RenderResolved(PipelineDesc desc, const RectParams& rect,
                                       VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_4_BIT) {
    return RenderResolved(std::move(desc), std::vector<RectParams>{rect}, samples);
  }
  // The same with several rectangles, in order; with desc.depth_format, over
  // a 4x depth attachment cleared to 1.
  // `depth_resolve` (with desc.depth_format): where the depth resolves to, by `depth_mode`.
  std::vector<uint32_t> RenderResolved(PipelineDesc desc, const std::vector<RectParams>& rects,
                                       VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_4_BIT,
                                       const Target* depth_resolve = nullptr,
                                       VkResolveModeFlagBits depth_mode = VK_RESOLVE_MODE_NONE) {
    desc.samples = samples;
    const VkPipeline pipeline = MakePipeline(desc);
    VkImageCreateInfo ci = ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {kExtent.width, kExtent.height, 1}, 1,
                                     1, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
    ci.samples = samples;
    const VkImage multisampled = MakeGeneralImage(ci);
    const VkImageView multisampled_view = MakeView(multisampled, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM,
                                                   {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1});
    const Target resolved = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);

    VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    color.imageView = multisampled_view;
    color.imageLayout = VK_IMAGE_LAYOUT_GENERAL;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    color.resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT;
    color.resolveImageView = resolved.view;
    color.resolveImageLayout = VK_IMAGE_LAYOUT_GENERAL;
    VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
    info.renderArea = {{0, 0}, kExtent};
    info.layerCount = 1;
    info.colorAttachmentCount = 1;
    info.pColorAttachments = &color;
    VkRenderingAttachmentInfo depth{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    if (desc.depth_format != VK_FORMAT_UNDEFINED) {
      ci.format = desc.depth_format;
      ci.usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
      const VkImage depth_image = MakeGeneralImage(ci, VK_IMAGE_ASPECT_DEPTH_BIT);
      depth.imageView =
          MakeView(depth_image, VK_IMAGE_VIEW_TYPE_2D, desc.depth_format, {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1});
      depth.imageLayout = VK_IMAGE_LAYOUT_GENERAL;
      depth.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
      depth.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
      depth.clearValue.depthStencil = {1.0f, 0};
      if (depth_resolve != nullptr) {
        depth.resolveMode = depth_mode;
        depth.resolveImageView = depth_resolve->view;
        depth.resolveImageLayout = VK_IMAGE_LAYOUT_GENERAL;
      }
      info.pDepthAttachment = &depth;
    }

    VkCommandBuffer cb = BeginCommands();
    vkCmdBeginRendering(cb, &info);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    if (before_draw_) before_draw_(cb);
    for (const RectParams& rect : rects) DrawRect(cb, desc.layout, rect);
    vkCmdEndRendering(cb);
    EndSubmitWait(cb);
    return Read<uint32_t>(resolved);
  }

  // A rectangle covering the target, its size in pixels in color.xy (for pixel_position.vert).
  // Whether colour attachments take `samples` (else the test skips).
  bool Supports(VkSampleCountFlagBits samples) {
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(phys_, &properties);
    return (properties.limits.framebufferColorSampleCounts & samples) != 0;
  }

  static RectParams FullRect() {
    RectParams rect;
    rect.color[0] = float(kExtent.width);
    rect.color[1] = float(kExtent.height);
    return rect;
  }

  static void ExpectEveryPixel(const std::vector<uint32_t>& pixels, int channel, double expected, const char* what) {
    ASSERT_EQ(pixels.size(), size_t(kExtent.width) * kExtent.height);
    for (size_t i = 0; i < pixels.size(); ++i)
      ASSERT_NEAR(Channel(pixels[i], channel), expected, 1.01) << what << " at pixel " << i;
  }
};

// gl_SampleMaskIn is the coverage the rasterizer gave the pixel, before the
// depth test: a rectangle half behind an earlier one (whose edge runs
// through the centres of column 8, splitting the standard positions 2 and
// 2) still sees 4 samples there, though only 2 pass.
TEST_F(SampleShadingTest, SampleMaskInIsCoverageBeforeTheDepthTest) {
  PipelineDesc desc = RectPipeline(Module(kSampleMaskCountFrag), kExtent);
  desc.depth_format = VK_FORMAT_D32_SFLOAT;
  desc.depth_stencil.depthTestEnable = VK_TRUE;
  desc.depth_stencil.depthWriteEnable = VK_TRUE;
  desc.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
  // The occluder: columns 0 .. 8.5 at depth 0.25; then everything at 0.5.
  RectParams occluder;
  occluder.bounds[2] = Ndc(8.5, kExtent.width);
  occluder.z = 0.25f;
  RectParams behind;
  behind.z = 0.5f;
  const std::vector<uint32_t> pixels = RenderResolved(desc, {occluder, behind});
  ASSERT_EQ(pixels.size(), size_t(kExtent.width) * kExtent.height);
  // Rows 2 and 3: there the columns checked are clear of both rectangles'
  // diagonals (a pixel a diagonal crosses is shaded by each of its two
  // triangles with part of its samples).
  for (uint32_t y = 2; y < kExtent.height; ++y) {
    // Left of the edge: the occluder's 4 samples, each seeing all 4.
    EXPECT_NEAR(Channel(pixels[y * kExtent.width + 4], 0), 255, 1.01) << "row " << y;
    // Column 8: samples 0 and 2 from the occluder, which covers only those
    // (0.5), 1 and 3 from the second rectangle, which covers all 4 though
    // only 2 pass the depth test (1.0; 0.5 if the mask were after the test).
    EXPECT_NEAR(Channel(pixels[y * kExtent.width + 8], 0), 191.5, 1.01) << "row " << y;
    // Right of it: the second rectangle alone.
    EXPECT_NEAR(Channel(pixels[y * kExtent.width + 12], 0), 255, 1.01) << "row " << y;
  }
}

TEST_F(SampleShadingTest, SampleIdAndPositionShadeEverySampleOnce) {
  const std::vector<uint32_t> pixels =
      RenderResolved(RectPipeline(Module(kSampleBuiltinsFrag), kExtent), FullRect());
  ExpectEveryPixel(pixels, 0, ResolvedAverage([](int s) { return s / 3.0; }), "gl_SampleID / 3");
  ExpectEveryPixel(pixels, 1, ResolvedAverage([](int s) { return kPositions[s][0] * kPositions[s][0]; }),
                   "gl_SamplePosition.x^2");
  ExpectEveryPixel(pixels, 2, ResolvedAverage([](int s) { return kPositions[s][1] * kPositions[s][1]; }),
                   "gl_SamplePosition.y^2");
}

// 2 and 8 samples (the device's counts besides 1 and 4) sit at the
// standard locations, each shaded once.
TEST_F(SampleShadingTest, TwoAndEightSamplesAtTheStandardLocations) {
  if (!Supports(VK_SAMPLE_COUNT_2_BIT) || !Supports(VK_SAMPLE_COUNT_8_BIT)) GTEST_SKIP() << "2 or 8 samples";
  for (const VkSampleCountFlagBits samples : {VK_SAMPLE_COUNT_2_BIT, VK_SAMPLE_COUNT_8_BIT}) {
    const int n = int(samples);
    auto position = [&](int s, int axis) { return (n == 2 ? kPositions2[s][axis] : kPositions8[s][axis]) / 16.0; };
    auto average = [&](auto f) {
      double sum = 0;
      for (int s = 0; s < n; ++s) sum += Unorm8(f(s));
      return sum / n;
    };
    const std::vector<uint32_t> pixels =
        RenderResolved(RectPipeline(Module(kSampleBuiltinsFrag), kExtent), FullRect(), samples);
    ExpectEveryPixel(pixels, 0, average([](int s) { return std::min(s / 3.0, 1.0); }), "gl_SampleID / 3");
    ExpectEveryPixel(pixels, 1, average([&](int s) { return position(s, 0) * position(s, 0); }),
                     "gl_SamplePosition.x^2");
    ExpectEveryPixel(pixels, 2, average([&](int s) { return position(s, 1) * position(s, 1); }),
                     "gl_SamplePosition.y^2");
  }
}

// Coverage counts the samples inside: a white rectangle whose right edge
// runs through column 4 at 0.3 of the pixel covers, of its samples, those
// left of x = 4.8/16: 1 of 2, 1 of 4, 2 of 8.
TEST_F(SampleShadingTest, EdgePixelsResolveToTheirCoveredSamples) {
  const std::pair<VkSampleCountFlagBits, double> cases[] = {
      {VK_SAMPLE_COUNT_2_BIT, 0.5}, {VK_SAMPLE_COUNT_4_BIT, 0.25}, {VK_SAMPLE_COUNT_8_BIT, 0.25}};
  for (const auto& [samples, fraction] : cases) {
    if (!Supports(samples)) continue;
    RectParams rect;
    rect.bounds[2] = Ndc(4.3, kExtent.width);
    const std::vector<uint32_t> pixels = RenderResolved(RectPipeline(Module(kFlatColorFrag), kExtent), rect, samples);
    for (uint32_t y = 0; y < kExtent.height; ++y) {
      EXPECT_NEAR(Channel(pixels[y * kExtent.width + 3], 0), 255, 1.01) << samples;
      EXPECT_NEAR(Channel(pixels[y * kExtent.width + 4], 0), 255 * fraction, 1.01) << samples;
      EXPECT_EQ(Channel(pixels[y * kExtent.width + 5], 0), 0) << samples;
    }
  }
}

// Depth resolves by every mode the device reports: a rectangle at depth
// 0.25 (test ALWAYS) over a clear of 1 covers 1 of pixel 4's 4 samples
// (not sample 0). (lavapipe's AVERAGE gives sample 0 here.)
TEST_F(SampleShadingTest, DepthResolvesByMinMaxAndAverage) {
  VkPhysicalDeviceDepthStencilResolveProperties resolve{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_STENCIL_RESOLVE_PROPERTIES};
  VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &resolve};
  vkGetPhysicalDeviceProperties2(phys_, &properties);
  const std::pair<VkResolveModeFlagBits, float> modes[] = {{VK_RESOLVE_MODE_SAMPLE_ZERO_BIT, 1.0f},
                                                           {VK_RESOLVE_MODE_MIN_BIT, 0.25f},
                                                           {VK_RESOLVE_MODE_MAX_BIT, 1.0f},
                                                           {VK_RESOLVE_MODE_AVERAGE_BIT, 0.8125f}};
  for (const auto& [mode, edge] : modes) {
    if ((resolve.supportedDepthResolveModes & mode) == 0) continue;
    PipelineDesc desc = RectPipeline(Module(kFlatColorFrag), kExtent);
    desc.depth_format = VK_FORMAT_D32_SFLOAT;
    desc.depth_stencil.depthTestEnable = VK_TRUE;
    desc.depth_stencil.depthWriteEnable = VK_TRUE;
    desc.depth_stencil.depthCompareOp = VK_COMPARE_OP_ALWAYS;
    RectParams rect;
    rect.bounds[2] = Ndc(4.3, kExtent.width);
    rect.z = 0.25f;
    const Target depth = MakeTarget(VK_FORMAT_D32_SFLOAT, kExtent);
    RenderResolved(desc, {rect}, VK_SAMPLE_COUNT_4_BIT, &depth, mode);
    const std::vector<float> resolved = Read<float>(depth, VK_IMAGE_ASPECT_DEPTH_BIT);
    ASSERT_EQ(resolved.size(), size_t(kExtent.width) * kExtent.height);
    for (uint32_t y = 0; y < kExtent.height; ++y) {
      EXPECT_FLOAT_EQ(resolved[y * kExtent.width + 3], 0.25f) << mode;
      EXPECT_FLOAT_EQ(resolved[y * kExtent.width + 4], edge) << mode;
      EXPECT_FLOAT_EQ(resolved[y * kExtent.width + 5], 1.0f) << mode;
    }
  }
}

// The rasterization sample count as dynamic state (extended dynamic
// state 3): a pipeline whose count is dynamic draws into the 4x target
// with 4 samples set on the command buffer, its edge pixels partly covered.
TEST_F(SampleShadingTest, RasterizationSamplesAsDynamicState) {
  const auto set_samples = reinterpret_cast<PFN_vkCmdSetRasterizationSamplesEXT>(
      vkGetDeviceProcAddr(device_, "vkCmdSetRasterizationSamplesEXT"));
  ASSERT_NE(set_samples, nullptr);
  PipelineDesc desc = RectPipeline(Module(kFlatColorFrag), kExtent);
  desc.dynamic_states = {VK_DYNAMIC_STATE_RASTERIZATION_SAMPLES_EXT};
  before_draw_ = [&](VkCommandBuffer cb) { set_samples(cb, VK_SAMPLE_COUNT_4_BIT); };
  RectParams rect;
  rect.bounds[2] = Ndc(4.3, kExtent.width);
  const std::vector<uint32_t> pixels = RenderResolved(desc, rect, VK_SAMPLE_COUNT_4_BIT);
  before_draw_ = nullptr;
  for (uint32_t y = 0; y < kExtent.height; ++y) {
    EXPECT_NEAR(Channel(pixels[y * kExtent.width + 3], 0), 255, 1.01);
    EXPECT_NEAR(Channel(pixels[y * kExtent.width + 4], 0), 255 * 0.25, 1.01);  // 1 of 4 samples
    EXPECT_EQ(Channel(pixels[y * kExtent.width + 5], 0), 0u);
  }
}

TEST_F(SampleShadingTest, MinSampleShadingOfOneMovesFragCoordToEachSample) {
  PipelineDesc desc = RectPipeline(Module(kSampleFragcoordFrag), kExtent);
  desc.min_sample_shading = 1.0f;
  const std::vector<uint32_t> per_sample = RenderResolved(desc, FullRect());
  ExpectEveryPixel(per_sample, 0, ResolvedAverage([](int s) { return kPositions[s][0] * kPositions[s][0]; }),
                   "fract(gl_FragCoord.x)^2");
  ExpectEveryPixel(per_sample, 1, ResolvedAverage([](int s) { return kPositions[s][1] * kPositions[s][1]; }),
                   "fract(gl_FragCoord.y)^2");
  // Each invocation's gl_SampleMaskIn holds its own sample only.
  ExpectEveryPixel(per_sample, 2, ResolvedAverage([](int s) { return double(1 << s) / 15.0; }), "gl_SampleMaskIn");

  // Without sample shading one invocation per pixel sees the centre and every sample.
  desc.min_sample_shading = 0.0f;
  const std::vector<uint32_t> per_pixel = RenderResolved(desc, FullRect());
  ExpectEveryPixel(per_pixel, 0, Unorm8(0.25), "centre x^2");
  ExpectEveryPixel(per_pixel, 1, Unorm8(0.25), "centre y^2");
  // gl_SampleMaskIn holds the samples the fragment's triangle covers: all
  // four, except along the strip's diagonal (from (0, 4) to (16, 0)),
  // where each triangle's fragment has its own side's samples.
  for (uint32_t y = 0; y < kExtent.height; ++y)
    for (uint32_t x = 0; x < kExtent.width; ++x) {
      auto side = [&](int s) {
        return (x + kPositions[s][0]) / kExtent.width + (y + kPositions[s][1]) / kExtent.height < 1.0;
      };
      uint32_t masks[2] = {0, 0};
      for (int s = 0; s < 4; ++s) masks[side(s)] |= 1u << s;
      const double expected = ResolvedAverage([&](int s) { return masks[side(s)] / 15.0; });
      EXPECT_NEAR(Channel(per_pixel[y * kExtent.width + x], 2), expected, 1.01) << "gl_SampleMaskIn at " << x << "," << y;
    }
}

TEST_F(SampleShadingTest, SampleInputsAreInterpolatedAtEachSample) {
  PipelineDesc desc = RectPipeline(Module(kSampleInterpolationFrag), kExtent);
  desc.vertex = Module(kPixelPositionVert);
  const std::vector<uint32_t> pixels = RenderResolved(desc, FullRect());
  ExpectEveryPixel(pixels, 0, ResolvedAverage([](int s) { return kPositions[s][0] * kPositions[s][0]; }),
                   "fract(x)^2");
  ExpectEveryPixel(pixels, 1, ResolvedAverage([](int s) { return kPositions[s][1] * kPositions[s][1]; }),
                   "fract(y)^2");
}

TEST_F(SampleShadingTest, InterpolateAtOffsetMovesFromThePixelCentre) {
  PipelineDesc desc = RectPipeline(Module(kOffsetInterpolationFrag), kExtent);
  desc.vertex = Module(kPixelPositionVert);
  const std::vector<uint32_t> pixels = RenderResolved(desc, FullRect());
  ExpectEveryPixel(pixels, 0, Unorm8(0.75), "x at the offset");
  ExpectEveryPixel(pixels, 1, Unorm8(0.125), "y at the offset");
  ExpectEveryPixel(pixels, 2, Unorm8(0.5), "x at the centre");
}

TEST_F(SampleShadingTest, CentroidInputsOfPartlyCoveredPixelsLieInsideThePrimitive) {
  PipelineDesc desc = RectPipeline(Module(kCentroidInterpolationFrag), kExtent);
  desc.vertex = Module(kPixelPositionVert);
  // The left edge runs through the centres of column 8: samples 1 and 3
  // (x 0.875 and 0.625) are inside, the centre and samples 0 and 2 are not.
  RectParams rect = FullRect();
  rect.bounds[0] = Ndc(8.5, kExtent.width);
  const std::vector<uint32_t> pixels = RenderResolved(desc, rect);
  for (uint32_t y = 0; y < kExtent.height; ++y) {
    const uint32_t edge = pixels[y * kExtent.width + 8];
    // Two of four samples hold the output, the others the clear (0).
    const double at_sample1 = Unorm8(0.875) / 2, at_sample3 = Unorm8(0.625) / 2;
    const double red = Channel(edge, 0);
    EXPECT_TRUE(std::abs(red - at_sample1) <= 1.01 || std::abs(red - at_sample3) <= 1.01)
        << "centroid x at row " << y << ": " << red;
    EXPECT_NEAR(Channel(edge, 1), Unorm8(0.5) / 2, 1.01) << "centre x at row " << y;
    // A fully covered pixel: both at the centre.
    const uint32_t inside = pixels[y * kExtent.width + 12];
    EXPECT_NEAR(Channel(inside, 1), Unorm8(0.5), 1.01) << "centre x inside, row " << y;
    EXPECT_EQ(Channel(pixels[y * kExtent.width + 7], 0), 0u) << "left of the edge, row " << y;
  }
}

class PolygonModeTest : public GraphicsTest {
 protected:
  void SetUp() override {
    GraphicsTest::SetUp();
    if (HasFatalFailure()) return;
    if (!features_.fillModeNonSolid) GTEST_SKIP() << "fillModeNonSolid is not supported";
  }

  // The rectangle from pixel 4 to 28 of a 32x32 target (a strip of two
  // triangles) in polygon mode `mode`; the pixels set to white.
  std::vector<bool> Draw(VkPolygonMode mode, VkCullModeFlags cull = VK_CULL_MODE_NONE) {
    constexpr VkExtent2D kSize{32, 32};
    PipelineDesc desc = RectPipeline(Module(kFlatColorFrag), kSize);
    desc.rasterization.polygonMode = mode;
    desc.rasterization.cullMode = cull;
    const VkPipeline pipeline = MakePipeline(desc);
    const Target target = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kSize);
    RectParams rect;
    rect.bounds[0] = rect.bounds[1] = Ndc(4.5, 32);
    rect.bounds[2] = rect.bounds[3] = Ndc(27.5, 32);
    VkCommandBuffer cb = BeginCommands();
    BeginRendering(cb, {{&target, VK_ATTACHMENT_LOAD_OP_CLEAR}});
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    DrawRect(cb, desc.layout, rect);
    vkCmdEndRendering(cb);
    EndSubmitWait(cb);
    std::vector<bool> set;
    for (uint32_t p : Read<uint32_t>(target)) set.push_back(p == 0xFFFFFFFFu);
    return set;
  }
};

TEST_F(PolygonModeTest, LineModeDrawsTheTriangleEdges) {
  const std::vector<bool> set = Draw(VK_POLYGON_MODE_LINE);
  ASSERT_EQ(set.size(), 32u * 32u);
  // The rectangle's four sides are lines through pixel centres 4.5 .. 27.5.
  for (int i = 6; i < 26; ++i) {
    EXPECT_TRUE(set[4 * 32 + i]) << "top side at x " << i;
    EXPECT_TRUE(set[27 * 32 + i]) << "bottom side at x " << i;
    EXPECT_TRUE(set[i * 32 + 4]) << "left side at y " << i;
    EXPECT_TRUE(set[i * 32 + 27]) << "right side at y " << i;
  }
  // Inside, only the shared diagonal is drawn: away from it nothing is.
  EXPECT_FALSE(set[10 * 32 + 10]);
  EXPECT_FALSE(set[20 * 32 + 20]);
  int inside = 0;
  for (int y = 6; y < 26; ++y)
    for (int x = 6; x < 26; ++x) inside += set[y * 32 + x];
  EXPECT_GT(inside, 15);   // the diagonal
  EXPECT_LT(inside, 70);   // but not the fill
  EXPECT_FALSE(set[0]);
}

TEST_F(PolygonModeTest, PointModeDrawsTheVertices) {
  const std::vector<bool> set = Draw(VK_POLYGON_MODE_POINT);
  ASSERT_EQ(set.size(), 32u * 32u);
  int count = 0;
  for (bool b : set) count += b;
  EXPECT_EQ(count, 4);  // the four corners (two of them shared by both triangles)
  EXPECT_TRUE(set[4 * 32 + 4]);
  EXPECT_TRUE(set[4 * 32 + 27]);
  EXPECT_TRUE(set[27 * 32 + 4]);
  EXPECT_TRUE(set[27 * 32 + 27]);
}

TEST_F(PolygonModeTest, CullingAppliesBeforeTheOutline) {
  const std::vector<bool> set = Draw(VK_POLYGON_MODE_LINE, VK_CULL_MODE_FRONT_AND_BACK);
  for (bool b : set) ASSERT_FALSE(b);
}

}  // namespace
}  // namespace duet_test
