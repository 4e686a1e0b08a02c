// The viewport, scissor and depth units through the loader: offset and
// partly outside viewports, negative-height (flipped) viewports and their
// effect on facing, scissors per draw and against the render area, the
// viewport depth range (also inverted), depth bias (constant, slope, clamp,
// static and dynamic) read back numerically from a D32 attachment, and
// depth clamping against clipping, also chosen apart
// (VK_EXT_depth_clip_enable).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "graphics_fixture.h"
#include "shaders/flat_color.frag.h"

namespace duet_test {
namespace {

constexpr uint32_t kSize = 32;
constexpr VkExtent2D kExtent{kSize, kSize};

using Vertex = ColorVertex;

Vertex V(float x, float y, float z, float r = 1, float g = 1, float b = 1) {
  return {{x, y, z, 1.0f}, {r, g, b, 1.0f}};
}

class ViewportDepthTest : public GraphicsTest {
 protected:
  ViewportDepthTest() {
    device_options_.extensions = {VK_EXT_DEPTH_CLIP_ENABLE_EXTENSION_NAME, VK_EXT_DEPTH_CLIP_CONTROL_EXTENSION_NAME};
    device_options_.extension_features = {reinterpret_cast<VkBaseOutStructure*>(&depth_clip_),
                                          reinterpret_cast<VkBaseOutStructure*>(&depth_clip_control_)};
  }

  VkPhysicalDeviceDepthClipEnableFeaturesEXT depth_clip_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_ENABLE_FEATURES_EXT, nullptr, VK_TRUE};
  VkPhysicalDeviceDepthClipControlFeaturesEXT depth_clip_control_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_CONTROL_FEATURES_EXT, nullptr, VK_TRUE};

  // Draws `vertices` (a triangle list) with `desc` into a black RGBA8
  // target and a D32 one cleared to 1; `record` may set dynamic state first.
  struct Result {
    std::vector<uint32_t> color;
    std::vector<float> depth;
  };
  Result Draw(const PipelineDesc& desc, const std::vector<Vertex>& vertices,
              const std::function<void(VkCommandBuffer)>& record = nullptr) {
    const Target color = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
    const Target depth = MakeTarget(VK_FORMAT_D32_SFLOAT, kExtent);
    const VkPipeline pipeline = MakePipeline(desc);
    HostBuffer vb = Upload(vertices, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    VkCommandBuffer cb = BeginCommands();
    VkClearValue far{};
    far.depthStencil = {1.0f, 0};
    BeginRendering(cb, {{&color, VK_ATTACHMENT_LOAD_OP_CLEAR, {}}}, {&depth, VK_ATTACHMENT_LOAD_OP_CLEAR, far});
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    if (record) record(cb);
    VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cb, 0, 1, &vb.buffer, &offset);
    vkCmdDraw(cb, uint32_t(vertices.size()), 1, 0, 0);
    vkCmdEndRendering(cb);
    EndSubmitWait(cb);
    return {Read<uint32_t>(color), Read<float>(depth, VK_IMAGE_ASPECT_DEPTH_BIT)};
  }

  // A full-target quad whose z_ndc runs from -0.5 at the left edge to 1.5
  // at the right (RampDepth: at the centre of column x), partly beyond
  // both depth clip planes.
  static std::vector<Vertex> DepthRamp() {
    return {V(-1, -1, -0.5f), V(1, -1, 1.5f), V(-1, 1, -0.5f), V(1, -1, 1.5f), V(1, 1, 1.5f), V(-1, 1, -0.5f)};
  }
  static double RampDepth(uint32_t x) { return -0.5 + 2.0 * (x + 0.5) / kSize; }

  // A depth-only pipeline: every fragment passes and writes its depth.
  PipelineDesc DepthPipeline() {
    PipelineDesc d = ColorPipeline(kExtent);
    d.depth_format = VK_FORMAT_D32_SFLOAT;
    d.depth_stencil.depthTestEnable = VK_TRUE;
    d.depth_stencil.depthWriteEnable = VK_TRUE;
    d.depth_stencil.depthCompareOp = VK_COMPARE_OP_ALWAYS;
    return d;
  }

  // Rectangles drawn with rect.vert, each with its own colour, then the
  // target's pixels: `viewport` and `scissor` are the pipeline's.
  std::vector<uint32_t> DrawRects(const std::vector<RectParams>& rects, VkViewport viewport, VkRect2D scissor,
                                  VkCullModeFlags cull = VK_CULL_MODE_NONE) {
    PipelineDesc desc = RectPipeline(Module(kFlatColorFrag), kExtent);
    desc.viewport = viewport;
    desc.scissor = scissor;
    desc.rasterization.cullMode = cull;
    const VkPipeline pipeline = MakePipeline(desc);
    const Target color = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
    VkCommandBuffer cb = BeginCommands();
    BeginRendering(cb, {{&color, VK_ATTACHMENT_LOAD_OP_CLEAR, {}}});
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    for (const RectParams& r : rects) DrawRect(cb, desc.layout, r);
    vkCmdEndRendering(cb);
    EndSubmitWait(cb);
    return Read<uint32_t>(color);
  }
};

RectParams Rect(float x0, float y0, float x1, float y1, float r, float g, float b) {
  RectParams p;
  p.bounds[0] = x0;
  p.bounds[1] = y0;
  p.bounds[2] = x1;
  p.bounds[3] = y1;
  p.color[0] = r;
  p.color[1] = g;
  p.color[2] = b;
  return p;
}

// Pixels whose centre is inside [x0, x1) x [y0, y1) (framebuffer
// coordinates) are `inside`, the others `outside`.
::testing::AssertionResult IsBox(const std::vector<uint32_t>& pixels, double x0, double y0, double x1, double y1,
                                 uint32_t inside, uint32_t outside = 0) {
  if (pixels.size() != kSize * kSize) return ::testing::AssertionFailure() << "read " << pixels.size() << " pixels";
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      const bool in = x + 0.5 >= x0 && x + 0.5 < x1 && y + 0.5 >= y0 && y + 0.5 < y1;
      const uint32_t expected = in ? inside : outside;
      if (pixels[y * kSize + x] != expected)
        return ::testing::AssertionFailure() << "pixel " << x << "," << y << " is 0x" << std::hex
                                             << pixels[y * kSize + x] << ", expected 0x" << expected;
    }
  return ::testing::AssertionSuccess();
}

constexpr uint32_t kWhite = 0xFFFFFFFF, kRed = 0xFF0000FF, kGreen = 0xFF00FF00, kBlue = 0xFFFF0000;

TEST_F(ViewportDepthTest, OffsetViewportsMapNdcToTheirRectangle) {
  // The whole NDC square lands on the viewport's rectangle, wherever it is.
  EXPECT_TRUE(IsBox(DrawRects({Rect(-1, -1, 1, 1, 1, 1, 1)}, {8, 4, 16, 12, 0, 1}, {{0, 0}, kExtent}), 8, 4, 24, 16,
                    kWhite));
  // Partly outside the framebuffer: only the inside part is drawn.
  EXPECT_TRUE(IsBox(DrawRects({Rect(-1, -1, 1, 1, 1, 0, 0)}, {-8, 20, 24, 24, 0, 1}, {{0, 0}, kExtent}), 0, 20, 16,
                    32, kRed));
  // A rectangle in NDC scales with the viewport: [-1, 0] x [0, 1] is its lower-left quarter.
  EXPECT_TRUE(IsBox(DrawRects({Rect(-1, 0, 0, 1, 0, 1, 0)}, {4, 8, 16, 8, 0, 1}, {{0, 0}, kExtent}), 4, 12, 12, 16,
                    kGreen));
}

TEST_F(ViewportDepthTest, NegativeHeightViewportFlipsYAndFacing) {
  const VkViewport flipped{0, float(kSize), float(kSize), -float(kSize), 0, 1};
  // NDC y = -1 is now the bottom edge: the band [-1, -0.5] covers rows 24..31.
  EXPECT_TRUE(IsBox(DrawRects({Rect(-1, -1, 1, -0.5f, 0, 0, 1)}, flipped, {{0, 0}, kExtent}), 0, 24, 32, 32, kBlue));
  // A flipped offset viewport: y = 20, height -16 covers rows 4..19.
  EXPECT_TRUE(IsBox(DrawRects({Rect(-1, -1, 1, 1, 1, 1, 1)}, {0, 20, 16, 16 * -1.0f, 0, 1}, {{0, 0}, kExtent}), 0,
                    4, 16, 20, kWhite));
  // The flip reverses the winding in framebuffer space: the rectangle that
  // faces front with a positive height faces back here, and is culled.
  RectParams front = Rect(-1, -1, 1, 1, 1, 1, 1);
  EXPECT_TRUE(IsBox(DrawRects({front}, {0, 0, float(kSize), float(kSize), 0, 1}, {{0, 0}, kExtent},
                              VK_CULL_MODE_BACK_BIT),
                    0, 0, 32, 32, kWhite));
  EXPECT_TRUE(IsBox(DrawRects({front}, flipped, {{0, 0}, kExtent}, VK_CULL_MODE_BACK_BIT), 0, 0, 0, 0, 0));
  RectParams back = front;
  back.back = 1;
  EXPECT_TRUE(IsBox(DrawRects({back}, flipped, {{0, 0}, kExtent}, VK_CULL_MODE_BACK_BIT), 0, 0, 32, 32, kWhite));
}

TEST_F(ViewportDepthTest, StaticScissorClipsEveryDraw) {
  // Partly outside the framebuffer: clipped to it as well.
  EXPECT_TRUE(IsBox(DrawRects({Rect(-1, -1, 1, 1, 1, 1, 1)}, {0, 0, 32, 32, 0, 1}, {{20, 6}, {40, 10}}), 20, 6, 32,
                    16, kWhite));
  EXPECT_TRUE(IsBox(DrawRects({Rect(-1, -1, 1, 1, 1, 1, 1)}, {0, 0, 32, 32, 0, 1}, {{3, 5}, {7, 9}}), 3, 5, 10, 14,
                    kWhite));
}

TEST_F(ViewportDepthTest, DynamicScissorsPerDrawAndTheRenderArea) {
  PipelineDesc desc = RectPipeline(Module(kFlatColorFrag), kExtent);
  desc.dynamic_states = {VK_DYNAMIC_STATE_SCISSOR, VK_DYNAMIC_STATE_VIEWPORT};
  const VkPipeline pipeline = MakePipeline(desc);
  const Target color = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
  // Three draws of the full-screen rectangle, each with its own scissor
  // and colour; the third's scissor reaches past the render area.
  struct Draw {
    VkRect2D scissor;
    RectParams rect;
  };
  const Draw draws[] = {{{{0, 0}, {10, 10}}, Rect(-1, -1, 1, 1, 1, 0, 0)},
                        {{{8, 4}, {12, 20}}, Rect(-1, -1, 1, 1, 0, 1, 0)},
                        {{{16, 16}, {100, 100}}, Rect(-1, -1, 1, 1, 0, 0, 1)}};
  const VkRect2D render_area{{2, 2}, {26, 27}};
  VkCommandBuffer cb = BeginCommands();
  VkRenderingAttachmentInfo attachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  attachment.imageView = color.view;
  attachment.imageLayout = VK_IMAGE_LAYOUT_GENERAL;
  attachment.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
  attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
  info.renderArea = render_area;
  info.layerCount = 1;
  info.colorAttachmentCount = 1;
  info.pColorAttachments = &attachment;
  vkCmdBeginRendering(cb, &info);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  const VkViewport viewport{0, 0, float(kSize), float(kSize), 0, 1};
  vkCmdSetViewport(cb, 0, 1, &viewport);
  for (const Draw& d : draws) {
    vkCmdSetScissor(cb, 0, 1, &d.scissor);
    DrawRect(cb, desc.layout, d.rect);
  }
  vkCmdEndRendering(cb);
  EndSubmitWait(cb);
  const std::vector<uint32_t> pixels = Read<uint32_t>(color);
  ASSERT_EQ(pixels.size(), kSize * kSize);
  const uint32_t colors[] = {kRed, kGreen, kBlue};
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      uint32_t expected = 0;
      for (size_t i = 0; i < 3; ++i) {
        const VkRect2D& s = draws[i].scissor;
        if (int32_t(x) >= s.offset.x && x < s.offset.x + s.extent.width && int32_t(y) >= s.offset.y &&
            y < s.offset.y + s.extent.height)
          expected = colors[i];
      }
      // What draws do outside the render area is undefined.
      if (x < 2 || y < 2 || x >= 28 || y >= 29) continue;
      ASSERT_EQ(pixels[y * kSize + x], expected) << x << "," << y;
    }
}

TEST_F(ViewportDepthTest, ViewportDepthRangeMapsNdcDepth) {
  // z_ndc runs from 0 at the left edge to 1 at the right.
  const std::vector<Vertex> quad = {V(-1, -1, 0), V(1, -1, 1), V(-1, 1, 0), V(1, -1, 1), V(1, 1, 1), V(-1, 1, 0)};
  for (auto [near_depth, far_depth] : {std::pair{0.25f, 0.75f}, std::pair{1.0f, 0.0f}, std::pair{0.5f, 0.5f}}) {
    PipelineDesc desc = DepthPipeline();
    desc.viewport = {0, 0, float(kSize), float(kSize), near_depth, far_depth};
    const Result r = Draw(desc, quad);
    ASSERT_EQ(r.depth.size(), kSize * kSize);
    for (uint32_t y = 0; y < kSize; ++y)
      for (uint32_t x = 0; x < kSize; ++x) {
        const double z_ndc = (x + 0.5) / kSize;
        const double expected = near_depth + (far_depth - near_depth) * z_ndc;
        ASSERT_NEAR(r.depth[y * kSize + x], expected, 1e-6) << x << "," << y << " range " << near_depth << ".."
                                                            << far_depth;
      }
  }
}

// The depth bias the spec defines for a D32 attachment: slope m (exact
// for planes that vary along one axis) times the slope factor, plus r
// (2^(e - 23), e the largest exponent of the primitive's depths) times the
// constant factor, clamped.
double ExpectedBias(double m, double max_z, float constant, float slope, float clamp) {
  const double r = std::ldexp(1.0, std::ilogb(max_z) - 23);
  double bias = m * slope + r * constant;
  if (clamp > 0) bias = std::min(bias, double(clamp));
  if (clamp < 0) bias = std::max(bias, double(clamp));
  return bias;
}

TEST_F(ViewportDepthTest, DepthBiasConstantSlopeAndClampOnD32) {
  // A quad whose depth rises along x from 0.5 to 0.5 + 2 * gx, inside one
  // binade ([0.5, 1): r = 2^-24) and inside the view volume (no clipping).
  struct Case {
    float constant, slope, clamp;
    bool dynamic;
  };
  const bool clamp_supported = features_.depthBiasClamp == VK_TRUE;
  std::vector<Case> cases = {{0, 0, 0, false},     {100, 0, 0, false},  {0, 2, 0, false},
                             {-50, -1, 0, false},  {4000, 1.5f, 0, true}, {-3, 0.5f, 0, true}};
  if (clamp_supported) {
    cases.push_back({4000, 4, 1e-4f, false});   // clamped from above
    cases.push_back({-4000, -4, -2e-4f, true});  // clamped from below
    cases.push_back({10, 0, 1.0f, false});       // a clamp that does not bite
  } else {
    std::printf("depthBiasClamp is not advertised: clamped biases not tested\n");
  }
  for (float gx : {0.1f, -0.1f}) {
    const float z0 = 0.7f;
    auto z = [&](float x) { return z0 + gx * x; };
    const std::vector<Vertex> quad = {V(-1, -1, z(-1)), V(1, -1, z(1)), V(-1, 1, z(-1)),
                                      V(1, -1, z(1)),   V(1, 1, z(1)),  V(-1, 1, z(-1))};
    for (const Case& c : cases) {
      PipelineDesc desc = DepthPipeline();
      desc.rasterization.depthBiasEnable = VK_TRUE;
      if (c.dynamic) {
        desc.dynamic_states = {VK_DYNAMIC_STATE_DEPTH_BIAS};
        desc.rasterization.depthBiasConstantFactor = 12345;  // must be replaced
      } else {
        desc.rasterization.depthBiasConstantFactor = c.constant;
        desc.rasterization.depthBiasSlopeFactor = c.slope;
        desc.rasterization.depthBiasClamp = c.clamp;
      }
      const Result r = Draw(desc, quad, [&](VkCommandBuffer cb) {
        if (c.dynamic) vkCmdSetDepthBias(cb, c.constant, c.clamp, c.slope);
      });
      ASSERT_EQ(r.depth.size(), kSize * kSize);
      const double m = std::abs(gx) * 2.0 / kSize;  // |dz/dx| in window coordinates; dz/dy = 0
      const double bias = ExpectedBias(m, std::max(z(-1), z(1)), c.constant, c.slope, c.clamp);
      for (uint32_t y = 0; y < kSize; y += 3)
        for (uint32_t x = 0; x < kSize; ++x) {
          const double expected = z(Ndc(x + 0.5, kSize)) + bias;
          ASSERT_NEAR(r.depth[y * kSize + x], expected, 3e-7)
              << "pixel " << x << "," << y << " constant " << c.constant << " slope " << c.slope << " clamp "
              << c.clamp << (c.dynamic ? " (dynamic)" : "") << " gradient " << gx << ": bias "
              << r.depth[y * kSize + x] - z(Ndc(x + 0.5, kSize)) << ", expected " << bias;
        }
    }
  }
}

TEST_F(ViewportDepthTest, DepthBiasSlopeOfADiagonalPlane) {
  // dz/dx and dz/dy both non-zero: m is the gradient's length or, as the
  // spec allows, the larger of the two; accept either.
  const float gx = 0.08f, gy = 0.05f, z0 = 0.7f;
  auto z = [&](float x, float y) { return z0 + gx * x + gy * y; };
  const std::vector<Vertex> quad = {V(-1, -1, z(-1, -1)), V(1, -1, z(1, -1)), V(-1, 1, z(-1, 1)),
                                    V(1, -1, z(1, -1)),   V(1, 1, z(1, 1)),   V(-1, 1, z(-1, 1))};
  PipelineDesc desc = DepthPipeline();
  desc.rasterization.depthBiasEnable = VK_TRUE;
  desc.rasterization.depthBiasSlopeFactor = 3.0f;
  const Result r = Draw(desc, quad);
  ASSERT_EQ(r.depth.size(), kSize * kSize);
  const double dx = gx * 2.0 / kSize, dy = gy * 2.0 / kSize;
  const double low = 3.0 * std::max(dx, dy), high = 3.0 * std::sqrt(dx * dx + dy * dy);
  for (uint32_t y = 0; y < kSize; y += 5)
    for (uint32_t x = 0; x < kSize; x += 3) {
      const double bias = r.depth[y * kSize + x] - z(Ndc(x + 0.5, kSize), Ndc(y + 0.5, kSize));
      EXPECT_GE(bias, low - 3e-7) << x << "," << y;
      EXPECT_LE(bias, high + 3e-7) << x << "," << y;
    }
}

TEST_F(ViewportDepthTest, DepthClampKeepsWhatClippingRemoves) {
  // z_ndc from -0.5 at the left edge to 1.5 at the right, in a viewport
  // depth range of [0.2, 0.8]: window depth -0.1 .. 1.1.
  const std::vector<Vertex> quad = DepthRamp();
  for (bool clamp : {false, true}) {
    if (clamp && !features_.depthClamp) {
      std::printf("depthClamp is not advertised: clamping not tested\n");
      continue;
    }
    PipelineDesc desc = DepthPipeline();
    desc.viewport = {0, 0, float(kSize), float(kSize), 0.2f, 0.8f};
    desc.rasterization.depthClampEnable = clamp;
    const Result r = Draw(desc, quad);
    ASSERT_EQ(r.depth.size(), kSize * kSize);
    for (uint32_t y = 0; y < kSize; ++y)
      for (uint32_t x = 0; x < kSize; ++x) {
        const double zn = RampDepth(x), window = 0.2 + 0.6 * zn;
        const float got = r.depth[y * kSize + x];
        const uint32_t got_color = r.color[y * kSize + x];
        if (clamp) {
          ASSERT_NEAR(got, std::clamp(window, 0.2, 0.8), 1e-6) << x << "," << y;
          ASSERT_EQ(got_color, kWhite) << x << "," << y;
        } else if (zn < -0.02 || zn > 1.02) {  // clipped away (pixels at the clip planes may go either way)
          ASSERT_EQ(got, 1.0f) << x << "," << y;
          ASSERT_EQ(got_color, 0u) << x << "," << y;
        } else if (zn > 0.02 && zn < 0.98) {
          ASSERT_NEAR(got, window, 1e-6) << x << "," << y;
          ASSERT_EQ(got_color, kWhite) << x << "," << y;
        }
      }
  }
}

// VK_EXT_depth_clip_enable: clipping against the near and far planes is
// chosen apart from clamping; clamped and clipped, what survives is the
// clipped part; unclamped and unclipped, the whole quad is drawn.
TEST_F(ViewportDepthTest, DepthClipApartFromClamp) {
  const std::vector<Vertex> quad = DepthRamp();
  for (bool clip : {true, false}) {
    SCOPED_TRACE(clip ? "clamped and clipped" : "neither clamped nor clipped");
    const VkPipelineRasterizationDepthClipStateCreateInfoEXT clip_state{
        VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_DEPTH_CLIP_STATE_CREATE_INFO_EXT, nullptr, 0, clip};
    PipelineDesc desc = DepthPipeline();
    desc.viewport = {0, 0, float(kSize), float(kSize), 0.2f, 0.8f};
    desc.rasterization.depthClampEnable = clip;
    desc.rasterization.pNext = &clip_state;
    const Result r = Draw(desc, quad);
    ASSERT_EQ(r.depth.size(), kSize * kSize);
    for (uint32_t y = 0; y < kSize; ++y)
      for (uint32_t x = 0; x < kSize; ++x) {
        const double zn = RampDepth(x), window = 0.2 + 0.6 * zn;
        const float got = r.depth[y * kSize + x];
        const uint32_t got_color = r.color[y * kSize + x];
        if (clip && (zn < -0.02 || zn > 1.02)) {
          ASSERT_EQ(got, 1.0f) << x << "," << y;
          ASSERT_EQ(got_color, 0u) << x << "," << y;
        } else if (!clip || (zn > 0.02 && zn < 0.98)) {
          ASSERT_EQ(got_color, kWhite) << x << "," << y;
          // (Unclamped depths outside the viewport's range are not checked.)
          if (zn > 0.02 && zn < 0.98) ASSERT_NEAR(got, window, 1e-6) << x << "," << y;
        }
      }
  }
}

// VK_EXT_depth_clip_control: clip-space depth -w..w maps onto the
// viewport's depth range (window z = (z/w + 1) / 2 for 0..1) and clips at
// z = w; the ramp's left end (-0.5) is now inside.
TEST_F(ViewportDepthTest, NegativeOneToOneDepth) {
  const VkPipelineViewportDepthClipControlCreateInfoEXT control{
      VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_DEPTH_CLIP_CONTROL_CREATE_INFO_EXT, nullptr, VK_TRUE};
  PipelineDesc desc = DepthPipeline();
  desc.viewport_next = &control;
  const Result r = Draw(desc, DepthRamp());
  ASSERT_EQ(r.depth.size(), kSize * kSize);
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      const double zn = RampDepth(x);
      if (std::abs(zn - 1.0) < 0.07) continue;  // the clip edge
      const float got = r.depth[y * kSize + x];
      if (zn > 1.0) {
        ASSERT_EQ(got, 1.0f) << x << "," << y << ": clipped";
        ASSERT_EQ(r.color[y * kSize + x], 0u) << x << "," << y;
      } else {
        ASSERT_NEAR(got, (zn + 1.0) / 2.0, 1e-6) << x << "," << y;
        ASSERT_EQ(r.color[y * kSize + x], kWhite) << x << "," << y;
      }
    }
}

}  // namespace
}  // namespace duet_test
