// textureCompressionETC2 through the loader: the feature bit and format
// properties of the ten ETC2/EAC formats, and blocks uploaded by a buffer
// copy reading back decoded through blits into R32G32B32A32_SFLOAT
// (nearest, same size): an RGBA8 image of two blocks (an individual-mode
// colour block with a constant EAC alpha; a planar block with a varying
// one) and an EAC RG11 SNORM block. Expected texels follow from the Data
// Format Specification's formulas for these simple blocks.
#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "graphics_fixture.h"

namespace duet_test {
namespace {

// A 64-bit word by bit ranges, stored big-endian (byte 0 = bits 63..56).
struct Word {
  uint64_t v = 0;
  void Put(int high, int low, uint64_t value) {
    const uint64_t mask = ((uint64_t{1} << (high - low + 1)) - 1) << low;
    v = (v & ~mask) | ((value << low) & mask);
  }
  void Store(uint8_t* out) const {
    for (int i = 0; i < 8; ++i) out[i] = uint8_t(v >> (56 - 8 * i));
  }
};

// EAC: base, multiplier, table 13, texel i (= x * 4 + y) index i % 8.
Word Eac(uint32_t base, uint32_t multiplier) {
  Word w;
  w.Put(63, 56, base);
  w.Put(55, 52, multiplier);
  w.Put(51, 48, 13);
  for (int i = 0; i < 16; ++i) w.Put(47 - 3 * i, 45 - 3 * i, uint32_t(i) % 8);
  return w;
}
constexpr int kEac13[8] = {-1, -2, -3, -10, 0, 1, 2, 9};

class TextureCompressionEtc2 : public GraphicsTest {
 protected:
  // Decodes `blocks` (16 bytes each, `width` x 4 texels) through a blit into floats.
  std::vector<float> Decoded(VkFormat format, uint32_t width, const std::vector<uint8_t>& blocks) {
    VkImageCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ci.imageType = VK_IMAGE_TYPE_2D;
    ci.format = format;
    ci.extent = {width, 4, 1};
    ci.mipLevels = ci.arrayLayers = 1;
    ci.samples = VK_SAMPLE_COUNT_1_BIT;
    ci.tiling = VK_IMAGE_TILING_OPTIMAL;
    ci.usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
    const VkImage compressed = MakeGeneralImage(ci);
    ci.format = VK_FORMAT_R32G32B32A32_SFLOAT;
    ci.usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    const VkImage floats = MakeGeneralImage(ci);
    const VkImageSubresourceLayers color{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    // 16-byte blocks of 16 texels: one byte a texel.
    WriteImage(compressed, color, {0, 0, 0}, {width, 4, 1}, 1, blocks);
    VkCommandBuffer cb = BeginCommands();
    FullBarrier(cb);
    VkImageBlit blit{color, {{0, 0, 0}, {int32_t(width), 4, 1}}, color, {{0, 0, 0}, {int32_t(width), 4, 1}}};
    vkCmdBlitImage(cb, compressed, VK_IMAGE_LAYOUT_GENERAL, floats, VK_IMAGE_LAYOUT_GENERAL, 1, &blit,
                   VK_FILTER_NEAREST);
    EndSubmitWait(cb);
    const std::vector<uint8_t> bytes = ReadImage(floats, color, {0, 0, 0}, {width, 4, 1}, 16);
    std::vector<float> out(bytes.size() / 4);
    std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
  }
};

TEST_F(TextureCompressionEtc2, FeatureAndFormatProperties) {
  ASSERT_EQ(features_.textureCompressionETC2, VK_TRUE);
  for (VkFormat format = VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK; format <= VK_FORMAT_EAC_R11G11_SNORM_BLOCK;
       format = VkFormat(format + 1)) {
    VkFormatProperties p;
    vkGetPhysicalDeviceFormatProperties(phys_, format, &p);
    constexpr VkFormatFeatureFlags kRequired = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_BLIT_SRC_BIT |
                                               VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT |
                                               VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
    EXPECT_EQ(p.optimalTilingFeatures & kRequired, kRequired) << format;
    EXPECT_EQ(p.bufferFeatures, 0u) << format;
  }
}

TEST_F(TextureCompressionEtc2, Rgba8BlocksDecodeThroughBlits) {
  std::vector<uint8_t> blocks(32);
  // Block 0: alpha 200 (multiplier 0); colour in individual mode, grey 0x8
  // on the left half, (0x2, 0x4, 0x6) on the right, table 0, index 0: +2.
  Eac(200, 0).Store(&blocks[0]);
  Word left;
  left.Put(63, 60, 0x8); left.Put(59, 56, 0x2);
  left.Put(55, 52, 0x8); left.Put(51, 48, 0x4);
  left.Put(47, 44, 0x8); left.Put(43, 40, 0x6);
  left.Store(&blocks[8]);
  // Block 1: alpha 50 + table 13's modifiers; colour planar with the same
  // colour at the origin, (4, 0) and (0, 4): that colour everywhere.
  Eac(50, 1).Store(&blocks[16]);
  Word planar;
  const uint32_t ro = 0b000100, go = 0b0010110, bo = 0b111010;
  planar.Put(62, 57, ro); planar.Put(56, 56, go >> 6); planar.Put(54, 49, go & 63);
  planar.Put(48, 48, bo >> 5); planar.Put(47, 45, 7); planar.Put(44, 43, (bo >> 3) & 3); planar.Put(41, 39, bo & 7);
  planar.Put(38, 34, ro >> 1); planar.Put(33, 33, 1); planar.Put(32, 32, ro & 1);
  planar.Put(31, 25, go); planar.Put(24, 19, bo); planar.Put(18, 13, ro); planar.Put(12, 6, go); planar.Put(5, 0, bo);
  planar.Store(&blocks[24]);
  const std::vector<float> texels = Decoded(VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK, 8, blocks);
  ASSERT_EQ(texels.size(), 8u * 4 * 4);
  const int planar_color[3] = {ro << 2 | ro >> 4, go << 1 | go >> 6, bo << 2 | bo >> 4};
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 8; ++x) {
      const float* t = &texels[size_t(y * 8 + x) * 4];
      int expected[4];
      if (x < 4) {
        const bool right = x >= 2;
        expected[0] = (right ? 0x2 : 0x8) * 17 + 2;
        expected[1] = (right ? 0x4 : 0x8) * 17 + 2;
        expected[2] = (right ? 0x6 : 0x8) * 17 + 2;
        expected[3] = 200;
      } else {
        const int i = (x - 4) * 4 + y;
        for (int c = 0; c < 3; ++c) expected[c] = planar_color[c];
        expected[3] = 50 + kEac13[i % 8];
      }
      for (int c = 0; c < 4; ++c) EXPECT_FLOAT_EQ(t[c], float(expected[c]) / 255.0f) << x << "," << y << " c" << c;
    }
}

TEST_F(TextureCompressionEtc2, SignedElevenBitChannels) {
  std::vector<uint8_t> block(16);
  Eac(0x80, 0).Store(&block[0]);  // R: base -128 reads -127, multiplier 0: -127 * 8 + modifier, clamped
  Eac(0x10, 2).Store(&block[8]);  // G: 16 * 8 + modifier * 2 * 8
  const std::vector<float> texels = Decoded(VK_FORMAT_EAC_R11G11_SNORM_BLOCK, 4, block);
  ASSERT_EQ(texels.size(), 4u * 4 * 4);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      const float* t = &texels[size_t(y * 4 + x) * 4];
      const int i = x * 4 + y;
      // (-1016 - 10 clamps to -1023.)
      EXPECT_FLOAT_EQ(t[0], float(std::max(-127 * 8 + kEac13[i % 8], -1023)) / 1023.0f) << x << "," << y;
      EXPECT_FLOAT_EQ(t[1], float(16 * 8 + kEac13[i % 8] * 16) / 1023.0f) << x << "," << y;
      EXPECT_EQ(t[2], 0.0f);
      EXPECT_EQ(t[3], 1.0f);
    }
}

}  // namespace
}  // namespace duet_test
