// Fragment derivatives over 2x2 quads: dFdx/dFdy fine (along the
// fragment's own row or column of its quad), coarse (along one of the
// quad's rows or columns: the spec leaves which, and lets coarse be fine),
// fwidth, and the unqualified forms (fine or coarse).
#include <cmath>
#include <string>

#include "graphics_fixture.h"
#include "shaders/quad_derivatives.frag.h"

namespace duet_test {
namespace {

class DerivativeTest : public GraphicsTest {};

// The shader's function at the centre of pixel (x, y).
double F(int x, int y) {
  const double px = x + 0.5, py = y + 0.5;
  return px * px + 3 * py * py + px * py;
}

TEST_F(DerivativeTest, FineAndCoarseDifferencesWithinEachQuad) {
  constexpr VkExtent2D kExtent{16, 8};
  PipelineDesc desc = RectPipeline(Module(kQuadDerivativesFrag), kExtent);
  desc.color_formats = {VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R32G32B32A32_SFLOAT};
  const VkPipeline pipeline = MakePipeline(desc);
  const Target fine = MakeTarget(VK_FORMAT_R32G32B32A32_SFLOAT, kExtent);
  const Target coarse = MakeTarget(VK_FORMAT_R32G32B32A32_SFLOAT, kExtent);
  VkCommandBuffer cb = BeginCommands();
  BeginRendering(cb, {{&fine, VK_ATTACHMENT_LOAD_OP_CLEAR}, {&coarse, VK_ATTACHMENT_LOAD_OP_CLEAR}});
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  DrawRect(cb, desc.layout, RectParams{});
  vkCmdEndRendering(cb);
  EndSubmitWait(cb);
  struct Texel {
    float v[4];
  };
  const std::vector<Texel> fine_texels = Read<Texel>(fine), coarse_texels = Read<Texel>(coarse);
  ASSERT_EQ(fine_texels.size(), size_t(kExtent.width) * kExtent.height);
  for (int y = 0; y < int(kExtent.height); ++y) {
    for (int x = 0; x < int(kExtent.width); ++x) {
      const int qx = x & ~1, qy = y & ~1;
      const double fine_dx = F(qx + 1, y) - F(qx, y), fine_dy = F(x, qy + 1) - F(x, qy);
      const double top_dx = F(qx + 1, qy) - F(qx, qy), bottom_dx = F(qx + 1, qy + 1) - F(qx, qy + 1);
      const double left_dy = F(qx, qy + 1) - F(qx, qy), right_dy = F(qx + 1, qy + 1) - F(qx + 1, qy);
      const float* f = fine_texels[y * kExtent.width + x].v;
      const float* c = coarse_texels[y * kExtent.width + x].v;
      SCOPED_TRACE(testing::Message() << "pixel " << x << "," << y);
      EXPECT_EQ(f[0], fine_dx);
      EXPECT_EQ(f[1], fine_dy);
      EXPECT_EQ(f[2], std::abs(fine_dx) + std::abs(fine_dy));
      EXPECT_TRUE(c[0] == top_dx || c[0] == bottom_dx) << c[0];
      EXPECT_TRUE(c[1] == left_dy || c[1] == right_dy) << c[1];
      EXPECT_EQ(c[2], std::abs(c[0]) + std::abs(c[1]));
      EXPECT_TRUE(f[3] == fine_dx || f[3] == c[0]) << f[3];
      EXPECT_TRUE(c[3] == fine_dy || c[3] == c[1]) << c[3];
    }
  }
  // Duet's coarse derivatives are the quad's top row and left column.
  if (std::string(props_.deviceName).find("Duet") == std::string::npos) return;
  EXPECT_EQ(coarse_texels[1 * kExtent.width + 0].v[0], float(F(1, 0) - F(0, 0)));
  EXPECT_EQ(coarse_texels[0 * kExtent.width + 1].v[1], float(F(0, 1) - F(0, 0)));
}

}  // namespace
}  // namespace duet_test
