// Tessellation (tessellationShader) through the loader: the domain points
// each spacing makes of fractional levels, as the evaluation shader sees
// them; a grid of quad patches with levels of their own sharing edges
// without cracks (any bit of difference in a shared point shows);
// control-shader invocations reading each other's outputs after a barrier,
// per-patch outputs, PrimitiveId and PatchVertices in both stages, patch
// control points static and dynamic; the winding the vertex order asks for
// under either domain origin (static and dynamic); pipeline statistics; a
// geometry shader after tessellation; tessellation under multiview; patch
// lists split by primitive restarts.
#include <algorithm>
#include <cmath>
#include <vector>

#include "graphics_fixture.h"
#include "shaders/color_triangle.frag.h"
#include "shaders/geometry_layers.geom.h"
#include "shaders/geometry_primitive_id.frag.h"
#include "shaders/tessellation.vert.h"
#include "shaders/tessellation_barrier.tesc.h"
#include "shaders/tessellation_barrier.tese.h"
#include "shaders/tessellation_crack.tesc.h"
#include "shaders/tessellation_crack.tese.h"
#include "shaders/tessellation_isoline_points_equal.tese.h"
#include "shaders/tessellation_isoline_points_even.tese.h"
#include "shaders/tessellation_isoline_points_odd.tese.h"
#include "shaders/tessellation_levels.tesc.h"
#include "shaders/tessellation_triangle_ccw.tese.h"
#include "shaders/tessellation_triangle_cw.tese.h"
#include "shaders/tessellation_view.tese.h"
#include "shaders/tessellation_white.frag.h"

namespace duet_test {
namespace {

constexpr VkExtent2D kExtent{64, 64};

struct Point {
  float x, y, z, w;
};

struct Levels {
  float outer[4];
  float inner[2];
};

class TessellationTest : public GraphicsTest {
 protected:
  TessellationTest() {
    device_options_.extensions = {"VK_EXT_extended_dynamic_state2", "VK_EXT_extended_dynamic_state3",
                                  "VK_EXT_primitive_topology_list_restart"};
    eds2_.extendedDynamicState2PatchControlPoints = VK_TRUE;
    eds3_.extendedDynamicState3TessellationDomainOrigin = VK_TRUE;
    list_restart_.primitiveTopologyPatchListRestart = VK_TRUE;
    device_options_.extension_features = {reinterpret_cast<VkBaseOutStructure*>(&eds2_),
                                          reinterpret_cast<VkBaseOutStructure*>(&eds3_),
                                          reinterpret_cast<VkBaseOutStructure*>(&list_restart_)};
  }
  void SetUp() override {
    GraphicsTest::SetUp();
    if (HasFatalFailure()) return;
    ASSERT_EQ(features_.tessellationShader, VK_TRUE);
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(phys_, &properties);
    ASSERT_GE(properties.limits.maxTessellationGenerationLevel, 64u);
    ASSERT_GE(properties.limits.maxTessellationPatchSize, 32u);
  }

  // vertex -> control -> evaluation [-> white fragments], patches of
  // `control_points` vertices (tessellation.vert's positions at binding 0).
  PipelineDesc Desc(const uint32_t* control, size_t control_bytes, const uint32_t* evaluation,
                    size_t evaluation_bytes, uint32_t control_points, bool rasterize) {
    PipelineDesc desc;
    desc.vertex = Module(kTessellationVert);
    desc.tess_control = Module(control, control_bytes);
    desc.tess_evaluation = Module(evaluation, evaluation_bytes);
    desc.fragment = rasterize ? Module(kTessellationWhiteFrag) : VK_NULL_HANDLE;
    desc.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
    desc.patch_control_points = control_points;
    desc.extent = kExtent;
    desc.rasterization.rasterizerDiscardEnable = !rasterize;
    desc.bindings = {{0, sizeof(Point), VK_VERTEX_INPUT_RATE_VERTEX}};
    desc.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
    return desc;
  }

  // Draws `points` with `pipeline` into a cleared target (a scratch one
  // when none; `layers` of it, or the views of `view_mask`), `before`
  // recording what else the draw needs.
  template <typename F>
  void Draw(VkPipeline pipeline, const std::vector<Point>& points, const Target* target, F&& before,
            VkQueryPool statistics = VK_NULL_HANDLE, uint32_t layers = 1, uint32_t view_mask = 0) {
    HostBuffer vertices = Upload(points, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    const Target scratch = target == nullptr ? MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent) : Target{};
    VkCommandBuffer cb = BeginCommands();
    if (statistics != VK_NULL_HANDLE) vkCmdResetQueryPool(cb, statistics, 0, 1);
    BeginRendering(cb, {{target != nullptr ? target : &scratch, VK_ATTACHMENT_LOAD_OP_CLEAR, {}}}, {}, layers,
                   view_mask);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cb, 0, 1, &vertices.buffer, &offset);
    before(cb);
    if (statistics != VK_NULL_HANDLE) vkCmdBeginQuery(cb, statistics, 0, 0);
    vkCmdDraw(cb, uint32_t(points.size()), 1, 0, 0);
    if (statistics != VK_NULL_HANDLE) vkCmdEndQuery(cb, statistics, 0);
    vkCmdEndRendering(cb);
    EndSubmitWait(cb);
  }

  // The u of every domain point of one isoline patch (outer levels 1 and
  // `level`), in the order the evaluation shader appended them.
  std::vector<float> IsolinePoints(const uint32_t* evaluation, size_t bytes, float level) {
    const DescriptorSet set = MakeDescriptorSet({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
    PipelineDesc desc = Desc(kTessellationLevelsTesc, sizeof kTessellationLevelsTesc, evaluation, bytes, 4, false);
    desc.layout = MakePipelineLayout({set.layout}, sizeof(Levels), VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT);
    const VkPipeline pipeline = MakePipeline(desc);
    HostBuffer buffer = Upload(std::vector<uint32_t>(128, 0), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    WriteBuffer(set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, buffer.buffer);
    const Levels levels{{1.0f, level, 1.0f, 1.0f}, {1.0f, 1.0f}};
    Draw(pipeline, std::vector<Point>(4, Point{0, 0, 0, 1}), nullptr, [&](VkCommandBuffer cb) {
      vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, desc.layout, 0, 1, &set.set, 0, nullptr);
      vkCmdPushConstants(cb, desc.layout, VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, 0, sizeof levels, &levels);
    });
    const uint32_t count = std::min(buffer.as<uint32_t>()[0], 127u);
    const float* u = reinterpret_cast<const float*>(buffer.as<uint32_t>() + 1);
    return std::vector<float>(u, u + count);
  }

  VkPhysicalDeviceExtendedDynamicState2FeaturesEXT eds2_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT};
  VkPhysicalDeviceExtendedDynamicState3FeaturesEXT eds3_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT};
  VkPhysicalDevicePrimitiveTopologyListRestartFeaturesEXT list_restart_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVE_TOPOLOGY_LIST_RESTART_FEATURES_EXT};
};

// The points dividing an isoline, sorted: equal spacing cuts it into
// ceil(level) equal segments; fractional spacing into n segments (the
// level rounded up to even / odd): n - 2 equal ones and two shorter equal
// ones placed symmetrically, unless the level is n.
TEST_F(TessellationTest, SpacingsDivideAnEdgeAsTheSpecSays) {
  struct Case {
    const uint32_t* shader;
    size_t bytes;
    int parity;  // 0 even, 1 odd, -1 equal spacing
  };
  const Case cases[] = {{kTessellationIsolinePointsEqualTese, sizeof kTessellationIsolinePointsEqualTese, -1},
                        {kTessellationIsolinePointsEvenTese, sizeof kTessellationIsolinePointsEvenTese, 0},
                        {kTessellationIsolinePointsOddTese, sizeof kTessellationIsolinePointsOddTese, 1}};
  for (const Case& c : cases)
    for (float level : {3.0f, 3.4f, 4.6f, 7.25f, 10.9f}) {
      std::vector<float> u = IsolinePoints(c.shader, c.bytes, level);
      std::sort(u.begin(), u.end());
      int n = int(std::ceil(level));
      if (c.parity >= 0 && n % 2 != c.parity) ++n;
      ASSERT_EQ(u.size(), size_t(n + 1)) << "parity " << c.parity << " level " << level;
      EXPECT_EQ(u.front(), 0.0f);
      EXPECT_EQ(u.back(), 1.0f);
      // Segment lengths: equal ones, or (fractional spacing below n) n - 2
      // equal ones and two shorter equal ones placed symmetrically.
      std::vector<float> lengths;
      for (int i = 0; i < n; ++i) lengths.push_back(u[size_t(i) + 1] - u[size_t(i)]);
      const float shortest = *std::min_element(lengths.begin(), lengths.end());
      const float longest = *std::max_element(lengths.begin(), lengths.end());
      std::vector<int> short_ones;
      for (int i = 0; i < n; ++i) {
        const float length = lengths[size_t(i)];
        EXPECT_TRUE(std::fabs(length - shortest) < 1e-4f || std::fabs(length - longest) < 1e-4f)
            << "parity " << c.parity << " level " << level << " segment " << i << " length " << length;
        if (std::fabs(length - shortest) < 1e-4f) short_ones.push_back(i);
      }
      if (c.parity < 0 || float(n) == level) {
        EXPECT_NEAR(shortest, longest, 1e-4f) << "parity " << c.parity << " level " << level;
      } else {
        EXPECT_LT(shortest + 1e-4f, longest) << "parity " << c.parity << " level " << level;
        ASSERT_EQ(short_ones.size(), 2u) << "parity " << c.parity << " level " << level;
        EXPECT_EQ(short_ones[0] + short_ones[1], n - 1);
      }
      // Symmetric: the point at x from one end is the one at 1 - x from the other, exactly.
      for (size_t i = 0; i < u.size(); ++i) EXPECT_EQ(u[i], 1.0f - u[u.size() - 1 - i]);
    }
}

// A 4x4 grid of quad patches over the viewport, each with inner levels of
// its own and fractional-odd edge levels from the edges' corners: shared
// edges give the same points bit for bit (any difference moves one copy
// by 1/32 and opens a crack), so every pixel is covered.
TEST_F(TessellationTest, PatchesShareEdgesWithoutCracks) {
  const VkPipeline pipeline = MakePipeline(
      Desc(kTessellationCrackTesc, sizeof kTessellationCrackTesc, kTessellationCrackTese,
           sizeof kTessellationCrackTese, 4, true));
  const Target target = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
  std::vector<Point> points;
  constexpr int kCells = 4;
  // The grid reaches past the viewport, so its own border moving does not matter.
  auto at = [](int i) { return -1.25f + 2.5f * float(i) / kCells; };
  for (int y = 0; y < kCells; ++y)
    for (int x = 0; x < kCells; ++x)
      for (int corner = 0; corner < 4; ++corner)
        points.push_back({at(x + corner % 2), at(y + corner / 2), 0, 1});
  Draw(pipeline, points, &target, [](VkCommandBuffer) {});
  const std::vector<uint32_t> pixels = Read<uint32_t>(target);
  ASSERT_EQ(pixels.size(), size_t(kExtent.width * kExtent.height));
  for (uint32_t i = 0; i < pixels.size(); ++i)
    ASSERT_EQ(pixels[i], 0xFFFFFFFFu) << "crack at " << i % kExtent.width << "," << i / kExtent.width;
}

// Control invocations read each other's outputs after a barrier; per-patch
// outputs reach the evaluation shader, which sees PatchVertices = the
// control shader's output vertices (3) where the control shader saw the
// draw's patch size (5); PrimitiveId counts patches in both. The patch
// size comes from the pipeline or, as dynamic state, from the command buffer.
TEST_F(TessellationTest, ControlInvocationsShareOutputsAcrossABarrier) {
  const auto set_patch_control_points =
      reinterpret_cast<PFN_vkCmdSetPatchControlPointsEXT>(vkGetDeviceProcAddr(device_, "vkCmdSetPatchControlPointsEXT"));
  ASSERT_NE(set_patch_control_points, nullptr);
  for (bool dynamic : {false, true}) {
    const DescriptorSet set = MakeDescriptorSet({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
    PipelineDesc desc = Desc(kTessellationBarrierTesc, sizeof kTessellationBarrierTesc, kTessellationBarrierTese,
                             sizeof kTessellationBarrierTese, dynamic ? 2 : 5, false);
    desc.layout = MakePipelineLayout({set.layout});
    if (dynamic) desc.dynamic_states = {VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT};
    const VkPipeline pipeline = MakePipeline(desc);
    constexpr uint32_t kPatches = 70, kSize = 5;
    HostBuffer records =
        Upload(std::vector<float>(kPatches * 8, -1.0f), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    WriteBuffer(set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, records.buffer);
    std::vector<Point> points;
    for (uint32_t p = 0; p < kPatches; ++p)
      for (uint32_t k = 0; k < kSize; ++k) points.push_back({float(10 * p + k), float(3 * k + 1), 0, 1});

    VkQueryPoolCreateInfo qci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qci.queryType = VK_QUERY_TYPE_PIPELINE_STATISTICS;
    qci.queryCount = 1;
    qci.pipelineStatistics = VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT |
                             VK_QUERY_PIPELINE_STATISTIC_TESSELLATION_CONTROL_SHADER_PATCHES_BIT |
                             VK_QUERY_PIPELINE_STATISTIC_TESSELLATION_EVALUATION_SHADER_INVOCATIONS_BIT;
    VkQueryPool pool = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateQueryPool(device_, &qci, nullptr, &pool), VK_SUCCESS);
    Defer([this, pool] { vkDestroyQueryPool(device_, pool, nullptr); });

    Draw(
        pipeline, points, nullptr,
        [&](VkCommandBuffer cb) {
          vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, desc.layout, 0, 1, &set.set, 0, nullptr);
          if (dynamic) set_patch_control_points(cb, kSize);
        },
        pool);
    const float* r = records.as<float>();
    for (uint32_t p = 0; p < kPatches; ++p) {
      // value[i] = point[i].x + 100 i + point[4].y = 10 p + 101 i + 13.
      const float v[3] = {float(10 * p + 13), float(10 * p + 114), float(10 * p + 215)};
      const float* info = &r[p * 8];
      EXPECT_EQ(info[0], v[0] + v[1] + v[2]) << "patch " << p << (dynamic ? " dynamic" : "");
      EXPECT_EQ(info[1], v[0]) << "patch " << p;
      EXPECT_EQ(info[2], float(p)) << "patch " << p;
      EXPECT_EQ(info[3], float(kSize)) << "patch " << p;
      for (int i = 0; i < 3; ++i) EXPECT_EQ(info[4 + i], v[i]) << "patch " << p << " vertex " << i;
      EXPECT_EQ(info[7], 3.0f) << "patch " << p;
    }
    uint64_t stats[3] = {};
    ASSERT_EQ(vkGetQueryPoolResults(device_, pool, 0, 1, sizeof stats, stats, sizeof stats,
                                    VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
              VK_SUCCESS);
    EXPECT_EQ(stats[0], kPatches);      // input assembly primitives: patches
    EXPECT_EQ(stats[1], kPatches);      // control shader patches
    EXPECT_EQ(stats[2], 2 * kPatches);  // two points per patch
  }
}

// primitiveTopologyPatchListRestart: an indexed patch list with primitive
// restart makes whole patches of each run between restart indices, and a
// restart drops the unfinished patch before it. Patches of 5 from
// {0 | 1 2 3 4 5 6 7 | 8 9 10 11 12}: (1..5) and (8..12), numbered 0 and 1.
TEST_F(TessellationTest, PatchListRestartsStartNewPatches) {
  const DescriptorSet set = MakeDescriptorSet({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
  PipelineDesc desc = Desc(kTessellationBarrierTesc, sizeof kTessellationBarrierTesc, kTessellationBarrierTese,
                           sizeof kTessellationBarrierTese, 5, false);
  desc.layout = MakePipelineLayout({set.layout});
  desc.primitive_restart = true;
  const VkPipeline pipeline = MakePipeline(desc);
  HostBuffer records = Upload(std::vector<float>(3 * 8, -1.0f), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  WriteBuffer(set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, records.buffer);
  std::vector<Point> points;
  for (uint32_t j = 0; j < 13; ++j) points.push_back({float(j), 0, 0, 1});
  HostBuffer vertices = Upload(points, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  const std::vector<uint16_t> indices = {0, 0xFFFF, 1, 2, 3, 4, 5, 6, 7, 0xFFFF, 8, 9, 10, 11, 12};
  HostBuffer index_buffer = Upload(indices, VK_BUFFER_USAGE_INDEX_BUFFER_BIT);

  VkQueryPoolCreateInfo qci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  qci.queryType = VK_QUERY_TYPE_PIPELINE_STATISTICS;
  qci.queryCount = 1;
  qci.pipelineStatistics = VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT |
                           VK_QUERY_PIPELINE_STATISTIC_TESSELLATION_CONTROL_SHADER_PATCHES_BIT;
  VkQueryPool pool = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateQueryPool(device_, &qci, nullptr, &pool), VK_SUCCESS);
  Defer([this, pool] { vkDestroyQueryPool(device_, pool, nullptr); });

  const Target target = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
  VkCommandBuffer cb = BeginCommands();
  vkCmdResetQueryPool(cb, pool, 0, 1);
  BeginRendering(cb, {{&target, VK_ATTACHMENT_LOAD_OP_CLEAR, {}}});
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  const VkDeviceSize offset = 0;
  vkCmdBindVertexBuffers(cb, 0, 1, &vertices.buffer, &offset);
  vkCmdBindIndexBuffer(cb, index_buffer.buffer, 0, VK_INDEX_TYPE_UINT16);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, desc.layout, 0, 1, &set.set, 0, nullptr);
  vkCmdBeginQuery(cb, pool, 0, 0);
  vkCmdDrawIndexed(cb, uint32_t(indices.size()), 1, 0, 0, 0);
  vkCmdEndQuery(cb, pool, 0);
  vkCmdEndRendering(cb);
  EndSubmitWait(cb);

  const float* r = records.as<float>();
  const uint32_t first_vertex[2] = {1, 8};
  for (uint32_t p = 0; p < 2; ++p) {
    const float* info = &r[p * 8];
    EXPECT_EQ(info[2], float(p)) << "PrimitiveId of patch " << p;
    // value[i] = x of the patch's vertex i + 100 i.
    for (uint32_t i = 0; i < 3; ++i) EXPECT_EQ(info[4 + i], float(first_vertex[p] + 101 * i)) << "patch " << p;
  }
  EXPECT_EQ(r[2 * 8 + 2], -1.0f) << "a third patch";
  uint64_t stats[2] = {};
  ASSERT_EQ(vkGetQueryPoolResults(device_, pool, 0, 1, sizeof stats, stats, sizeof stats,
                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
            VK_SUCCESS);
  EXPECT_EQ(stats[0], 2u);  // input assembly primitives
  EXPECT_EQ(stats[1], 2u);  // control shader patches
}

// One triangle (levels 1) over the upper left half of the viewport, culled
// when back-facing: the vertex order mode and the domain origin (static or
// dynamic) decide which side faces front. Visible exactly when (front face
// == vertex order) == (origin upper left).
TEST_F(TessellationTest, VertexOrderAndDomainOriginDecideTheWinding) {
  const auto set_domain_origin = reinterpret_cast<PFN_vkCmdSetTessellationDomainOriginEXT>(
      vkGetDeviceProcAddr(device_, "vkCmdSetTessellationDomainOriginEXT"));
  ASSERT_NE(set_domain_origin, nullptr);
  for (bool clockwise : {false, true})
    for (int origin = 0; origin < 4; ++origin) {  // default, upper left, lower left, lower left (dynamic)
      const bool upper_left = origin < 2;
      PipelineDesc desc = clockwise ? Desc(kTessellationLevelsTesc, sizeof kTessellationLevelsTesc,
                                           kTessellationTriangleCwTese, sizeof kTessellationTriangleCwTese, 4, true)
                                    : Desc(kTessellationLevelsTesc, sizeof kTessellationLevelsTesc,
                                           kTessellationTriangleCcwTese, sizeof kTessellationTriangleCcwTese, 4, true);
      desc.layout = MakePipelineLayout({}, sizeof(Levels), VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT);
      desc.rasterization.cullMode = VK_CULL_MODE_BACK_BIT;
      desc.rasterization.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
      VkPipelineTessellationDomainOriginStateCreateInfo domain{
          VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_DOMAIN_ORIGIN_STATE_CREATE_INFO, nullptr,
          origin == 2 ? VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT : VK_TESSELLATION_DOMAIN_ORIGIN_UPPER_LEFT};
      if (origin == 1 || origin == 2) desc.tessellation_next = &domain;
      if (origin == 3) desc.dynamic_states = {VK_DYNAMIC_STATE_TESSELLATION_DOMAIN_ORIGIN_EXT};
      const VkPipeline pipeline = MakePipeline(desc);
      const Target target = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
      const Levels levels{{1, 1, 1, 1}, {1, 1}};
      Draw(pipeline, std::vector<Point>(4, Point{0, 0, 0, 1}), &target, [&](VkCommandBuffer cb) {
        vkCmdPushConstants(cb, desc.layout, VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, 0, sizeof levels, &levels);
        if (origin == 3) set_domain_origin(cb, VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT);
      });
      const std::vector<uint32_t> pixels = Read<uint32_t>(target);
      const size_t white = size_t(std::count(pixels.begin(), pixels.end(), 0xFFFFFFFFu));
      const bool visible = (!clockwise) == upper_left;
      if (visible) {
        // The half where u + v <= 1: above the diagonal from (0, 64) to (64, 0).
        EXPECT_NEAR(double(white), kExtent.width * kExtent.height / 2.0, kExtent.width)
            << (clockwise ? "cw" : "ccw") << " origin " << origin;
        EXPECT_EQ(pixels[2 * kExtent.width + 2], 0xFFFFFFFFu);
      } else {
        EXPECT_EQ(white, 0u) << (clockwise ? "cw" : "ccw") << " origin " << origin;
      }
    }
}

// The evaluation shader's triangles go on to a geometry shader, which
// draws each into three layers (geometry_layers.geom), seeing the
// tessellated triangles as its input primitives: inner level 2 makes three
// of the patch (the outer ring fanned to the centre), primitives 0, 1, 2.
TEST_F(TessellationTest, GeometryShaderTakesTheTessellatedTriangles) {
  ASSERT_EQ(features_.geometryShader, VK_TRUE);
  PipelineDesc desc = Desc(kTessellationLevelsTesc, sizeof kTessellationLevelsTesc, kTessellationTriangleCcwTese,
                           sizeof kTessellationTriangleCcwTese, 4, true);
  desc.geometry = Module(kGeometryLayersGeom);
  desc.fragment = Module(kGeometryPrimitiveIdFrag);
  desc.layout = MakePipelineLayout({}, sizeof(Levels), VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT);
  const VkPipeline pipeline = MakePipeline(desc);
  constexpr uint32_t kLayers = 3;
  const Target target = MakeLayeredTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent, kLayers);
  const Levels levels{{1, 1, 1, 1}, {2, 2}};
  Draw(
      pipeline, std::vector<Point>(4, Point{0, 0, 0, 1}), &target,
      [&](VkCommandBuffer cb) {
        vkCmdPushConstants(cb, desc.layout, VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, 0, sizeof levels, &levels);
      },
      VK_NULL_HANDLE, kLayers);
  for (uint32_t layer = 0; layer < kLayers; ++layer) {
    const std::vector<uint32_t> pixels = Read<uint32_t>(target, VK_IMAGE_ASPECT_COLOR_BIT, layer);
    ASSERT_EQ(pixels.size(), size_t(kExtent.width * kExtent.height));
    // Outside the triangle (u + v > 1): the clear colour.
    EXPECT_EQ(pixels[(kExtent.height - 2) * kExtent.width + kExtent.width - 2], 0u) << "layer " << layer;
    // Inside: one of the three primitives, each somewhere.
    bool seen[3] = {};
    for (uint32_t y = 0; y < kExtent.height; ++y)
      for (uint32_t x = 0; x + y + 2 < kExtent.width; ++x) {
        const uint32_t p = pixels[y * kExtent.width + x];
        bool known = false;
        for (uint32_t primitive = 0; primitive < 3; ++primitive)
          if (p == PackRgba8(layer * 40, primitive * 40, (10 + primitive) * 10, 255)) known = seen[primitive] = true;
        ASSERT_TRUE(known) << "layer " << layer << " at " << x << "," << y << ": " << std::hex << p;
      }
    for (uint32_t primitive = 0; primitive < 3; ++primitive)
      EXPECT_TRUE(seen[primitive]) << "layer " << layer << " primitive " << primitive;
  }
}

// Multiview (multiviewTessellationShader): the patch is tessellated once
// per view, the evaluation shader seeing ViewIndex, each view into its layer.
TEST_F(TessellationTest, MultiviewTessellatesEachView) {
  VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v11};
  vkGetPhysicalDeviceFeatures2(phys_, &features);
  ASSERT_EQ(v11.multiviewTessellationShader, VK_TRUE);
  PipelineDesc desc = Desc(kTessellationLevelsTesc, sizeof kTessellationLevelsTesc, kTessellationViewTese,
                           sizeof kTessellationViewTese, 4, true);
  desc.fragment = Module(kColorTriangleFrag);
  desc.layout = MakePipelineLayout({}, sizeof(Levels), VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT);
  desc.view_mask = 0b11;
  const VkPipeline pipeline = MakePipeline(desc);
  const Target target = MakeLayeredTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent, 2);
  const Levels levels{{3, 3, 3, 3}, {3, 3}};
  Draw(
      pipeline, std::vector<Point>(4, Point{0, 0, 0, 1}), &target,
      [&](VkCommandBuffer cb) {
        vkCmdPushConstants(cb, desc.layout, VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, 0, sizeof levels, &levels);
      },
      VK_NULL_HANDLE, 1, 0b11);
  for (uint32_t view = 0; view < 2; ++view) {
    const std::vector<uint32_t> pixels = Read<uint32_t>(target, VK_IMAGE_ASPECT_COLOR_BIT, view);
    const uint32_t color = view == 0 ? PackRgba8(255, 0, 0, 255) : PackRgba8(0, 255, 0, 255);
    EXPECT_EQ(pixels[2 * kExtent.width + 2], color) << "view " << view;
    EXPECT_EQ(pixels[20 * kExtent.width + 30], color) << "view " << view;
    EXPECT_EQ(pixels[(kExtent.height - 2) * kExtent.width + kExtent.width - 2], 0u) << "view " << view;
  }
}

}  // namespace
}  // namespace duet_test
