// Whole scenes through the loader, compared with other renderings of
// themselves: a lit, textured, depth-tested cube against lavapipe (Mesa's
// software Vulkan driver) rendering the same commands in a child process,
// and a scene of many blended, depth-tested triangles over several tiles
// rendered with DUET_THREADS=1 and DUET_THREADS=4 (children too), which
// must be the same to the bit.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>
#include <vector>

#include "child_test_process.h"
#include "graphics_fixture.h"
#include "shaders/color_triangle_discard.frag.h"
#include "shaders/lit_cube.frag.h"
#include "shaders/lit_cube.vert.h"

namespace duet_test {
namespace {

constexpr const char* kLavapipeManifest = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";

using Mat4 = std::array<float, 16>;  // column-major, as GLSL reads it

Mat4 Multiply(const Mat4& a, const Mat4& b) {
  Mat4 m{};
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r)
      for (int k = 0; k < 4; ++k) m[size_t(c * 4 + r)] += a[size_t(k * 4 + r)] * b[size_t(c * 4 + k)];
  return m;
}

Mat4 Rotation(float radians, int axis) {
  const float c = std::cos(radians), s = std::sin(radians);
  Mat4 m{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  const int i = (axis + 1) % 3, j = (axis + 2) % 3;
  m[size_t(i * 4 + i)] = c;
  m[size_t(j * 4 + j)] = c;
  m[size_t(i * 4 + j)] = s;
  m[size_t(j * 4 + i)] = -s;
  return m;
}

// A perspective projection for Vulkan clip space (y down, depth 0..1),
// looking down +z from the origin, the scene moved `distance` away.
Mat4 Projection(float fov_y, float near_plane, float far_plane, float distance) {
  const float f = 1.0f / std::tan(fov_y / 2);
  Mat4 p{};
  p[0] = f;
  p[5] = f;
  p[10] = far_plane / (far_plane - near_plane);
  p[11] = 1;
  p[14] = -near_plane * far_plane / (far_plane - near_plane);
  Mat4 t{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, distance, 1};
  return Multiply(p, t);
}

struct CubeVertex {
  float position[3];
  float normal[3];
  float uv[2];
};

// The unit cube's 36 vertices, outward faces counter-clockwise seen from outside.
std::vector<CubeVertex> CubeMesh() {
  std::vector<CubeVertex> v;
  for (int axis = 0; axis < 3; ++axis)
    for (float sign : {-1.0f, 1.0f}) {
      const int i = (axis + 1) % 3, j = (axis + 2) % 3;
      auto corner = [&](float a, float b) {
        CubeVertex c{};
        c.position[axis] = sign;
        c.position[i] = a;
        c.position[j] = b * sign;
        c.normal[axis] = sign;
        c.uv[0] = (a + 1) / 2;
        c.uv[1] = (b + 1) / 2;
        return c;
      };
      const CubeVertex q[4] = {corner(-1, -1), corner(1, -1), corner(1, 1), corner(-1, 1)};
      for (int k : {0, 1, 2, 0, 2, 3}) v.push_back(q[k]);
    }
  return v;
}

class SceneTest : public GraphicsTest {
 protected:
  // The lit cube: a 16x16 texture of coloured checks, back faces culled,
  // depth tested; returns the RGBA8 pixels.
  std::vector<uint32_t> RenderLitCube(VkExtent2D extent) {
    VkImageCreateInfo ici = ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {16, 16, 1});
    const VkImage texture = MakeGeneralImage(ici);
    std::vector<uint32_t> texels(16 * 16);
    for (uint32_t i = 0; i < texels.size(); ++i) {
      const uint32_t x = i % 16, y = i / 16;
      texels[i] = ((x / 4 + y / 4) % 2) ? PackRgba8(230, 200, 40, 255) : PackRgba8(40 + x * 12, 60, 200 - y * 10, 255);
    }
    WriteImage(texture, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {16, 16, 1}, 4,
               {reinterpret_cast<const uint8_t*>(texels.data()), texels.size() * 4});
    const VkImageView view =
        MakeView(texture, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1});
    VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    sci.magFilter = sci.minFilter = VK_FILTER_LINEAR;
    sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    const DescriptorSet set = MakeDescriptorSet({VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER});
    WriteSampler(set, 0, MakeSampler(sci), view);

    // 128 bytes of push constants (maxPushConstantsSize's minimum, lavapipe's).
    struct Scene {
      Mat4 mvp;
      float model[3][4];  // the model matrix's first three columns
      float light[4];
    } scene;
    const Mat4 model = Multiply(Rotation(0.6f, 1), Rotation(0.45f, 0));
    std::memcpy(scene.model, model.data(), sizeof scene.model);
    scene.mvp = Multiply(Projection(0.9f, 0.5f, 20.0f, 4.5f), model);
    scene.light[0] = 0.4f;
    scene.light[1] = -0.7f;
    scene.light[2] = -0.6f;
    scene.light[3] = 0;

    PipelineDesc desc;
    desc.vertex = Module(kLitCubeVert);
    desc.fragment = Module(kLitCubeFrag);
    desc.layout = MakePipelineLayout({set.layout}, sizeof scene);
    desc.extent = extent;
    desc.bindings = {{0, sizeof(CubeVertex), VK_VERTEX_INPUT_RATE_VERTEX}};
    desc.attributes = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},
                       {1, 0, VK_FORMAT_R32G32B32_SFLOAT, 12},
                       {2, 0, VK_FORMAT_R32G32_SFLOAT, 24}};
    desc.rasterization.cullMode = VK_CULL_MODE_BACK_BIT;
    desc.depth_format = VK_FORMAT_D32_SFLOAT;
    desc.depth_stencil.depthTestEnable = VK_TRUE;
    desc.depth_stencil.depthWriteEnable = VK_TRUE;
    desc.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
    const VkPipeline pipeline = MakePipeline(desc);
    const std::vector<CubeVertex> mesh = CubeMesh();
    HostBuffer vb = Upload(mesh, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    const Target color = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, extent);
    const Target depth = MakeTarget(VK_FORMAT_D32_SFLOAT, extent);
    VkClearValue background{}, far{};
    background.color = {{0.1f, 0.1f, 0.15f, 1.0f}};
    far.depthStencil = {1.0f, 0};
    VkCommandBuffer cb = BeginCommands();
    BeginRendering(cb, {{&color, VK_ATTACHMENT_LOAD_OP_CLEAR, background}}, {&depth, VK_ATTACHMENT_LOAD_OP_CLEAR, far});
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, desc.layout, 0, 1, &set.set, 0, nullptr);
    vkCmdPushConstants(cb, desc.layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof scene,
                       &scene);
    VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cb, 0, 1, &vb.buffer, &offset);
    vkCmdDraw(cb, uint32_t(mesh.size()), 1, 0, 0);
    vkCmdEndRendering(cb);
    EndSubmitWait(cb);
    return Read<uint32_t>(color);
  }

  // Many overlapping triangles, alpha-blended (so their order shows) and
  // depth-tested, over 3x2 tiles of 64x64 pixels.
  // How RenderTriangles draws: blended or not, the depth format, and a
  // fragment shader other than color_triangle.frag.
  struct TriangleScene {
    bool blend = true;
    VkFormat depth_format = VK_FORMAT_D32_SFLOAT;
    const uint32_t* fragment = nullptr;
    size_t fragment_bytes = 0;
    std::vector<uint8_t>* depth_bytes = nullptr;  // receives the depth attachment
    uint32_t triangles = 400;
    // Triangles per draw (0: half in one draw, the rest in draws of 20).
    uint32_t per_draw = 0;
  };

  std::vector<uint32_t> RenderTriangles(VkExtent2D extent) { return RenderTriangles(extent, TriangleScene{}); }
  std::vector<uint32_t> RenderTriangles(VkExtent2D extent, const TriangleScene& scene) {
    Random random(2024);
    std::vector<ColorVertex> vertices;
    for (uint32_t t = 0; t < scene.triangles; ++t) {
      const float cx = random.Uniform(-1.1f, 1.1f), cy = random.Uniform(-1.1f, 1.1f);
      const float size = random.Uniform(0.02f, 0.5f);
      for (int k = 0; k < 3; ++k)
        vertices.push_back({{cx + random.Uniform(-size, size), cy + random.Uniform(-size, size),
                             random.Uniform(0.0f, 1.0f), 1.0f},
                            {random.Uniform(0, 1), random.Uniform(0, 1), random.Uniform(0, 1),
                             random.Uniform(0.3f, 0.9f)}});
    }
    PipelineDesc desc = ColorPipeline(extent);
    if (scene.blend)
      desc.blend = {BlendState(true, VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD,
                               VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD)};
    if (scene.fragment != nullptr) desc.fragment = Module(scene.fragment, scene.fragment_bytes);
    desc.depth_format = scene.depth_format;
    desc.depth_stencil.depthTestEnable = VK_TRUE;
    desc.depth_stencil.depthWriteEnable = VK_TRUE;
    desc.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
    const VkPipeline pipeline = MakePipeline(desc);
    HostBuffer vb = Upload(vertices, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    const Target color = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, extent);
    const Target depth = MakeTarget(scene.depth_format, extent);
    VkClearValue far{};
    far.depthStencil = {1.0f, 0};
    VkCommandBuffer cb = BeginCommands();
    BeginRendering(cb, {{&color, VK_ATTACHMENT_LOAD_OP_CLEAR, {}}}, {&depth, VK_ATTACHMENT_LOAD_OP_CLEAR, far});
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cb, 0, 1, &vb.buffer, &offset);
    const uint32_t count = uint32_t(vertices.size());
    if (scene.per_draw == 0) {
      // Half in one draw, half in several small ones.
      vkCmdDraw(cb, count / 2, 1, 0, 0);
      for (uint32_t first = count / 2; first < count; first += 60) vkCmdDraw(cb, std::min(60u, count - first), 1, first, 0);
    } else {
      for (uint32_t first = 0; first < count; first += 3 * scene.per_draw)
        vkCmdDraw(cb, std::min(3 * scene.per_draw, count - first), 1, first, 0);
    }
    vkCmdEndRendering(cb);
    EndSubmitWait(cb);
    if (scene.depth_bytes != nullptr)
      *scene.depth_bytes = scene.depth_format == VK_FORMAT_D16_UNORM
                               ? Bytes16(Read<uint16_t>(depth, VK_IMAGE_ASPECT_DEPTH_BIT))
                               : Bytes(Read<uint32_t>(depth, VK_IMAGE_ASPECT_DEPTH_BIT));
    return Read<uint32_t>(color);
  }

  static std::vector<uint8_t> Bytes16(const std::vector<uint16_t>& texels) {
    const uint8_t* p = reinterpret_cast<const uint8_t*>(texels.data());
    return {p, p + texels.size() * 2};
  }

  static std::vector<uint8_t> Bytes(const std::vector<uint32_t>& pixels) {
    const uint8_t* p = reinterpret_cast<const uint8_t*>(pixels.data());
    return {p, p + pixels.size() * 4};
  }
  static std::vector<uint32_t> Pixels(const std::vector<uint8_t>& bytes) {
    std::vector<uint32_t> pixels(bytes.size() / 4);
    std::memcpy(pixels.data(), bytes.data(), pixels.size() * 4);
    return pixels;
  }
};

constexpr VkExtent2D kCubeExtent{64, 64};
constexpr VkExtent2D kTrianglesExtent{160, 128};

TEST_F(SceneTest, LitTexturedCubeMatchesLavapipe) {
  const std::string name = CurrentTestName();
  if (IsChildFor(name)) {  // the reference rendering, on whichever driver the parent chose
    ASSERT_TRUE(WriteChildImage(Bytes(RenderLitCube(kCubeExtent))));
    return;
  }
  struct stat st;
  if (stat(kLavapipeManifest, &st) != 0)
    GTEST_SKIP() << "lavapipe is not installed (" << kLavapipeManifest << "; Debian package mesa-vulkan-drivers)";
  const std::vector<uint32_t> duet = RenderLitCube(kCubeExtent);
  std::string log;
  const std::vector<uint32_t> lavapipe =
      Pixels(RenderInChild(name, {{"DUET_TEST_ICD_FILENAMES", kLavapipeManifest}}, &log));
  if (lavapipe.empty()) GTEST_SKIP() << "lavapipe did not render the scene (not Duet's problem):\n" << log;
  ASSERT_EQ(duet.size(), lavapipe.size());
  // Edge pixels may differ (coverage and interpolation precision); the
  // rest must agree closely.
  size_t bad = 0, cube = 0;
  double total = 0;
  for (size_t i = 0; i < duet.size(); ++i) {
    int worst = 0;
    for (int c = 0; c < 4; ++c) worst = std::max(worst, std::abs(int(Channel(duet[i], c)) - int(Channel(lavapipe[i], c))));
    total += worst;
    bad += worst > 24;
    cube += duet[i] != duet[0];
  }
  const double mean = total / double(duet.size());
  std::printf("Duet against lavapipe: mean worst-channel difference %.3f, %zu of %zu pixels differ by more than 24\n",
              mean, bad, duet.size());
  EXPECT_GT(cube, duet.size() / 5) << "the cube should cover a good part of the image";
  EXPECT_LT(mean, 1.5);
  EXPECT_LE(bad, duet.size() / 50);
}

TEST_F(SceneTest, ThreadCountDoesNotChangeTheImage) {
  const std::string name = CurrentTestName();
  if (IsChildFor(name)) {
    ASSERT_TRUE(WriteChildImage(Bytes(RenderTriangles(kTrianglesExtent))));
    return;
  }
  std::string log_one, log_four;
  const std::vector<uint8_t> one = RenderInChild(name, {{"DUET_THREADS", "1"}}, &log_one);
  const std::vector<uint8_t> four = RenderInChild(name, {{"DUET_THREADS", "4"}}, &log_four);
  ASSERT_FALSE(one.empty()) << log_one;
  ASSERT_FALSE(four.empty()) << log_four;
  ASSERT_EQ(one.size(), size_t(kTrianglesExtent.width) * kTrianglesExtent.height * 4);
  EXPECT_EQ(FirstDifference(one, four), SIZE_MAX) << "1 thread against 4";
  // And this process, with the default thread count.
  const std::vector<uint8_t> here = Bytes(RenderTriangles(kTrianglesExtent));
  EXPECT_EQ(FirstDifference(one, here), SIZE_MAX) << "1 thread against the default";
  // The scene is not trivial: most pixels were drawn.
  size_t drawn = 0;
  for (size_t i = 3; i < here.size(); i += 4) drawn += here[i] != 0;
  EXPECT_GT(drawn, here.size() / 4 / 2);
}

// Depth tests before shading (color_triangle.frag cannot drop a fragment)
// and after it (the same colours from a shader with a discard) give the
// same colours and depths: overlapping triangles share waves, so their
// order within one has to hold either way.
TEST_F(SceneTest, EarlyAndLateDepthTestsGiveTheSameImage) {
  // Also an odd size: quads at the right and bottom edges reach past the
  // attachment (under ThreadSanitizer, a test touching the next row's
  // texel from another tile's thread fails here).
  for (const VkExtent2D extent : {kTrianglesExtent, VkExtent2D{131, 67}})
  for (VkFormat format : {VK_FORMAT_D32_SFLOAT, VK_FORMAT_D16_UNORM}) {
    SCOPED_TRACE(testing::Message() << "format " << format << ", " << extent.width << "x" << extent.height);
    TriangleScene early;
    early.blend = false;
    early.depth_format = format;
    std::vector<uint8_t> early_depth, late_depth;
    early.depth_bytes = &early_depth;
    TriangleScene late = early;
    late.fragment = kColorTriangleDiscardFrag;
    late.fragment_bytes = sizeof kColorTriangleDiscardFrag;
    late.depth_bytes = &late_depth;
    const std::vector<uint8_t> early_color = Bytes(RenderTriangles(extent, early));
    const std::vector<uint8_t> late_color = Bytes(RenderTriangles(extent, late));
    ASSERT_EQ(early_color.size(), size_t(extent.width) * extent.height * 4);
    EXPECT_EQ(FirstDifference(early_color, late_color), SIZE_MAX) << "colour";
    ASSERT_FALSE(early_depth.empty());
    EXPECT_EQ(FirstDifference(early_depth, late_depth), SIZE_MAX) << "depth";
    size_t drawn = 0;
    for (size_t i = 3; i < early_color.size(); i += 4) drawn += early_color[i] != 0;
    EXPECT_GT(drawn, early_color.size() / 4 / 2);
  }
}

// A long triangle list is set up in chunks on the thread pool and put back
// together in order: one draw of 5000 triangles gives the image (and depth)
// of the same triangles drawn 1000 at a time, set up in order on one thread.
TEST_F(SceneTest, OneLongDrawEqualsShortDraws) {
  TriangleScene one;
  one.blend = false;
  one.triangles = 5000;
  one.per_draw = 5000;
  std::vector<uint8_t> one_depth, short_depth;
  one.depth_bytes = &one_depth;
  TriangleScene short_draws = one;
  short_draws.per_draw = 1000;
  short_draws.depth_bytes = &short_depth;
  const std::vector<uint8_t> a = Bytes(RenderTriangles(kTrianglesExtent, one));
  const std::vector<uint8_t> b = Bytes(RenderTriangles(kTrianglesExtent, short_draws));
  ASSERT_EQ(a.size(), size_t(kTrianglesExtent.width) * kTrianglesExtent.height * 4);
  EXPECT_EQ(FirstDifference(a, b), SIZE_MAX) << "colour";
  EXPECT_EQ(FirstDifference(one_depth, short_depth), SIZE_MAX) << "depth";
}

}  // namespace
}  // namespace duet_test
