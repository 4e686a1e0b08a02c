// Logical operations (logicOpEnable) through the loader: each of the
// sixteen ops on UINT, UNORM and (when renderable) SNORM attachments against
// a host model of the spec's table, under full and partial write masks;
// float and sRGB attachments take the colour unchanged, and no attachment
// blends while logic ops are on.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "graphics_fixture.h"
#include "pixel_hash.h"
#include "shaders/fullscreen.vert.h"
#include "shaders/logic_op_pattern.frag.h"

namespace duet_test {
namespace {

constexpr VkExtent2D kExtent{16, 16};

// The fragment shader's output locations (logic_op_pattern.frag).
enum Location { kUnorm, kFloat, kSrgb, kUint, kSnorm, kLocations };
constexpr VkFormat kFormats[kLocations] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R32G32B32A32_SFLOAT,
                                           VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_R8G8B8A8_UINT,
                                           VK_FORMAT_R8G8B8A8_SNORM};

struct Float4 {
  float v[4];
};

uint8_t Byte(uint32_t word, int c) { return uint8_t(word >> (8 * c)); }

// The table of VkLogicOp, on the bits of one byte.
uint8_t ModelOp(VkLogicOp op, uint8_t source, uint8_t destination) {
  const uint32_t s = source, d = destination;
  const uint32_t table[16] = {0,        s & d,    s & ~d, s,      ~s & d,  d,      s ^ d,    s | d,
                              ~(s | d), ~(s ^ d), ~d,     s | ~d, ~s,      ~s | d, ~(s & d), ~0u};
  return uint8_t(table[op]);
}

// The byte an SNORM attachment holds for the shader's k/127 (k never -128).
uint8_t SnormByte(uint8_t b) { return b == 0x80 ? 0x81 : b; }

uint8_t SrgbByte(uint8_t b) {
  const double l = b / 255.0;
  const double e = l <= 0.0031308 ? 12.92 * l : 1.055 * std::pow(l, 1 / 2.4) - 0.055;
  return uint8_t(std::lround(e * 255.0));
}

class LogicOpTest : public GraphicsTest {
 protected:
  void SetUp() override {
    GraphicsTest::SetUp();
    if (HasFatalFailure() || IsSkipped()) return;
    if (!features_.logicOp) GTEST_SKIP() << "logicOp is not supported";
    locations_ = Supports(kFormats[kSnorm], VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT) ? kLocations : kSnorm;
    for (uint32_t l = 0; l < locations_; ++l) targets_[l] = MakeTarget(kFormats[l], kExtent);
    vertex_ = Module(kFullscreenVert);
    fragment_ = Module(kLogicOpPatternFrag);
    layout_ = MakePipelineLayout({}, 4);
  }

  // Destination texels, distinct per location.
  uint32_t DestinationWord(uint32_t x, uint32_t y, uint32_t l) const { return PixelHash(x, y, 1000 + l); }
  static float DestinationFloat(uint32_t x, uint32_t y, int c) { return 0.25f + float(x + y + c) / 64.0f; }

  void FillDestinations(uint32_t count) {
    for (uint32_t l = 0; l < count; ++l) {
      if (l == kFloat) {
        std::vector<Float4> texels;
        for (uint32_t y = 0; y < kExtent.height; ++y)
          for (uint32_t x = 0; x < kExtent.width; ++x)
            texels.push_back({{DestinationFloat(x, y, 0), DestinationFloat(x, y, 1), DestinationFloat(x, y, 2),
                               DestinationFloat(x, y, 3)}});
        Fill(targets_[l], VK_IMAGE_ASPECT_COLOR_BIT, texels);
        continue;
      }
      std::vector<uint32_t> texels;
      for (uint32_t y = 0; y < kExtent.height; ++y)
        for (uint32_t x = 0; x < kExtent.width; ++x) texels.push_back(DestinationWord(x, y, l));
      Fill(targets_[l], VK_IMAGE_ASPECT_COLOR_BIT, texels);
    }
  }

  // One full-screen draw of pattern `seed` into the first `count` targets
  // with logic op `op` and `blend` on every attachment; with `set_op`, the
  // op is dynamic state set by it (vkCmdSetLogicOpEXT).
  void Draw(uint32_t count, VkLogicOp op, const VkPipelineColorBlendAttachmentState& blend, uint32_t seed,
            PFN_vkCmdSetLogicOpEXT set_op = nullptr) {
    PipelineDesc desc;
    desc.vertex = vertex_;
    desc.fragment = fragment_;
    desc.layout = layout_;
    desc.extent = kExtent;
    desc.color_formats.assign(kFormats, kFormats + count);
    desc.blend.assign(count, blend);
    desc.logic_op_enable = true;
    desc.logic_op = set_op != nullptr ? VK_LOGIC_OP_COPY : op;
    if (set_op != nullptr) desc.dynamic_states = {VK_DYNAMIC_STATE_LOGIC_OP_EXT};
    VkPipeline pipeline = MakePipeline(desc);
    ASSERT_NE(pipeline, VK_NULL_HANDLE);
    std::vector<AttachmentUse> uses;
    for (uint32_t l = 0; l < count; ++l) uses.push_back({&targets_[l]});
    VkCommandBuffer cb = BeginCommands();
    BeginRendering(cb, uses);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdPushConstants(cb, layout_, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4, &seed);
    if (set_op != nullptr) set_op(cb, op);
    vkCmdDraw(cb, 3, 1, 0, 0);
    vkCmdEndRendering(cb);
    EndSubmitWait(cb);
  }

  // Checks the first `count` targets after Draw: `op` under `mask` on the
  // integer and normalized ones, the source colour (masked) on the others.
  void Check(uint32_t count, VkLogicOp op, VkColorComponentFlags mask, uint32_t seed, const std::string& what) {
    for (uint32_t l = 0; l < count; ++l) {
      if (l == kFloat) {
        const std::vector<Float4> got = Read<Float4>(targets_[l]);
        for (uint32_t i = 0; i < got.size(); ++i) {
          const uint32_t x = i % kExtent.width, y = i / kExtent.width, h = PixelHash(x, y, seed);
          for (int c = 0; c < 4; ++c) {
            const float expected = (mask >> c) & 1 ? float(Byte(h, c)) / 256.0f : DestinationFloat(x, y, c);
            ASSERT_EQ(got[i].v[c], expected) << what << ": float attachment, pixel " << x << "," << y << " channel "
                                             << c;
          }
        }
        continue;
      }
      const std::vector<uint32_t> got = Read<uint32_t>(targets_[l]);
      for (uint32_t i = 0; i < got.size(); ++i) {
        const uint32_t x = i % kExtent.width, y = i / kExtent.width, h = PixelHash(x, y, seed);
        const uint32_t d = DestinationWord(x, y, l);
        for (int c = 0; c < 4; ++c) {
          const uint8_t dst = Byte(d, c), src = Byte(h, c);
          int expected = dst;
          int tolerance = 0;
          if ((mask >> c) & 1) {
            switch (l) {
              case kSrgb:
                expected = c == 3 ? src : SrgbByte(src);
                tolerance = c == 3 ? 0 : 1;
                break;
              case kSnorm: expected = ModelOp(op, SnormByte(src), dst); break;
              default: expected = ModelOp(op, src, dst); break;
            }
          }
          ASSERT_NEAR(Byte(got[i], c), expected, tolerance)
              << what << ": " << (l == kUnorm ? "UNORM" : l == kSrgb ? "SRGB" : l == kUint ? "UINT" : "SNORM")
              << " attachment, pixel " << x << "," << y << " channel " << c << " src " << int(src) << " dst "
              << int(dst);
        }
      }
    }
  }

  uint32_t locations_ = 0;
  std::array<Target, kLocations> targets_{};
  VkShaderModule vertex_ = VK_NULL_HANDLE, fragment_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
};

VkPipelineColorBlendAttachmentState NoBlend(VkColorComponentFlags mask) {
  return BlendState(false, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, VK_BLEND_FACTOR_ONE,
                    VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, mask);
}

TEST_F(LogicOpTest, EveryOpOnIntegerAndNormalizedAttachments) {
  for (uint32_t op = VK_LOGIC_OP_CLEAR; op <= VK_LOGIC_OP_SET; ++op) {
    FillDestinations(locations_);
    Draw(locations_, VkLogicOp(op), NoBlend(0xF), op);
    ASSERT_NO_FATAL_FAILURE(Check(locations_, VkLogicOp(op), 0xF, op, "op " + std::to_string(op)));
  }
}

TEST_F(LogicOpTest, WriteMasksKeepTheOtherComponents) {
  const std::pair<VkLogicOp, VkColorComponentFlags> cases[] = {
      {VK_LOGIC_OP_XOR, VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_A_BIT},
      {VK_LOGIC_OP_INVERT, VK_COLOR_COMPONENT_G_BIT},
      {VK_LOGIC_OP_SET, VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT},
      {VK_LOGIC_OP_NAND, 0}};
  uint32_t seed = 40;
  for (const auto& [op, mask] : cases) {
    FillDestinations(locations_);
    Draw(locations_, op, NoBlend(mask), ++seed);
    ASSERT_NO_FATAL_FAILURE(Check(locations_, op, mask, seed, "op " + std::to_string(op) + " mask " +
                                                                 std::to_string(mask)));
  }
}

// With logic ops on, blending is off for every attachment: the UNORM one
// takes the op, the float and sRGB ones the source colour, although all
// three have additive blending enabled.
TEST_F(LogicOpTest, BlendingIsOffWhileLogicOpsAreOn) {
  const VkPipelineColorBlendAttachmentState additive =
      BlendState(true, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD, VK_BLEND_FACTOR_ONE,
                 VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD);
  FillDestinations(kUint);
  Draw(kUint, VK_LOGIC_OP_XOR, additive, 77);
  ASSERT_NO_FATAL_FAILURE(Check(kUint, VK_LOGIC_OP_XOR, 0xF, 77, "xor over additive blending"));
}

// VK_EXT_extended_dynamic_state2: the op comes from vkCmdSetLogicOpEXT.
class DynamicLogicOpTest : public LogicOpTest {
 protected:
  DynamicLogicOpTest() {
    device_options_.extensions.push_back(VK_EXT_EXTENDED_DYNAMIC_STATE_2_EXTENSION_NAME);
    features_eds2_.extendedDynamicState2LogicOp = VK_TRUE;
    device_options_.extension_features.push_back(reinterpret_cast<VkBaseOutStructure*>(&features_eds2_));
  }

  VkPhysicalDeviceExtendedDynamicState2FeaturesEXT features_eds2_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT};
};

TEST_F(DynamicLogicOpTest, OpSetInTheCommandBuffer) {
  const auto set_op = DeviceProc<PFN_vkCmdSetLogicOpEXT>("vkCmdSetLogicOpEXT");
  ASSERT_NE(set_op, nullptr);
  uint32_t seed = 90;
  for (VkLogicOp op : {VK_LOGIC_OP_XOR, VK_LOGIC_OP_AND_INVERTED, VK_LOGIC_OP_EQUIVALENT, VK_LOGIC_OP_SET}) {
    FillDestinations(locations_);
    Draw(locations_, op, NoBlend(0xF), ++seed, set_op);
    ASSERT_NO_FATAL_FAILURE(Check(locations_, op, 0xF, seed, "dynamic op " + std::to_string(op)));
  }
}

}  // namespace
}  // namespace duet_test
