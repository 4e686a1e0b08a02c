// VK_EXT_line_rasterization through the loader: Bresenham lines cover the
// pixels the diamond-exit rule gives (one per column of an x-major line,
// the first end in and the last out, either way the line runs; `width`
// pixels per column when wide); stipple keeps the fragments whose counter
// bit is set (rectangular lines count unit pieces of their length,
// Bresenham lines pixels, continued along a strip), from the pipeline or
// vkCmdSetLineStippleEXT; the line mode as dynamic state.
#include <vector>

#include "graphics_fixture.h"

namespace duet_test {
namespace {

constexpr uint32_t kSize = 16;
constexpr VkExtent2D kExtent{kSize, kSize};
const uint32_t kWhite = PackRgba8(255, 255, 255, 255);

// A vertex at window position (x, y) of the 16x16 target.
ColorVertex At(double x, double y) { return {{Ndc(x, kSize), Ndc(y, kSize), 0, 1}, {1, 1, 1, 1}}; }

class LineRasterizationTest : public GraphicsTest {
 protected:
  LineRasterizationTest() {
    device_options_.extensions = {"VK_EXT_line_rasterization", "VK_EXT_extended_dynamic_state3"};
    lines_.rectangularLines = VK_TRUE;
    lines_.bresenhamLines = VK_TRUE;
    lines_.smoothLines = VK_TRUE;
    lines_.stippledRectangularLines = VK_TRUE;
    lines_.stippledBresenhamLines = VK_TRUE;
    eds3_.extendedDynamicState3LineRasterizationMode = VK_TRUE;
    device_options_.extension_features = {reinterpret_cast<VkBaseOutStructure*>(&lines_),
                                          reinterpret_cast<VkBaseOutStructure*>(&eds3_)};
  }

  // Draws `vertices` as `topology` with the line state `line` (and
  // `width`), `record` adding dynamic state; the pixels lit, as a 16x16 grid.
  template <typename F>
  std::vector<std::vector<bool>> Draw(const std::vector<ColorVertex>& vertices, VkPrimitiveTopology topology,
                                      const VkPipelineRasterizationLineStateCreateInfoEXT& line, float width,
                                      std::vector<VkDynamicState> dynamic, F&& record) {
    PipelineDesc desc = ColorPipeline(kExtent);
    desc.topology = topology;
    desc.rasterization.lineWidth = width;
    desc.rasterization.pNext = &line;
    desc.dynamic_states = std::move(dynamic);
    const VkPipeline pipeline = MakePipeline(desc);
    const Target target = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
    HostBuffer buffer = Upload(vertices, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    VkCommandBuffer cb = BeginCommands();
    BeginRendering(cb, {{&target, VK_ATTACHMENT_LOAD_OP_CLEAR, {}}});
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    record(cb);
    VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cb, 0, 1, &buffer.buffer, &offset);
    vkCmdDraw(cb, uint32_t(vertices.size()), 1, 0, 0);
    vkCmdEndRendering(cb);
    EndSubmitWait(cb);
    const std::vector<uint32_t> pixels = Read<uint32_t>(target);
    std::vector<std::vector<bool>> lit(kSize, std::vector<bool>(kSize, false));
    for (uint32_t y = 0; y < kSize; ++y)
      for (uint32_t x = 0; x < kSize; ++x) {
        EXPECT_TRUE(pixels[y * kSize + x] == 0 || pixels[y * kSize + x] == kWhite) << x << "," << y;
        lit[y][x] = pixels[y * kSize + x] == kWhite;
      }
    return lit;
  }
  std::vector<std::vector<bool>> Draw(const std::vector<ColorVertex>& vertices, VkPrimitiveTopology topology,
                                      const VkPipelineRasterizationLineStateCreateInfoEXT& line, float width = 1) {
    return Draw(vertices, topology, line, width, {}, [](VkCommandBuffer) {});
  }

  static VkPipelineRasterizationLineStateCreateInfoEXT Line(VkLineRasterizationModeEXT mode, bool stipple = false,
                                                           uint32_t factor = 1, uint16_t pattern = 0xFFFF) {
    return {VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT, nullptr, mode, stipple, factor,
            pattern};
  }

  VkPhysicalDeviceLineRasterizationFeaturesEXT lines_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_EXT};
  VkPhysicalDeviceExtendedDynamicState3FeaturesEXT eds3_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT};
};

// From pixel centre (2.5, 3.5) to (12.5, 7.5), slope 0.4: one pixel per
// column 2..11, in the row the line crosses the column's centre in (5.5
// exactly: row 5); the end pixel (12) is not drawn. Backwards: columns
// 3..12. Width 3: the same rows and the ones above and below.
TEST_F(LineRasterizationTest, BresenhamFollowsTheDiamondExitRule) {
  const int rows[kSize] = {-1, -1, 3, 3, 4, 4, 5, 5, 5, 6, 6, 7, 7, -1, -1, -1};
  for (int direction = 0; direction < 2; ++direction)
    for (float width : {1.0f, 3.0f}) {
      const std::vector<ColorVertex> line =
          direction == 0 ? std::vector<ColorVertex>{At(2.5, 3.5), At(12.5, 7.5)}
                         : std::vector<ColorVertex>{At(12.5, 7.5), At(2.5, 3.5)};
      const auto lit = Draw(line, VK_PRIMITIVE_TOPOLOGY_LINE_LIST, Line(VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT), width);
      const int first = direction == 0 ? 2 : 3, last = direction == 0 ? 11 : 12;
      const int half = int(width) / 2;
      for (int y = 0; y < int(kSize); ++y)
        for (int x = 0; x < int(kSize); ++x) {
          const bool expected = x >= first && x <= last && rows[x] >= 0 && std::abs(y - rows[x]) <= half;
          EXPECT_EQ(lit[size_t(y)][size_t(x)], expected)
              << "direction " << direction << " width " << width << " at " << x << "," << y;
        }
    }
}

// A rectangular line along row 7 (its centre 7.75), stippled with factor
// 2 and pattern 0x0F0F (counter s = the unit piece a fragment is in, from
// the line's start at x = 0): pixels 0..7 kept, 8..15 dropped. The same
// from vkCmdSetLineStippleEXT with factor 1, pattern 0xAAAA: odd pixels.
TEST_F(LineRasterizationTest, StippleKeepsTheSetBitsOfRectangularLines) {
  const std::vector<ColorVertex> line = {At(0, 7.75), At(16, 7.75)};
  auto lit = Draw(line, VK_PRIMITIVE_TOPOLOGY_LINE_LIST, Line(VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT, true, 2, 0x0F0F));
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) EXPECT_EQ(lit[y][x], y == 7 && x < 8) << "static at " << x << "," << y;
  const auto set_stipple =
      reinterpret_cast<PFN_vkCmdSetLineStippleEXT>(vkGetDeviceProcAddr(device_, "vkCmdSetLineStippleEXT"));
  ASSERT_NE(set_stipple, nullptr);
  lit = Draw(line, VK_PRIMITIVE_TOPOLOGY_LINE_LIST, Line(VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT, true), 1,
             {VK_DYNAMIC_STATE_LINE_STIPPLE_EXT}, [&](VkCommandBuffer cb) { set_stipple(cb, 1, 0xAAAA); });
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) EXPECT_EQ(lit[y][x], y == 7 && x % 2 == 1) << "dynamic at " << x << "," << y;
}

// A smooth line along y = 7.75 (1 wide) covers row 7's pixel centres (a
// quarter pixel off) mostly and row 8's (three quarters off) a little:
// colour 0's alpha is that coverage (1 - distance + 0.5, here), RGB untouched.
TEST_F(LineRasterizationTest, SmoothLinesPutCoverageInAlpha) {
  PipelineDesc desc = ColorPipeline(kExtent);
  desc.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
  const auto line = Line(VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT);
  desc.rasterization.pNext = &line;
  const VkPipeline pipeline = MakePipeline(desc);
  const Target target = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
  const std::vector<ColorVertex> vertices = {At(2, 7.75), At(12, 7.75)};
  HostBuffer buffer = Upload(vertices, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  VkCommandBuffer cb = BeginCommands();
  BeginRendering(cb, {{&target, VK_ATTACHMENT_LOAD_OP_CLEAR, {}}});
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  VkDeviceSize offset = 0;
  vkCmdBindVertexBuffers(cb, 0, 1, &buffer.buffer, &offset);
  vkCmdDraw(cb, 2, 1, 0, 0);
  vkCmdEndRendering(cb);
  EndSubmitWait(cb);
  const std::vector<uint32_t> pixels = Read<uint32_t>(target);
  for (uint32_t x = 3; x < 11; ++x) {
    const uint32_t inner = pixels[7 * kSize + x], outer = pixels[8 * kSize + x];
    EXPECT_EQ(inner & 0xFFFFFFu, 0xFFFFFFu) << x;
    EXPECT_NEAR(double(Channel(inner, 3)), 0.75 * 255, 1.5) << x;
    EXPECT_EQ(outer & 0xFFFFFFu, 0xFFFFFFu) << x;
    EXPECT_NEAR(double(Channel(outer, 3)), 0.25 * 255, 1.5) << x;
    EXPECT_EQ(pixels[6 * kSize + x], 0u) << x;
    EXPECT_EQ(pixels[9 * kSize + x], 0u) << x;
  }
}

// A Bresenham strip right along row 2 (pixels 0..5, counter 0..5) then
// down column 6 (rows 2..11, counter 6..15): pattern 0x5555 keeps even
// counts, so columns 0, 2, 4 and rows 2, 4, ..., 10: the counter goes on
// from one segment to the next.
TEST_F(LineRasterizationTest, BresenhamStippleCountsAlongAStrip) {
  const std::vector<ColorVertex> strip = {At(0.5, 2.5), At(6.5, 2.5), At(6.5, 12.5)};
  const auto lit =
      Draw(strip, VK_PRIMITIVE_TOPOLOGY_LINE_STRIP, Line(VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT, true, 1, 0x5555));
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      const bool first = y == 2 && x <= 5 && x % 2 == 0;
      const bool second = x == 6 && y >= 2 && y <= 11 && y % 2 == 0;
      EXPECT_EQ(lit[y][x], first || second) << x << "," << y;
    }
}

// The line mode as dynamic state (VK_EXT_extended_dynamic_state3): a
// 30-degree line 2 pixels wide is 2 pixels tall in every column drawn as
// Bresenham, not as a rectangle.
TEST_F(LineRasterizationTest, LineModeAsDynamicState) {
  const auto set_mode = reinterpret_cast<PFN_vkCmdSetLineRasterizationModeEXT>(
      vkGetDeviceProcAddr(device_, "vkCmdSetLineRasterizationModeEXT"));
  ASSERT_NE(set_mode, nullptr);
  const std::vector<ColorVertex> line = {At(1.5, 4.5), At(14.5, 11.5)};
  auto columns_of_two = [&](VkLineRasterizationModeEXT mode) {
    const auto lit = Draw(line, VK_PRIMITIVE_TOPOLOGY_LINE_LIST, Line(VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT), 2,
                          {VK_DYNAMIC_STATE_LINE_RASTERIZATION_MODE_EXT}, [&](VkCommandBuffer cb) { set_mode(cb, mode); });
    uint32_t columns = 0, of_two = 0;
    for (uint32_t x = 0; x < kSize; ++x) {
      uint32_t count = 0;
      for (uint32_t y = 0; y < kSize; ++y) count += lit[y][x];
      columns += count != 0;
      of_two += count == 2;
    }
    return std::make_pair(columns, of_two);
  };
  const auto bresenham = columns_of_two(VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT);
  EXPECT_EQ(bresenham.first, 13u);
  EXPECT_EQ(bresenham.second, 13u);
  const auto rectangular = columns_of_two(VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT);
  EXPECT_GT(rectangular.first, 0u);
  EXPECT_LT(rectangular.second, rectangular.first);
}

}  // namespace
}  // namespace duet_test
