// VK_EXT_shader_stencil_export: a fragment shader's FragStencilRefEXT
// replaces the stencil reference, per fragment, in the stencil test and in
// VK_STENCIL_OP_REPLACE.
#include <gtest/gtest.h>

#include <vector>

#include "graphics_fixture.h"
#include "shaders/stencil_export.frag.h"

namespace duet_test {
namespace {

class StencilExportTest : public GraphicsTest {
 protected:
  StencilExportTest() { device_options_.extensions = {VK_EXT_SHADER_STENCIL_EXPORT_EXTENSION_NAME}; }
};

TEST_F(StencilExportTest, ShaderReferenceReplacesAndCompares) {
  constexpr VkExtent2D kExtent{16, 8};
  VkFormat format = VK_FORMAT_UNDEFINED;
  for (VkFormat f : {VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT, VK_FORMAT_S8_UINT})
    if (format == VK_FORMAT_UNDEFINED && Supports(f, VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT)) format = f;
  ASSERT_NE(format, VK_FORMAT_UNDEFINED);
  PipelineDesc desc = RectPipeline(Module(kStencilExportFrag), kExtent);
  desc.stencil_format = format;
  if (HasDepth(format)) desc.depth_format = format;
  desc.depth_stencil.stencilTestEnable = VK_TRUE;
  // First draw: always pass, write the shader's reference (the pipeline's 7 is ignored).
  desc.depth_stencil.front = desc.depth_stencil.back = {VK_STENCIL_OP_KEEP, VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP,
                                                        VK_COMPARE_OP_ALWAYS, 0xFF, 0xFF, 7};
  const VkPipeline replace = MakePipeline(desc);
  // Second draw: pass where the stored value equals the shader's reference, then increment.
  desc.depth_stencil.front = desc.depth_stencil.back = {VK_STENCIL_OP_KEEP, VK_STENCIL_OP_INCREMENT_AND_CLAMP,
                                                        VK_STENCIL_OP_KEEP, VK_COMPARE_OP_EQUAL, 0xFF, 0xFF, 7};
  const VkPipeline compare = MakePipeline(desc);
  const Target stencil = MakeTarget(format, kExtent);
  const Target color = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);

  VkCommandBuffer cb = BeginCommands();
  BeginRendering(cb, {{&color, VK_ATTACHMENT_LOAD_OP_CLEAR}}, {&stencil, VK_ATTACHMENT_LOAD_OP_CLEAR});
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, replace);
  RectParams rect;
  rect.seed = 0;
  DrawRect(cb, desc.layout, rect);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, compare);
  // The left half matches what the first draw stored; the right half's reference is one more.
  RectParams left = rect, right = rect;
  left.bounds[2] = 0.0f;
  right.bounds[0] = 0.0f;
  right.seed = 1;
  DrawRect(cb, desc.layout, left);
  DrawRect(cb, desc.layout, right);
  vkCmdEndRendering(cb);
  EndSubmitWait(cb);

  const std::vector<uint8_t> stencils = Read<uint8_t>(stencil, VK_IMAGE_ASPECT_STENCIL_BIT);
  ASSERT_EQ(stencils.size(), size_t(kExtent.width) * kExtent.height);
  for (uint32_t y = 0; y < kExtent.height; ++y) {
    for (uint32_t x = 0; x < kExtent.width; ++x) {
      const uint8_t reference = uint8_t(x + 16 * y);
      const uint8_t expected = x < kExtent.width / 2 ? uint8_t(reference + 1) : reference;
      EXPECT_EQ(int(stencils[y * kExtent.width + x]), int(expected)) << "pixel " << x << "," << y;
    }
  }
}

}  // namespace
}  // namespace duet_test
