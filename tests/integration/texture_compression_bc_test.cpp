// textureCompressionBC through the loader: the feature bit and format
// properties, block-compressed image layouts, byte-exact copies between BC
// images, buffers and size-compatible uncompressed images, sampling
// (texelFetch and filtered textureLod in a compute shader, across blocks and
// mip levels), blits from BC images into uncompressed ones, and writes
// through uncompressed block-texel views.
//
// Expected texels come from hand-made blocks (known endpoints and indices)
// and the formulas of the Khronos Data Format Specification, evaluated here
// in double precision, independently of the driver's decoders.
#include <array>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "compressed_texture_fixture.h"
#include "shaders/store_blocks.comp.h"

namespace duet_test {
namespace {

// ---- Reference blocks and their texels ----

using Block = std::array<uint8_t, 16>;  // BC1 and BC4 use the first 8 bytes
using Texels = std::array<std::array<double, 4>,
                          16>;  // RGBA of a block's texels, row-major

// Blocks are assembled field by field, lowest bit of byte 0 first.
struct BlockBits {
  Block bytes{};
  uint32_t at = 0;
  void Put(uint32_t value, uint32_t count) {
    for (uint32_t i = 0; i < count; ++i, ++at)
      if ((value >> i) & 1) bytes[at / 8] |= uint8_t(1u << (at % 8));
  }
};

double SrgbToLinear(double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); }

// An RGB565 endpoint.
struct Rgb565 {
  uint32_t r, g, b;
  uint32_t Bits() const { return r << 11 | g << 5 | b; }
  std::array<double, 3> Unorm() const { return {r / 31.0, g / 63.0, b / 31.0}; }
};

// BC1's 8 bytes (also BC2's and BC3's colour half): two endpoints, then
// 2-bit codes, texel 0 lowest.
void PutColorBlock(uint8_t* out, Rgb565 c0, Rgb565 c1, const std::array<uint8_t, 16>& codes) {
  BlockBits bits;
  bits.Put(c0.Bits(), 16);
  bits.Put(c1.Bits(), 16);
  for (uint8_t code : codes) bits.Put(code, 2);
  std::memcpy(out, bits.bytes.data(), 8);
}

// The palette: RGB0, RGB1, then (2 RGB0 + RGB1) / 3 and (RGB0 + 2 RGB1) / 3,
// or with three colours (RGB0 <= RGB1 in BC1) (RGB0 + RGB1) / 2 and black,
// transparent when `punch_through`.
void ColorTexels(Rgb565 c0, Rgb565 c1, const std::array<uint8_t, 16>& codes, bool always_four, bool punch_through,
                 bool srgb, Texels* out) {
  const auto e0 = c0.Unorm(), e1 = c1.Unorm();
  const bool four = always_four || c0.Bits() > c1.Bits();
  for (int t = 0; t < 16; ++t) {
    std::array<double, 4>& texel = (*out)[t];
    texel[3] = 1.0;
    for (int c = 0; c < 3; ++c) {
      double v = 0.0;
      switch (codes[t]) {
        case 0: v = e0[c]; break;
        case 1: v = e1[c]; break;
        case 2: v = four ? (2 * e0[c] + e1[c]) / 3 : (e0[c] + e1[c]) / 2; break;
        default: v = four ? (e0[c] + 2 * e1[c]) / 3 : 0.0; break;
      }
      texel[c] = srgb ? SrgbToLinear(v) : v;
    }
    if (!four && codes[t] == 3 && punch_through) texel[3] = 0.0;
  }
}

// An 8-byte interpolated channel (BC3 alpha, BC4, BC5's R and G): two
// endpoints, then 3-bit codes.
void PutChannelBlock(uint8_t* out, int32_t v0, int32_t v1, const std::array<uint8_t, 16>& codes) {
  BlockBits bits;
  bits.Put(uint32_t(v0) & 0xFF, 8);
  bits.Put(uint32_t(v1) & 0xFF, 8);
  for (uint8_t code : codes) bits.Put(code, 3);
  std::memcpy(out, bits.bytes.data(), 8);
}

// Eight values when v0 > v1 (six interpolated), else six (four interpolated,
// then the minimum and 1). Signed endpoints are c / 127 with -128 as -1.
std::array<double, 16> ChannelTexels(int32_t v0, int32_t v1, const std::array<uint8_t, 16>& codes, bool is_signed) {
  auto norm = [&](int32_t v) { return is_signed ? std::max(v / 127.0, -1.0) : v / 255.0; };
  const double e0 = norm(v0), e1 = norm(v1);
  std::array<double, 16> out{};
  for (int t = 0; t < 16; ++t) {
    const int code = codes[t];
    if (code == 0)
      out[t] = e0;
    else if (code == 1)
      out[t] = e1;
    else if (v0 > v1)
      out[t] = ((8 - code) * e0 + (code - 1) * e1) / 7;
    else if (code <= 5)
      out[t] = ((6 - code) * e0 + (code - 1) * e1) / 5;
    else
      out[t] = code == 6 ? (is_signed ? -1.0 : 0.0) : 1.0;
  }
  return out;
}

// BPTC's interpolation weights for 4-bit indices.
constexpr int kWeights4[16] = {0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64};

int32_t Interpolate(int32_t e0, int32_t e1, int index) {
  return ((64 - kWeights4[index]) * e0 + kWeights4[index] * e1 + 32) >> 6;
}

// 4-bit indices of a one-subset BPTC block: texel 0 (the anchor) drops its
// high bit, which must be 0.
void PutIndices4(BlockBits* bits, const std::array<uint8_t, 16>& indices) {
  for (int t = 0; t < 16; ++t) bits->Put(indices[t], t == 0 ? 3 : 4);
}

// BC7 mode 6: one subset, RGBA endpoints of 7 bits plus one P bit each, 4-bit
// indices.
struct Bc7Mode6 {
  std::array<uint32_t, 4> e0, e1;  // 7-bit RGBA
  uint32_t p0, p1;
  std::array<uint8_t, 16> indices;

  Block Encode() const {
    BlockBits bits;
    bits.Put(1u << 6, 7);  // mode 6: six 0 bits, then a 1
    for (int c = 0; c < 4; ++c) {
      bits.Put(e0[c], 7);
      bits.Put(e1[c], 7);
    }
    bits.Put(p0, 1);
    bits.Put(p1, 1);
    PutIndices4(&bits, indices);
    EXPECT_EQ(bits.at, 128u);
    return bits.bytes;
  }
  // The 8-bit results of the interpolation.
  std::array<std::array<int32_t, 4>, 16> Values() const {
    std::array<std::array<int32_t, 4>, 16> out{};
    for (int t = 0; t < 16; ++t)
      for (int c = 0; c < 4; ++c)
        out[t][c] = Interpolate(int32_t(e0[c] << 1 | p0), int32_t(e1[c] << 1 | p1), indices[t]);
    return out;
  }
  void Texels(bool srgb, ::duet_test::Texels* out) const {
    const auto values = Values();
    for (int t = 0; t < 16; ++t)
      for (int c = 0; c < 4; ++c)
        (*out)[t][c] = srgb && c < 3 ? SrgbToLinear(values[t][c] / 255.0) : values[t][c] / 255.0;
  }
};

// A half float's bits as a double.
double HalfToDouble(uint32_t h) {
  const int exponent = int(h >> 10 & 0x1F), mantissa = int(h & 0x3FF);
  const double magnitude = exponent == 0 ? std::ldexp(mantissa, -24) : std::ldexp(1024 + mantissa, exponent - 25);
  return (h & 0x8000) ? -magnitude : magnitude;
}

// BC6H mode 3 (5 mode bits 00011): one region, untransformed 10-bit RGB
// endpoints, 4-bit indices.
struct Bc6hMode3 {
  std::array<int32_t, 3> e0, e1;  // 10-bit values (signed ones in [-512, 511])
  std::array<uint8_t, 16> indices;

  Block Encode() const {
    BlockBits bits;
    bits.Put(3, 5);
    for (int32_t v : e0) bits.Put(uint32_t(v) & 0x3FF, 10);
    for (int32_t v : e1) bits.Put(uint32_t(v) & 0x3FF, 10);
    PutIndices4(&bits, indices);
    EXPECT_EQ(bits.at, 128u);
    return bits.bytes;
  }

  // Unquantization of 10-bit endpoints to 16 bits, interpolation and the
  // final scaling to half-float bits.
  static int32_t Unquantize(int32_t v, bool is_signed) {
    if (!is_signed) {
      if (v == 0) return 0;
      if (v == 0x3FF) return 0xFFFF;
      return ((v << 16) + 0x8000) >> 10;
    }
    if (v == 0) return 0;
    const bool negative = v < 0;
    const int32_t magnitude = negative ? -v : v;
    const int32_t u = magnitude >= 511 ? 0x7FFF : ((magnitude << 15) + 0x4000) >> 9;
    return negative ? -u : u;
  }
  static uint32_t FinishToHalf(int32_t v, bool is_signed) {
    if (!is_signed) return uint32_t((v * 31) >> 6);
    if (v < 0) return 0x8000u | uint32_t(((-v) * 31) >> 5);
    return uint32_t((v * 31) >> 5);
  }
  void Texels(bool is_signed, ::duet_test::Texels* out) const {
    for (int t = 0; t < 16; ++t) {
      for (int c = 0; c < 3; ++c) {
        const int32_t a = Unquantize(e0[c], is_signed), b = Unquantize(e1[c], is_signed);
        (*out)[t][c] = HalfToDouble(FinishToHalf(Interpolate(a, b, indices[t]), is_signed));
      }
      (*out)[t][3] = 1.0;
    }
  }
};

// Two hand-made blocks of one format (an 8x4 image) and their texels.
struct DecodeCase {
  std::string name;
  VkFormat format;
  uint32_t block_bytes;
  Block blocks[2];
  Texels texels[2];
  double tolerance;
};

std::ostream& operator<<(std::ostream& os, const DecodeCase& c) { return os << c.name; }

// Code patterns that reach every code of a block.
constexpr std::array<uint8_t, 16> kCodes2A = {0, 1, 2, 3, 3, 2, 1, 0, 1, 3, 0, 2, 2, 0, 3, 1};
constexpr std::array<uint8_t, 16> kCodes2B = {3, 3, 2, 2, 1, 1, 0, 0, 0, 1, 2, 3, 3, 2, 1, 0};
constexpr std::array<uint8_t, 16> kCodes3A = {0, 1, 2, 3, 4, 5, 6, 7, 7, 6, 5, 4, 3, 2, 1, 0};
constexpr std::array<uint8_t, 16> kCodes3B = {5, 0, 7, 2, 1, 6, 3, 4, 4, 3, 6, 1, 2, 7, 0, 5};
constexpr std::array<uint8_t, 16> kIndices4A = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
constexpr std::array<uint8_t, 16> kIndices4B = {7, 15, 3, 12, 9, 0, 14, 5, 10, 2, 13, 6, 1, 11, 4, 8};

// BC1 endpoints: four colours (RGB0 > RGB1) and three (RGB0 <= RGB1).
constexpr Rgb565 kFourA{29, 50, 3}, kFourB{2, 10, 27};
constexpr Rgb565 kThreeA{4, 20, 30}, kThreeB{25, 40, 8};

DecodeCase Bc1Case(const char* name, VkFormat format, bool punch_through, bool srgb) {
  DecodeCase c{name, format, 8, {}, {}, srgb ? 1e-5 : 1e-6};
  PutColorBlock(c.blocks[0].data(), kFourA, kFourB, kCodes2A);
  PutColorBlock(c.blocks[1].data(), kThreeA, kThreeB, kCodes2B);
  ColorTexels(kFourA, kFourB, kCodes2A, false, punch_through, srgb, &c.texels[0]);
  ColorTexels(kThreeA, kThreeB, kCodes2B, false, punch_through, srgb, &c.texels[1]);
  return c;
}

DecodeCase Bc2Case() {
  DecodeCase c{"BC2_UNORM", VK_FORMAT_BC2_UNORM_BLOCK, 16, {}, {}, 1e-6};
  for (int b = 0; b < 2; ++b) {
    // 4-bit alphas, texel 0 lowest; the colour block always has four colours.
    BlockBits alpha;
    for (int t = 0; t < 16; ++t) alpha.Put(uint32_t(t * 7 + 3 + b * 5) % 16, 4);
    std::memcpy(c.blocks[b].data(), alpha.bytes.data(), 8);
    const Rgb565 c0 = b == 0 ? kThreeA : kFourA, c1 = b == 0 ? kThreeB : kFourB;
    PutColorBlock(c.blocks[b].data() + 8, c0, c1, kCodes2A);
    ColorTexels(c0, c1, kCodes2A, true, false, false, &c.texels[b]);
    for (int t = 0; t < 16; ++t) c.texels[b][t][3] = ((t * 7 + 3 + b * 5) % 16) / 15.0;
  }
  return c;
}

DecodeCase Bc3Case() {
  DecodeCase c{"BC3_UNORM", VK_FORMAT_BC3_UNORM_BLOCK, 16, {}, {}, 1e-6};
  const int32_t alphas[2][2] = {{240, 16}, {30, 200}};  // eight values, then six
  for (int b = 0; b < 2; ++b) {
    PutChannelBlock(c.blocks[b].data(), alphas[b][0], alphas[b][1], b == 0 ? kCodes3A : kCodes3B);
    PutColorBlock(c.blocks[b].data() + 8, kThreeA, kThreeB, kCodes2B);
    ColorTexels(kThreeA, kThreeB, kCodes2B, true, false, false, &c.texels[b]);
    const auto a = ChannelTexels(alphas[b][0], alphas[b][1], b == 0 ? kCodes3A : kCodes3B, false);
    for (int t = 0; t < 16; ++t) c.texels[b][t][3] = a[t];
  }
  return c;
}

// BC4 (R) or BC5 (R, G): G (BC4), B = 0, A = 1. Endpoint pairs agree on
// eight or six values whether compared signed or unsigned.
DecodeCase RgtcCase(const char* name, VkFormat format, bool two_channels, bool is_signed) {
  DecodeCase c{name, format, two_channels ? 16u : 8u, {}, {}, 1e-6};
  const int32_t pairs[2][2][2] = {
      {{200, 40}, {40, 200}},   // unsigned: eight values, six values
      {{-20, -128}, {10, 90}},  // signed: eight values (with -128 = -1.0), six values
  };
  for (int b = 0; b < 2; ++b) {
    for (int ch = 0; ch < (two_channels ? 2 : 1); ++ch) {
      const int32_t* pair = pairs[is_signed][(b + ch) % 2];
      const auto& codes = ch == 0 ? kCodes3A : kCodes3B;
      PutChannelBlock(c.blocks[b].data() + 8 * ch, pair[0], pair[1], codes);
      const auto values = ChannelTexels(pair[0], pair[1], codes, is_signed);
      for (int t = 0; t < 16; ++t) c.texels[b][t][ch] = values[t];
    }
    for (int t = 0; t < 16; ++t) c.texels[b][t][3] = 1.0;
  }
  return c;
}

DecodeCase Bc6hCase(const char* name, VkFormat format, bool is_signed) {
  DecodeCase c{name, format, 16, {}, {}, 0.0};
  const Bc6hMode3 unsigned_blocks[2] = {{{0, 300, 1023}, {800, 40, 512}, kIndices4A},
                                        {{1, 512, 1022}, {1023, 0, 100}, kIndices4B}};
  const Bc6hMode3 signed_blocks[2] = {{{-200, 100, 0}, {300, -511, 511}, kIndices4A},
                                      {{-1, 1, -512}, {250, 7, -300}, kIndices4B}};
  for (int b = 0; b < 2; ++b) {
    const Bc6hMode3& block = is_signed ? signed_blocks[b] : unsigned_blocks[b];
    c.blocks[b] = block.Encode();
    block.Texels(is_signed, &c.texels[b]);
  }
  return c;
}

const Bc7Mode6 kBc7Blocks[2] = {{{127, 0, 64, 127}, {0, 127, 32, 63}, 1, 0, kIndices4A},
                                {{10, 100, 90, 0}, {120, 5, 33, 127}, 0, 1, kIndices4B}};

DecodeCase Bc7Case(const char* name, VkFormat format, bool srgb) {
  DecodeCase c{name, format, 16, {}, {}, srgb ? 1e-5 : 1e-6};
  for (int b = 0; b < 2; ++b) {
    c.blocks[b] = kBc7Blocks[b].Encode();
    kBc7Blocks[b].Texels(srgb, &c.texels[b]);
  }
  return c;
}

std::vector<DecodeCase> DecodeCases() {
  return {
      Bc1Case("BC1_RGB_UNORM", VK_FORMAT_BC1_RGB_UNORM_BLOCK, false, false),
      Bc1Case("BC1_RGBA_UNORM", VK_FORMAT_BC1_RGBA_UNORM_BLOCK, true, false),
      Bc1Case("BC1_RGB_SRGB", VK_FORMAT_BC1_RGB_SRGB_BLOCK, false, true),
      Bc1Case("BC1_RGBA_SRGB", VK_FORMAT_BC1_RGBA_SRGB_BLOCK, true, true),
      Bc2Case(),
      Bc3Case(),
      RgtcCase("BC4_UNORM", VK_FORMAT_BC4_UNORM_BLOCK, false, false),
      RgtcCase("BC4_SNORM", VK_FORMAT_BC4_SNORM_BLOCK, false, true),
      RgtcCase("BC5_UNORM", VK_FORMAT_BC5_UNORM_BLOCK, true, false),
      RgtcCase("BC5_SNORM", VK_FORMAT_BC5_SNORM_BLOCK, true, true),
      Bc6hCase("BC6H_UFLOAT", VK_FORMAT_BC6H_UFLOAT_BLOCK, false),
      Bc6hCase("BC6H_SFLOAT", VK_FORMAT_BC6H_SFLOAT_BLOCK, true),
      Bc7Case("BC7_UNORM", VK_FORMAT_BC7_UNORM_BLOCK, false),
      Bc7Case("BC7_SRGB", VK_FORMAT_BC7_SRGB_BLOCK, true),
  };
}

constexpr VkFormat kAllBcFormats[] = {
    VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_FORMAT_BC1_RGB_SRGB_BLOCK, VK_FORMAT_BC1_RGBA_UNORM_BLOCK,
    VK_FORMAT_BC1_RGBA_SRGB_BLOCK, VK_FORMAT_BC2_UNORM_BLOCK,    VK_FORMAT_BC2_SRGB_BLOCK,
    VK_FORMAT_BC3_UNORM_BLOCK,     VK_FORMAT_BC3_SRGB_BLOCK,     VK_FORMAT_BC4_UNORM_BLOCK,
    VK_FORMAT_BC4_SNORM_BLOCK,     VK_FORMAT_BC5_UNORM_BLOCK,    VK_FORMAT_BC5_SNORM_BLOCK,
    VK_FORMAT_BC6H_UFLOAT_BLOCK,   VK_FORMAT_BC6H_SFLOAT_BLOCK,  VK_FORMAT_BC7_UNORM_BLOCK,
    VK_FORMAT_BC7_SRGB_BLOCK};

// ---- The fixture ----

class TextureCompressionBc : public CompressedTextureFixture {
 protected:
  void SetUp() override {
    CompressedTextureFixture::SetUp();
    if (HasFatalFailure()) return;
    if (!features_.textureCompressionBC) GTEST_SKIP() << "textureCompressionBC is not supported";
  }

  VkImage MakeBcImage(VkFormat format, VkExtent3D extent, uint32_t mips = 1, uint32_t layers = 1,
                      VkImageUsageFlags usage = kUsage, VkImageCreateFlags flags = 0) {
    return MakeCompressedImage(format, extent, mips, layers, usage, flags);
  }

  // The blocks of a region of one layer, tightly packed.
  std::vector<uint8_t> Download(VkImage image, VkImageSubresourceLayers sub, VkOffset3D offset, VkExtent3D texels,
                                uint32_t block_bytes) {
    const size_t size = size_t((texels.width + 3) / 4) * ((texels.height + 3) / 4) * block_bytes * sub.layerCount;
    HostBuffer readback = MakeHostBuffer(size);
    if (readback.data == nullptr) return {};
    const VkBufferImageCopy region{0, 0, 0, sub, offset, texels};
    VkCommandBuffer cb = BeginCommands();
    vkCmdCopyImageToBuffer(cb, image, VK_IMAGE_LAYOUT_GENERAL, readback.buffer, 1, &region);
    EndSubmitWait(cb);
    return {readback.data, readback.data + size};
  }
};

// ---- Capabilities ----

TEST_F(TextureCompressionBc, FeatureAndFormatProperties) {
  constexpr VkFormatFeatureFlags kRequired = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_BLIT_SRC_BIT |
                                             VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT |
                                             VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
  for (VkFormat format : kAllBcFormats) {
    SCOPED_TRACE(format);
    VkFormatProperties p{};
    vkGetPhysicalDeviceFormatProperties(phys_, format, &p);
    EXPECT_EQ(p.optimalTilingFeatures & kRequired, kRequired);
    // The driver has no encoder: nothing renders to or stores into blocks.
    EXPECT_EQ(p.optimalTilingFeatures & (VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT |
                                         VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT),
              0u);
    EXPECT_EQ(p.bufferFeatures, 0u);
    VkImageFormatProperties ifp{};
    ASSERT_EQ(vkGetPhysicalDeviceImageFormatProperties(phys_, format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL, kUsage,
                                                       VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT, &ifp),
              VK_SUCCESS);
    EXPECT_GE(ifp.maxExtent.width, props_.limits.maxImageDimensionCube);
    EXPECT_GE(ifp.maxArrayLayers, 6u);
    EXPECT_GT(ifp.maxMipLevels, 1u);
    EXPECT_EQ(ifp.sampleCounts, VkSampleCountFlags{VK_SAMPLE_COUNT_1_BIT});
    EXPECT_EQ(vkGetPhysicalDeviceImageFormatProperties(phys_, format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                       VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, 0, &ifp),
              VK_ERROR_FORMAT_NOT_SUPPORTED);
  }
}

TEST_F(TextureCompressionBc, LinearImageLayoutCountsBlocks) {
  // 19x13 texels of BC1 are 5x4 blocks of 8 bytes.
  if (!FormatHas(VK_FORMAT_BC1_RGBA_UNORM_BLOCK, VK_IMAGE_TILING_LINEAR, VK_FORMAT_FEATURE_TRANSFER_SRC_BIT))
    GTEST_SKIP() << "no linear BC1";
  VkImageCreateInfo ci =
      ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_BC1_RGBA_UNORM_BLOCK, {19, 13, 1}, 1, 1, kUsage, VK_IMAGE_TILING_LINEAR);
  VkImage image = MakeGeneralImage(ci);
  ASSERT_NE(image, VK_NULL_HANDLE);
  const VkImageSubresource sub{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0};
  VkSubresourceLayout layout{};
  vkGetImageSubresourceLayout(device_, image, &sub, &layout);
  ASSERT_GE(layout.rowPitch, 5u * 8);
  ASSERT_GE(layout.size, 3 * layout.rowPitch + 5 * 8);
  // Blocks written through the map at rowPitch read back in order.
  uint8_t* map = nullptr;
  VK_ASSERT_OK(vkMapMemory(device_, ImageMemory(image), 0, VK_WHOLE_SIZE, 0, reinterpret_cast<void**>(&map)));
  std::vector<uint8_t> blocks(5 * 4 * 8);
  FillPattern(blocks, 7);
  for (uint32_t by = 0; by < 4; ++by) std::memcpy(map + layout.offset + by * layout.rowPitch, &blocks[by * 40], 40);
  vkUnmapMemory(device_, ImageMemory(image));
  EXPECT_EQ(FirstDifference(Download(image, kLevel0, {0, 0, 0}, {19, 13, 1}, 8), blocks), SIZE_MAX);
}

// ---- Decoding ----

class BcDecode : public TextureCompressionBc, public ::testing::WithParamInterface<DecodeCase> {};

TEST_P(BcDecode, FetchedAndSampledTexelsMatchTheReference) {
  const DecodeCase& c = GetParam();
  VkImage image = MakeBcImage(c.format, {8, 4, 1});
  ASSERT_NE(image, VK_NULL_HANDLE);
  std::vector<uint8_t> bytes(2 * c.block_bytes);
  std::memcpy(bytes.data(), c.blocks[0].data(), c.block_bytes);
  std::memcpy(bytes.data() + c.block_bytes, c.blocks[1].data(), c.block_bytes);
  ASSERT_NO_FATAL_FAILURE(Upload(image, 0, 0, {8, 4, 1}, bytes));

  // Every texel twice: texelFetch, then textureLod at its centre through a
  // nearest sampler.
  std::vector<std::array<float, 4>> points;
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 8; ++x) points.push_back({float(x), float(y), 0.0f, 1.0f});
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 8; ++x) points.push_back({(x + 0.5f) / 8, (y + 0.5f) / 4, 0.0f, 0.0f});
  const auto texels =
      SamplePoints(MakeView(image, c.format), MakeSampler(VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST), points);
  ASSERT_EQ(texels.size(), points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    const uint32_t x = uint32_t(i % 8), y = uint32_t(i / 8 % 4);
    const char* how = i < 32 ? "texelFetch" : "textureLod";
    const auto& expected = c.texels[x / 4][y * 4 + x % 4];
    for (int ch = 0; ch < 4; ++ch) {
      if (c.tolerance == 0.0) {
        EXPECT_EQ(double(texels[i][ch]), expected[ch]) << how << " (" << x << ", " << y << ") channel " << ch;
      } else {
        EXPECT_NEAR(texels[i][ch], expected[ch], c.tolerance) << how << " (" << x << ", " << y << ") channel " << ch;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Formats, BcDecode, ::testing::ValuesIn(DecodeCases()),
                         [](const ::testing::TestParamInfo<DecodeCase>& info) { return info.param.name; });

// ---- Filtering across blocks and mip levels ----

// One BC1 block of a single colour: RGB0 everywhere (code 0).
std::array<uint8_t, 8> SolidBc1(Rgb565 color) {
  std::array<uint8_t, 8> block{};
  PutColorBlock(block.data(), color, Rgb565{0, 0, 0}, {});
  return block;
}

TEST_F(TextureCompressionBc, FilteringAcrossBlocksAndMipLevels) {
  // 16x16 BC1 with the full chain 16, 8, 4, 2, 1: level 0 has a colour per
  // block, every other level one colour.
  const VkFormat format = VK_FORMAT_BC1_RGB_UNORM_BLOCK;
  VkImage image = MakeBcImage(format, {16, 16, 1}, 5);
  ASSERT_NE(image, VK_NULL_HANDLE);
  auto block_color = [](uint32_t bx, uint32_t by) { return Rgb565{bx * 9 + 2, by * 17 + 5, (bx + by) * 4 + 1}; };
  const Rgb565 level_colors[5] = {{}, {31, 0, 0}, {0, 63, 0}, {0, 0, 31}, {20, 40, 10}};
  std::vector<uint8_t> level0;
  for (uint32_t by = 0; by < 4; ++by)
    for (uint32_t bx = 0; bx < 4; ++bx) {
      const auto block = SolidBc1(block_color(bx, by));
      level0.insert(level0.end(), block.begin(), block.end());
    }
  ASSERT_NO_FATAL_FAILURE(Upload(image, 0, 0, {16, 16, 1}, level0));
  for (uint32_t m = 1; m < 5; ++m) {
    const uint32_t size = 16 >> m, blocks = std::max(1u, size / 4);
    std::vector<uint8_t> level;
    for (uint32_t b = 0; b < blocks * blocks; ++b) {
      const auto block = SolidBc1(level_colors[m]);
      level.insert(level.end(), block.begin(), block.end());
    }
    ASSERT_NO_FATAL_FAILURE(Upload(image, m, 0, {size, size, 1}, level));
  }
  const VkImageView view = MakeView(image, format);
  auto unorm = [](Rgb565 c) {
    const auto v = c.Unorm();
    return std::array<double, 4>{v[0], v[1], v[2], 1.0};
  };
  auto mix = [](const std::array<double, 4>& a, const std::array<double, 4>& b) {
    std::array<double, 4> r;
    for (int i = 0; i < 4; ++i) r[i] = (a[i] + b[i]) / 2;
    return r;
  };

  // The point between blocks (0,0), (1,0), (0,1), (1,1): texel coordinate (4,
  // 4).
  const std::vector<std::array<float, 4>> points = {
      {0.25f, 0.25f, 0.0f, 0.0f},   // between four blocks of level 0
      {0.25f, 0.125f, 0.0f, 0.0f},  // between blocks (0,0) and (1,0), at texel
                                    // row 2
      {0.5f, 0.5f, 1.0f, 0.0f},
      {0.5f, 0.5f, 2.0f, 0.0f},
      {0.5f, 0.5f, 3.0f, 0.0f},
      {0.5f, 0.5f, 4.0f, 0.0f},   // every smaller level
      {0.5f, 0.5f, 1.75f, 0.0f},  // between levels 1 and 2
      {0.9f, 0.1f, 7.0f, 0.0f},   // past the last level: clamped to it
  };
  const auto linear = SamplePoints(view, MakeSampler(VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR), points);
  const auto nearest = SamplePoints(view, MakeSampler(VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST), points);
  ASSERT_EQ(linear.size(), points.size());
  ASSERT_EQ(nearest.size(), points.size());
  const auto b00 = unorm(block_color(0, 0)), b10 = unorm(block_color(1, 0));
  const auto b01 = unorm(block_color(0, 1)), b11 = unorm(block_color(1, 1));
  const std::array<double, 4> expected_linear[] = {
      mix(mix(b00, b10), mix(b01, b11)),
      mix(b00, b10),
      unorm(level_colors[1]),
      unorm(level_colors[2]),
      unorm(level_colors[3]),
      unorm(level_colors[4]),
      mix(mix(unorm(level_colors[1]), unorm(level_colors[2])),
          unorm(level_colors[2])),  // 1/4 and 3/4
      unorm(level_colors[4]),
  };
  // Nearest: texel (4, 4) is in block (1, 1), (4, 2) in block (1, 0); LOD 1.75
  // rounds to level 2.
  const std::array<double, 4> expected_nearest[] = {
      b11,
      b10,
      unorm(level_colors[1]),
      unorm(level_colors[2]),
      unorm(level_colors[3]),
      unorm(level_colors[4]),
      unorm(level_colors[2]),
      unorm(level_colors[4]),
  };
  for (size_t i = 0; i < points.size(); ++i)
    for (int ch = 0; ch < 4; ++ch) {
      EXPECT_NEAR(linear[i][ch], expected_linear[i][ch], 1e-5) << "point " << i << " channel " << ch;
      EXPECT_NEAR(nearest[i][ch], expected_nearest[i][ch], 1e-6) << "point " << i << " channel " << ch;
    }
}

// ---- Copies ----

TEST_F(TextureCompressionBc, CopiesMoveBlocksByteExactly) {
  // BC7 (16-byte blocks): a 12x12 two-layer image A, a 16x8 BC7_SRGB image B
  // (same class), and R32G32B32A32_UINT (16-byte texels) image C of 3x3.
  constexpr uint32_t kBlock = 16;
  VkImage a = MakeBcImage(VK_FORMAT_BC7_UNORM_BLOCK, {12, 12, 1}, 1, 2);
  VkImage b = MakeBcImage(VK_FORMAT_BC7_SRGB_BLOCK, {16, 8, 1});
  VkImageCreateInfo plain_ci = ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R32G32B32A32_UINT, {3, 3, 1}, 1, 1,
                                         VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
  VkImage c = MakeGeneralImage(plain_ci);
  ASSERT_TRUE(a != VK_NULL_HANDLE && b != VK_NULL_HANDLE && c != VK_NULL_HANDLE);

  // Host models: blocks row-major, per layer.
  std::vector<uint8_t> model_a(2 * 3 * 3 * kBlock), model_b(4 * 2 * kBlock), model_c(3 * 3 * kBlock);
  FillPattern(model_b, 11);
  FillPattern(model_c, 12);
  ASSERT_NO_FATAL_FAILURE(Upload(b, 0, 0, {16, 8, 1}, model_b));
  ASSERT_NO_FATAL_FAILURE(Upload(c, 0, 0, {3, 3, 1}, model_c));
  auto block_a = [&](uint32_t layer, uint32_t bx, uint32_t by) {
    return &model_a[((layer * 3 + by) * 3 + bx) * kBlock];
  };
  auto block_b = [&](uint32_t bx, uint32_t by) { return &model_b[(by * 4 + bx) * kBlock]; };
  auto texel_c = [&](uint32_t x, uint32_t y) { return &model_c[(y * 3 + x) * kBlock]; };

  // 1. Buffer -> A, both layers, from a padded buffer: rows of 16 texels
  //    (4 blocks, 3 used), 16 texel rows per layer (4 block rows, 3 used).
  HostBuffer padded = MakeHostBuffer(32 + 2 * 4 * 4 * kBlock);
  ASSERT_NE(padded.data, nullptr);
  FillPattern(padded.bytes(), 13);
  for (uint32_t layer = 0; layer < 2; ++layer)
    for (uint32_t by = 0; by < 3; ++by)
      for (uint32_t bx = 0; bx < 3; ++bx)
        std::memcpy(block_a(layer, bx, by), padded.data + 32 + ((layer * 4 + by) * 4 + bx) * kBlock, kBlock);
  const VkBufferImageCopy upload{32, 16, 16, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 2}, {0, 0, 0}, {12, 12, 1}};
  // 2. A layer 1, blocks (1..2, 1..2) -> B at block (2, 0).
  const VkImageCopy a_to_b{{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 1}, {4, 4, 0}, kLevel0, {8, 0, 0}, {8, 8, 1}};
  // 3. A layer 0, blocks (0..2, 1..2) -> C texels (0..2, 1..2): the extent
  // counts source texels.
  const VkImageCopy a_to_c{kLevel0, {0, 4, 0}, kLevel0, {0, 1, 0}, {12, 8, 1}};
  // 4. C texels (1..2, 0..1) (the new row 1 included) -> A layer 1 blocks
  // (0..1, 0..1).
  const VkImageCopy c_to_a{kLevel0, {1, 0, 0}, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 1}, {0, 0, 0}, {2, 2, 1}};
  VkCommandBuffer cb = BeginCommands();
  vkCmdCopyBufferToImage(cb, padded.buffer, a, VK_IMAGE_LAYOUT_GENERAL, 1, &upload);
  TransferBarrier(cb);
  vkCmdCopyImage(cb, a, VK_IMAGE_LAYOUT_GENERAL, b, VK_IMAGE_LAYOUT_GENERAL, 1, &a_to_b);
  vkCmdCopyImage(cb, a, VK_IMAGE_LAYOUT_GENERAL, c, VK_IMAGE_LAYOUT_GENERAL, 1, &a_to_c);
  TransferBarrier(cb);
  vkCmdCopyImage(cb, c, VK_IMAGE_LAYOUT_GENERAL, a, VK_IMAGE_LAYOUT_GENERAL, 1, &c_to_a);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));

  for (uint32_t by = 0; by < 2; ++by)
    for (uint32_t bx = 0; bx < 2; ++bx) std::memcpy(block_b(2 + bx, by), block_a(1, 1 + bx, 1 + by), kBlock);
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t x = 0; x < 3; ++x) std::memcpy(texel_c(x, 1 + y), block_a(0, x, 1 + y), kBlock);
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t x = 0; x < 2; ++x) std::memcpy(block_a(1, x, y), texel_c(1 + x, y), kBlock);

  EXPECT_EQ(FirstDifference(Download(a, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 2}, {0, 0, 0}, {12, 12, 1}, kBlock), model_a),
            SIZE_MAX);
  EXPECT_EQ(FirstDifference(Download(b, kLevel0, {0, 0, 0}, {16, 8, 1}, kBlock), model_b), SIZE_MAX);
  EXPECT_EQ(FirstDifference(ReadImage(c, kLevel0, {0, 0, 0}, {3, 3, 1}, kBlock), model_c), SIZE_MAX);
}

TEST_F(TextureCompressionBc, CopiedBlocksDecode) {
  // Blocks moved through an uncompressed image into a 12x8 one, then one
  // by a compressed-to-compressed copy and one through a buffer as a
  // partial region (at a block offset, reaching the edge of a 10x6 image),
  // decode as their texels. (Uncompressed texels map to whole 4x4 blocks,
  // and image copies must reach the edge of both images for a partial
  // block: the edge block of the 10x6 image comes from a buffer.)
  const DecodeCase bc7 = Bc7Case("BC7_UNORM", VK_FORMAT_BC7_UNORM_BLOCK, false);
  VkImage plain = MakeGeneralImage(ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R32G32B32A32_UINT, {2, 1, 1}, 1, 1,
                                             VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT));
  VkImage aligned = MakeBcImage(VK_FORMAT_BC7_UNORM_BLOCK, {12, 8, 1});
  VkImage image = MakeBcImage(VK_FORMAT_BC7_UNORM_BLOCK, {10, 6, 1});
  ASSERT_TRUE(plain != VK_NULL_HANDLE && aligned != VK_NULL_HANDLE && image != VK_NULL_HANDLE);
  std::vector<uint8_t> bytes(32);
  std::memcpy(bytes.data(), bc7.blocks[0].data(), 16);
  std::memcpy(bytes.data() + 16, bc7.blocks[1].data(), 16);
  ASSERT_NO_FATAL_FAILURE(Upload(plain, 0, 0, {2, 1, 1}, bytes));
  // Texel (0, 0) of the plain image -> block (2, 1) of the 12x8 image, then
  // its texels 8..9, 4..5 (the edge block of the 10x6 image); texel (1, 0)
  // -> block (0, 0) of both.
  const VkImageCopy regions[2] = {{kLevel0, {0, 0, 0}, kLevel0, {8, 4, 0}, {1, 1, 1}},
                                  {kLevel0, {1, 0, 0}, kLevel0, {0, 0, 0}, {1, 1, 1}}};
  const VkImageCopy first_block{kLevel0, {0, 0, 0}, kLevel0, {0, 0, 0}, {4, 4, 1}};
  HostBuffer edge = MakeHostBuffer(16);
  ASSERT_NE(edge.data, nullptr);
  const VkBufferImageCopy edge_out{0, 0, 0, kLevel0, {8, 4, 0}, {4, 4, 1}};
  const VkBufferImageCopy edge_in{0, 0, 0, kLevel0, {8, 4, 0}, {2, 2, 1}};
  VkCommandBuffer cb = BeginCommands();
  vkCmdCopyImage(cb, plain, VK_IMAGE_LAYOUT_GENERAL, aligned, VK_IMAGE_LAYOUT_GENERAL, 2, regions);
  TransferBarrier(cb);
  vkCmdCopyImage(cb, aligned, VK_IMAGE_LAYOUT_GENERAL, image, VK_IMAGE_LAYOUT_GENERAL, 1, &first_block);
  vkCmdCopyImageToBuffer(cb, aligned, VK_IMAGE_LAYOUT_GENERAL, edge.buffer, 1, &edge_out);
  TransferBarrier(cb);
  vkCmdCopyBufferToImage(cb, edge.buffer, image, VK_IMAGE_LAYOUT_GENERAL, 1, &edge_in);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  std::vector<std::array<float, 4>> points;
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t x = 0; x < 2; ++x) points.push_back({float(8 + x), float(4 + y), 0.0f, 1.0f});
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 4; ++x) points.push_back({float(x), float(y), 0.0f, 1.0f});
  const auto texels = SamplePoints(MakeView(image, VK_FORMAT_BC7_UNORM_BLOCK),
                                   MakeSampler(VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST), points);
  ASSERT_EQ(texels.size(), points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    const uint32_t x = uint32_t(points[i][0]) % 4, y = uint32_t(points[i][1]) % 4;
    const auto& expected = bc7.texels[i < 4 ? 0 : 1][y * 4 + x];
    for (int ch = 0; ch < 4; ++ch) EXPECT_NEAR(texels[i][ch], expected[ch], 1e-6) << "point " << i;
  }
}

// ---- Blits ----

TEST_F(TextureCompressionBc, BlitsDecodeIntoUncompressedImages) {
  struct Blit {
    VkFormat src, dst;
    uint32_t dst_texel;
  };
  // BC1 (three-colour block with transparent black) -> RGBA8 UNORM; BC7
  // sRGB -> RGBA8 sRGB (decode to linear, encode back: the 8-bit values);
  // BC6H -> RGBA16F (the block's half floats, exactly).
  const DecodeCase bc1 = Bc1Case("BC1_RGBA_UNORM", VK_FORMAT_BC1_RGBA_UNORM_BLOCK, true, false);
  const DecodeCase bc7 = Bc7Case("BC7_SRGB", VK_FORMAT_BC7_SRGB_BLOCK, true);
  const DecodeCase bc6 = Bc6hCase("BC6H_UFLOAT", VK_FORMAT_BC6H_UFLOAT_BLOCK, false);
  for (const DecodeCase* c : {&bc1, &bc7, &bc6}) {
    SCOPED_TRACE(c->name);
    const bool half = c == &bc6;
    const VkFormat dst_format =
        half ? VK_FORMAT_R16G16B16A16_SFLOAT : (c == &bc7 ? VK_FORMAT_R8G8B8A8_SRGB : VK_FORMAT_R8G8B8A8_UNORM);
    const uint32_t texel_size = half ? 8 : 4;
    VkImage src = MakeBcImage(c->format, {8, 4, 1});
    VkImage dst = MakeGeneralImage(ImageInfo(VK_IMAGE_TYPE_2D, dst_format, {8, 4, 1}));
    ASSERT_TRUE(src != VK_NULL_HANDLE && dst != VK_NULL_HANDLE);
    std::vector<uint8_t> bytes(2 * c->block_bytes);
    std::memcpy(bytes.data(), c->blocks[0].data(), c->block_bytes);
    std::memcpy(bytes.data() + c->block_bytes, c->blocks[1].data(), c->block_bytes);
    ASSERT_NO_FATAL_FAILURE(Upload(src, 0, 0, {8, 4, 1}, bytes));
    const VkImageBlit blit{kLevel0, {{0, 0, 0}, {8, 4, 1}}, kLevel0, {{0, 0, 0}, {8, 4, 1}}};
    VkCommandBuffer cb = BeginCommands();
    vkCmdBlitImage(cb, src, VK_IMAGE_LAYOUT_GENERAL, dst, VK_IMAGE_LAYOUT_GENERAL, 1, &blit, VK_FILTER_NEAREST);
    ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
    const std::vector<uint8_t> result = ReadImage(dst, kLevel0, {0, 0, 0}, {8, 4, 1}, texel_size);
    ASSERT_EQ(result.size(), 8u * 4 * texel_size);
    for (uint32_t y = 0; y < 4; ++y)
      for (uint32_t x = 0; x < 8; ++x) {
        const uint32_t t = y * 4 + x % 4;
        const uint8_t* at = &result[(y * 8 + x) * texel_size];
        for (int ch = 0; ch < 4; ++ch) {
          if (half) {
            uint16_t h;
            std::memcpy(&h, at + 2 * ch, 2);
            EXPECT_EQ(HalfToDouble(h), c->texels[x / 4][t][ch]) << "texel (" << x << ", " << y << ")";
          } else if (c == &bc7) {
            EXPECT_EQ(int(at[ch]), kBc7Blocks[x / 4].Values()[t][ch]) << "texel (" << x << ", " << y << ")";
          } else {
            EXPECT_EQ(int(at[ch]), int(std::lround(c->texels[x / 4][t][ch] * 255)))
                << "texel (" << x << ", " << y << ")";
          }
        }
      }
  }
}

TEST_F(TextureCompressionBc, LinearBlitFiltersAcrossBlocks) {
  // Four solid BC1 blocks (8x8) shrunk to one texel: the source point (4, 4)
  // lies between the four blocks, so the result is their average.
  const Rgb565 colors[4] = {{31, 0, 0}, {0, 63, 0}, {0, 0, 31}, {10, 21, 6}};
  VkImage src = MakeBcImage(VK_FORMAT_BC1_RGB_UNORM_BLOCK, {8, 8, 1});
  VkImage dst = MakeGeneralImage(ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R32G32B32A32_SFLOAT, {1, 1, 1}));
  ASSERT_TRUE(src != VK_NULL_HANDLE && dst != VK_NULL_HANDLE);
  std::vector<uint8_t> bytes;
  for (const Rgb565& color : colors) {
    const auto block = SolidBc1(color);
    bytes.insert(bytes.end(), block.begin(), block.end());
  }
  ASSERT_NO_FATAL_FAILURE(Upload(src, 0, 0, {8, 8, 1}, bytes));
  const VkImageBlit blit{kLevel0, {{0, 0, 0}, {8, 8, 1}}, kLevel0, {{0, 0, 0}, {1, 1, 1}}};
  VkCommandBuffer cb = BeginCommands();
  vkCmdBlitImage(cb, src, VK_IMAGE_LAYOUT_GENERAL, dst, VK_IMAGE_LAYOUT_GENERAL, 1, &blit, VK_FILTER_LINEAR);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  const std::vector<uint8_t> result = ReadImage(dst, kLevel0, {0, 0, 0}, {1, 1, 1}, 16);
  ASSERT_EQ(result.size(), 16u);
  float rgba[4];
  std::memcpy(rgba, result.data(), 16);
  for (int ch = 0; ch < 3; ++ch) {
    double sum = 0;
    for (const Rgb565& color : colors) sum += color.Unorm()[ch];
    EXPECT_NEAR(rgba[ch], sum / 4, 1e-5) << "channel " << ch;
  }
  EXPECT_EQ(rgba[3], 1.0f);
}

// ---- Block-texel views ----

TEST_F(TextureCompressionBc, BlockTexelViewWritesBlocks) {
  // A compute shader stores 64-bit texels through an R32G32_UINT view of a
  // BC1 image (one texel per block); sampling the BC1 view decodes them.
  const VkFormat format = VK_FORMAT_BC1_RGBA_UNORM_BLOCK;
  constexpr VkImageCreateFlags kFlags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT |
                                        VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT |
                                        VK_IMAGE_CREATE_EXTENDED_USAGE_BIT;
  constexpr VkImageUsageFlags kViewUsage = kUsage | VK_IMAGE_USAGE_STORAGE_BIT;
  VkImageFormatProperties ifp{};
  if (vkGetPhysicalDeviceImageFormatProperties(phys_, format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL, kViewUsage,
                                               kFlags, &ifp) != VK_SUCCESS)
    GTEST_SKIP() << "no storage through block-texel views";
  VkImage image = MakeBcImage(format, {16, 8, 1}, 1, 1, kViewUsage, kFlags);
  ASSERT_NE(image, VK_NULL_HANDLE);
  // (A block-texel view has one level and one layer.)
  const VkImageView blocks_view = MakeView(image, VK_FORMAT_R32G32_UINT, VK_IMAGE_USAGE_STORAGE_BIT, 1);
  const VkImageView bc1_view = MakeView(image, format, VK_IMAGE_USAGE_SAMPLED_BIT);

  // 4x2 blocks: even ones the four-colour block, odd ones the three-colour one.
  const DecodeCase bc1 = Bc1Case("BC1_RGBA_UNORM", format, true, false);
  HostBuffer words = StorageBuffer(8 + 8 * 8);
  ASSERT_NE(words.data, nullptr);
  std::memset(words.data, 0xFF, 8);
  std::vector<uint8_t> model;
  for (uint32_t i = 0; i < 8; ++i) model.insert(model.end(), bc1.blocks[i % 2].begin(), bc1.blocks[i % 2].begin() + 8);
  std::memcpy(words.data + 8, model.data(), model.size());
  BufferBinding storage;
  storage.type = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
  storage.view = blocks_view;
  const Kernel k = MakeKernelWithBindings(kStoreBlocksComp, {storage, {words.buffer}}, 0);
  Run(k, 1);
  EXPECT_EQ(words.as<uint32_t>()[0], 4u) << "imageSize counts blocks";
  EXPECT_EQ(words.as<uint32_t>()[1], 2u);
  EXPECT_EQ(FirstDifference(Download(image, kLevel0, {0, 0, 0}, {16, 8, 1}, 8), model), SIZE_MAX);

  std::vector<std::array<float, 4>> points;
  for (uint32_t y = 0; y < 8; ++y)
    for (uint32_t x = 0; x < 16; ++x) points.push_back({float(x), float(y), 0.0f, 1.0f});
  const auto texels = SamplePoints(bc1_view, MakeSampler(VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST), points);
  ASSERT_EQ(texels.size(), points.size());
  for (uint32_t y = 0; y < 8; ++y)
    for (uint32_t x = 0; x < 16; ++x) {
      const uint32_t block = (y / 4) * 4 + x / 4;
      const auto& expected = bc1.texels[block % 2][(y % 4) * 4 + x % 4];
      for (int ch = 0; ch < 4; ++ch)
        EXPECT_NEAR(texels[y * 16 + x][ch], expected[ch], 1e-6) << "texel (" << x << ", " << y << ")";
    }
}

}  // namespace
}  // namespace duet_test
