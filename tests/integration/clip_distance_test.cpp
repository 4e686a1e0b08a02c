// User clip and cull distances (shaderClipDistance, shaderCullDistance):
// clip distances cut primitives where they are negative, interpolated
// across the primitive, and reach the fragment shader; cull distances drop
// whole primitives whose vertices are all outside one plane, and nothing
// else.
#include <cmath>
#include <vector>

#include "graphics_fixture.h"
#include "shaders/clip_distances.frag.h"
#include "shaders/clip_distances.vert.h"
#include "shaders/color_triangle.frag.h"
#include "shaders/cull_distances.vert.h"

namespace duet_test {
namespace {

constexpr uint32_t kSize = 32;
constexpr VkExtent2D kExtent{kSize, kSize};

class ClipDistanceTest : public GraphicsTest {
 protected:
  void SetUp() override {
    GraphicsTest::SetUp();
    if (HasFatalFailure()) return;
    ASSERT_EQ(features_.shaderClipDistance, VK_TRUE);
    ASSERT_EQ(features_.shaderCullDistance, VK_TRUE);
  }

  // Draws `vertex_count` vertices of `vertex` / `fragment` into a cleared
  // target of `format`; returns its texels as T.
  template <typename T>
  std::vector<T> Draw(VkShaderModule vertex, VkShaderModule fragment, VkPrimitiveTopology topology,
                      uint32_t vertex_count, VkFormat format) {
    PipelineDesc desc;
    desc.vertex = vertex;
    desc.fragment = fragment;
    desc.topology = topology;
    desc.extent = kExtent;
    desc.color_formats = {format};
    const VkPipeline pipeline = MakePipeline(desc);
    const Target target = MakeTarget(format, kExtent);
    VkCommandBuffer cb = BeginCommands();
    BeginRendering(cb, {{&target, VK_ATTACHMENT_LOAD_OP_CLEAR, {}}});
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdDraw(cb, vertex_count, 1, 0, 0);
    vkCmdEndRendering(cb);
    EndSubmitWait(cb);
    return Read<T>(target);
  }
};

struct Rgba32f {
  float c[4];
};

// The quad is cut to x >= 0.25 and y <= 0.5; every pixel drawn shows the
// distances interpolated at its centre.
TEST_F(ClipDistanceTest, ClipDistancesCutAndInterpolate) {
  const std::vector<Rgba32f> texels =
      Draw<Rgba32f>(Module(kClipDistancesVert), Module(kClipDistancesFrag), VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, 4,
                    VK_FORMAT_R32G32B32A32_SFLOAT);
  ASSERT_EQ(texels.size(), kSize * kSize);
  uint32_t drawn = 0;
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      const double px = Ndc(x + 0.5, kSize), py = Ndc(y + 0.5, kSize);
      const double d0 = px - 0.25, d1 = 0.5 - py;
      const Rgba32f& t = texels[y * kSize + x];
      if (std::abs(d0) < 0.04 || std::abs(d1) < 0.04) continue;  // centres near a clip edge
      if (d0 < 0 || d1 < 0) {
        EXPECT_EQ(t.c[3], 0.0f) << "clipped pixel " << x << "," << y << " was drawn";
        continue;
      }
      ++drawn;
      EXPECT_NEAR(t.c[0], d0, 1e-4) << x << "," << y;
      EXPECT_NEAR(t.c[1], d1, 1e-4) << x << "," << y;
      EXPECT_NEAR(t.c[2], 4.0, 1e-4) << x << "," << y;
      EXPECT_EQ(t.c[3], 1.0f) << x << "," << y;
    }
  EXPECT_GT(drawn, 100u);
}

// The left triangle is culled, the one across x = 0 drawn whole (culling
// does not clip), the right one drawn.
TEST_F(ClipDistanceTest, CullDistancesDropWholePrimitives) {
  const std::vector<uint32_t> pixels =
      Draw<uint32_t>(Module(kCullDistancesVert), Module(kColorTriangleFrag), VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, 9,
                     VK_FORMAT_R8G8B8A8_UNORM);
  ASSERT_EQ(pixels.size(), kSize * kSize);
  auto at = [&](double ndc_x, double ndc_y) {
    const uint32_t x = uint32_t((ndc_x + 1) * 0.5 * kSize), y = uint32_t((ndc_y + 1) * 0.5 * kSize);
    return pixels[y * kSize + x];
  };
  const uint32_t white = PackRgba8(255, 255, 255, 255);
  EXPECT_EQ(at(-0.8, -0.8), 0u) << "the triangle left of x = 0 was not culled";
  EXPECT_EQ(at(-0.4, 0.3), white) << "the left part of the triangle across x = 0 is missing";
  EXPECT_EQ(at(0.1, 0.2), white);
  EXPECT_EQ(at(0.8, -0.8), white) << "the triangle right of x = 0 is missing";
}

}  // namespace
}  // namespace duet_test
