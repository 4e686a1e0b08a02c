// Logic ops on the packed and multi-byte formats the integration tests do
// not draw to: which texel bits a write mask keeps (components in memory
// order, packed formats from their most significant bit), and the op
// applied through the codec to those bits only.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "raster/logic_op.h"

namespace duet::raster {
namespace {

ColorBlendState LogicOps(VkLogicOp op) {
  ColorBlendState blend;
  blend.logic_op_enable = true;
  blend.logic_op = op;
  return blend;
}

LogicOpTarget Configure(VkFormat format, VkColorComponentFlags mask, VkLogicOp op = VK_LOGIC_OP_XOR) {
  VkPipelineColorBlendAttachmentState attachment{};
  attachment.colorWriteMask = mask;
  LogicOpTarget target;
  ConfigureLogicOp(LogicOps(op), format, &attachment, &target);
  return target;
}

uint32_t WriteBits32(const LogicOpTarget& t) {
  uint32_t bits = 0;
  std::memcpy(&bits, t.write_bits, 4);
  return bits;
}

TEST(RasterLogicOp, PackedFormatsListComponentsFromTheTopBit) {
  // A2B10G10R10: R in bits 0-9, G 10-19, B 20-29, A 30-31.
  EXPECT_EQ(WriteBits32(Configure(VK_FORMAT_A2B10G10R10_UINT_PACK32, VK_COLOR_COMPONENT_R_BIT)), 0x000003FFu);
  EXPECT_EQ(WriteBits32(Configure(VK_FORMAT_A2B10G10R10_UNORM_PACK32, VK_COLOR_COMPONENT_A_BIT)), 0xC0000000u);
  EXPECT_EQ(WriteBits32(Configure(VK_FORMAT_A2B10G10R10_UINT_PACK32,
                                  VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT)),
            0x3FFFFC00u);
  // R5G6B5: R in bits 11-15, G 5-10, B 0-4.
  const LogicOpTarget rgb565 = Configure(VK_FORMAT_R5G6B5_UNORM_PACK16, VK_COLOR_COMPONENT_G_BIT);
  EXPECT_TRUE(rgb565.active);
  EXPECT_EQ(rgb565.texel_size, 2);
  EXPECT_EQ(WriteBits32(rgb565), 0x07E0u);
}

TEST(RasterLogicOp, ArrayFormatsFollowMemoryOrder) {
  // B8G8R8A8: B in byte 0, R in byte 2.
  EXPECT_EQ(WriteBits32(Configure(VK_FORMAT_B8G8R8A8_UNORM, VK_COLOR_COMPONENT_R_BIT)), 0x00FF0000u);
  EXPECT_EQ(WriteBits32(Configure(VK_FORMAT_R16G16_SINT, VK_COLOR_COMPONENT_G_BIT)), 0xFFFF0000u);
  const LogicOpTarget wide = Configure(VK_FORMAT_R32G32B32A32_UINT, VK_COLOR_COMPONENT_A_BIT);
  EXPECT_EQ(wide.texel_size, 16);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(wide.write_bits[i], i >= 12 ? 0xFF : 0x00) << i;
}

TEST(RasterLogicOp, FloatAndSrgbFormatsPassThroughWithBlendingOff) {
  for (VkFormat format : {VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_B10G11R11_UFLOAT_PACK32}) {
    VkPipelineColorBlendAttachmentState attachment{};
    attachment.blendEnable = VK_TRUE;
    attachment.colorWriteMask = 0xF;
    LogicOpTarget target;
    ConfigureLogicOp(LogicOps(VK_LOGIC_OP_XOR), format, &attachment, &target);
    EXPECT_FALSE(target.active) << format;
    EXPECT_EQ(attachment.blendEnable, VK_FALSE) << format;
  }
  // Logic ops off: nothing changes.
  VkPipelineColorBlendAttachmentState attachment{};
  attachment.blendEnable = VK_TRUE;
  LogicOpTarget target;
  ConfigureLogicOp(ColorBlendState{}, VK_FORMAT_R8G8B8A8_UNORM, &attachment, &target);
  EXPECT_FALSE(target.active);
  EXPECT_EQ(attachment.blendEnable, VK_TRUE);
}

TEST(RasterLogicOp, OpChangesOnlyTheMaskedBitsOfAPackedTexel) {
  const VkFormat format = VK_FORMAT_A2B10G10R10_UINT_PACK32;
  const LogicOpTarget target = Configure(format, VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_A_BIT);
  const texel::TexelCodec* codec = texel::GetTexelCodec(format);
  ASSERT_NE(codec, nullptr);
  const uint32_t color[4] = {0x155, 0x2AA, 0x0F0, 0x1};  // R, G, B, A
  const uint32_t before = 0x5A5A5A5Au;
  std::byte texel[4];
  std::memcpy(texel, &before, 4);
  WriteLogicOp(target, *codec, color, texel);
  uint32_t after = 0;
  std::memcpy(&after, texel, 4);
  const uint32_t source = 0x155u | 0x2AAu << 10 | 0x0F0u << 20 | 0x1u << 30;
  const uint32_t mask = 0xC00003FFu;
  EXPECT_EQ(after, ((source ^ before) & mask) | (before & ~mask));
}

}  // namespace
}  // namespace duet::raster
