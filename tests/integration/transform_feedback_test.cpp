// Transform feedback (VK_EXT_transform_feedback) through the loader:
// vertex shader outputs captured into two buffers with their own strides
// and offsets, strips written as separate triangles, primitives that do
// not fit left out (and counted as needed), pausing and resuming through
// counter buffers, vkCmdDrawIndirectByteCountEXT, geometry shader streams,
// and the transform feedback stream and primitives-generated queries
// (VK_EXT_primitives_generated_query).
#include <algorithm>
#include <cstring>
#include <vector>

#include "graphics_fixture.h"
#include "shaders/flat_color.frag.h"
#include "shaders/xfb_capture.vert.h"
#include "shaders/xfb_passthrough.vert.h"
#include "shaders/xfb_streams.geom.h"

namespace duet_test {
namespace {

class TransformFeedbackTest : public GraphicsTest {
 protected:
  void SetUp() override {
    device_options_.extensions = {VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME,
                                  VK_EXT_PRIMITIVES_GENERATED_QUERY_EXTENSION_NAME,
                                  VK_EXT_PROVOKING_VERTEX_EXTENSION_NAME,
                                  VK_EXT_EXTENDED_DYNAMIC_STATE_3_EXTENSION_NAME};
    eds3_.extendedDynamicState3RasterizationStream = VK_TRUE;
    provoking_features_.provokingVertexLast = VK_TRUE;
    provoking_features_.transformFeedbackPreservesProvokingVertex = VK_TRUE;
    xfb_features_.transformFeedback = VK_TRUE;
    xfb_features_.geometryStreams = VK_TRUE;
    generated_features_.primitivesGeneratedQuery = VK_TRUE;
    generated_features_.primitivesGeneratedQueryWithRasterizerDiscard = VK_TRUE;
    generated_features_.primitivesGeneratedQueryWithNonZeroStreams = VK_TRUE;
    device_options_.extension_features = {reinterpret_cast<VkBaseOutStructure*>(&xfb_features_),
                                          reinterpret_cast<VkBaseOutStructure*>(&generated_features_),
                                          reinterpret_cast<VkBaseOutStructure*>(&provoking_features_),
                                          reinterpret_cast<VkBaseOutStructure*>(&eds3_)};
    GraphicsTest::SetUp();
    if (HasFatalFailure()) return;
    VkPhysicalDeviceTransformFeedbackFeaturesEXT xfb{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT};
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &xfb};
    vkGetPhysicalDeviceFeatures2(phys_, &features);
    ASSERT_EQ(xfb.transformFeedback, VK_TRUE);
    ASSERT_EQ(xfb.geometryStreams, VK_TRUE);
    begin_ = reinterpret_cast<PFN_vkCmdBeginTransformFeedbackEXT>(
        vkGetDeviceProcAddr(device_, "vkCmdBeginTransformFeedbackEXT"));
    end_ = reinterpret_cast<PFN_vkCmdEndTransformFeedbackEXT>(
        vkGetDeviceProcAddr(device_, "vkCmdEndTransformFeedbackEXT"));
    bind_ = reinterpret_cast<PFN_vkCmdBindTransformFeedbackBuffersEXT>(
        vkGetDeviceProcAddr(device_, "vkCmdBindTransformFeedbackBuffersEXT"));
    begin_query_ = reinterpret_cast<PFN_vkCmdBeginQueryIndexedEXT>(
        vkGetDeviceProcAddr(device_, "vkCmdBeginQueryIndexedEXT"));
    end_query_ =
        reinterpret_cast<PFN_vkCmdEndQueryIndexedEXT>(vkGetDeviceProcAddr(device_, "vkCmdEndQueryIndexedEXT"));
    draw_byte_count_ = reinterpret_cast<PFN_vkCmdDrawIndirectByteCountEXT>(
        vkGetDeviceProcAddr(device_, "vkCmdDrawIndirectByteCountEXT"));
    ASSERT_NE(begin_, nullptr);
    ASSERT_NE(end_, nullptr);
    ASSERT_NE(bind_, nullptr);
    ASSERT_NE(begin_query_, nullptr);
    ASSERT_NE(end_query_, nullptr);
    ASSERT_NE(draw_byte_count_, nullptr);
  }

  // A pipeline without rasterization: the shaders' outputs only go to the
  // transform feedback buffers.
  VkPipeline Pipeline(const uint32_t* vertex, size_t vertex_bytes, VkPrimitiveTopology topology,
                      const uint32_t* geometry = nullptr, size_t geometry_bytes = 0, bool provoking_last = false) {
    PipelineDesc desc;
    if (provoking_last) desc.rasterization.pNext = &provoking_last_;
    desc.vertex = Module(vertex, vertex_bytes);
    if (geometry != nullptr) desc.geometry = Module(geometry, geometry_bytes);
    desc.topology = topology;
    desc.rasterization.rasterizerDiscardEnable = VK_TRUE;
    return MakePipeline(desc);
  }

  HostBuffer Buffer(size_t bytes, float fill = -1.0f) {
    std::vector<float> data(bytes / 4, fill);
    return Upload(data, VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT |
                            VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_COUNTER_BUFFER_BIT_EXT |
                            VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
  }
  static std::vector<float> Floats(const HostBuffer& b, size_t count) {
    std::vector<float> out(count);
    std::memcpy(out.data(), b.data, count * 4);
    return out;
  }
  VkQueryPool Pool(VkQueryType type, uint32_t count) {
    VkQueryPoolCreateInfo ci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    ci.queryType = type;
    ci.queryCount = count;
    VkQueryPool pool = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateQueryPool(device_, &ci, nullptr, &pool), VK_SUCCESS);
    if (pool != VK_NULL_HANDLE) Defer([this, pool] { vkDestroyQueryPool(device_, pool, nullptr); });
    return pool;
  }
  std::vector<uint64_t> Results(VkQueryPool pool, uint32_t query, uint32_t values) {
    std::vector<uint64_t> out(values);
    EXPECT_EQ(vkGetQueryPoolResults(device_, pool, query, 1, values * 8, out.data(), values * 8,
                                    VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
              VK_SUCCESS);
    return out;
  }
  void BeginRenderingEmpty(VkCommandBuffer cb) {
    target_ = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, {8, 8});
    BeginRendering(cb, {{&target_, VK_ATTACHMENT_LOAD_OP_CLEAR, {}}});
  }

  VkPhysicalDeviceTransformFeedbackFeaturesEXT xfb_features_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT};
  VkPhysicalDevicePrimitivesGeneratedQueryFeaturesEXT generated_features_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVES_GENERATED_QUERY_FEATURES_EXT};
  VkPhysicalDeviceExtendedDynamicState3FeaturesEXT eds3_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT};
  VkPhysicalDeviceProvokingVertexFeaturesEXT provoking_features_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_FEATURES_EXT};
  PFN_vkCmdBeginTransformFeedbackEXT begin_ = nullptr;
  PFN_vkCmdEndTransformFeedbackEXT end_ = nullptr;
  PFN_vkCmdBindTransformFeedbackBuffersEXT bind_ = nullptr;
  PFN_vkCmdBeginQueryIndexedEXT begin_query_ = nullptr;
  PFN_vkCmdEndQueryIndexedEXT end_query_ = nullptr;
  PFN_vkCmdDrawIndirectByteCountEXT draw_byte_count_ = nullptr;
  Target target_;
  const VkPipelineRasterizationProvokingVertexStateCreateInfoEXT provoking_last_{
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_PROVOKING_VERTEX_STATE_CREATE_INFO_EXT, nullptr,
      VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT};
};

// Six points of instance 1: buffer 0 holds (i, 2i, 1, 1) per vertex, buffer
// 1 the index at byte 4 of each 8-byte record; the stream query counts 6
// written of 6 needed, the primitives-generated query 6.
TEST_F(TransformFeedbackTest, VertexOutputsIntoTwoBuffers) {
  const VkPipeline pipeline = Pipeline(kXfbCaptureVert, sizeof kXfbCaptureVert, VK_PRIMITIVE_TOPOLOGY_POINT_LIST);
  HostBuffer b0 = Buffer(16 * 6), b1 = Buffer(8 * 6);
  const VkQueryPool stream = Pool(VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT, 1);
  const VkQueryPool generated = Pool(VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 1);
  VkCommandBuffer cb = BeginCommands();
  vkCmdResetQueryPool(cb, stream, 0, 1);
  vkCmdResetQueryPool(cb, generated, 0, 1);
  BeginRenderingEmpty(cb);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  const VkBuffer buffers[2] = {b0.buffer, b1.buffer};
  const VkDeviceSize offsets[2] = {0, 0};
  bind_(cb, 0, 2, buffers, offsets, nullptr);
  begin_query_(cb, stream, 0, 0, 0);
  vkCmdBeginQuery(cb, generated, 0, 0);
  begin_(cb, 0, 0, nullptr, nullptr);
  vkCmdDraw(cb, 6, 1, 0, 1);
  end_(cb, 0, 0, nullptr, nullptr);
  vkCmdEndQuery(cb, generated, 0);
  end_query_(cb, stream, 0, 0);
  vkCmdEndRendering(cb);
  EndSubmitWait(cb);
  const std::vector<float> data = Floats(b0, 24), index = Floats(b1, 12);
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(data[4 * i + 0], float(i)) << i;
    EXPECT_EQ(data[4 * i + 1], float(2 * i)) << i;
    EXPECT_EQ(data[4 * i + 2], 1.0f) << i;
    EXPECT_EQ(data[4 * i + 3], 1.0f) << i;
    EXPECT_EQ(index[2 * i], -1.0f) << i;  // not part of the record
    EXPECT_EQ(index[2 * i + 1], float(i)) << i;
  }
  EXPECT_EQ(Results(stream, 0, 2), (std::vector<uint64_t>{6, 6}));
  EXPECT_EQ(Results(generated, 0, 1), (std::vector<uint64_t>{6}));
}

// A strip of 5 vertices is written as its 3 triangles (odd ones with their
// last two vertices swapped, as the strip's winding order has them); with
// room for one triangle and a bit in buffer 0, one is written of 3 needed,
// and the counter buffer says 48 bytes.
TEST_F(TransformFeedbackTest, StripsAsTrianglesAndOverflow) {
  const VkPipeline pipeline =
      Pipeline(kXfbCaptureVert, sizeof kXfbCaptureVert, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP);
  HostBuffer large0 = Buffer(16 * 9), large1 = Buffer(8 * 9);
  HostBuffer small0 = Buffer(16 * 4), small1 = Buffer(8 * 9), counters = Buffer(8, 0.0f);
  const VkQueryPool stream = Pool(VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT, 2);
  VkCommandBuffer cb = BeginCommands();
  vkCmdResetQueryPool(cb, stream, 0, 2);
  BeginRenderingEmpty(cb);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  const VkDeviceSize offsets[2] = {0, 0};
  for (uint32_t pass = 0; pass < 2; ++pass) {
    const VkBuffer buffers[2] = {pass == 0 ? large0.buffer : small0.buffer, pass == 0 ? large1.buffer : small1.buffer};
    bind_(cb, 0, 2, buffers, offsets, nullptr);
    begin_query_(cb, stream, pass, 0, 0);
    begin_(cb, 0, 0, nullptr, nullptr);
    vkCmdDraw(cb, 5, 1, 0, 0);
    const VkDeviceSize counter_offsets[1] = {0};
    end_(cb, 0, pass == 1 ? 1 : 0, &counters.buffer, counter_offsets);
    end_query_(cb, stream, pass, 0);
  }
  vkCmdEndRendering(cb);
  EndSubmitWait(cb);
  const std::vector<float> data = Floats(large0, 36);
  const int expected[9] = {0, 1, 2, 1, 3, 2, 2, 3, 4};
  for (int v = 0; v < 9; ++v) EXPECT_EQ(data[4 * v], float(expected[v])) << "vertex " << v;
  EXPECT_EQ(Results(stream, 0, 2), (std::vector<uint64_t>{3, 3}));
  EXPECT_EQ(Results(stream, 1, 2), (std::vector<uint64_t>{1, 3}));
  const std::vector<float> small = Floats(small0, 16);
  for (int v = 0; v < 3; ++v) EXPECT_EQ(small[4 * v], float(expected[v])) << "vertex " << v;
  EXPECT_EQ(small[12], -1.0f);  // the second triangle did not fit: nothing of it
  uint32_t counter = 0;
  std::memcpy(&counter, counters.data, 4);
  EXPECT_EQ(counter, 48u);
}

// transformFeedbackPreservesProvokingVertex: in last-vertex mode a strip's
// odd triangles swap their first two vertices instead, keeping the
// provoking vertex (the strip's newest) last. Fans
// (transformFeedbackPreservesTriangleFanProvokingVertex) are captured from
// their provoking vertex i + 1 in first-vertex mode, and rotated to end at
// i + 2 in last-vertex mode.
TEST_F(TransformFeedbackTest, StripsAndFansKeepTheProvokingVertexInPlace) {
  VkPhysicalDeviceProvokingVertexPropertiesEXT provoking{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_PROPERTIES_EXT};
  VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &provoking};
  vkGetPhysicalDeviceProperties2(phys_, &properties);
  EXPECT_EQ(provoking.transformFeedbackPreservesTriangleFanProvokingVertex, VK_TRUE);
  struct Case {
    VkPrimitiveTopology topology;
    bool last;
    int expected[9];
  };
  const Case cases[] = {
      {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, true, {0, 1, 2, 2, 1, 3, 2, 3, 4}},
      {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN, false, {1, 2, 0, 2, 3, 0, 3, 4, 0}},
      {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN, true, {0, 1, 2, 0, 2, 3, 0, 3, 4}},
  };
  for (const Case& c : cases) {
    const VkPipeline pipeline = Pipeline(kXfbCaptureVert, sizeof kXfbCaptureVert, c.topology, nullptr, 0, c.last);
    HostBuffer b0 = Buffer(16 * 9), b1 = Buffer(8 * 9);
    VkCommandBuffer cb = BeginCommands();
    BeginRenderingEmpty(cb);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    const VkBuffer buffers[2] = {b0.buffer, b1.buffer};
    const VkDeviceSize offsets[2] = {0, 0};
    bind_(cb, 0, 2, buffers, offsets, nullptr);
    begin_(cb, 0, 0, nullptr, nullptr);
    vkCmdDraw(cb, 5, 1, 0, 0);
    end_(cb, 0, 0, nullptr, nullptr);
    vkCmdEndRendering(cb);
    EndSubmitWait(cb);
    const std::vector<float> data = Floats(b0, 36);
    for (int v = 0; v < 9; ++v) {
      EXPECT_EQ(data[4 * v], float(c.expected[v])) << "topology " << c.topology << " last " << c.last << " vertex " << v;
    }
  }
}

// Capture paused at the end of one render pass instance resumes in the
// next where the counter buffer says; a draw by byte count then draws as
// many vertices as were captured (counted by a primitives-generated query).
TEST_F(TransformFeedbackTest, PauseResumeAndDrawByByteCount) {
  const VkPipeline pipeline = Pipeline(kXfbCaptureVert, sizeof kXfbCaptureVert, VK_PRIMITIVE_TOPOLOGY_POINT_LIST);
  HostBuffer b0 = Buffer(16 * 8), b1 = Buffer(8 * 8), counter = Buffer(4, 0.0f);
  const VkQueryPool generated = Pool(VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 1);
  VkCommandBuffer cb = BeginCommands();
  vkCmdResetQueryPool(cb, generated, 0, 1);
  const VkBuffer buffers[2] = {b0.buffer, b1.buffer};
  const VkDeviceSize offsets[2] = {0, 0};
  const VkDeviceSize counter_offset = 0;
  for (uint32_t part = 0; part < 2; ++part) {
    BeginRenderingEmpty(cb);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    bind_(cb, 0, 2, buffers, offsets, nullptr);
    begin_(cb, 0, part == 0 ? 0 : 1, &counter.buffer, &counter_offset);
    vkCmdDraw(cb, 3, 1, 3 * part, 0);
    end_(cb, 0, 1, &counter.buffer, &counter_offset);
    vkCmdEndRendering(cb);
  }
  BeginRenderingEmpty(cb);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  vkCmdBeginQuery(cb, generated, 0, 0);
  draw_byte_count_(cb, 1, 0, counter.buffer, 0, 0, 16);
  vkCmdEndQuery(cb, generated, 0);
  vkCmdEndRendering(cb);
  EndSubmitWait(cb);
  const std::vector<float> data = Floats(b0, 32);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(data[4 * i], float(i)) << i;
  EXPECT_EQ(data[24], -1.0f);
  uint32_t bytes = 0;
  std::memcpy(&bytes, counter.data, 4);
  EXPECT_EQ(bytes, 96u);
  EXPECT_EQ(Results(generated, 0, 1), (std::vector<uint64_t>{6}));
}

// A geometry shader's two streams go to their own buffers; the queries of
// each stream count that stream's primitives.
TEST_F(TransformFeedbackTest, GeometryStreams) {
  ASSERT_EQ(features_.geometryShader, VK_TRUE);
  const VkPipeline pipeline = Pipeline(kXfbPassthroughVert, sizeof kXfbPassthroughVert,
                                       VK_PRIMITIVE_TOPOLOGY_POINT_LIST, kXfbStreamsGeom, sizeof kXfbStreamsGeom);
  HostBuffer b0 = Buffer(4 * 8), b1 = Buffer(4 * 8);
  const VkQueryPool stream = Pool(VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT, 2);
  const VkQueryPool generated = Pool(VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 2);
  VkCommandBuffer cb = BeginCommands();
  vkCmdResetQueryPool(cb, stream, 0, 2);
  vkCmdResetQueryPool(cb, generated, 0, 2);
  BeginRenderingEmpty(cb);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  const VkBuffer buffers[2] = {b0.buffer, b1.buffer};
  const VkDeviceSize offsets[2] = {0, 0};
  bind_(cb, 0, 2, buffers, offsets, nullptr);
  for (uint32_t s = 0; s < 2; ++s) {
    begin_query_(cb, stream, s, 0, s);
    begin_query_(cb, generated, s, 0, s);
  }
  begin_(cb, 0, 0, nullptr, nullptr);
  vkCmdDraw(cb, 4, 1, 0, 0);
  end_(cb, 0, 0, nullptr, nullptr);
  for (uint32_t s = 0; s < 2; ++s) {
    end_query_(cb, generated, s, s);
    end_query_(cb, stream, s, s);
  }
  vkCmdEndRendering(cb);
  EndSubmitWait(cb);
  EXPECT_EQ(Floats(b0, 5), (std::vector<float>{100, 101, 102, 103, -1}));
  EXPECT_EQ(Floats(b1, 5), (std::vector<float>{210, 211, 230, 231, -1}));
  EXPECT_EQ(Results(stream, 0, 2), (std::vector<uint64_t>{4, 4}));
  EXPECT_EQ(Results(stream, 1, 2), (std::vector<uint64_t>{4, 4}));
  EXPECT_EQ(Results(generated, 0, 1), (std::vector<uint64_t>{4}));
  EXPECT_EQ(Results(generated, 1, 1), (std::vector<uint64_t>{4}));
}

// A vertex shader emits on stream 0 only: with rasterization stream 1
// selected nothing is drawn, with stream 0 the rectangle is; the stream
// chosen by the pipeline (passes 0, 1) or as dynamic state (2, 3:
// VK_EXT_extended_dynamic_state3, the pipeline's stream the other one).
TEST_F(TransformFeedbackTest, VertexShaderRasterizesStreamZeroOnly) {
  auto set_stream = reinterpret_cast<PFN_vkCmdSetRasterizationStreamEXT>(
      vkGetDeviceProcAddr(device_, "vkCmdSetRasterizationStreamEXT"));
  ASSERT_NE(set_stream, nullptr);
  for (uint32_t pass = 0; pass < 4; ++pass) {
    const uint32_t stream = pass % 2;
    const bool dynamic = pass >= 2;
    PipelineDesc desc = RectPipeline(Module(kFlatColorFrag), {8, 8});
    const VkPipelineRasterizationStateStreamCreateInfoEXT select{
        VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_STREAM_CREATE_INFO_EXT, nullptr, 0,
        dynamic ? 1 - stream : stream};
    desc.rasterization.pNext = &select;
    if (dynamic) desc.dynamic_states = {VK_DYNAMIC_STATE_RASTERIZATION_STREAM_EXT};
    const VkPipeline pipeline = MakePipeline(desc);
    VkCommandBuffer cb = BeginCommands();
    BeginRenderingEmpty(cb);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    if (dynamic) set_stream(cb, stream);
    DrawRect(cb, desc.layout, RectParams{});
    vkCmdEndRendering(cb);
    EndSubmitWait(cb);
    const std::vector<uint32_t> pixels = Read<uint32_t>(target_);
    ASSERT_EQ(pixels.size(), 64u);
    EXPECT_EQ(pixels[27], stream == 0 ? 0xFFFFFFFFu : 0u) << "pass " << pass;
  }
}

// A geometry shader's stream is rasterized when selected: its points on
// stream 1 are drawn (a pixel at the target's centre), stream 2, which it
// leaves empty, draws nothing.
TEST_F(TransformFeedbackTest, GeometryStreamSelectedForRasterization) {
  for (uint32_t stream : {1u, 2u}) {
    PipelineDesc desc = RectPipeline(Module(kFlatColorFrag), {8, 8});
    desc.vertex = Module(kXfbPassthroughVert);
    desc.geometry = Module(kXfbStreamsGeom);
    desc.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    const VkPipelineRasterizationStateStreamCreateInfoEXT select{
        VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_STREAM_CREATE_INFO_EXT, nullptr, 0, stream};
    desc.rasterization.pNext = &select;
    const VkPipeline pipeline = MakePipeline(desc);
    VkCommandBuffer cb = BeginCommands();
    BeginRenderingEmpty(cb);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    const RectParams white;
    vkCmdPushConstants(cb, desc.layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof white,
                       &white);
    vkCmdDraw(cb, 4, 1, 0, 0);
    vkCmdEndRendering(cb);
    EndSubmitWait(cb);
    const std::vector<uint32_t> pixels = Read<uint32_t>(target_);
    ASSERT_EQ(pixels.size(), 64u);
    const size_t drawn = size_t(std::count(pixels.begin(), pixels.end(), 0xFFFFFFFFu));
    EXPECT_EQ(drawn, stream == 1 ? 1u : 0u) << "stream " << stream;
  }
}

}  // namespace
}  // namespace duet_test
