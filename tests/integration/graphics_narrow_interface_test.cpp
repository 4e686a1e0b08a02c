// 16- and 64-bit stage inputs and outputs. storageInputOutput16: vertex attributes
// of 16-bit formats read into 16-bit inputs, 16-bit varyings flat and
// interpolated (an interpolated half is rounded to half when the fragment
// shader reads it), and 16-bit fragment outputs into 16-bit attachments
// (negative signed values reach an SINT attachment as themselves, not as
// their zero-extended bits clamped to the format's range). shaderFloat64:
// dvec3 and dmat2 attributes, each 64-bit three- or four-component vector
// taking two locations, and flat double varyings.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include "graphics_fixture.h"
#include "shaders/narrow_interface.frag.h"
#include "shaders/narrow_interface.vert.h"
#include "shaders/double_interface.frag.h"
#include "shaders/double_interface.vert.h"

namespace duet_test {
namespace {

using Half = _Float16;

class GraphicsNarrowInterfaceTest : public GraphicsTest {
 protected:
  GraphicsNarrowInterfaceTest() { device_options_.shader_features = true; }

  // A triangle strip of the 4 vertices from binding 0 of `vertices`
  // (vertex shader `vertex`, fragment shader `fragment`) over `targets`,
  // cleared to zero first.
  void DrawStrip(VkShaderModule vertex, VkShaderModule fragment, uint32_t stride,
                 std::vector<VkVertexInputAttributeDescription> attributes, VkBuffer vertices,
                 const std::vector<const Target*>& targets) {
    PipelineDesc desc;
    desc.vertex = vertex;
    desc.fragment = fragment;
    desc.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
    desc.extent = targets[0]->extent;
    desc.bindings = {{0, stride, VK_VERTEX_INPUT_RATE_VERTEX}};
    desc.attributes = std::move(attributes);
    desc.color_formats.clear();
    std::vector<AttachmentUse> uses;
    for (const Target* t : targets) {
      desc.color_formats.push_back(t->format);
      uses.push_back({t, VK_ATTACHMENT_LOAD_OP_CLEAR, {}});
    }
    const VkPipeline pipeline = MakePipeline(desc);
    ASSERT_NE(pipeline, VK_NULL_HANDLE);
    VkCommandBuffer cb = BeginCommands();
    BeginRendering(cb, uses);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    const VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cb, 0, 1, &vertices, &offset);
    vkCmdDraw(cb, 4, 1, 0, 0);
    vkCmdEndRendering(cb);
    EndSubmitWait(cb);
  }
};

TEST_F(GraphicsNarrowInterfaceTest, SixteenBitAttributesVaryingsAndOutputs) {
  VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v11};
  vkGetPhysicalDeviceFeatures2(phys_, &f2);
  ASSERT_EQ(v11.storageInputOutput16, VK_TRUE);

  constexpr VkExtent2D kExtent{24, 4};  // (a width whose ramp values a half cannot hold)
  struct Vertex {
    float position[2];
    uint16_t half_pair[2];
    int16_t short_pair[2];
  };
  const Half h0 = Half(0.1f), h1 = Half(-1.5f);
  const uint16_t hb0 = std::bit_cast<uint16_t>(h0), hb1 = std::bit_cast<uint16_t>(h1);
  const std::vector<Vertex> vertices = {{{-1, -1}, {hb0, hb1}, {1000, -3}},
                                        {{1, -1}, {hb0, hb1}, {1000, -3}},
                                        {{-1, 1}, {hb0, hb1}, {1000, -3}},
                                        {{1, 1}, {hb0, hb1}, {1000, -3}}};
  HostBuffer vertex_buffer = Upload(vertices, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);

  const Target integers = MakeTarget(VK_FORMAT_R16G16B16A16_SINT, kExtent);
  const Target halves = MakeTarget(VK_FORMAT_R16G16B16A16_SFLOAT, kExtent);
  const Target ramp = MakeTarget(VK_FORMAT_R32_SFLOAT, kExtent);
  DrawStrip(Module(kNarrowInterfaceVert), Module(kNarrowInterfaceFrag), sizeof(Vertex),
            {{0, 0, VK_FORMAT_R32G32_SFLOAT, offsetof(Vertex, position)},
             {1, 0, VK_FORMAT_R16G16_SFLOAT, offsetof(Vertex, half_pair)},
             {2, 0, VK_FORMAT_R16G16_SINT, offsetof(Vertex, short_pair)}},
            vertex_buffer.buffer, {&integers, &halves, &ramp});
  if (HasFatalFailure()) return;

  struct Short4 {
    int16_t v[4];
  };
  struct Half4 {
    uint16_t v[4];
  };
  const std::vector<Short4> ints = Read<Short4>(integers);
  const std::vector<Half4> hs = Read<Half4>(halves);
  const std::vector<float> ramps = Read<float>(ramp);
  ASSERT_EQ(ints.size(), size_t(kExtent.width * kExtent.height));
  const Half scaled0 = Half(h0 * Half(3.0f)), scaled1 = Half(h1 * Half(3.0f));
  for (uint32_t y = 0; y < kExtent.height; ++y) {
    for (uint32_t x = 0; x < kExtent.width; ++x) {
      SCOPED_TRACE(testing::Message() << "pixel " << x << "," << y);
      const uint32_t i = y * kExtent.width + x;
      EXPECT_EQ(ints[i].v[0], -2000);
      EXPECT_EQ(ints[i].v[1], 6);
      EXPECT_EQ(ints[i].v[2], -666);
      EXPECT_EQ(ints[i].v[3], -1);
      EXPECT_EQ(hs[i].v[0], std::bit_cast<uint16_t>(scaled0));
      EXPECT_EQ(hs[i].v[1], std::bit_cast<uint16_t>(scaled1));
      EXPECT_EQ(hs[i].v[3], std::bit_cast<uint16_t>(Half(-scaled0)));
      // The interpolated ramp, read as a half: a value a half holds exactly,
      // near 100 * (x + 0.5) / width, and the same one written as a half.
      const float value = ramps[i];
      EXPECT_EQ(value, float(Half(value)));
      EXPECT_NEAR(value, 100.0f * (float(x) + 0.5f) / float(kExtent.width), 0.07f);
      EXPECT_EQ(hs[i].v[2], std::bit_cast<uint16_t>(Half(value)));
    }
  }
}

TEST_F(GraphicsNarrowInterfaceTest, DoubleAttributesTakeTwoLocationsPerWideVector) {
  constexpr VkExtent2D kExtent{4, 4};
  struct Vertex {
    double triple[3];
    float position[2];
    double matrix[4];  // two columns
  };
  const double t[3] = {1.25, -3.5, 1e-3};
  const double m[4] = {2.0, 0.5, -1.0, 4.0};
  std::vector<Vertex> vertices;
  const float corners[4][2] = {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}};
  for (const auto& corner : corners) {
    Vertex v{};
    std::memcpy(v.triple, t, sizeof t);
    v.position[0] = corner[0];
    v.position[1] = corner[1];
    std::memcpy(v.matrix, m, sizeof m);
    vertices.push_back(v);
  }
  HostBuffer vertex_buffer = Upload(vertices, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  const Target target = MakeTarget(VK_FORMAT_R32G32B32A32_SFLOAT, kExtent);
  DrawStrip(Module(kDoubleInterfaceVert), Module(kDoubleInterfaceFrag), sizeof(Vertex),
            {{0, 0, VK_FORMAT_R64G64B64_SFLOAT, offsetof(Vertex, triple)},
             {2, 0, VK_FORMAT_R32G32_SFLOAT, offsetof(Vertex, position)},
             {3, 0, VK_FORMAT_R64G64_SFLOAT, offsetof(Vertex, matrix)},
             {4, 0, VK_FORMAT_R64G64_SFLOAT, offsetof(Vertex, matrix) + 16}},
            vertex_buffer.buffer, {&target});
  if (HasFatalFailure()) return;
  struct Float4 {
    float v[4];
  };
  const std::vector<Float4> pixels = Read<Float4>(target);
  ASSERT_EQ(pixels.size(), size_t(kExtent.width * kExtent.height));
  // (matrix * (x, y)).y = m[0][1] x + m[1][1] y
  const float product = float(m[1] * t[0] + m[3] * t[1]);
  for (uint32_t i = 0; i < pixels.size(); ++i) {
    SCOPED_TRACE(testing::Message() << "pixel " << i);
    EXPECT_EQ(pixels[i].v[0], float(t[0] * 2.0));
    EXPECT_EQ(pixels[i].v[1], float(t[1] * 2.0));
    EXPECT_EQ(pixels[i].v[2], float(t[2] * 2.0));
    EXPECT_EQ(pixels[i].v[3], product);
  }
}

}  // namespace
}  // namespace duet_test
