// Graphics pipeline libraries (VK_KHR_pipeline_library,
// VK_EXT_graphics_pipeline_library) through the loader: a pipeline linked
// from its four parts draws what the same pipeline made whole draws; each
// part's state comes from the library that holds it (the state of other
// parts in a library's create info is ignored), also when libraries hold
// two parts each, a shader is given inline (VkShaderModuleCreateInfo in
// the stage's chain) or a part's state is dynamic.
#include <algorithm>
#include <vector>

#include "graphics_fixture.h"
#include "shaders/color_triangle.vert.h"

namespace duet_test {
namespace {

constexpr uint32_t kSize = 32;
constexpr VkExtent2D kExtent{kSize, kSize};
constexpr VkGraphicsPipelineLibraryFlagsEXT kVertexInput = VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT;
constexpr VkGraphicsPipelineLibraryFlagsEXT kPreRasterization =
    VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT;
constexpr VkGraphicsPipelineLibraryFlagsEXT kFragment = VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT;
constexpr VkGraphicsPipelineLibraryFlagsEXT kFragmentOutput =
    VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT;

class PipelineLibraryTest : public GraphicsTest {
 protected:
  PipelineLibraryTest() {
    device_options_.extensions = {"VK_KHR_pipeline_library", "VK_EXT_graphics_pipeline_library"};
    features_gpl_.graphicsPipelineLibrary = VK_TRUE;
    device_options_.extension_features = {reinterpret_cast<VkBaseOutStructure*>(&features_gpl_)};
  }
  void SetUp() override {
    GraphicsTest::SetUp();
    if (HasFatalFailure()) return;
    VkPhysicalDeviceGraphicsPipelineLibraryPropertiesEXT gpl{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_PROPERTIES_EXT};
    VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &gpl};
    vkGetPhysicalDeviceProperties2(phys_, &properties);
    EXPECT_EQ(gpl.graphicsPipelineLibraryFastLinking, VK_TRUE);
    layout_ = MakePipelineLayout({});
  }

  // A library of `parts` made from `desc` (which describes a whole
  // pipeline: its state of other parts stays, and must be ignored; its
  // shader stages of other parts go).
  VkPipeline Library(PipelineDesc desc, VkGraphicsPipelineLibraryFlagsEXT parts) {
    VkGraphicsPipelineLibraryCreateInfoEXT library{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_LIBRARY_CREATE_INFO_EXT,
                                                   nullptr, parts};
    if ((parts & kPreRasterization) == 0) {
      desc.vertex = VK_NULL_HANDLE;
      desc.vertex_stage_next = nullptr;
    }
    if ((parts & kFragment) == 0) desc.fragment = VK_NULL_HANDLE;
    // Attachment formats are the fragment parts' (the validation layer
    // objects to them elsewhere).
    if ((parts & (kFragment | kFragmentOutput)) == 0) desc.color_formats.clear();
    desc.next = &library;
    desc.flags = VK_PIPELINE_CREATE_LIBRARY_BIT_KHR;
    desc.layout = layout_;
    return MakePipeline(desc);
  }

  // A pipeline to draw with, linked from `libraries` alone.
  VkPipeline Link(const std::vector<VkPipeline>& libraries) {
    VkPipelineLibraryCreateInfoKHR linked{VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR, nullptr,
                                          uint32_t(libraries.size()), libraries.data()};
    VkGraphicsPipelineCreateInfo ci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &linked};
    ci.layout = layout_;
    VkPipeline pipeline = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateGraphicsPipelines(device_, VK_NULL_HANDLE, 1, &ci, nullptr, &pipeline), VK_SUCCESS);
    if (pipeline != VK_NULL_HANDLE) Defer([this, pipeline] { vkDestroyPipeline(device_, pipeline, nullptr); });
    return pipeline;
  }

  // Two triangles in their vertex colours, the second wound clockwise
  // (culled by a back-face cull); `viewport` (if any) set dynamically.
  std::vector<uint32_t> Draw(VkPipeline pipeline, const VkViewport* viewport = nullptr) {
    const std::vector<ColorVertex> vertices = {
        {{-1, -1, 0, 1}, {1, 0, 0, 1}}, {{-1, 1, 0, 1}, {1, 0, 0, 1}}, {{0, -1, 0, 1}, {1, 0, 0, 1}},
        {{0, -1, 0, 1}, {0, 0, 1, 1}},  {{1, -1, 0, 1}, {0, 0, 1, 1}}, {{1, 1, 0, 1}, {0, 0, 1, 1}}};
    const Target target = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
    HostBuffer buffer = Upload(vertices, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    VkCommandBuffer cb = BeginCommands();
    BeginRendering(cb, {{&target, VK_ATTACHMENT_LOAD_OP_CLEAR, {}}});
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    if (viewport != nullptr) vkCmdSetViewport(cb, 0, 1, viewport);
    VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cb, 0, 1, &buffer.buffer, &offset);
    vkCmdDraw(cb, uint32_t(vertices.size()), 1, 0, 0);
    vkCmdEndRendering(cb);
    EndSubmitWait(cb);
    return Read<uint32_t>(target);
  }

  static uint32_t Count(const std::vector<uint32_t>& pixels, uint32_t value) {
    return uint32_t(std::count(pixels.begin(), pixels.end(), value));
  }

  VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT features_gpl_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT};
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
};

const uint32_t kRed = PackRgba8(255, 0, 0, 255), kBlue = PackRgba8(0, 0, 255, 255);

// Four libraries, one part each, linked: the same picture as the whole
// pipeline, pixel for pixel.
TEST_F(PipelineLibraryTest, FourPartsDrawLikeTheWholePipeline) {
  const PipelineDesc desc = ColorPipeline(kExtent);
  PipelineDesc whole = desc;
  whole.layout = layout_;
  const std::vector<uint32_t> expected = Draw(MakePipeline(whole));
  ASSERT_GT(Count(expected, kRed), 0u);
  ASSERT_GT(Count(expected, kBlue), 0u);
  const VkPipeline linked = Link({Library(desc, kVertexInput), Library(desc, kPreRasterization),
                                  Library(desc, kFragment), Library(desc, kFragmentOutput)});
  EXPECT_EQ(Draw(linked), expected);
}

// Each part's state comes from its own library: the back-face cull of the
// pre-rasterization part, the write mask of the fragment output part, the
// other libraries' garbage values for them ignored. The vertex shader is
// given inline, as its module's create info.
TEST_F(PipelineLibraryTest, EachPartTakesItsLibrarysState) {
  PipelineDesc culling = ColorPipeline(kExtent);
  culling.rasterization.cullMode = VK_CULL_MODE_BACK_BIT;
  culling.blend = {BlendState(false, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, VK_BLEND_FACTOR_ONE,
                              VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, 0)};  // not this library's part
  const VkShaderModuleCreateInfo code{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0,
                                      sizeof kColorTriangleVert, kColorTriangleVert};
  culling.vertex = VK_NULL_HANDLE;
  culling.vertex_stage_next = &code;
  PipelineDesc red_only = ColorPipeline(kExtent);
  red_only.rasterization.cullMode = VK_CULL_MODE_FRONT_AND_BACK;  // not this library's part
  red_only.blend = {BlendState(false, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, VK_BLEND_FACTOR_ONE,
                               VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD,
                               VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_A_BIT)};
  const VkPipeline linked =
      Link({Library(culling, kVertexInput | kPreRasterization), Library(red_only, kFragment | kFragmentOutput)});
  const std::vector<uint32_t> pixels = Draw(linked);
  // The counter-clockwise (red) triangle drawn, the clockwise (blue) one culled.
  EXPECT_GT(Count(pixels, kRed), 100u);
  EXPECT_EQ(Count(pixels, kBlue), 0u);
  EXPECT_EQ(Count(pixels, kRed) + Count(pixels, 0u), kSize * kSize);
}

// A dynamic viewport declared by the pre-rasterization library: the
// linked pipeline takes the command buffer's (the left half of the target).
TEST_F(PipelineLibraryTest, DynamicStateOfALibraryIsDynamicInTheLink) {
  PipelineDesc desc = ColorPipeline(kExtent);
  PipelineDesc dynamic = desc;
  dynamic.dynamic_states = {VK_DYNAMIC_STATE_VIEWPORT};
  const VkPipeline linked = Link({Library(desc, kVertexInput), Library(dynamic, kPreRasterization),
                                  Library(desc, kFragment | kFragmentOutput)});
  const VkViewport left{0, 0, kSize / 2.0f, float(kSize), 0, 1};
  const std::vector<uint32_t> pixels = Draw(linked, &left);
  uint32_t drawn_right = 0, drawn = 0;
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x)
      if (pixels[y * kSize + x] != 0) {
        ++drawn;
        drawn_right += x >= kSize / 2;
      }
  EXPECT_GT(drawn, 100u);
  EXPECT_EQ(drawn_right, 0u);
}
}  // namespace
}  // namespace duet_test
