// Pipeline statistics queries (pipelineStatisticsQuery) and precise
// occlusion queries through the loader: what draws count at each stage
// (input assembly, vertex shader, clipping, fragment shader), what
// dispatches count, results in the order of the statistic bits with
// availability after them, and queries that stay active while secondary
// command buffers execute (inheritedQueries).
#include <array>
#include <cstring>
#include <vector>

#include "compute_fixture.h"
#include "graphics_fixture.h"
#include "shaders/flat_color.frag.h"
#include "shaders/saxpy.comp.h"

namespace duet_test {
namespace {

constexpr uint32_t kSize = 32;

// The statistics of the stages the device has, in bit order.
constexpr VkQueryPipelineStatisticFlags kGraphicsStatistics =
    VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT | VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT |
    VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT | VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT |
    VK_QUERY_PIPELINE_STATISTIC_CLIPPING_PRIMITIVES_BIT | VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT;
enum Statistic { kVertices, kPrimitives, kVertexShaders, kClippings, kClipped, kFragmentShaders, kStatistics };

VkQueryPool MakeStatisticsPool(VkDevice device, VkQueryPipelineStatisticFlags statistics, uint32_t count) {
  VkQueryPoolCreateInfo ci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  ci.queryType = VK_QUERY_TYPE_PIPELINE_STATISTICS;
  ci.queryCount = count;
  ci.pipelineStatistics = statistics;
  VkQueryPool pool = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateQueryPool(device, &ci, nullptr, &pool), VK_SUCCESS);
  return pool;
}

class PipelineStatisticsTest : public GraphicsTest {
 protected:
  void SetUp() override {
    GraphicsTest::SetUp();
    if (HasFatalFailure()) return;
    ASSERT_EQ(features_.pipelineStatisticsQuery, VK_TRUE);
    ASSERT_EQ(features_.occlusionQueryPrecise, VK_TRUE);
    ASSERT_EQ(features_.inheritedQueries, VK_TRUE);
    desc_ = RectPipeline(Module(kFlatColorFrag), {kSize, kSize});
    pipeline_ = MakePipeline(desc_);
    target_ = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, {kSize, kSize});
    statistics_ = MakeStatisticsPool(device_, kGraphicsStatistics, 2);
    Defer([this] { vkDestroyQueryPool(device_, statistics_, nullptr); });
    occlusion_ = MakeQueryPool(VK_QUERY_TYPE_OCCLUSION, 2);
  }

  // Renders: one rectangle over the left half of the target (16 x 32
  // pixels, two triangles), one wholly right of the viewport, and a
  // non-indexed list of 3 instances of 6 vertices placed off screen.
  void Draw(VkCommandBuffer cb) {
    BeginRendering(cb, {{&target_, VK_ATTACHMENT_LOAD_OP_CLEAR, {}}});
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_);
    RectParams half;
    half.bounds[2] = 0.0f;
    DrawRect(cb, desc_.layout, half);
    RectParams outside;
    outside.bounds[0] = 2.0f;
    outside.bounds[2] = 3.0f;
    DrawRect(cb, desc_.layout, outside);
    vkCmdEndRendering(cb);
  }
  // What Draw counts.
  static constexpr std::array<uint64_t, kStatistics> kDrawCounts = {8, 4, 8, 4, 2, 16 * 32};

  std::vector<uint64_t> Results(VkQueryPool pool, uint32_t query, uint32_t values) {
    std::vector<uint64_t> data(values + 1, 0xA7A7A7A7A7A7A7A7ull);
    EXPECT_EQ(vkGetQueryPoolResults(device_, pool, query, 1, data.size() * 8, data.data(), data.size() * 8,
                                    VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT |
                                        VK_QUERY_RESULT_WITH_AVAILABILITY_BIT),
              VK_SUCCESS);
    return data;
  }

  PipelineDesc desc_;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  Target target_;
  VkQueryPool statistics_ = VK_NULL_HANDLE, occlusion_ = VK_NULL_HANDLE;
};

// Every statistic of the vertex and fragment stages, exactly: vertices and
// primitives assembled, vertices shaded, primitives clipped and those that
// came out of clipping (the off-screen rectangle did not), fragments shaded.
TEST_F(PipelineStatisticsTest, DrawsCountAtEveryStage) {
  VkCommandBuffer cb = BeginCommands();
  vkCmdResetQueryPool(cb, statistics_, 0, 2);
  vkCmdResetQueryPool(cb, occlusion_, 0, 2);
  vkCmdBeginQuery(cb, statistics_, 0, 0);
  vkCmdBeginQuery(cb, occlusion_, 0, VK_QUERY_CONTROL_PRECISE_BIT);
  Draw(cb);
  vkCmdEndQuery(cb, occlusion_, 0);
  vkCmdEndQuery(cb, statistics_, 0);
  // An empty query counts nothing.
  vkCmdBeginQuery(cb, statistics_, 1, 0);
  vkCmdEndQuery(cb, statistics_, 1);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));

  const std::vector<uint64_t> counted = Results(statistics_, 0, kStatistics);
  for (int i = 0; i < kStatistics; ++i) EXPECT_EQ(counted[size_t(i)], kDrawCounts[size_t(i)]) << "statistic " << i;
  EXPECT_EQ(counted[kStatistics], 1u) << "availability";
  const std::vector<uint64_t> empty = Results(statistics_, 1, kStatistics);
  for (int i = 0; i < kStatistics; ++i) EXPECT_EQ(empty[size_t(i)], 0u) << "statistic " << i;
  EXPECT_EQ(Results(occlusion_, 0, 1)[0], 16u * 32u) << "precise occlusion: every sample that passed";
}

// Under rasterizer discard the input assembly and the vertex shader still
// run: their statistics count the rectangle (4 vertices, 2 primitives), no
// fragment is shaded and nothing is drawn.
TEST_F(PipelineStatisticsTest, RasterizerDiscardStillCountsVerticesAndPrimitives) {
  PipelineDesc discard_desc = desc_;
  discard_desc.rasterization.rasterizerDiscardEnable = VK_TRUE;
  const VkPipeline discard = MakePipeline(discard_desc);
  ASSERT_NE(discard, VK_NULL_HANDLE);
  VkCommandBuffer cb = BeginCommands();
  vkCmdResetQueryPool(cb, statistics_, 0, 1);
  vkCmdBeginQuery(cb, statistics_, 0, 0);
  BeginRendering(cb, {{&target_, VK_ATTACHMENT_LOAD_OP_CLEAR, {}}});
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, discard);
  DrawRect(cb, desc_.layout, RectParams{});
  vkCmdEndRendering(cb);
  vkCmdEndQuery(cb, statistics_, 0);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  const std::vector<uint64_t> counted = Results(statistics_, 0, kStatistics);
  EXPECT_EQ(counted[kVertices], 4u);
  EXPECT_EQ(counted[kPrimitives], 2u);
  EXPECT_EQ(counted[kVertexShaders], 4u);
  EXPECT_EQ(counted[kFragmentShaders], 0u);
  for (uint32_t pixel : Read<uint32_t>(target_)) ASSERT_EQ(pixel, 0u);
}

// 32-bit results of a pool counting two statistics, copied by the queue
// with a stride: the values in bit order, then availability.
TEST_F(PipelineStatisticsTest, ResultsOfSomeStatisticsCopiedIn32Bits) {
  const VkQueryPool pool =
      MakeStatisticsPool(device_,
                         VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT |
                             VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT,
                         1);
  Defer([this, pool] { vkDestroyQueryPool(device_, pool, nullptr); });
  HostBuffer results = MakeHostBuffer(64, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  std::memset(results.data, 0xA7, 64);
  VkCommandBuffer cb = BeginCommands();
  vkCmdResetQueryPool(cb, pool, 0, 1);
  vkCmdBeginQuery(cb, pool, 0, 0);
  Draw(cb);
  vkCmdEndQuery(cb, pool, 0);
  vkCmdCopyQueryPoolResults(cb, pool, 0, 1, results.buffer, 4, 12, VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  const uint32_t* words = results.as<uint32_t>();
  EXPECT_EQ(words[0], 0xA7A7A7A7u);
  EXPECT_EQ(words[1], kDrawCounts[kPrimitives]);
  EXPECT_EQ(words[2], kDrawCounts[kFragmentShaders]);
  EXPECT_EQ(words[3], 1u);
  EXPECT_EQ(words[4], 0xA7A7A7A7u);
}

// Queries active in a primary command buffer count what the secondary
// command buffers it executes do (inheritedQueries).
TEST_F(PipelineStatisticsTest, SecondaryCommandBuffersCountInTheActiveQueries) {
  VkCommandBuffer secondary = AllocateCommandBuffer(VK_NULL_HANDLE, VK_COMMAND_BUFFER_LEVEL_SECONDARY);
  VkCommandBufferInheritanceInfo inheritance{VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
  inheritance.occlusionQueryEnable = VK_TRUE;
  inheritance.queryFlags = VK_QUERY_CONTROL_PRECISE_BIT;
  inheritance.pipelineStatistics = kGraphicsStatistics;
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.pInheritanceInfo = &inheritance;
  ASSERT_EQ(vkBeginCommandBuffer(secondary, &begin), VK_SUCCESS);
  Draw(secondary);
  ASSERT_EQ(vkEndCommandBuffer(secondary), VK_SUCCESS);

  VkCommandBuffer cb = BeginCommands();
  vkCmdResetQueryPool(cb, statistics_, 0, 1);
  vkCmdResetQueryPool(cb, occlusion_, 0, 1);
  vkCmdBeginQuery(cb, statistics_, 0, 0);
  vkCmdBeginQuery(cb, occlusion_, 0, VK_QUERY_CONTROL_PRECISE_BIT);
  Draw(cb);
  vkCmdExecuteCommands(cb, 1, &secondary);
  vkCmdEndQuery(cb, occlusion_, 0);
  vkCmdEndQuery(cb, statistics_, 0);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  const std::vector<uint64_t> counted = Results(statistics_, 0, kStatistics);
  for (int i = 0; i < kStatistics; ++i)
    EXPECT_EQ(counted[size_t(i)], 2 * kDrawCounts[size_t(i)]) << "statistic " << i;
  EXPECT_EQ(Results(occlusion_, 0, 1)[0], 2u * 16u * 32u);
}

class ComputeStatisticsTest : public ComputeFixture {
 protected:
  ComputeStatisticsTest() { device_options_.graphics_features = true; }
};

// Compute shader invocations: workgroups times the workgroup size.
TEST_F(ComputeStatisticsTest, DispatchesCountTheirInvocations) {
  ASSERT_EQ(features_.pipelineStatisticsQuery, VK_TRUE);
  const VkQueryPool pool = MakeStatisticsPool(
      device_, VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT |
                   VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT, 1);
  Defer([this, pool] { vkDestroyQueryPool(device_, pool, nullptr); });
  HostBuffer x = StorageBuffer(4096), y = StorageBuffer(4096);
  const Kernel k = MakeKernel(kSaxpyComp, {x.buffer, y.buffer}, 8);
  const struct {
    float a;
    uint32_t n;
  } push{2.0f, 1024};
  VkCommandBuffer cb = BeginCommands();
  vkCmdResetQueryPool(cb, pool, 0, 1);
  vkCmdBeginQuery(cb, pool, 0, 0);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k.pipeline);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k.layout, 0, 1, &k.set, 0, nullptr);
  vkCmdPushConstants(cb, k.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
  vkCmdDispatch(cb, 3, 2, 1);
  vkCmdDispatchBase(cb, 1, 0, 0, 2, 1, 1);
  vkCmdEndQuery(cb, pool, 0);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  uint64_t data[3] = {~0ull, ~0ull, ~0ull};
  ASSERT_EQ(vkGetQueryPoolResults(device_, pool, 0, 1, sizeof data, data, sizeof data,
                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT),
            VK_SUCCESS);
  EXPECT_EQ(data[0], 0u) << "vertex shader invocations";
  EXPECT_EQ(data[1], (3u * 2u + 2u) * 64u) << "compute shader invocations (local size 64)";
  EXPECT_EQ(data[2], 1u);
}

}  // namespace
}  // namespace duet_test
