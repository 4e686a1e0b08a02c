// 16-bit stage inputs and outputs (storageInputOutput16): vertex attributes
// of 16-bit formats read into 16-bit inputs, 16-bit varyings flat and
// interpolated (an interpolated half is rounded to half when the fragment
// shader reads it), and 16-bit fragment outputs into 16-bit attachments
// (negative signed values reach an SINT attachment as themselves, not as
// their zero-extended bits clamped to the format's range).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <vector>

#include "graphics_fixture.h"
#include "shaders/narrow_interface.frag.h"
#include "shaders/narrow_interface.vert.h"

namespace duet_test {
namespace {

using Half = _Float16;

class GraphicsNarrowInterfaceTest : public GraphicsTest {
 protected:
  GraphicsNarrowInterfaceTest() { device_options_.shader_features = true; }
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

  PipelineDesc desc;
  desc.vertex = Module(kNarrowInterfaceVert);
  desc.fragment = Module(kNarrowInterfaceFrag);
  desc.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
  desc.extent = kExtent;
  desc.bindings = {{0, sizeof(Vertex), VK_VERTEX_INPUT_RATE_VERTEX}};
  desc.attributes = {{0, 0, VK_FORMAT_R32G32_SFLOAT, offsetof(Vertex, position)},
                     {1, 0, VK_FORMAT_R16G16_SFLOAT, offsetof(Vertex, half_pair)},
                     {2, 0, VK_FORMAT_R16G16_SINT, offsetof(Vertex, short_pair)}};
  desc.color_formats = {VK_FORMAT_R16G16B16A16_SINT, VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R32_SFLOAT};
  const VkPipeline pipeline = MakePipeline(desc);
  ASSERT_NE(pipeline, VK_NULL_HANDLE);
  const Target integers = MakeTarget(VK_FORMAT_R16G16B16A16_SINT, kExtent);
  const Target halves = MakeTarget(VK_FORMAT_R16G16B16A16_SFLOAT, kExtent);
  const Target ramp = MakeTarget(VK_FORMAT_R32_SFLOAT, kExtent);

  VkCommandBuffer cb = BeginCommands();
  BeginRendering(cb, {{&integers, VK_ATTACHMENT_LOAD_OP_CLEAR, {}},
                      {&halves, VK_ATTACHMENT_LOAD_OP_CLEAR, {}},
                      {&ramp, VK_ATTACHMENT_LOAD_OP_CLEAR, {}}});
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  const VkDeviceSize offset = 0;
  vkCmdBindVertexBuffers(cb, 0, 1, &vertex_buffer.buffer, &offset);
  vkCmdDraw(cb, 4, 1, 0, 0);
  vkCmdEndRendering(cb);
  EndSubmitWait(cb);

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

}  // namespace
}  // namespace duet_test
