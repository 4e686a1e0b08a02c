// Stage inputs and outputs between the vertex and fragment shaders: outputs
// that keep their initializer, arrays indexed at run time, inputs and
// outputs that share a location (Component decorations).
#include <vector>

#include "graphics_fixture.h"
#include "shaders/color_triangle.frag.h"
#include "shaders/component_varyings.frag.h"
#include "shaders/component_varyings.vert.h"
#include "shaders/output_initializer.spvasm.h"
#include "shaders/varying_array.frag.h"
#include "shaders/varying_array.vert.h"

namespace duet_test {
namespace {

constexpr VkExtent2D kExtent{8, 8};

class ShaderInterfaceTest : public GraphicsTest {
 protected:
  // Draws `vertex_count` vertices of `desc` into a cleared RGBA8 target.
  std::vector<uint32_t> Render(const PipelineDesc& desc, uint32_t vertex_count, const void* push = nullptr,
                               uint32_t push_bytes = 0) {
    const VkPipeline pipeline = MakePipeline(desc);
    EXPECT_NE(pipeline, VK_NULL_HANDLE);
    if (pipeline == VK_NULL_HANDLE) return {};
    const Target color = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
    VkCommandBuffer cb = BeginCommands();
    BeginRendering(cb, {{&color, VK_ATTACHMENT_LOAD_OP_CLEAR}});
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    if (push_bytes != 0)
      vkCmdPushConstants(cb, desc.layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, push_bytes,
                         push);
    vkCmdDraw(cb, vertex_count, 1, 0, 0);
    vkCmdEndRendering(cb);
    EndSubmitWait(cb);
    return Read<uint32_t>(color);
  }
};

// An output variable with an initializer that the shader never writes
// reaches the fragment shader with the initializer's value.
TEST_F(ShaderInterfaceTest, OutputsStartWithTheirInitializer) {
  PipelineDesc desc;
  desc.vertex = Module(kOutputInitializerSpvasm);
  desc.fragment = Module(kColorTriangleFrag);
  desc.extent = kExtent;
  const std::vector<uint32_t> pixels = Render(desc, 3);
  ASSERT_EQ(pixels.size(), size_t(kExtent.width * kExtent.height));
  // (0.25, 0.5, 0.75, 1.0) as UNORM8: 64, 128, 191, 255 (either neighbour of x.5 codes).
  for (uint32_t p : pixels) {
    EXPECT_NEAR(int(p & 0xFF), 64, 1);
    EXPECT_NEAR(int((p >> 8) & 0xFF), 128, 1);
    EXPECT_NEAR(int((p >> 16) & 0xFF), 191, 1);
    EXPECT_EQ(p >> 24, 0xFFu);
  }
}

// An output array written and an input array read at indices the shaders
// know only at run time (glsl.indexing.varying_array in the CTS).
TEST_F(ShaderInterfaceTest, ArraysIndexedAtRunTime) {
  PipelineDesc desc;
  desc.vertex = Module(kVaryingArrayVert);
  desc.fragment = Module(kVaryingArrayFrag);
  desc.layout = MakePipelineLayout({}, 8);
  desc.extent = kExtent;
  for (int32_t write = 0; write < 4; ++write) {
    for (int32_t read = 0; read < 4; ++read) {
      const int32_t indices[2] = {write, read};
      const std::vector<uint32_t> pixels = Render(desc, 3, indices, sizeof indices);
      ASSERT_EQ(pixels.size(), size_t(kExtent.width * kExtent.height));
      const uint32_t expected = write == read ? 0xFF9FBFDFu : 0xFF7F4000u | uint32_t(32 * read);
      for (uint32_t p : pixels) {
        for (int c = 0; c < 4; ++c)
          ASSERT_NEAR(int((p >> (8 * c)) & 0xFF), int((expected >> (8 * c)) & 0xFF), 1)
              << "write " << write << " read " << read << " component " << c;
      }
    }
  }
}

// A vertex attribute read as several inputs of one location, varyings
// written as several outputs of one location and read as one input, and
// the other way round.
TEST_F(ShaderInterfaceTest, ComponentsOfOneLocation) {
  PipelineDesc desc = ColorPipeline(kExtent);
  desc.vertex = Module(kComponentVaryingsVert);
  desc.fragment = Module(kComponentVaryingsFrag);
  const float color[4] = {0.25f, 0.5f, 0.75f, 1.0f};
  const float corners[3][2] = {{-1.0f, -1.0f}, {3.0f, -1.0f}, {-1.0f, 3.0f}};
  std::vector<ColorVertex> vertices;
  for (const auto& p : corners) vertices.push_back({{p[0], p[1], 0.5f, 1.0f}, {color[0], color[1], color[2], color[3]}});
  HostBuffer buffer = Upload(vertices, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  const VkPipeline pipeline = MakePipeline(desc);
  ASSERT_NE(pipeline, VK_NULL_HANDLE);
  const Target target = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
  VkCommandBuffer cb = BeginCommands();
  BeginRendering(cb, {{&target, VK_ATTACHMENT_LOAD_OP_CLEAR}});
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  const VkDeviceSize offset = 0;
  vkCmdBindVertexBuffers(cb, 0, 1, &buffer.buffer, &offset);
  vkCmdDraw(cb, 3, 1, 0, 0);
  vkCmdEndRendering(cb);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  const std::vector<uint32_t> pixels = Read<uint32_t>(target);
  ASSERT_EQ(pixels.size(), size_t(kExtent.width * kExtent.height));
  for (uint32_t p : pixels)
    for (int c = 0; c < 4; ++c)
      ASSERT_NEAR(int((p >> (8 * c)) & 0xFF), int(color[c] * 255.0f + 0.5f), 1) << "component " << c;
}

}  // namespace
}  // namespace duet_test
