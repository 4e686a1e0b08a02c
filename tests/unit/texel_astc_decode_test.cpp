// The ASTC LDR decoder against Arm's libastcenc (the reference codec): random
// blocks and blocks libastcenc encodes from images decode to the same values
// for every block size, UNORM and sRGB; plus void-extent and error blocks
// worked out by hand from the Data Format Specification.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "support/astc_reference.h"
#include "texel/astc_decode.h"
#include "texel/srgb.h"

namespace duet::texel {
namespace {

using duet_test::AstcBlockDims;
using Block = std::array<uint8_t, 16>;

std::vector<std::array<float, 4>> Reference(VkFormat format, const uint8_t* blocks, uint32_t blocks_x,
                                            uint32_t blocks_y) {
  const SrgbTables& tables = GetSrgbTables();
  return duet_test::AstcDecode(format, blocks, blocks_x, blocks_y,
                               [&](uint8_t code) { return DecodeSrgb8(tables, code); });
}

constexpr VkFormat kFirst = VK_FORMAT_ASTC_4x4_UNORM_BLOCK;
constexpr VkFormat kLast = VK_FORMAT_ASTC_12x12_SRGB_BLOCK;

TEST(AstcDecode, RandomBlocksMatchLibastcencForEveryFormat) {
  std::mt19937 rng(7);
  for (int f = kFirst; f <= kLast; ++f) {
    const auto format = VkFormat(f);
    const duet_test::AstcDims dims = AstcBlockDims(format);
    constexpr uint32_t kBlocks = 3000;
    std::vector<uint8_t> blocks(kBlocks * 16);
    for (uint8_t& b : blocks) b = uint8_t(rng());
    const auto expected = Reference(format, blocks.data(), kBlocks, 1);
    ASSERT_FALSE(expected.empty());
    uint32_t mismatches = 0, decoded_blocks = 0;
    for (uint32_t b = 0; b < kBlocks; ++b) {
      const auto* block = reinterpret_cast<const std::byte*>(&blocks[b * 16]);
      bool error = true;
      for (uint32_t y = 0; y < dims.height; ++y) {
        TexelValue line[12];
        DecodeAstcRow(format, block, y, dims.width, line);
        for (uint32_t x = 0; x < dims.width; ++x) {
          const auto& e = expected[size_t(y) * dims.width * kBlocks + b * dims.width + x];
          const TexelValue single = DecodeAstcTexel(format, block, x, y);
          error &= e[0] == 1.0f && e[1] == 0.0f && e[2] == 1.0f && e[3] == 1.0f;
          for (int c = 0; c < 4; ++c) {
            if (e[c] == line[x].f[c] && single.u[c] == line[x].u[c]) continue;
            if (++mismatches <= 5) {
              ADD_FAILURE() << "format " << f << " block " << b << " texel (" << x << ", " << y << ") c" << c
                            << ": libastcenc " << e[c] << ", driver " << line[x].f[c] << " / " << single.f[c];
            }
          }
        }
      }
      decoded_blocks += error ? 0 : 1;
    }
    EXPECT_EQ(mismatches, 0u) << "format " << f;
    // Most random blocks are reserved encodings; enough must not be.
    EXPECT_GT(decoded_blocks, 80u) << "format " << f;
  }
}

// Blocks an encoder writes use every feature (partitions, dual planes, all
// endpoint modes and ranges) far more than random bits do.
TEST(AstcDecode, EncodedImagesMatchLibastcenc) {
  for (VkFormat format : {VK_FORMAT_ASTC_4x4_UNORM_BLOCK, VK_FORMAT_ASTC_6x5_SRGB_BLOCK,
                          VK_FORMAT_ASTC_8x8_UNORM_BLOCK, VK_FORMAT_ASTC_12x12_UNORM_BLOCK}) {
    const duet_test::AstcDims dims = AstcBlockDims(format);
    constexpr uint32_t kBlocksX = 8, kBlocksY = 6;
    const uint32_t width = kBlocksX * dims.width, height = kBlocksY * dims.height;
    // Gradients, hard edges, noise and varying alpha: many kinds of block.
    std::vector<uint8_t> pixels(size_t(width) * height * 4);
    std::mt19937 rng(11);
    for (uint32_t y = 0; y < height; ++y)
      for (uint32_t x = 0; x < width; ++x) {
        uint8_t* p = &pixels[(size_t(y) * width + x) * 4];
        const uint32_t region = (x * 3 / width) + 3 * (y * 2 / height);
        p[0] = uint8_t(x * 255 / width);
        p[1] = uint8_t(region % 2 == 0 ? y * 255 / height : 255 - y * 255 / height);
        p[2] = uint8_t(region >= 3 ? rng() : (x + y) % 7 < 3 ? 40 : 220);
        p[3] = uint8_t(region == 2 || region == 5 ? 255 - x * 4 % 256 : 255);
      }
    const std::vector<uint8_t> blocks = duet_test::AstcEncode(format, kBlocksX, kBlocksY, pixels);
    ASSERT_FALSE(blocks.empty());
    const auto expected = Reference(format, blocks.data(), kBlocksX, kBlocksY);
    ASSERT_FALSE(expected.empty());
    uint32_t mismatches = 0, partitioned = 0;
    for (uint32_t y = 0; y < height; ++y) {
      std::vector<TexelValue> line(width);
      const uint32_t by = y / dims.height;
      DecodeAstcRow(format, reinterpret_cast<const std::byte*>(&blocks[by * kBlocksX * 16]), y % dims.height, width,
                    line.data());
      for (uint32_t x = 0; x < width; ++x)
        for (int c = 0; c < 4; ++c)
          if (expected[size_t(y) * width + x][c] != line[x].f[c] && ++mismatches <= 5) {
            ADD_FAILURE() << "format " << format << " texel (" << x << ", " << y << ") c" << c;
          }
    }
    for (uint32_t b = 0; b < kBlocksX * kBlocksY; ++b) partitioned += ((blocks[b * 16 + 1] >> 3) & 3) != 0 ? 1 : 0;
    EXPECT_EQ(mismatches, 0u) << format;
    EXPECT_GT(partitioned, 0u) << "the image should need multi-partition blocks";
  }
}

// A void-extent block: one UNORM16 colour for the whole block.
Block VoidExtent(uint16_t r, uint16_t g, uint16_t b, uint16_t a, bool hdr = false) {
  Block block{};
  const uint64_t low = 0xFFFFFFFFFFFFFDFCull | (hdr ? 0x200u : 0u);  // no extent coordinates
  std::memcpy(block.data(), &low, 8);
  const uint16_t colour[4] = {r, g, b, a};
  std::memcpy(block.data() + 8, colour, 8);
  return block;
}

const std::byte* Bytes(const Block& block) { return reinterpret_cast<const std::byte*>(block.data()); }

TEST(AstcDecode, VoidExtentBlocksAreOneColour) {
  const Block block = VoidExtent(0x0000, 0x8000, 0xFFFF, 0x1235);
  for (uint32_t y = 0; y < 8; ++y)
    for (uint32_t x = 0; x < 10; ++x) {
      const TexelValue t = DecodeAstcTexel(VK_FORMAT_ASTC_10x8_UNORM_BLOCK, Bytes(block), x, y);
      EXPECT_EQ(t.f[0], 0.0f);
      EXPECT_EQ(t.f[1], 0.5f);
      EXPECT_EQ(t.f[2], 1.0f) << "0xFFFF reads as exactly one";
      EXPECT_EQ(t.f[3], float(0x1234) / 65536.0f) << "FP16 keeps 11 significant bits: 0x1235 truncates";
    }
  // sRGB: the top 8 bits, R, G, B through the transfer function.
  const Block srgb = VoidExtent(0x80FF, 0x0000, 0xFF00, 0x12AB);
  const TexelValue t = DecodeAstcTexel(VK_FORMAT_ASTC_4x4_SRGB_BLOCK, Bytes(srgb), 3, 3);
  EXPECT_EQ(t.f[0], DecodeSrgb8(GetSrgbTables(), 0x80));
  EXPECT_EQ(t.f[1], 0.0f);
  EXPECT_EQ(t.f[2], 1.0f);
  EXPECT_EQ(t.f[3], float(0x12) / 255.0f);
}

TEST(AstcDecode, ErrorBlocksReadMagenta) {
  Block reserved_mode{};  // block mode 0: reserved
  Block bad_extent = VoidExtent(0, 0, 0, 0);
  const uint64_t extent = 0xFFFFFFFFFFFFFDFCull & ~(uint64_t{0x1FFF} << 25);  // max s = 0 <= min s
  std::memcpy(bad_extent.data(), &extent, 8);
  const Block hdr = VoidExtent(0x3C00, 0x3C00, 0x3C00, 0x3C00, true);  // HDR void extent in the LDR profile
  for (const Block& block : {reserved_mode, bad_extent, hdr}) {
    for (VkFormat format : {VK_FORMAT_ASTC_4x4_UNORM_BLOCK, VK_FORMAT_ASTC_12x12_SRGB_BLOCK}) {
      TexelValue line[12];
      DecodeAstcRow(format, Bytes(block), 1, 4, line);
      for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(line[i].f[0], 1.0f);
        EXPECT_EQ(line[i].f[1], 0.0f);
        EXPECT_EQ(line[i].f[2], 1.0f);
        EXPECT_EQ(line[i].f[3], 1.0f);
      }
    }
  }
}

TEST(AstcDecode, RowsCoverPartialBlocksAndOtherFormatsAreLeftAlone) {
  // Two 5x4 blocks of different colours, a row of 7 texels: 5 + 2.
  std::array<uint8_t, 32> blocks;
  const Block a = VoidExtent(0xFFFF, 0, 0, 0xFFFF), b = VoidExtent(0, 0, 0xFFFF, 0xFFFF);
  std::memcpy(blocks.data(), a.data(), 16);
  std::memcpy(blocks.data() + 16, b.data(), 16);
  TexelValue line[8];
  std::memset(line, 0x3C, sizeof line);
  DecodeAstcRow(VK_FORMAT_ASTC_5x4_UNORM_BLOCK, reinterpret_cast<const std::byte*>(blocks.data()), 3, 7, line);
  for (int x = 0; x < 7; ++x) EXPECT_EQ(line[x].f[x < 5 ? 0 : 2], 1.0f) << x;
  EXPECT_EQ(line[7].u[0], 0x3C3C3C3Cu) << "wrote past the row";
  for (VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_BC7_UNORM_BLOCK, VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK}) {
    EXPECT_FALSE(IsAstcFormat(format));
    DecodeAstcRow(format, Bytes(a), 0, 4, line);
    EXPECT_EQ(line[7].u[0], 0x3C3C3C3Cu);
    EXPECT_EQ(line[6].f[2], 1.0f) << "wrote for a format that is not ASTC LDR";
  }
  EXPECT_TRUE(IsAstcFormat(VK_FORMAT_ASTC_4x4_UNORM_BLOCK));
  EXPECT_TRUE(IsAstcFormat(VK_FORMAT_ASTC_12x12_SRGB_BLOCK));
}

}  // namespace
}  // namespace duet::texel
