// Draw commands through the loader: primitive restart (uint16 0xFFFF and
// uint32 0xFFFFFFFF, strips and fans, and a uint32 0xFFFF that is an
// ordinary index), indexed and instanced draws (vertexOffset, firstIndex,
// firstVertex, firstInstance, per-instance attributes, gl_VertexIndex and
// gl_InstanceIndex), indirect draws and indirect draws with a count buffer;
// and the draw extensions: 8-bit indices, restarts in lists, every 32-bit
// index, instance-rate divisors, the last vertex as the provoking one.
//
// Every triangle writes the flat ids of its provoking vertex
// (gl_VertexIndex, gl_InstanceIndex, the instance's colour) into an
// integer attachment; the expected image comes from a host model of the
// same draws: index fetch, restart, assembly with the spec's vertex order
// and provoking vertex, and coverage with the top-left rule.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

#include "graphics_fixture.h"
#include "shaders/ids.frag.h"
#include "shaders/instanced_ids.vert.h"

namespace duet_test {
namespace {

constexpr uint32_t kWidth = 64, kHeight = 32;
using Ids = std::array<uint32_t, 4>;

struct Instance {
  float offset[2];
  float color[4];
};

uint32_t PackUnorm4x8(const float (&c)[4]) {
  uint32_t packed = 0;
  for (int i = 0; i < 4; ++i) packed |= uint32_t(std::lround(std::clamp(c[i], 0.0f, 1.0f) * 255.0f)) << (8 * i);
  return packed;
}

// One draw as the host model sees it (direct or read from an indirect buffer).
struct DrawParams {
  bool indexed = false;
  uint32_t count = 0, instance_count = 1, first = 0;
  int32_t vertex_offset = 0;
  uint32_t first_instance = 0;
};

// The host model of the draws' results.
class Model {
 public:
  Model() : pixels_(kWidth * kHeight, Ids{0, 0, 0, 0}) {}

  // VK_EXT_provoking_vertex's last-vertex mode: triangle i's v_{i+2}.
  bool provoking_last = false;
  // VK_EXT_vertex_attribute_divisor: the instance binding steps every `divisor` instances (0: never).
  uint32_t divisor = 1;

  // Draws as Vulkan defines them: indices (restart values end a strip or
  // fan), triangles p_i of the topology with v_i first (the provoking vertex).
  void Draw(const DrawParams& d, VkPrimitiveTopology topology, const std::vector<std::array<float, 2>>& positions,
            const std::vector<Instance>& instances, const std::vector<uint32_t>& indices, bool restart,
            uint32_t restart_value) {
    first_instance_ = d.first_instance;
    for (uint32_t instance = d.first_instance; instance < d.first_instance + d.instance_count; ++instance) {
      std::vector<int64_t> run;  // vertex ids of the current strip or fan
      auto flush = [&] {
        const size_t n = run.size();
        // `first`: the first-vertex-mode provoking vertex; v_{i+2} is the last-vertex mode's.
        auto tri = [&](size_t a, size_t b, size_t c, size_t first, size_t last) {
          Triangle(run[a], run[b], run[c], run[provoking_last ? last : first], instance, positions, instances);
        };
        if (topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST)
          for (size_t i = 0; i + 2 < n; i += 3) tri(i, i + 1, i + 2, i, i + 2);
        if (topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP)
          for (size_t i = 0; i + 2 < n; ++i) tri(i, i + 1 + i % 2, i + 2 - i % 2, i, i + 2);
        if (topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN)
          for (size_t i = 0; i + 2 < n; ++i) tri(i + 1, i + 2, 0, i + 1, i + 2);
        run.clear();
      };
      for (uint32_t i = 0; i < d.count; ++i) {
        if (!d.indexed) {
          run.push_back(int64_t(d.first) + i);
          continue;
        }
        const uint32_t index = indices.at(d.first + i);
        if (restart && index == restart_value) {
          flush();
          continue;
        }
        run.push_back(int64_t(index) + d.vertex_offset);
      }
      flush();
    }
  }

  const std::vector<Ids>& pixels() const { return pixels_; }

 private:
  void Triangle(int64_t v0, int64_t v1, int64_t v2, int64_t provoking, uint32_t instance,
                const std::vector<std::array<float, 2>>& positions, const std::vector<Instance>& instances) {
    double x[3], y[3];
    const int64_t ids[3] = {v0, v1, v2};
    const Instance& in = instances.at(InstanceElement(instance));
    for (int i = 0; i < 3; ++i) {
      // Vertices past the buffer read zeros (robust buffer access).
      const std::array<float, 2> p = size_t(ids[i]) < positions.size() ? positions[size_t(ids[i])]
                                                                        : std::array<float, 2>{0, 0};
      x[i] = (double(p[0] + in.offset[0]) + 1.0) * 0.5 * kWidth;
      y[i] = (double(p[1] + in.offset[1]) + 1.0) * 0.5 * kHeight;
    }
    const Ids value{uint32_t(provoking), instance, PackUnorm4x8(in.color), 0xA5};
    for (uint32_t py = 0; py < kHeight; ++py)
      for (uint32_t px = 0; px < kWidth; ++px)
        if (ReferenceCovers(x, y, int(px), int(py))) pixels_[py * kWidth + px] = value;
  }

  // The element of the per-instance binding an instance reads.
  uint32_t InstanceElement(uint32_t instance) const {
    return divisor == 0 ? first_instance_ : first_instance_ + (instance - first_instance_) / divisor;
  }

  uint32_t first_instance_ = 0;  // of the draw being modelled

  std::vector<Ids> pixels_;
};

class DrawCallTest : public GraphicsTest {
 protected:
  void SetUp() override {
    GraphicsTest::SetUp();
    if (HasFatalFailure()) return;
    // Quads of 8x6 pixels (their diagonals miss every pixel centre),
    // each as four vertices: top-left, top-right, bottom-left, bottom-right.
    for (int q = 0; q < 24; ++q) {
      const float x0 = Ndc(2 + (q % 6) * 10, kWidth), y0 = Ndc(1 + (q / 6) * 8, kHeight);
      const float x1 = x0 + 16.0f / kWidth, y1 = y0 + 12.0f / kHeight;
      positions_.push_back({x0, y0});
      positions_.push_back({x1, y0});
      positions_.push_back({x0, y1});
      positions_.push_back({x1, y1});
    }
    // Instance i moves by i/8 of the target's width to the right... and
    // back into view by wrapping the quads' grid (offsets stay small).
    for (int i = 0; i < 8; ++i)
      instances_.push_back({{float(i % 3) * 4.0f / kWidth, float(i / 3) * 2.0f / kHeight},
                            {float(i) / 7.0f, 1.0f - float(i) / 7.0f, 0.5f, 1.0f}});
  }

  PipelineDesc Pipeline(VkPrimitiveTopology topology, bool restart = false) {
    PipelineDesc d;
    d.vertex = Module(kInstancedIdsVert);
    d.fragment = Module(kIdsFrag);
    d.extent = {kWidth, kHeight};
    d.topology = topology;
    d.primitive_restart = restart;
    d.color_formats = {VK_FORMAT_R32G32B32A32_UINT};
    d.bindings = {{0, 8, VK_VERTEX_INPUT_RATE_VERTEX}, {1, sizeof(Instance), VK_VERTEX_INPUT_RATE_INSTANCE}};
    d.attributes = {{0, 0, VK_FORMAT_R32G32_SFLOAT, 0},
                    {1, 1, VK_FORMAT_R32G32_SFLOAT, 0},
                    {2, 1, VK_FORMAT_R32G32B32A32_SFLOAT, 8}};
    return d;
  }

  // Records `record` between binding the pipeline and vertex buffers and
  // the end of rendering into a cleared integer target; returns its pixels.
  std::vector<Ids> Render(const PipelineDesc& desc, const std::function<void(VkCommandBuffer)>& record) {
    const Target target = MakeTarget(VK_FORMAT_R32G32B32A32_UINT, {kWidth, kHeight});
    const VkPipeline pipeline = MakePipeline(desc);
    HostBuffer vb = Upload(positions_, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    HostBuffer ib = Upload(instances_, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    VkCommandBuffer cb = BeginCommands();
    BeginRendering(cb, {{&target, VK_ATTACHMENT_LOAD_OP_CLEAR, {}}});
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    const VkBuffer buffers[2] = {vb.buffer, ib.buffer};
    const VkDeviceSize offsets[2] = {0, 0};
    vkCmdBindVertexBuffers(cb, 0, 2, buffers, offsets);
    record(cb);
    vkCmdEndRendering(cb);
    EndSubmitWait(cb);
    return Read<Ids>(target);
  }

  ::testing::AssertionResult Matches(const std::vector<Ids>& got, const Model& model) {
    if (got.size() != model.pixels().size()) return ::testing::AssertionFailure() << "read " << got.size();
    size_t drawn = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      const Ids& e = model.pixels()[i];
      drawn += e[3] != 0;
      if (got[i] == e) continue;
      return ::testing::AssertionFailure() << "pixel " << i % kWidth << "," << i / kWidth << ": vertex " << got[i][0]
                                           << " instance " << got[i][1] << " colour " << got[i][2] << " tag "
                                           << got[i][3] << "; expected vertex " << e[0] << " instance " << e[1]
                                           << " colour " << e[2] << " tag " << e[3];
    }
    if (drawn == 0) return ::testing::AssertionFailure() << "the model draws nothing";
    return ::testing::AssertionSuccess();
  }

  std::vector<std::array<float, 2>> positions_;
  std::vector<Instance> instances_;
};

TEST_F(DrawCallTest, PrimitiveRestartUint16Strips) {
  // Quads 0, 1 and 5 as strips (vertex order TL, BL, TR, BR: the odd
  // triangle's provoking vertex is its v_1), separated by 0xFFFF; without
  // the restarts the strip would bridge the quads.
  const std::vector<uint16_t> indices = {0, 2, 1, 3, 0xFFFF, 4, 6, 5, 7, 0xFFFF, 0xFFFF, 20, 22, 21, 23, 0xFFFF};
  HostBuffer index_buffer = Upload(indices, VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  const std::vector<Ids> got = Render(Pipeline(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, true), [&](VkCommandBuffer cb) {
    vkCmdBindIndexBuffer(cb, index_buffer.buffer, 0, VK_INDEX_TYPE_UINT16);
    vkCmdDrawIndexed(cb, uint32_t(indices.size()), 1, 0, 0, 0);
  });
  Model model;
  std::vector<uint32_t> wide(indices.begin(), indices.end());
  model.Draw({true, uint32_t(indices.size()), 1, 0, 0, 0}, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, positions_,
             instances_, wide, true, 0xFFFF);
  EXPECT_TRUE(Matches(got, model));
}

TEST_F(DrawCallTest, PrimitiveRestartUint32FansAndAnOrdinary0xFFFF) {
  // Fans around quads 2, 3 and 8 (TL, BL, BR, TR) split by 0xFFFFFFFF; then
  // quad 9 drawn with uint32 indices 0xFFFF.. and a vertexOffset that
  // brings them back: 0xFFFF restarts only uint16 draws.
  const std::vector<uint32_t> fans = {8, 10, 11, 9, 0xFFFFFFFF, 12, 14, 15, 13, 0xFFFFFFFF, 32, 34, 35, 33};
  const std::vector<uint32_t> high = {0xFFFF, 0xFFFF + 2, 0xFFFF + 3, 0xFFFF + 1};
  std::vector<uint32_t> indices = fans;
  indices.insert(indices.end(), high.begin(), high.end());
  HostBuffer index_buffer = Upload(indices, VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  const int32_t offset = 36 - 0xFFFF;
  const std::vector<Ids> got = Render(Pipeline(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN, true), [&](VkCommandBuffer cb) {
    vkCmdBindIndexBuffer(cb, index_buffer.buffer, 0, VK_INDEX_TYPE_UINT32);
    vkCmdDrawIndexed(cb, uint32_t(fans.size()), 1, 0, 0, 0);
    vkCmdDrawIndexed(cb, uint32_t(high.size()), 1, uint32_t(fans.size()), offset, 0);
  });
  Model model;
  model.Draw({true, uint32_t(fans.size()), 1, 0, 0, 0}, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN, positions_, instances_,
             indices, true, 0xFFFFFFFF);
  model.Draw({true, uint32_t(high.size()), 1, uint32_t(fans.size()), offset, 0}, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN,
             positions_, instances_, indices, true, 0xFFFFFFFF);
  EXPECT_TRUE(Matches(got, model));
}

TEST_F(DrawCallTest, StripsAndFansWithoutIndicesKeepTheProvokingVertex) {
  // Non-indexed: a strip of 3 quads' worth of vertices across quads 0..2
  // (each triangle's provoking vertex is its first, v_i), then a fan.
  const std::vector<Ids> strip = Render(Pipeline(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP), [&](VkCommandBuffer cb) {
    vkCmdDraw(cb, 6, 2, 40, 3);
  });
  Model strip_model;
  strip_model.Draw({false, 6, 2, 40, 0, 3}, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, positions_, instances_, {}, false, 0);
  EXPECT_TRUE(Matches(strip, strip_model));
  const std::vector<Ids> fan = Render(Pipeline(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN), [&](VkCommandBuffer cb) {
    vkCmdDraw(cb, 5, 1, 49, 0);
  });
  Model fan_model;
  fan_model.Draw({false, 5, 1, 49, 0, 0}, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN, positions_, instances_, {}, false, 0);
  EXPECT_TRUE(Matches(fan, fan_model));
}

// Two triangles per quad (TL, TR, BL and BL, TR, BR), as indices 0..5 of a quad.
std::vector<uint32_t> QuadIndices(uint32_t quad) {
  const uint32_t b = quad * 4;
  return {b, b + 1, b + 2, b + 2, b + 1, b + 3};
}

TEST_F(DrawCallTest, IndexedInstancedWithOffsetsAndPerInstanceAttributes) {
  // firstIndex skips junk indices, vertexOffset moves quad 1's indices to
  // quad 13, five instances from instance 2 read their own offset and colour.
  std::vector<uint32_t> indices = {99, 98, 97};
  for (uint32_t i : QuadIndices(1)) indices.push_back(i);
  for (uint32_t i : QuadIndices(2)) indices.push_back(i);
  std::vector<uint16_t> narrow(indices.begin(), indices.end());
  HostBuffer index32 = Upload(indices, VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  HostBuffer index16 = Upload(narrow, VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  const std::vector<Ids> got = Render(Pipeline(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST), [&](VkCommandBuffer cb) {
    vkCmdBindIndexBuffer(cb, index32.buffer, 0, VK_INDEX_TYPE_UINT32);
    vkCmdDrawIndexed(cb, 6, 5, 3, 48, 2);
    // uint16 indices at a byte offset, no instancing, a negative vertexOffset.
    vkCmdBindIndexBuffer(cb, index16.buffer, 2 * 3, VK_INDEX_TYPE_UINT16);
    vkCmdDrawIndexed(cb, 6, 1, 6, 56 - 8, 0);
  });
  Model model;
  model.Draw({true, 6, 5, 3, 48, 2}, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, positions_, instances_, indices, false, 0);
  model.Draw({true, 6, 1, 9, 48, 0}, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, positions_, instances_, indices, false, 0);
  EXPECT_TRUE(Matches(got, model));
}

TEST_F(DrawCallTest, NonIndexedInstancedWithFirstVertexAndFirstInstance) {
  // Vertices 68..73: the first triangle of quad 17, then one across quads 17 and 18.
  const std::vector<Ids> got = Render(Pipeline(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST), [&](VkCommandBuffer cb) {
    vkCmdDraw(cb, 6, 3, 68, 1);
    vkCmdDraw(cb, 3, 1, 84, 7);
  });
  Model model;
  model.Draw({false, 6, 3, 68, 0, 1}, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, positions_, instances_, {}, false, 0);
  model.Draw({false, 3, 1, 84, 0, 7}, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, positions_, instances_, {}, false, 0);
  EXPECT_TRUE(Matches(got, model));
}

// Indirect commands in one buffer, `stride` bytes apart.
template <typename Command>
std::vector<uint8_t> IndirectBytes(const std::vector<Command>& commands, size_t stride) {
  std::vector<uint8_t> bytes(commands.size() * stride, 0xEE);
  for (size_t i = 0; i < commands.size(); ++i) std::memcpy(&bytes[i * stride], &commands[i], sizeof(Command));
  return bytes;
}

TEST_F(DrawCallTest, IndirectDrawsReadTheirParametersAtExecution) {
  const bool multi = features_.multiDrawIndirect == VK_TRUE;
  const uint32_t first_instance = features_.drawIndirectFirstInstance ? 1 : 0;
  if (!multi) std::printf("multiDrawIndirect is not advertised: one draw per indirect command\n");
  if (first_instance == 0) std::printf("drawIndirectFirstInstance is not advertised: firstInstance 0\n");
  std::vector<uint32_t> indices;
  for (uint32_t q : {4u, 5u, 6u}) {
    const std::vector<uint32_t> quad = QuadIndices(q);
    indices.insert(indices.end(), quad.begin(), quad.end());
  }
  HostBuffer index_buffer = Upload(indices, VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  const std::vector<VkDrawIndexedIndirectCommand> indexed = {{6, 2, 0, 0, first_instance},
                                                             {6, 1, 6, 8, 0},
                                                             {3, 3, 12, -4, first_instance * 4}};
  const std::vector<VkDrawIndirectCommand> plain = {{6, 1, 84, 0}, {3, 2, 88, first_instance * 5}};
  // The commands are written after recording: indirect draws read them when they run.
  HostBuffer indexed_buffer = MakeHostBuffer(3 * 32, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
  HostBuffer plain_buffer = MakeHostBuffer(4 + 2 * 24, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
  const std::vector<Ids> got = Render(Pipeline(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST), [&](VkCommandBuffer cb) {
    vkCmdBindIndexBuffer(cb, index_buffer.buffer, 0, VK_INDEX_TYPE_UINT32);
    if (multi) {
      vkCmdDrawIndexedIndirect(cb, indexed_buffer.buffer, 0, 3, 32);
      vkCmdDrawIndirect(cb, plain_buffer.buffer, 4, 2, 24);
    } else {
      for (uint32_t i = 0; i < 3; ++i) vkCmdDrawIndexedIndirect(cb, indexed_buffer.buffer, i * 32, 1, 32);
      for (uint32_t i = 0; i < 2; ++i) vkCmdDrawIndirect(cb, plain_buffer.buffer, 4 + i * 24, 1, 24);
    }
    const std::vector<uint8_t> a = IndirectBytes(indexed, 32), b = IndirectBytes(plain, 24);
    std::memcpy(indexed_buffer.data, a.data(), a.size());
    std::memcpy(plain_buffer.data + 4, b.data(), b.size());
  });
  Model model;
  for (const VkDrawIndexedIndirectCommand& c : indexed)
    model.Draw({true, c.indexCount, c.instanceCount, c.firstIndex, c.vertexOffset, c.firstInstance},
               VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, positions_, instances_, indices, false, 0);
  for (const VkDrawIndirectCommand& c : plain)
    model.Draw({false, c.vertexCount, c.instanceCount, c.firstVertex, 0, c.firstInstance},
               VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, positions_, instances_, {}, false, 0);
  EXPECT_TRUE(Matches(got, model));
}

TEST_F(DrawCallTest, IndirectCountTakesTheSmallerOfCountAndMaximum) {
  if (!QueryFeatures13().v12.drawIndirectCount) GTEST_SKIP() << "drawIndirectCount is not advertised";
  std::vector<uint32_t> indices;
  for (uint32_t q = 0; q < 4; ++q) {
    const std::vector<uint32_t> quad = QuadIndices(q);
    indices.insert(indices.end(), quad.begin(), quad.end());
  }
  HostBuffer index_buffer = Upload(indices, VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  std::vector<VkDrawIndexedIndirectCommand> indexed;
  for (uint32_t q = 0; q < 4; ++q) indexed.push_back({6, 1, q * 6, int32_t(q * 4), 0});
  std::vector<VkDrawIndirectCommand> plain;
  for (uint32_t q = 0; q < 4; ++q) plain.push_back({6, 1, 80 + q * 8, 0});
  const std::vector<uint8_t> a = IndirectBytes(indexed, 20);
  std::vector<uint8_t> b = IndirectBytes(plain, 16);
  b.resize(b.size() + 16);  // room for the maximum of 4 draws from offset 16
  HostBuffer indexed_buffer = Upload(a.data(), a.size(), VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
  HostBuffer plain_buffer = Upload(b.data(), b.size(), VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
  // Counts: 3 (capped at a maximum of 2), 1 (of at most 4), 0.
  const std::vector<uint32_t> counts = {0, 3, 1, 0};
  HostBuffer count_buffer = Upload(counts, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
  const std::vector<Ids> got = Render(Pipeline(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST), [&](VkCommandBuffer cb) {
    vkCmdBindIndexBuffer(cb, index_buffer.buffer, 0, VK_INDEX_TYPE_UINT32);
    vkCmdDrawIndexedIndirectCount(cb, indexed_buffer.buffer, 0, count_buffer.buffer, 4, 2, 20);
    vkCmdDrawIndirectCount(cb, plain_buffer.buffer, 16, count_buffer.buffer, 8, 4, 16);
    vkCmdDrawIndirectCount(cb, plain_buffer.buffer, 0, count_buffer.buffer, 12, 4, 16);
  });
  Model model;
  for (size_t i = 0; i < 2; ++i) {
    const VkDrawIndexedIndirectCommand& c = indexed[i];
    model.Draw({true, c.indexCount, 1, c.firstIndex, c.vertexOffset, 0}, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
               positions_, instances_, indices, false, 0);
  }
  model.Draw({false, 6, 1, plain[1].firstVertex, 0, 0}, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, positions_, instances_,
             {}, false, 0);
  EXPECT_TRUE(Matches(got, model));
}

// The draw extensions: VK_EXT_index_type_uint8, VK_EXT_primitive_topology_list_restart,
// VK_EXT_vertex_attribute_divisor, VK_EXT_provoking_vertex and
// VK_EXT_vertex_input_dynamic_state; and fullDrawIndexUint32.
class DrawCallExtensionsTest : public DrawCallTest {
 protected:
  DrawCallExtensionsTest() {
    device_options_.extensions = {VK_EXT_INDEX_TYPE_UINT8_EXTENSION_NAME,
                                  VK_EXT_PRIMITIVE_TOPOLOGY_LIST_RESTART_EXTENSION_NAME,
                                  VK_EXT_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME, VK_EXT_PROVOKING_VERTEX_EXTENSION_NAME,
                                  VK_EXT_VERTEX_INPUT_DYNAMIC_STATE_EXTENSION_NAME};
    uint8_.indexTypeUint8 = VK_TRUE;
    list_restart_.primitiveTopologyListRestart = VK_TRUE;
    divisor_.vertexAttributeInstanceRateDivisor = VK_TRUE;
    divisor_.vertexAttributeInstanceRateZeroDivisor = VK_TRUE;
    provoking_.provokingVertexLast = VK_TRUE;
    device_options_.extension_features = {
        reinterpret_cast<VkBaseOutStructure*>(&uint8_), reinterpret_cast<VkBaseOutStructure*>(&list_restart_),
        reinterpret_cast<VkBaseOutStructure*>(&divisor_), reinterpret_cast<VkBaseOutStructure*>(&provoking_),
        reinterpret_cast<VkBaseOutStructure*>(&vertex_input_)};
  }

  VkPhysicalDeviceIndexTypeUint8FeaturesEXT uint8_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INDEX_TYPE_UINT8_FEATURES_EXT};
  VkPhysicalDevicePrimitiveTopologyListRestartFeaturesEXT list_restart_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVE_TOPOLOGY_LIST_RESTART_FEATURES_EXT};
  VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT divisor_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT};
  VkPhysicalDeviceProvokingVertexFeaturesEXT provoking_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_FEATURES_EXT};
  VkPhysicalDeviceVertexInputDynamicStateFeaturesEXT vertex_input_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_INPUT_DYNAMIC_STATE_FEATURES_EXT, nullptr, VK_TRUE};
};

TEST_F(DrawCallExtensionsTest, Uint8IndicesAndRestartsInLists) {
  // A uint8 strip split by 0xFF, as the uint16 test's; then a list whose
  // restart drops the unfinished triangle before it.
  const std::vector<uint8_t> strips = {0, 2, 1, 3, 0xFF, 4, 6, 5, 7, 0xFF, 0xFF, 20, 22, 21, 23, 0xFF};
  std::vector<uint8_t> list;
  for (uint32_t i : QuadIndices(10)) list.push_back(uint8_t(i));
  list.insert(list.end(), {44, 45, 0xFF});  // quad 11's first two vertices, then a restart
  for (uint32_t i : QuadIndices(12)) list.push_back(uint8_t(i));
  HostBuffer strip_buffer = Upload(strips, VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  HostBuffer list_buffer = Upload(list, VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  const std::vector<Ids> strip = Render(Pipeline(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, true), [&](VkCommandBuffer cb) {
    vkCmdBindIndexBuffer(cb, strip_buffer.buffer, 0, VK_INDEX_TYPE_UINT8_EXT);
    vkCmdDrawIndexed(cb, uint32_t(strips.size()), 1, 0, 0, 0);
  });
  Model strip_model;
  strip_model.Draw({true, uint32_t(strips.size()), 1, 0, 0, 0}, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, positions_,
                   instances_, std::vector<uint32_t>(strips.begin(), strips.end()), true, 0xFF);
  EXPECT_TRUE(Matches(strip, strip_model));
  const std::vector<Ids> got = Render(Pipeline(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, true), [&](VkCommandBuffer cb) {
    vkCmdBindIndexBuffer(cb, list_buffer.buffer, 0, VK_INDEX_TYPE_UINT8_EXT);
    vkCmdDrawIndexed(cb, uint32_t(list.size()), 1, 0, 0, 0);
  });
  Model list_model;
  list_model.Draw({true, uint32_t(list.size()), 1, 0, 0, 0}, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, positions_,
                  instances_, std::vector<uint32_t>(list.begin(), list.end()), true, 0xFF);
  EXPECT_TRUE(Matches(got, list_model));
}

TEST_F(DrawCallExtensionsTest, EveryUint32IndexIsAVertex) {
  ASSERT_EQ(features_.fullDrawIndexUint32, VK_TRUE);
  // Indices past 2^31 brought back by vertexOffset INT32_MIN; then, without
  // primitive restart, 0xFFFFFFFF is vertex 0xFFFFFFFF (past the buffer:
  // its position reads zero) and provokes the triangle.
  std::vector<uint32_t> indices;
  for (uint32_t i : QuadIndices(13)) indices.push_back(0x80000000u + i);
  indices.insert(indices.end(), {0xFFFFFFFFu, 56, 57});
  HostBuffer index_buffer = Upload(indices, VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  const std::vector<Ids> got = Render(Pipeline(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST), [&](VkCommandBuffer cb) {
    vkCmdBindIndexBuffer(cb, index_buffer.buffer, 0, VK_INDEX_TYPE_UINT32);
    vkCmdDrawIndexed(cb, 6, 1, 0, INT32_MIN, 0);
    vkCmdDrawIndexed(cb, 3, 1, 6, 0, 0);
  });
  Model model;
  model.Draw({true, 6, 1, 0, INT32_MIN, 0}, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, positions_, instances_, indices, false,
             0);
  model.Draw({true, 3, 1, 6, 0, 0}, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, positions_, instances_, indices, false, 0);
  EXPECT_TRUE(Matches(got, model));
}

TEST_F(DrawCallExtensionsTest, InstanceRateDivisors) {
  for (uint32_t divisor : {3u, 0u}) {
    SCOPED_TRACE(testing::Message() << "divisor " << divisor);
    const VkVertexInputBindingDivisorDescriptionEXT description{1, divisor};
    const VkPipelineVertexInputDivisorStateCreateInfoEXT divisors{
        VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT, nullptr, 1, &description};
    PipelineDesc desc = Pipeline(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
    desc.vertex_input_next = &divisors;
    const std::vector<Ids> got = Render(desc, [&](VkCommandBuffer cb) { vkCmdDraw(cb, 6, 6, 8, 2); });
    Model model;
    model.divisor = divisor;
    model.Draw({false, 6, 6, 8, 0, 2}, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, positions_, instances_, {}, false, 0);
    EXPECT_TRUE(Matches(got, model));
  }
}

// VK_EXT_vertex_input_dynamic_state: the pipeline has no vertex input
// state; each draw uses the bindings, divisors and attributes last set.
TEST_F(DrawCallExtensionsTest, VertexInputAsDynamicState) {
  auto set_vertex_input = DeviceProc<PFN_vkCmdSetVertexInputEXT>("vkCmdSetVertexInputEXT");
  ASSERT_NE(set_vertex_input, nullptr);
  PipelineDesc desc = Pipeline(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
  desc.bindings.clear();
  desc.attributes.clear();
  desc.dynamic_states = {VK_DYNAMIC_STATE_VERTEX_INPUT_EXT};
  auto bindings = [](uint32_t divisor) {
    return std::vector<VkVertexInputBindingDescription2EXT>{
        {VK_STRUCTURE_TYPE_VERTEX_INPUT_BINDING_DESCRIPTION_2_EXT, nullptr, 0, 8, VK_VERTEX_INPUT_RATE_VERTEX, 1},
        {VK_STRUCTURE_TYPE_VERTEX_INPUT_BINDING_DESCRIPTION_2_EXT, nullptr, 1, sizeof(Instance),
         VK_VERTEX_INPUT_RATE_INSTANCE, divisor}};
  };
  const std::vector<VkVertexInputAttributeDescription2EXT> attributes = {
      {VK_STRUCTURE_TYPE_VERTEX_INPUT_ATTRIBUTE_DESCRIPTION_2_EXT, nullptr, 0, 0, VK_FORMAT_R32G32_SFLOAT, 0},
      {VK_STRUCTURE_TYPE_VERTEX_INPUT_ATTRIBUTE_DESCRIPTION_2_EXT, nullptr, 1, 1, VK_FORMAT_R32G32_SFLOAT, 0},
      {VK_STRUCTURE_TYPE_VERTEX_INPUT_ATTRIBUTE_DESCRIPTION_2_EXT, nullptr, 2, 1, VK_FORMAT_R32G32B32A32_SFLOAT, 8}};
  const std::vector<Ids> got = Render(desc, [&](VkCommandBuffer cb) {
    const auto every_instance = bindings(1), one_instance = bindings(0);
    set_vertex_input(cb, 2, every_instance.data(), 3, attributes.data());
    vkCmdDraw(cb, 6, 3, 8, 0);
    set_vertex_input(cb, 2, one_instance.data(), 3, attributes.data());
    vkCmdDraw(cb, 6, 3, 64, 4);
  });
  Model model;
  model.Draw({false, 6, 3, 8, 0, 0}, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, positions_, instances_, {}, false, 0);
  model.divisor = 0;
  model.Draw({false, 6, 3, 64, 0, 4}, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, positions_, instances_, {}, false, 0);
  EXPECT_TRUE(Matches(got, model));
}

TEST_F(DrawCallExtensionsTest, LastVertexProvokes) {
  const VkPipelineRasterizationProvokingVertexStateCreateInfoEXT last{
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_PROVOKING_VERTEX_STATE_CREATE_INFO_EXT, nullptr,
      VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT};
  std::vector<uint32_t> indices;
  for (uint32_t q : {1u, 2u}) {
    const std::vector<uint32_t> quad = QuadIndices(q);
    indices.insert(indices.end(), quad.begin(), quad.end());
  }
  HostBuffer index_buffer = Upload(indices, VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  for (VkPrimitiveTopology topology : {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP,
                                       VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN}) {
    SCOPED_TRACE(testing::Message() << "topology " << topology);
    PipelineDesc desc = Pipeline(topology);
    desc.rasterization.pNext = &last;
    const std::vector<Ids> got = Render(desc, [&](VkCommandBuffer cb) {
      vkCmdBindIndexBuffer(cb, index_buffer.buffer, 0, VK_INDEX_TYPE_UINT32);
      vkCmdDrawIndexed(cb, uint32_t(indices.size()), 2, 0, 0, 0);  // indexed, two instances
      vkCmdDraw(cb, 6, 1, 40, 0);                                    // not indexed: across quads 10 and 11
    });
    Model model;
    model.provoking_last = true;
    model.Draw({true, uint32_t(indices.size()), 2, 0, 0, 0}, topology, positions_, instances_, indices, false, 0);
    model.Draw({false, 6, 1, 40, 0, 0}, topology, positions_, instances_, {}, false, 0);
    EXPECT_TRUE(Matches(got, model));
  }
}

}  // namespace
}  // namespace duet_test
