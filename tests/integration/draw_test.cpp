// Draws through the loader: exact coverage against a reference rasterizer
// written in the test (edge functions with the top-left rule), attribute
// interpolation, depth testing and instancing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "graphics_fixture.h"
#include "shaders/flat_color.frag.h"
#include "shaders/point.vert.h"
#include "shaders/point_size.vert.h"
#include "shaders/textured.frag.h"
#include "shaders/textured.vert.h"

namespace duet_test {
namespace {

using Vertex = ColorVertex;

constexpr uint32_t kWidth = 64, kHeight = 48;

class DrawTest : public GraphicsTest {
 protected:
  // A pipeline for dynamic rendering into one RGBA8 attachment (+ D32 depth).
  VkPipeline Pipeline(VkPrimitiveTopology topology, bool depth_test, VkCullModeFlags cull = VK_CULL_MODE_NONE,
                      VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT) {
    PipelineDesc d = ColorPipeline({kWidth, kHeight});
    if (topology == VK_PRIMITIVE_TOPOLOGY_POINT_LIST) d.vertex = Module(kPointVert);
    d.topology = topology;
    d.rasterization.cullMode = cull;
    d.samples = samples;
    d.depth_stencil.depthTestEnable = depth_test;
    d.depth_stencil.depthWriteEnable = depth_test;
    d.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
    d.depth_format = depth_test ? VK_FORMAT_D32_SFLOAT : VK_FORMAT_UNDEFINED;
    d.rasterization.lineWidth = line_width_;
    return MakePipeline(d);
  }
  float line_width_ = 1.0f;  // the pipelines' (wideLines)

  VkImageView View(VkImage image, VkFormat format, VkImageAspectFlags aspect) {
    return MakeView(image, VK_IMAGE_VIEW_TYPE_2D, format, {aspect, 0, 1, 0, 1});
  }

  VkImage Image(VkFormat format, VkImageUsageFlags usage, VkImageAspectFlags aspect,
                VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT) {
    VkImageCreateInfo ci = ImageInfo(VK_IMAGE_TYPE_2D, format, {kWidth, kHeight, 1}, 1, 1,
                                     usage | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    ci.samples = samples;
    return MakeGeneralImage(ci, aspect);
  }

  // Draws `vertices` (non-indexed, `instances` instances) into a cleared
  // target and returns its RGBA8 pixels.
  std::vector<uint8_t> Render(const std::vector<Vertex>& vertices, VkPrimitiveTopology topology, bool depth,
                              VkCullModeFlags cull = VK_CULL_MODE_NONE,
                              VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT) {
    VkImage color = Image(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, VK_IMAGE_ASPECT_COLOR_BIT,
                          samples);
    // Multisampled colour resolves (averaging) into a single-sampled image.
    VkImage resolved = samples != VK_SAMPLE_COUNT_1_BIT
                           ? Image(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
                                   VK_IMAGE_ASPECT_COLOR_BIT)
                           : VK_NULL_HANDLE;
    VkImage depth_image = depth ? Image(VK_FORMAT_D32_SFLOAT, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                                        VK_IMAGE_ASPECT_DEPTH_BIT)
                                : VK_NULL_HANDLE;
    VkPipeline pipeline = Pipeline(topology, depth, cull, samples);
    HostBuffer vb = Upload(vertices, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);

    VkRenderingAttachmentInfo color_attachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    color_attachment.imageView = View(color, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT);
    color_attachment.imageLayout = VK_IMAGE_LAYOUT_GENERAL;
    color_attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    color_attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    color_attachment.clearValue.color = {{0.0f, 0.0f, 0.0f, 0.0f}};
    if (resolved != VK_NULL_HANDLE) {
      color_attachment.resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT;
      color_attachment.resolveImageView = View(resolved, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT);
      color_attachment.resolveImageLayout = VK_IMAGE_LAYOUT_GENERAL;
    }
    VkRenderingAttachmentInfo depth_attachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    if (depth) {
      depth_attachment.imageView = View(depth_image, VK_FORMAT_D32_SFLOAT, VK_IMAGE_ASPECT_DEPTH_BIT);
      depth_attachment.imageLayout = VK_IMAGE_LAYOUT_GENERAL;
      depth_attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
      depth_attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
      depth_attachment.clearValue.depthStencil = {1.0f, 0};
    }
    VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
    info.renderArea = {{0, 0}, {kWidth, kHeight}};
    info.layerCount = 1;
    info.colorAttachmentCount = 1;
    info.pColorAttachments = &color_attachment;
    info.pDepthAttachment = depth ? &depth_attachment : nullptr;

    VkCommandBuffer cb = BeginCommands();
    vkCmdBeginRendering(cb, &info);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cb, 0, 1, &vb.buffer, &offset);
    vkCmdDraw(cb, uint32_t(vertices.size()), 1, 0, 0);
    vkCmdEndRendering(cb);
    EndSubmitWait(cb);
    return ReadImage(resolved != VK_NULL_HANDLE ? resolved : color, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0},
                     {kWidth, kHeight, 1}, 4);
  }
};

Vertex V(float x, float y, float z, float r, float g, float b) { return {{x, y, z, 1.0f}, {r, g, b, 1.0f}}; }

double WindowX(float ndc) { return (double(ndc) + 1.0) * 0.5 * kWidth; }
double WindowY(float ndc) { return (double(ndc) + 1.0) * 0.5 * kHeight; }

TEST_F(DrawTest, TriangleCoverageMatchesTheTopLeftRule) {
  // Vertices on pixel centres and on pixel edges exercise the tie rules.
  const std::vector<Vertex> v = {V(-0.75f, -0.5f, 0, 1, 1, 1), V(0.5f, -0.75f, 0, 1, 1, 1), V(0.0f, 0.75f, 0, 1, 1, 1)};
  std::vector<uint8_t> pixels = Render(v, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, false);
  const double x[3] = {WindowX(v[0].position[0]), WindowX(v[1].position[0]), WindowX(v[2].position[0])};
  const double y[3] = {WindowY(v[0].position[1]), WindowY(v[1].position[1]), WindowY(v[2].position[1])};
  int mismatches = 0, covered = 0;
  for (uint32_t py = 0; py < kHeight; ++py)
    for (uint32_t px = 0; px < kWidth; ++px) {
      const bool expected = ReferenceCovers(x, y, int(px), int(py));
      const bool got = pixels[(py * kWidth + px) * 4 + 3] != 0;
      covered += got;
      if (expected != got && mismatches++ < 10) ADD_FAILURE() << "pixel " << px << "," << py << " expected " << expected;
    }
  EXPECT_EQ(mismatches, 0);
  EXPECT_GT(covered, 200);
}

TEST_F(DrawTest, AdjacentTrianglesNeitherOverlapNorLeaveGaps) {
  // Two triangles sharing a diagonal, blended additively would show overlap;
  // here each writes its own colour and every pixel of the quad is covered once.
  const std::vector<Vertex> v = {V(-1, -1, 0, 1, 0, 0), V(1, -1, 0, 1, 0, 0), V(-1, 1, 0, 1, 0, 0),
                                 V(1, -1, 0, 0, 1, 0),  V(1, 1, 0, 0, 1, 0),  V(-1, 1, 0, 0, 1, 0)};
  std::vector<uint8_t> pixels = Render(v, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, false);
  for (uint32_t py = 0; py < kHeight; ++py)
    for (uint32_t px = 0; px < kWidth; ++px) {
      const uint8_t* p = &pixels[(py * kWidth + px) * 4];
      ASSERT_EQ(p[3], 255) << "gap at " << px << "," << py;
      ASSERT_TRUE((p[0] == 255) != (p[1] == 255)) << px << "," << py;
    }
}

TEST_F(DrawTest, ColorsInterpolateAcrossTheTriangle) {
  const std::vector<Vertex> v = {V(-1, -1, 0, 1, 0, 0), V(3, -1, 0, 0, 1, 0), V(-1, 3, 0, 0, 0, 1)};
  std::vector<uint8_t> pixels = Render(v, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, false);
  // The triangle covers the whole target; red + green + blue = 1 everywhere
  // and red falls off linearly with x + y.
  for (uint32_t py = 0; py < kHeight; py += 7)
    for (uint32_t px = 0; px < kWidth; px += 5) {
      const uint8_t* p = &pixels[(py * kWidth + px) * 4];
      const double u = (px + 0.5) / (2.0 * kWidth), w = (py + 0.5) / (2.0 * kHeight);
      EXPECT_NEAR(p[1], 255.0 * u, 1.01) << px << "," << py;
      EXPECT_NEAR(p[2], 255.0 * w, 1.01) << px << "," << py;
      EXPECT_NEAR(p[0], 255.0 * (1 - u - w), 1.01) << px << "," << py;
    }
}

TEST_F(DrawTest, DepthTestKeepsTheNearestTriangle) {
  // Far red triangle drawn after a near green one covering the same pixels.
  const std::vector<Vertex> v = {V(-1, -1, 0.25f, 0, 1, 0), V(3, -1, 0.25f, 0, 1, 0), V(-1, 3, 0.25f, 0, 1, 0),
                                 V(-1, -1, 0.75f, 1, 0, 0), V(3, -1, 0.75f, 1, 0, 0), V(-1, 3, 0.75f, 1, 0, 0)};
  std::vector<uint8_t> pixels = Render(v, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, true);
  for (uint32_t i = 0; i < kWidth * kHeight; ++i) {
    ASSERT_EQ(pixels[i * 4 + 0], 0) << i;
    ASSERT_EQ(pixels[i * 4 + 1], 255) << i;
  }
}

TEST_F(DrawTest, LaterTrianglesCoverEarlierOnesInOneDraw) {
  // Small red triangles, then a green rectangle over all of them in the
  // same draw (nearer, when depth-tested): the rectangle's fully covered
  // 8x8 blocks are shaded as waves of their own, which must not overtake
  // the red quads still waiting for a wave.
  for (const bool depth : {false, true}) {
    SCOPED_TRACE(depth ? "depth test" : "no depth test");
    std::vector<Vertex> v;
    // (In the top 8 rows, fewer quads than a wave: still waiting when the
    // rectangle's first row of blocks comes.)
    for (int i = 0; i < 3; ++i) {
      const float x = -0.8f + 0.4f * float(i), y = -0.95f;
      v.push_back(V(x, y, 0.75f, 1, 0, 0));
      v.push_back(V(x + 0.15f, y, 0.75f, 1, 0, 0));
      v.push_back(V(x, y + 0.25f, 0.75f, 1, 0, 0));
    }
    for (const Vertex& corner : {V(-1, -1, 0.25f, 0, 1, 0), V(1, -1, 0.25f, 0, 1, 0), V(-1, 1, 0.25f, 0, 1, 0),
                                 V(1, -1, 0.25f, 0, 1, 0), V(1, 1, 0.25f, 0, 1, 0), V(-1, 1, 0.25f, 0, 1, 0)})
      v.push_back(corner);
    const std::vector<uint8_t> pixels = Render(v, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, depth);
    for (uint32_t i = 0; i < kWidth * kHeight; ++i) {
      ASSERT_EQ(pixels[i * 4 + 0], 0) << "pixel " << i % kWidth << "," << i / kWidth;
      ASSERT_EQ(pixels[i * 4 + 1], 255) << "pixel " << i % kWidth << "," << i / kWidth;
    }
  }
}

TEST_F(DrawTest, BackFacesAreCulled) {
  // Counter-clockwise in framebuffer space (y down) is front with this state.
  const std::vector<Vertex> front = {V(-1, -1, 0, 1, 1, 1), V(-1, 1, 0, 1, 1, 1), V(1, -1, 0, 1, 1, 1)};
  const std::vector<Vertex> back = {V(-1, -1, 0, 1, 1, 1), V(1, -1, 0, 1, 1, 1), V(-1, 1, 0, 1, 1, 1)};
  std::vector<uint8_t> a = Render(front, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, false, VK_CULL_MODE_BACK_BIT);
  std::vector<uint8_t> b = Render(back, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, false, VK_CULL_MODE_BACK_BIT);
  size_t covered_a = 0, covered_b = 0;
  for (uint32_t i = 0; i < kWidth * kHeight; ++i) {
    covered_a += a[i * 4 + 3] != 0;
    covered_b += b[i * 4 + 3] != 0;
  }
  EXPECT_GT(covered_a, 0u);
  EXPECT_EQ(covered_b, 0u);
}

TEST_F(DrawTest, StripsAndFansCoverTheQuad) {
  const std::vector<Vertex> strip = {V(-1, -1, 0, 1, 1, 1), V(1, -1, 0, 1, 1, 1), V(-1, 1, 0, 1, 1, 1),
                                     V(1, 1, 0, 1, 1, 1)};
  const std::vector<Vertex> fan = {V(-1, -1, 0, 1, 1, 1), V(1, -1, 0, 1, 1, 1), V(1, 1, 0, 1, 1, 1),
                                   V(-1, 1, 0, 1, 1, 1)};
  for (auto [vertices, topology] : {std::pair{strip, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP},
                                    std::pair{fan, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN}}) {
    std::vector<uint8_t> pixels = Render(vertices, topology, false);
    for (uint32_t i = 0; i < kWidth * kHeight; ++i) ASSERT_EQ(pixels[i * 4 + 3], 255) << "topology " << topology;
  }
}

TEST_F(DrawTest, PointsAreSquaresOfTheirSize) {
  // Window position (20, 12) exactly: a size-4 point covers x 18..21, y 10..13.
  const float x = 20.0f / kWidth * 2 - 1, y = 12.0f / kHeight * 2 - 1;
  std::vector<uint8_t> pixels = Render({V(x, y, 0, 0, 1, 0)}, VK_PRIMITIVE_TOPOLOGY_POINT_LIST, false);
  for (uint32_t py = 0; py < kHeight; ++py)
    for (uint32_t px = 0; px < kWidth; ++px) {
      const bool inside = px >= 18 && px < 22 && py >= 10 && py < 14;
      ASSERT_EQ(pixels[(py * kWidth + px) * 4 + 1], inside ? 255 : 0) << px << "," << py;
    }
}

// PointSize outside pointSizeRange is clamped to it: a point centred on
// the first pixel of a wide target covers half its clamped size (rounded
// up) of the row.
TEST_F(DrawTest, PointSizesAreClampedToTheRange) {
  const float max_size = props_.limits.pointSizeRange[1];
  const VkExtent2D extent{uint32_t(max_size) + 64, 2};
  PipelineDesc desc;
  desc.vertex = Module(kPointSizeVert);
  desc.fragment = Module(kFlatColorFrag);
  desc.layout = MakePipelineLayout({}, 32);
  desc.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  desc.extent = extent;
  const VkPipeline pipeline = MakePipeline(desc);
  ASSERT_NE(pipeline, VK_NULL_HANDLE);
  // flat_color.frag's colour is the 16 bytes from offset 16: (size, 1, 1, 1).
  struct {
    float position[4];
    float size;
    float green_blue_alpha[3];
  } point{{Ndc(0.5, extent.width), Ndc(0.5, extent.height), 0.0f, 1.0f}, 0, {1, 1, 1}};
  for (float size : {max_size * 2, max_size + 100, 0.25f, 0.0f, -3.0f}) {
    const Target target = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, extent);
    VkCommandBuffer cb = BeginCommands();
    BeginRendering(cb, {{&target, VK_ATTACHMENT_LOAD_OP_CLEAR}});
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    point.size = size;
    vkCmdPushConstants(cb, desc.layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof point,
                       &point);
    vkCmdDraw(cb, 1, 1, 0, 0);
    vkCmdEndRendering(cb);
    ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
    const std::vector<uint32_t> pixels = Read<uint32_t>(target);
    ASSERT_EQ(pixels.size(), size_t(extent.width * extent.height));
    const float clamped = std::clamp(size, props_.limits.pointSizeRange[0], max_size);
    uint32_t covered = 0;
    for (uint32_t x = 0; x < extent.width; ++x) covered += pixels[x] != 0 ? 1 : 0;
    EXPECT_EQ(covered, uint32_t(std::ceil(clamped / 2))) << "point size " << size;
  }
}

// vkCmdBindVertexBuffers2's strides replace the pipeline's only when it
// has VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE; a pipeline with static
// strides ignores them (dEQP-VK...extended_dynamic_state.before_good_static).
TEST_F(DrawTest, BindVertexBuffers2StridesApplyToDynamicStridePipelinesOnly) {
  constexpr VkExtent2D kExtent{8, 8};
  const float corners[3][2] = {{-1.0f, -1.0f}, {3.0f, -1.0f}, {-1.0f, 3.0f}};
  // The triangle laid out with `stride` bytes per ColorVertex (zero padding).
  auto vertices = [&](size_t stride) {
    std::vector<uint8_t> bytes(3 * stride, 0);
    for (int v = 0; v < 3; ++v) {
      const ColorVertex cv{{corners[v][0], corners[v][1], 0.0f, 1.0f}, {1.0f, 0.0f, 0.0f, 1.0f}};
      std::memcpy(bytes.data() + v * stride, &cv, sizeof cv);
    }
    return bytes;
  };
  for (bool dynamic : {false, true}) {
    PipelineDesc desc = ColorPipeline(kExtent);  // binding stride 32
    if (dynamic) desc.dynamic_states = {VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE};
    const VkPipeline pipeline = MakePipeline(desc);
    ASSERT_NE(pipeline, VK_NULL_HANDLE);
    // The data is laid out with the stride the pipeline must use: 48 when
    // dynamic (given to vkCmdBindVertexBuffers2), else the static 32.
    HostBuffer buffer = Upload(vertices(dynamic ? 48 : sizeof(ColorVertex)), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    const Target target = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
    VkCommandBuffer cb = BeginCommands();
    BeginRendering(cb, {{&target, VK_ATTACHMENT_LOAD_OP_CLEAR}});
    // The strides are set before the pipeline is bound: a static pipeline
    // then overrides them (setting them after would be invalid usage).
    const VkDeviceSize offset = 0, stride = 48;
    vkCmdBindVertexBuffers2(cb, 0, 1, &buffer.buffer, &offset, nullptr, &stride);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdDraw(cb, 3, 1, 0, 0);
    vkCmdEndRendering(cb);
    ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
    for (uint32_t p : Read<uint32_t>(target)) ASSERT_EQ(p, 0xFF0000FFu) << (dynamic ? "dynamic" : "static") << " strides";
  }
}

TEST_F(DrawTest, LinesCoverOnePixelAcrossTheirLength) {
  // Window y 24.25: the 1-pixel-wide rectangle spans y 23.75..24.75, so only row 24's centres are inside.
  const float y = 24.25f / kHeight * 2 - 1;
  const float x = 16.25f / kWidth * 2 - 1;
  std::vector<uint8_t> h = Render({V(-1, y, 0, 1, 0, 0), V(1, y, 0, 1, 0, 0)}, VK_PRIMITIVE_TOPOLOGY_LINE_LIST, false);
  std::vector<uint8_t> v = Render({V(x, -1, 0, 1, 0, 0), V(x, 1, 0, 1, 0, 0)}, VK_PRIMITIVE_TOPOLOGY_LINE_STRIP, false);
  for (uint32_t py = 0; py < kHeight; ++py)
    for (uint32_t px = 0; px < kWidth; ++px) {
      ASSERT_EQ(h[(py * kWidth + px) * 4], py == 24 ? 255 : 0) << "horizontal " << px << "," << py;
      ASSERT_EQ(v[(py * kWidth + px) * 4], px == 16 ? 255 : 0) << "vertical " << px << "," << py;
    }
}

// wideLines: a line of width w is a w-wide rectangle centred on it
// (strictLines); a width far beyond lineWidthRange still draws (clamped).
TEST_F(DrawTest, WideLinesAreRectanglesOfTheirWidth) {
  ASSERT_EQ(features_.wideLines, VK_TRUE);
  ASSERT_GE(props_.limits.lineWidthRange[1], 8.0f);
  const float y = 24.5f / kHeight * 2 - 1;  // a horizontal line through pixel centres' midpoint rows
  const float x = 16.0f / kWidth * 2 - 1;   // a vertical line on a pixel edge
  line_width_ = 5.0f;  // y 22..27: rows 22..26
  std::vector<uint8_t> h = Render({V(-1, y, 0, 1, 0, 0), V(1, y, 0, 1, 0, 0)}, VK_PRIMITIVE_TOPOLOGY_LINE_LIST, false);
  line_width_ = 4.0f;  // x 14..18: columns 14..17
  std::vector<uint8_t> v = Render({V(x, -1, 0, 1, 0, 0), V(x, 1, 0, 1, 0, 0)}, VK_PRIMITIVE_TOPOLOGY_LINE_LIST, false);
  line_width_ = 1e6f;  // clamped to the range's end
  std::vector<uint8_t> huge =
      Render({V(-1, y, 0, 1, 0, 0), V(1, y, 0, 1, 0, 0)}, VK_PRIMITIVE_TOPOLOGY_LINE_LIST, false);
  for (uint32_t py = 0; py < kHeight; ++py)
    for (uint32_t px = 0; px < kWidth; ++px) {
      ASSERT_EQ(h[(py * kWidth + px) * 4], py >= 22 && py <= 26 ? 255 : 0) << "horizontal " << px << "," << py;
      ASSERT_EQ(v[(py * kWidth + px) * 4], px >= 14 && px <= 17 ? 255 : 0) << "vertical " << px << "," << py;
      ASSERT_EQ(huge[(py * kWidth + px) * 4], 255) << "clamped " << px << "," << py;  // 64 wide: every row
    }
}

TEST_F(DrawTest, MultisampledEdgesResolveToPartialCoverage) {
  // A triangle over half the target; with 4 samples at the standard
  // positions, each pixel resolves to (covered samples / 4) of white.
  const std::vector<Vertex> v = {V(-1, -1, 0, 1, 1, 1), V(1, -1, 0, 1, 1, 1), V(-1, 0.9f, 0, 1, 1, 1)};
  std::vector<uint8_t> pixels = Render(v, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, false, VK_CULL_MODE_NONE,
                                       VK_SAMPLE_COUNT_4_BIT);
  const double x[3] = {WindowX(-1), WindowX(1), WindowX(-1)};
  const double y[3] = {WindowY(-1), WindowY(-1), WindowY(0.9f)};
  static constexpr double kPositions[4][2] = {{0.375, 0.125}, {0.875, 0.375}, {0.125, 0.625}, {0.625, 0.875}};
  int partial = 0;
  for (uint32_t py = 0; py < kHeight; ++py)
    for (uint32_t px = 0; px < kWidth; ++px) {
      int covered = 0;
      for (const auto& s : kPositions) {
        // Sample-centred reference: shift the triangle so the sample sits at a pixel centre.
        const double sx[3] = {x[0] + 0.5 - s[0], x[1] + 0.5 - s[0], x[2] + 0.5 - s[0]};
        const double sy[3] = {y[0] + 0.5 - s[1], y[1] + 0.5 - s[1], y[2] + 0.5 - s[1]};
        covered += ReferenceCovers(sx, sy, int(px), int(py));
      }
      partial += covered > 0 && covered < 4;
      ASSERT_NEAR(pixels[(py * kWidth + px) * 4], 255.0 * covered / 4, 1.01) << px << "," << py;
    }
  EXPECT_GT(partial, 10);
}

// A 4x4 texture stretched over the target with a nearest sampler: each
// texel covers a 16x12 block; with a linear sampler the centre of each
// block still reads the texel exactly.
TEST_F(DrawTest, TexturedQuadSamplesTheTexture) {
  VkImage texture = MakeGeneralImage(ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {4, 4, 1}));
  std::vector<uint8_t> texels(4 * 4 * 4);
  for (uint32_t i = 0; i < 16; ++i) {
    texels[i * 4 + 0] = uint8_t(i * 16);
    texels[i * 4 + 1] = uint8_t(255 - i * 16);
    texels[i * 4 + 2] = uint8_t((i % 2) * 255);
    texels[i * 4 + 3] = 255;
  }
  WriteImage(texture, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {4, 4, 1}, 4, texels);
  VkImageView texture_view = View(texture, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT);

  for (VkFilter filter : {VK_FILTER_NEAREST, VK_FILTER_LINEAR}) {
    VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    sci.magFilter = sci.minFilter = filter;
    sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    sci.maxLod = 0.25f;
    const DescriptorSet set = MakeDescriptorSet({VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER});
    WriteSampler(set, 0, MakeSampler(sci), texture_view);
    PipelineDesc desc;
    desc.vertex = Module(kTexturedVert);
    desc.fragment = Module(kTexturedFrag);
    desc.layout = MakePipelineLayout({set.layout});
    desc.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
    desc.extent = {kWidth, kHeight};
    VkPipeline pipeline = MakePipeline(desc);
    ASSERT_NE(pipeline, VK_NULL_HANDLE);

    const Target color = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, {kWidth, kHeight});
    VkCommandBuffer cmd = BeginCommands();
    BeginRendering(cmd, {{&color, VK_ATTACHMENT_LOAD_OP_CLEAR, {}}});
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, desc.layout, 0, 1, &set.set, 0, nullptr);
    vkCmdDraw(cmd, 4, 1, 0, 0);
    vkCmdEndRendering(cmd);
    EndSubmitWait(cmd);
    const std::vector<uint32_t> words = Read<uint32_t>(color);
    ASSERT_EQ(words.size(), kWidth * kHeight);
    const uint8_t* pixels = reinterpret_cast<const uint8_t*>(words.data());
    for (uint32_t ty = 0; ty < 4; ++ty)
      for (uint32_t tx = 0; tx < 4; ++tx) {
        // The pixel nearest the texel's centre: (16 tx + 8, 12 ty + 6) has uv exactly at the centre + 1/2 pixel.
        const uint32_t px = tx * 16 + 7, py = ty * 12 + 5;
        const uint8_t* p = &pixels[(py * kWidth + px) * 4];
        const uint8_t* t = &texels[(ty * 4 + tx) * 4];
        const int tolerance = filter == VK_FILTER_NEAREST ? 0 : 12;
        for (int c = 0; c < 4; ++c)
          EXPECT_NEAR(p[c], t[c], tolerance) << "texel " << tx << "," << ty << " channel " << c << " filter " << filter;
      }
  }
}

}  // namespace
}  // namespace duet_test
