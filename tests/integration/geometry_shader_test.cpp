// Geometry shaders (geometryShader) through the loader: points expanded
// to squares, instanced invocations drawing into framebuffer layers,
// PrimitiveId in and out, strips ended by EndPrimitive, invocations that
// emit nothing, the vertex order of adjacency topologies, and the
// pipeline statistics of the stage. The fragment shader's PrimitiveId
// without a geometry shader is here too (it needs the Geometry capability).
#include <vector>

#include "graphics_fixture.h"
#include "shaders/color_triangle.frag.h"
#include "shaders/color_triangle.vert.h"
#include "shaders/geometry_adjacency.geom.h"
#include "shaders/geometry_layers.geom.h"
#include "shaders/geometry_lines_adjacency.geom.h"
#include "shaders/geometry_point_quad.geom.h"
#include "shaders/geometry_primitive_id.frag.h"
#include "shaders/geometry_strips.geom.h"
#include "shaders/primitive_id.frag.h"

namespace duet_test {
namespace {

constexpr uint32_t kSize = 32;
constexpr VkExtent2D kExtent{kSize, kSize};

// The NDC of pixel (x, y)'s centre.
ColorVertex At(uint32_t x, uint32_t y, float r = 0, float g = 0, float b = 0) {
  return {{Ndc(x + 0.5, kSize), Ndc(y + 0.5, kSize), 0, 1}, {r, g, b, 1}};
}

class GeometryShaderTest : public GraphicsTest {
 protected:
  void SetUp() override {
    GraphicsTest::SetUp();
    if (HasFatalFailure()) return;
    ASSERT_EQ(features_.geometryShader, VK_TRUE);
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(phys_, &properties);
    ASSERT_GE(properties.limits.maxGeometryOutputVertices, 256u);
    ASSERT_GE(properties.limits.maxGeometryShaderInvocations, 32u);
    ASSERT_GE(properties.limits.maxGeometryTotalOutputComponents, 1024u);
  }

  PipelineDesc Desc(const uint32_t* geometry, size_t bytes, VkPrimitiveTopology topology) {
    PipelineDesc desc = ColorPipeline(kExtent);
    desc.geometry = geometry != nullptr ? Module(geometry, bytes) : VK_NULL_HANDLE;
    desc.topology = topology;
    return desc;
  }

  // Draws `vertices` (ColorVertex) with `desc` into a cleared RGBA8 target;
  // `statistics` (if any) records the draw's statistics query 0.
  std::vector<uint32_t> Draw(const PipelineDesc& desc, const std::vector<ColorVertex>& vertices,
                             VkQueryPool statistics = VK_NULL_HANDLE) {
    const VkPipeline pipeline = MakePipeline(desc);
    const Target target = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
    HostBuffer buffer = Upload(vertices, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    VkCommandBuffer cb = BeginCommands();
    if (statistics != VK_NULL_HANDLE) vkCmdResetQueryPool(cb, statistics, 0, 1);
    BeginRendering(cb, {{&target, VK_ATTACHMENT_LOAD_OP_CLEAR, {}}});
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cb, 0, 1, &buffer.buffer, &offset);
    if (statistics != VK_NULL_HANDLE) vkCmdBeginQuery(cb, statistics, 0, 0);
    vkCmdDraw(cb, uint32_t(vertices.size()), 1, 0, 0);
    if (statistics != VK_NULL_HANDLE) vkCmdEndQuery(cb, statistics, 0);
    vkCmdEndRendering(cb);
    EndSubmitWait(cb);
    return Read<uint32_t>(target);
  }
};

// Three points become 4x4 squares around them, in their colours.
TEST_F(GeometryShaderTest, PointsBecomeSquares) {
  const PipelineDesc desc =
      Desc(kGeometryPointQuadGeom, sizeof kGeometryPointQuadGeom, VK_PRIMITIVE_TOPOLOGY_POINT_LIST);
  // Points on pixel corners (the squares' centres): (8, 8), (20, 12), (12, 24).
  const uint32_t centres[3][2] = {{8, 8}, {20, 12}, {12, 24}};
  std::vector<ColorVertex> points;
  const float colors[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int i = 0; i < 3; ++i)
    points.push_back({{Ndc(centres[i][0], kSize), Ndc(centres[i][1], kSize), 0, 1},
                      {colors[i][0], colors[i][1], colors[i][2], 1}});
  const std::vector<uint32_t> pixels = Draw(desc, points);
  ASSERT_EQ(pixels.size(), kSize * kSize);
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      uint32_t expected = 0;
      for (int i = 0; i < 3; ++i)
        if (x + 2 >= centres[i][0] && x < centres[i][0] + 2 && y + 2 >= centres[i][1] && y < centres[i][1] + 2)
          expected = PackRgba8(uint32_t(colors[i][0] * 255), uint32_t(colors[i][1] * 255),
                               uint32_t(colors[i][2] * 255), 255);
      ASSERT_EQ(pixels[y * kSize + x], expected) << x << "," << y;
    }
}

// Invocation i of each triangle draws it into layer i of a 3-layer
// attachment; the fragment shader sees the geometry shader's PrimitiveId.
TEST_F(GeometryShaderTest, InvocationsDrawIntoLayers) {
  constexpr uint32_t kLayers = 3;
  PipelineDesc desc = Desc(kGeometryLayersGeom, sizeof kGeometryLayersGeom, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
  desc.fragment = Module(kGeometryPrimitiveIdFrag);
  const VkPipeline pipeline = MakePipeline(desc);
  const Target target = MakeLayeredTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent, kLayers);
  ASSERT_NE(target.view, VK_NULL_HANDLE);
  // Two triangles: the left half (primitive 0) and the right half (primitive 1).
  const float l = -1, m = 0, r = 1;
  const std::vector<ColorVertex> vertices = {{{l, -1, 0, 1}, {}}, {{m, -1, 0, 1}, {}}, {{l, 1, 0, 1}, {}},
                                             {{m, -1, 0, 1}, {}}, {{m, 1, 0, 1}, {}}, {{l, 1, 0, 1}, {}},
                                             {{m, -1, 0, 1}, {}}, {{r, -1, 0, 1}, {}}, {{m, 1, 0, 1}, {}},
                                             {{r, -1, 0, 1}, {}}, {{r, 1, 0, 1}, {}}, {{m, 1, 0, 1}, {}}};
  HostBuffer buffer = Upload(vertices, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  VkCommandBuffer cb = BeginCommands();
  BeginRendering(cb, {{&target, VK_ATTACHMENT_LOAD_OP_CLEAR, {}}}, {}, kLayers);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  VkDeviceSize offset = 0;
  vkCmdBindVertexBuffers(cb, 0, 1, &buffer.buffer, &offset);
  vkCmdDraw(cb, uint32_t(vertices.size()), 1, 0, 0);
  vkCmdEndRendering(cb);
  EndSubmitWait(cb);
  for (uint32_t layer = 0; layer < kLayers; ++layer) {
    const std::vector<uint32_t> pixels = Read<uint32_t>(target, VK_IMAGE_ASPECT_COLOR_BIT, layer);
    ASSERT_EQ(pixels.size(), kSize * kSize);
    for (uint32_t y = 0; y < kSize; ++y)
      for (uint32_t x = 0; x < kSize; ++x) {
        // Input primitives 0-1 cover the left half, 2-3 the right; the
        // even one the upper left of its half (pixel centres in 2x + y < 32).
        const uint32_t primitive = (x < kSize / 2 ? 0 : 2) + (2 * (x % 16) + y >= 31 ? 1 : 0);
        const uint32_t expected = PackRgba8(layer * 40, primitive * 40, (10 + primitive) * 10, 255);
        ASSERT_EQ(pixels[y * kSize + x], expected) << "layer " << layer << " at " << x << "," << y;
      }
  }
}

// Without a geometry shader, PrimitiveId counts the draw's primitives:
// four triangles in the four quadrants.
TEST_F(GeometryShaderTest, FragmentPrimitiveIdCountsPrimitives) {
  PipelineDesc desc = Desc(nullptr, 0, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP);
  desc.fragment = Module(kPrimitiveIdFrag);
  // A strip over the whole target: (x, y) columns 0, 16, 32 at rows 0 and 32.
  std::vector<ColorVertex> strip;
  for (int i = 0; i < 6; ++i) strip.push_back({{float(i / 2) - 1.0f, i % 2 == 0 ? -1.0f : 1.0f, 0, 1}, {}});
  const std::vector<uint32_t> pixels = Draw(desc, strip);
  ASSERT_EQ(pixels.size(), kSize * kSize);
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      // Triangle 2c covers the upper left of column c, 2c + 1 the rest.
      const uint32_t primitive = 2 * (x / 16) + (2 * (x % 16) + y >= 31 ? 1 : 0);
      ASSERT_EQ(pixels[y * kSize + x], PackRgba8(primitive * 20 + 20, 0, 0, 255)) << x << "," << y;
    }
}

// EndPrimitive ends a strip (the gap between each point's two triangles
// stays empty), and invocations that return without emitting add nothing.
// The pipeline statistics count every invocation and the emitted triangles.
TEST_F(GeometryShaderTest, EndPrimitiveSplitsStrips) {
  const PipelineDesc desc = Desc(kGeometryStripsGeom, sizeof kGeometryStripsGeom, VK_PRIMITIVE_TOPOLOGY_POINT_LIST);
  VkQueryPoolCreateInfo ci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  ci.queryType = VK_QUERY_TYPE_PIPELINE_STATISTICS;
  ci.queryCount = 1;
  ci.pipelineStatistics = VK_QUERY_PIPELINE_STATISTIC_GEOMETRY_SHADER_INVOCATIONS_BIT |
                          VK_QUERY_PIPELINE_STATISTIC_GEOMETRY_SHADER_PRIMITIVES_BIT |
                          VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT;
  VkQueryPool pool = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateQueryPool(device_, &ci, nullptr, &pool), VK_SUCCESS);
  Defer([this, pool] { vkDestroyQueryPool(device_, pool, nullptr); });
  // 8 points on pixel corners along rows 4, 12, 20, 28, two per row.
  std::vector<ColorVertex> points;
  for (uint32_t i = 0; i < 8; ++i)
    points.push_back({{Ndc(8 + 16 * (i % 2), kSize), Ndc(4 + 8 * (i / 2), kSize), 0, 1}, {1, 1, 1, 1}});
  const std::vector<uint32_t> pixels = Draw(desc, points, pool);
  ASSERT_EQ(pixels.size(), kSize * kSize);
  const uint32_t white = PackRgba8(255, 255, 255, 255);
  for (uint32_t i = 0; i < 8; ++i) {
    const uint32_t cx = 8 + 16 * (i % 2), cy = 4 + 8 * (i / 2);
    const bool emits = i % 2 == 0;
    // Each triangle's lower-left pixel: (cx - 4, cy - 1) and (cx + 2, cy - 1).
    EXPECT_EQ(pixels[(cy - 1) * kSize + cx - 4], emits ? white : 0u) << "point " << i;
    EXPECT_EQ(pixels[(cy - 1) * kSize + cx + 2], emits ? white : 0u) << "point " << i;
    // The gap between them, which the strip's bridging triangles would fill.
    for (uint32_t x = cx - 2; x < cx + 2; ++x) EXPECT_EQ(pixels[(cy - 1) * kSize + x], 0u) << "point " << i << " x " << x;
  }
  uint64_t results[3] = {};
  ASSERT_EQ(vkGetQueryPoolResults(device_, pool, 0, 1, sizeof results, results, sizeof results,
                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
            VK_SUCCESS);
  EXPECT_EQ(results[0], 8u);  // clipping invocations come first in bit order
  EXPECT_EQ(results[1], 8u);  // geometry shader invocations
  EXPECT_EQ(results[2], 8u);  // primitives: two triangles from each of 4 invocations
}

// Vertex k of each input primitive lands at the column of the draw's
// vertex the assembly put there: row 2i + 1 for primitive i. Vertex j of
// the draw is at column 2j + 1; `table[i][k]` is the spec's vertex.
void ExpectAssembly(const std::vector<uint32_t>& pixels, const std::vector<std::vector<uint32_t>>& table) {
  ASSERT_EQ(pixels.size(), kSize * kSize);
  for (uint32_t i = 0; i < table.size(); ++i)
    for (uint32_t k = 0; k < table[i].size(); ++k) {
      const uint32_t x = 2 * table[i][k] + 1, y = 2 * i + 1;
      EXPECT_EQ(pixels[y * kSize + x], PackRgba8((k + 1) * 20, 0, 0, 255))
          << "primitive " << i << " vertex " << k << " (input vertex " << table[i][k] << ")";
    }
}

std::vector<ColorVertex> Columns(uint32_t n) {
  std::vector<ColorVertex> v;
  for (uint32_t j = 0; j < n; ++j) v.push_back(At(2 * j + 1, 0));
  return v;
}

// Triangle strips with adjacency, from the spec's table: 1st, 2nd, 3rd
// vertex and the vertices adjacent to edges 1-2, 2-3, 3-1, as the shader's
// inputs 0, 2, 4 and 1, 3, 5.
std::vector<uint32_t> StripAdjacency(uint32_t first, uint32_t second, uint32_t third, uint32_t a12, uint32_t a23,
                                     uint32_t a31) {
  return {first, a12, second, a23, third, a31};
}

TEST_F(GeometryShaderTest, TriangleStripWithAdjacencyOrder) {
  const PipelineDesc desc =
      Desc(kGeometryAdjacencyGeom, sizeof kGeometryAdjacencyGeom, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY);
  // 10 vertices: 3 triangles (first, middle odd, last even). Odd
  // triangles keep their first vertex first, as in triangle strips.
  ExpectAssembly(Draw(desc, Columns(10)), {StripAdjacency(0, 2, 4, 1, 6, 3), StripAdjacency(2, 6, 4, 5, 8, 0),
                                           StripAdjacency(4, 6, 8, 2, 9, 7)});
  // 6 vertices: the only triangle.
  ExpectAssembly(Draw(desc, Columns(6)), {StripAdjacency(0, 2, 4, 1, 5, 3)});
  // 12 vertices: 4 triangles, the last one odd.
  ExpectAssembly(Draw(desc, Columns(10 + 2)),
                 {StripAdjacency(0, 2, 4, 1, 6, 3), StripAdjacency(2, 6, 4, 5, 8, 0), StripAdjacency(4, 6, 8, 2, 10, 7),
                  StripAdjacency(6, 10, 8, 9, 11, 4)});
}

TEST_F(GeometryShaderTest, TriangleListWithAdjacencyOrder) {
  const PipelineDesc desc =
      Desc(kGeometryAdjacencyGeom, sizeof kGeometryAdjacencyGeom, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY);
  ExpectAssembly(Draw(desc, Columns(10)), {{0, 1, 2, 3, 4, 5}});  // the last 4 vertices make no primitive
}

TEST_F(GeometryShaderTest, LinesWithAdjacencyOrder) {
  const PipelineDesc strip = Desc(kGeometryLinesAdjacencyGeom, sizeof kGeometryLinesAdjacencyGeom,
                                  VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY);
  ExpectAssembly(Draw(strip, Columns(6)), {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}});
  const PipelineDesc list = Desc(kGeometryLinesAdjacencyGeom, sizeof kGeometryLinesAdjacencyGeom,
                                 VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY);
  ExpectAssembly(Draw(list, Columns(9)), {{0, 1, 2, 3}, {4, 5, 6, 7}});
}

}  // namespace
}  // namespace duet_test
