// BC1-BC7 block decoding (texel/bc_decode.h) against blocks built here bit by
// bit, with expected values worked out from the Data Format Specification's
// formulas: every BC1 mode including punch-through, BC2's explicit alpha,
// BC3/BC4/BC5 eight- and six-value blocks unsigned and signed (with -128),
// BC6H solid, delta and two-subset blocks in both signednesses, every BC7
// mode, rotation, index selection and anchors, sRGB decoding, row extraction,
// and non-BC formats. Bit positions here come from the spec's tables, not
// from the decoder's, so a transcription slip on either side shows up.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <tuple>
#include <utility>
#include <vector>

#include "texel/bc_decode.h"
#include "texel/fixed_point.h"
#include "texel/float_formats.h"
#include "texel/srgb.h"

namespace duet::texel {
namespace {

// A block of up to 16 bytes written bit by bit, bit n being bit n % 8 of
// byte n / 8 (the little-endian order every BC format uses).
struct TestBlock {
  std::array<std::byte, 16> bytes{};
  unsigned position = 0;  // next bit for Put

  void SetBit(unsigned bit, uint32_t value) {
    if (value & 1) bytes[bit / 8] |= static_cast<std::byte>(1u << (bit % 8));
  }
  // `bits` bits of value at the cursor, lowest first.
  void Put(uint64_t value, unsigned bits) {
    for (unsigned i = 0; i < bits; ++i) SetBit(position++, static_cast<uint32_t>(value >> i));
  }
  // Bit i of value at block bit positions[i].
  void Scatter(uint32_t value, std::initializer_list<unsigned> positions) {
    unsigned i = 0;
    for (unsigned bit : positions) SetBit(bit, value >> i++);
  }
  void PutByte(unsigned index, uint32_t value) { bytes[index] = static_cast<std::byte>(value); }
  void Put16(unsigned index, uint32_t value) {
    PutByte(index, value & 0xFF);
    PutByte(index + 1, value >> 8);
  }
  const std::byte* data() const { return bytes.data(); }
};

std::array<TexelValue, 16> Decode(VkFormat format, const TestBlock& block) {
  std::array<TexelValue, 16> texels{};
  EXPECT_TRUE(DecodeBcBlock(format, block.data(), texels.data()));
  return texels;
}

void ExpectTexel(const TexelValue& texel, float r, float g, float b, float a, const char* what) {
  EXPECT_EQ(texel.f[0], r) << what << " R";
  EXPECT_EQ(texel.f[1], g) << what << " G";
  EXPECT_EQ(texel.f[2], b) << what << " B";
  EXPECT_EQ(texel.f[3], a) << what << " A";
}

float Ratio(double numerator, double denominator) { return static_cast<float>(numerator / denominator); }

// --- S3TC -------------------------------------------------------------------

// BC1 colour half: color0, color1 and the 2-bit code of each texel.
void PutColorBlock(TestBlock& block, unsigned offset, uint32_t color0, uint32_t color1,
                   const std::array<uint32_t, 16>& codes) {
  block.Put16(offset, color0);
  block.Put16(offset + 2, color1);
  for (unsigned t = 0; t < 16; ++t) block.Scatter(codes[t], {(offset + 4) * 8 + 2 * t, (offset + 4) * 8 + 2 * t + 1});
}

constexpr std::array<uint32_t, 16> kCodes0123 = {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3};
constexpr uint32_t kRed565 = 0xF800, kBlue565 = 0x001F;

TEST(BcDecode, Bc1FourColorMode) {
  TestBlock block;
  PutColorBlock(block, 0, kRed565, kBlue565, kCodes0123);  // color0 > color1
  for (VkFormat format : {VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_FORMAT_BC1_RGBA_UNORM_BLOCK}) {
    const auto texels = Decode(format, block);
    ExpectTexel(texels[0], 1.0f, 0.0f, 0.0f, 1.0f, "RGB0");
    ExpectTexel(texels[1], 0.0f, 0.0f, 1.0f, 1.0f, "RGB1");
    ExpectTexel(texels[2], Ratio(2, 3), 0.0f, Ratio(1, 3), 1.0f, "(2 RGB0 + RGB1) / 3");
    ExpectTexel(texels[3], Ratio(1, 3), 0.0f, Ratio(2, 3), 1.0f, "(RGB0 + 2 RGB1) / 3");
    ExpectTexel(texels[15], Ratio(1, 3), 0.0f, Ratio(2, 3), 1.0f, "last texel");
  }
}

TEST(BcDecode, Bc1ThreeColorModeAndPunchThrough) {
  TestBlock block;
  PutColorBlock(block, 0, kBlue565, kRed565, kCodes0123);  // color0 <= color1
  const auto rgb = Decode(VK_FORMAT_BC1_RGB_UNORM_BLOCK, block);
  ExpectTexel(rgb[0], 0.0f, 0.0f, 1.0f, 1.0f, "RGB0");
  ExpectTexel(rgb[1], 1.0f, 0.0f, 0.0f, 1.0f, "RGB1");
  ExpectTexel(rgb[2], 0.5f, 0.0f, 0.5f, 1.0f, "(RGB0 + RGB1) / 2");
  ExpectTexel(rgb[3], 0.0f, 0.0f, 0.0f, 1.0f, "opaque black without alpha");
  const auto rgba = Decode(VK_FORMAT_BC1_RGBA_UNORM_BLOCK, block);
  ExpectTexel(rgba[2], 0.5f, 0.0f, 0.5f, 1.0f, "(RGB0 + RGB1) / 2");
  ExpectTexel(rgba[3], 0.0f, 0.0f, 0.0f, 0.0f, "transparent black");

  // Equal colours are the three-colour mode too.
  TestBlock equal;
  PutColorBlock(equal, 0, 0x07E0, 0x07E0, kCodes0123);
  ExpectTexel(Decode(VK_FORMAT_BC1_RGBA_UNORM_BLOCK, equal)[3], 0.0f, 0.0f, 0.0f, 0.0f, "equal colours, code 3");
  ExpectTexel(Decode(VK_FORMAT_BC1_RGBA_UNORM_BLOCK, equal)[2], 0.0f, 1.0f, 0.0f, 1.0f, "equal colours, code 2");
}

// The tiny encoder: one colour, quantized to 565 and stored as both
// endpoints with code 0 everywhere. Every 565 value decodes to exactly its
// UNORM conversion.
TEST(BcDecode, Bc1SingleColorEncodingsDecodeExactly) {
  for (uint32_t color = 0; color < 0x10000; color += 7) {
    TestBlock block;
    PutColorBlock(block, 0, color, color, {});
    TexelValue texels[16];
    ASSERT_TRUE(DecodeBcBlock(VK_FORMAT_BC1_RGB_UNORM_BLOCK, block.data(), texels));
    const float r = UnormToFloat(color >> 11, 5), g = UnormToFloat((color >> 5) & 63, 6),
                b = UnormToFloat(color & 31, 5);
    for (const TexelValue& texel : texels) ExpectTexel(texel, r, g, b, 1.0f, "single colour");
  }
  // Encoding an arbitrary colour: within half a 5/6-bit step.
  const float colour[3] = {0.3f, 0.77f, 0.52f};
  const uint32_t packed = static_cast<uint32_t>(std::lround(colour[0] * 31)) << 11 |
                          static_cast<uint32_t>(std::lround(colour[1] * 63)) << 5 |
                          static_cast<uint32_t>(std::lround(colour[2] * 31));
  TestBlock block;
  PutColorBlock(block, 0, packed, packed, {});
  const auto texels = Decode(VK_FORMAT_BC1_RGB_UNORM_BLOCK, block);
  EXPECT_NEAR(texels[9].f[0], colour[0], 0.5 / 31);
  EXPECT_NEAR(texels[9].f[1], colour[1], 0.5 / 63);
  EXPECT_NEAR(texels[9].f[2], colour[2], 0.5 / 31);
}

TEST(BcDecode, Bc1SrgbDecodesTheInterpolatedValue) {
  TestBlock block;
  PutColorBlock(block, 0, kRed565, kBlue565, kCodes0123);
  const auto texels = Decode(VK_FORMAT_BC1_RGBA_SRGB_BLOCK, block);
  ExpectTexel(texels[0], 1.0f, 0.0f, 0.0f, 1.0f, "RGB0");
  ExpectTexel(texels[2], SrgbToLinear(Ratio(2, 3)), 0.0f, SrgbToLinear(Ratio(1, 3)), 1.0f, "interpolated");
  TestBlock green;  // 6-bit green 40: 40/63 encoded
  PutColorBlock(green, 0, 40u << 5, 40u << 5, {});
  EXPECT_EQ(Decode(VK_FORMAT_BC1_RGB_SRGB_BLOCK, green)[0].f[1], SrgbToLinear(UnormToFloat(40, 6)));
}

TEST(BcDecode, Bc2ExplicitAlphaAndAlwaysFourColors) {
  TestBlock block;
  for (unsigned t = 0; t < 16; ++t) block.Scatter(t, {4 * t, 4 * t + 1, 4 * t + 2, 4 * t + 3});  // alpha = t
  PutColorBlock(block, 8, kBlue565, kRed565, kCodes0123);  // color0 <= color1: still four colours
  for (VkFormat format : {VK_FORMAT_BC2_UNORM_BLOCK, VK_FORMAT_BC2_SRGB_BLOCK}) {
    const auto texels = Decode(format, block);
    for (unsigned t = 0; t < 16; ++t) EXPECT_EQ(texels[t].f[3], UnormToFloat(t, 4)) << "texel " << t;
  }
  const auto texels = Decode(VK_FORMAT_BC2_UNORM_BLOCK, block);
  ExpectTexel(texels[2], Ratio(1, 3), 0.0f, Ratio(2, 3), UnormToFloat(2, 4), "(2 RGB0 + RGB1) / 3");
  ExpectTexel(texels[3], Ratio(2, 3), 0.0f, Ratio(1, 3), UnormToFloat(3, 4), "code 3 is not black");
}

// An 8-byte BC3-alpha / BC4 / BC5 channel block: two endpoint bytes and a
// 3-bit code per texel (texel t has code t % 8 here).
void PutChannelBlock(TestBlock& block, unsigned offset, uint32_t byte0, uint32_t byte1) {
  block.PutByte(offset, byte0);
  block.PutByte(offset + 1, byte1);
  for (unsigned t = 0; t < 16; ++t) {
    const unsigned bit = (offset + 2) * 8 + 3 * t;
    block.Scatter(t % 8, {bit, bit + 1, bit + 2});
  }
}

// Expected palette values (as floats) for codes 0..7, from the spec's tables.
std::array<float, 8> UnsignedPalette(int v0, int v1) {
  std::array<float, 8> palette{UnormToFloat(static_cast<uint32_t>(v0), 8), UnormToFloat(static_cast<uint32_t>(v1), 8)};
  if (v0 > v1) {
    for (int c = 2; c < 8; ++c) palette[c] = Ratio((8 - c) * v0 + (c - 1) * v1, 7 * 255);
  } else {
    for (int c = 2; c < 6; ++c) palette[c] = Ratio((6 - c) * v0 + (c - 1) * v1, 5 * 255);
    palette[6] = 0.0f;
    palette[7] = 1.0f;
  }
  return palette;
}

TEST(BcDecode, Bc3AlphaBothModes) {
  const std::pair<int, int> kEndpoints[] = {{255, 0}, {200, 17}, {0, 255}, {17, 200}, {90, 90}};
  for (auto [a0, a1] : kEndpoints) {
    TestBlock block;
    PutChannelBlock(block, 0, static_cast<uint32_t>(a0), static_cast<uint32_t>(a1));
    PutColorBlock(block, 8, kBlue565, kRed565, kCodes0123);
    const auto palette = UnsignedPalette(a0, a1);
    const auto texels = Decode(VK_FORMAT_BC3_UNORM_BLOCK, block);
    for (unsigned t = 0; t < 16; ++t) EXPECT_EQ(texels[t].f[3], palette[t % 8]) << a0 << "," << a1 << " texel " << t;
    EXPECT_EQ(texels[3].f[0], Ratio(2, 3)) << "BC3 colour is always four-colour";
  }
  TestBlock block;  // spot values written out: 8-value 255..0 and 6-value 0..255
  PutChannelBlock(block, 0, 255, 0);
  EXPECT_EQ(Decode(VK_FORMAT_BC3_UNORM_BLOCK, block)[2].f[3], Ratio(6, 7));
  TestBlock six;
  PutChannelBlock(six, 0, 0, 255);
  const auto texels = Decode(VK_FORMAT_BC3_SRGB_BLOCK, six);
  EXPECT_EQ(texels[2].f[3], 0.2f);
  EXPECT_EQ(texels[5].f[3], 0.8f);
  EXPECT_EQ(texels[6].f[3], 0.0f);
  EXPECT_EQ(texels[7].f[3], 1.0f);
}

TEST(BcDecode, Bc4Unsigned) {
  for (auto [r0, r1] : {std::pair{255, 0}, std::pair{13, 250}, std::pair{128, 128}}) {
    TestBlock block;
    PutChannelBlock(block, 0, static_cast<uint32_t>(r0), static_cast<uint32_t>(r1));
    const auto palette = UnsignedPalette(r0, r1);
    const auto texels = Decode(VK_FORMAT_BC4_UNORM_BLOCK, block);
    for (unsigned t = 0; t < 16; ++t) ExpectTexel(texels[t], palette[t % 8], 0.0f, 0.0f, 1.0f, "BC4");
  }
}

TEST(BcDecode, Bc4SignedIncludingMinus128) {
  // 8-value mode, red1 = -128 reads as -1.0 and interpolates as -127.
  TestBlock eight;
  PutChannelBlock(eight, 0, 127, 0x80);
  auto texels = Decode(VK_FORMAT_BC4_SNORM_BLOCK, eight);
  EXPECT_EQ(texels[0].f[0], 1.0f);
  EXPECT_EQ(texels[1].f[0], -1.0f);
  EXPECT_EQ(texels[2].f[0], Ratio(5, 7));   // (6 * 127 - 127) / (7 * 127)
  EXPECT_EQ(texels[7].f[0], Ratio(-5, 7));  // (127 - 6 * 127) / (7 * 127)
  EXPECT_EQ(texels[4].f[0], Ratio(1, 7));
  ExpectTexel(texels[4], Ratio(1, 7), 0.0f, 0.0f, 1.0f, "missing channels");

  // 6-value mode (red0 = -128 <= red1): the extremes are -1 and +1.
  TestBlock six;
  PutChannelBlock(six, 0, 0x80, 127);
  texels = Decode(VK_FORMAT_BC4_SNORM_BLOCK, six);
  EXPECT_EQ(texels[0].f[0], -1.0f);
  EXPECT_EQ(texels[1].f[0], 1.0f);
  EXPECT_EQ(texels[2].f[0], -0.6f);  // (4 * -127 + 127) / (5 * 127)
  EXPECT_EQ(texels[5].f[0], 0.6f);
  EXPECT_EQ(texels[6].f[0], -1.0f);
  EXPECT_EQ(texels[7].f[0], 1.0f);

  // -100 <= 50: six values, exactly (4 * -100 + 50) / 5 / 127 = -70/127.
  TestBlock mixed;
  PutChannelBlock(mixed, 0, static_cast<uint32_t>(-100) & 0xFF, 50);
  texels = Decode(VK_FORMAT_BC4_SNORM_BLOCK, mixed);
  EXPECT_EQ(texels[0].f[0], SnormToFloat(-100, 8));
  EXPECT_EQ(texels[2].f[0], Ratio(-70, 127));
  EXPECT_EQ(texels[3].f[0], Ratio(-40, 127));
}

TEST(BcDecode, Bc5UnsignedAndSigned) {
  TestBlock block;
  PutChannelBlock(block, 0, 255, 0);  // red: 8 values
  PutChannelBlock(block, 8, 0, 255);  // green: 6 values
  const auto red = UnsignedPalette(255, 0), green = UnsignedPalette(0, 255);
  const auto texels = Decode(VK_FORMAT_BC5_UNORM_BLOCK, block);
  for (unsigned t = 0; t < 16; ++t) ExpectTexel(texels[t], red[t % 8], green[t % 8], 0.0f, 1.0f, "BC5");

  TestBlock signed_block;
  PutChannelBlock(signed_block, 0, 0x80, 0x80);  // both -128: six-value mode, endpoints -1
  PutChannelBlock(signed_block, 8, 127, 0x81);   // 127 > -127
  const auto signed_texels = Decode(VK_FORMAT_BC5_SNORM_BLOCK, signed_block);
  ExpectTexel(signed_texels[0], -1.0f, 1.0f, 0.0f, 1.0f, "endpoints");
  ExpectTexel(signed_texels[3], -1.0f, Ratio(3, 7), 0.0f, 1.0f, "interpolated");  // (5*127 - 2*127) / 7 / 127
  ExpectTexel(signed_texels[7], 1.0f, Ratio(-5, 7), 0.0f, 1.0f, "max / interpolated");
}

// --- BC6H -------------------------------------------------------------------

// Mode 15 (one subset, 16-bit E0, 4-bit deltas) holding one colour: bit
// positions from the spec's "Interpretation of lower/upper bits" tables.
TestBlock Bc6hMode15Solid(uint32_t r, uint32_t g, uint32_t b) {
  TestBlock block;
  block.Put(0b01111, 5);
  block.Scatter(r, {5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 44, 43, 42, 41, 40, 39});
  block.Scatter(g, {15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 54, 53, 52, 51, 50, 49});
  block.Scatter(b, {25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 64, 63, 62, 61, 60, 59});
  return block;  // deltas (35..38, 45..48, 55..58) and indices zero
}

// The tiny BC6H encoder: the 16-bit endpoint whose final scaling gives half
// h exactly (unsigned: floor(x * 31 / 64) = h; signed: floor(|x| * 31 / 32)).
uint32_t UnsignedEndpointFor(uint32_t half) { return (half * 64 + 30) / 31; }
uint32_t SignedEndpointFor(uint32_t half) {
  const uint32_t magnitude = ((half & 0x7FFF) * 32 + 30) / 31;
  return (half & 0x8000) ? (0x10000 - magnitude) & 0xFFFF : magnitude;
}

TEST(BcDecode, Bc6hSolidColorsAreBitExact) {
  for (uint32_t h = 0; h <= 0x7BFF; ++h) {
    const uint32_t g = (h * 7) % 0x7C00, b = 0x7BFF - h;
    const auto block = Bc6hMode15Solid(UnsignedEndpointFor(h), UnsignedEndpointFor(g), UnsignedEndpointFor(b));
    TexelValue texels[16];
    ASSERT_TRUE(DecodeBcBlock(VK_FORMAT_BC6H_UFLOAT_BLOCK, block.data(), texels));
    ASSERT_EQ(texels[0].f[0], HalfToFloat(static_cast<uint16_t>(h))) << std::hex << h;
    ASSERT_EQ(texels[15].f[1], HalfToFloat(static_cast<uint16_t>(g))) << std::hex << g;
    ASSERT_EQ(texels[7].f[2], HalfToFloat(static_cast<uint16_t>(b))) << std::hex << b;
    ASSERT_EQ(texels[7].f[3], 1.0f);
  }
  for (uint32_t h = 0; h <= 0x7BFF; ++h) {  // R: +h, G: -h (no -0: a zero endpoint is +0)
    const uint32_t negative = h == 0 ? 0 : h | 0x8000;
    const auto block = Bc6hMode15Solid(SignedEndpointFor(h), SignedEndpointFor(negative), 0);
    TexelValue texels[16];
    ASSERT_TRUE(DecodeBcBlock(VK_FORMAT_BC6H_SFLOAT_BLOCK, block.data(), texels));
    ASSERT_EQ(std::bit_cast<uint32_t>(texels[5].f[0]), std::bit_cast<uint32_t>(HalfToFloat(static_cast<uint16_t>(h))))
        << std::hex << h;
    ASSERT_EQ(std::bit_cast<uint32_t>(texels[5].f[1]),
              std::bit_cast<uint32_t>(HalfToFloat(static_cast<uint16_t>(negative))))
        << std::hex << negative;
  }
  // Signed -0x8000 scales to 0xFC00, the "accidental" -infinity.
  const auto block = Bc6hMode15Solid(0x8000, 0, 0x7FFF);
  const auto texels = Decode(VK_FORMAT_BC6H_SFLOAT_BLOCK, block);
  EXPECT_EQ(texels[0].f[0], -INFINITY);
  EXPECT_EQ(texels[0].f[2], 65504.0f);
}

// Mode 3: one subset, two independent 10-bit endpoints, 4-bit indices from
// bit 65 (texel 0 has 3).
TestBlock Bc6hMode3(uint32_t e0, uint32_t e1, const std::array<uint32_t, 16>& indices) {
  TestBlock block;
  block.Put(0b00011, 5);
  for (int channel = 0; channel < 3; ++channel) block.Put(e0, 10);
  for (int channel = 0; channel < 3; ++channel) block.Put(e1, 10);
  block.Put(indices[0], 3);
  for (unsigned t = 1; t < 16; ++t) block.Put(indices[t], 4);
  return block;
}

TEST(BcDecode, Bc6hMode3UnquantizationAndInterpolation) {
  const auto unsigned_block = Bc6hMode3(512, 1023, {0, 15, 8});
  auto texels = Decode(VK_FORMAT_BC6H_UFLOAT_BLOCK, unsigned_block);
  // 512 -> ((512 << 15) + 0x4000) >> 9 = 32800 -> 32800 * 31 >> 6 = 0x3E0F.
  ExpectTexel(texels[0], HalfToFloat(0x3E0F), HalfToFloat(0x3E0F), HalfToFloat(0x3E0F), 1.0f, "E0");
  // 1023 is the largest code: 0xFFFF -> 0x7BFF = 65504.
  EXPECT_EQ(texels[1].f[1], 65504.0f);
  // Index 8, weight 34: (30 * 32800 + 34 * 65535 + 32) >> 6 = 50190 -> 50190 * 31 >> 6 = 24310 = 0x5EF6.
  EXPECT_EQ(texels[2].f[2], HalfToFloat(0x5EF6));

  // Signed: E0 = -1 (0x3FF) unquantizes to -96, E1 = 511 to 0x7FFF.
  const auto signed_block = Bc6hMode3(0x3FF, 511, {0, 15, 8});
  texels = Decode(VK_FORMAT_BC6H_SFLOAT_BLOCK, signed_block);
  EXPECT_EQ(texels[0].f[0], HalfToFloat(0x805D));  // (96 * 31) >> 5 = 93, sign set
  EXPECT_EQ(texels[1].f[0], 65504.0f);
  EXPECT_EQ(texels[2].f[0], HalfToFloat(0x41B3));  // (30 * -96 + 34 * 32767 + 32) >> 6 = 17362 -> 16819
  EXPECT_EQ(texels[2].f[0], 2.849609375f);
}

// Mode 1: two subsets, 7-bit E0, 6-bit deltas, partition bits 77..81,
// 3-bit indices from bit 82. Positions of each variable's bits, lowest first.
TestBlock Bc6hMode1(uint32_t e0, uint32_t d1, uint32_t d2, uint32_t d3, uint32_t partition) {
  TestBlock block;
  block.Scatter(0b01, {0, 1});
  for (unsigned c = 0; c < 3; ++c) {
    const unsigned base[3] = {5, 15, 25};
    block.Scatter(e0, {base[c], base[c] + 1, base[c] + 2, base[c] + 3, base[c] + 4, base[c] + 5, base[c] + 6});
    block.Scatter(d1, {35 + 10 * c, 36 + 10 * c, 37 + 10 * c, 38 + 10 * c, 39 + 10 * c, 40 + 10 * c});
  }
  block.Scatter(d2, {65, 66, 67, 68, 69, 70});  // R2
  block.Scatter(d3, {71, 72, 73, 74, 75, 76});  // R3
  block.Scatter(d2, {41, 42, 43, 44, 24, 2});   // G2
  block.Scatter(d3, {51, 52, 53, 54, 3, 4});    // G3
  block.Scatter(d2, {61, 62, 63, 64, 14, 22});  // B2
  block.Scatter(d3, {12, 13, 23, 32, 34, 33});  // B3
  block.Scatter(partition, {77, 78, 79, 80, 81});
  return block;
}

TEST(BcDecode, Bc6hTwoSubsetDeltaMode) {
  // Partition 0 ("0011" on every row; subset 1's anchor is texel 15).
  // E0 = 0; E1 = 0 + (-1) wrapped to 7 bits = 127; E2 = 31; E3 = 0 + (-22)
  // wrapped = 106.
  TestBlock block = Bc6hMode1(0, 0x3F, 31, 0x2A, 0);
  block.Scatter(7, {84, 85, 86});     // texel 1: index 7 (texel 0 has 2 bits at 82)
  block.Scatter(4, {96, 97, 98});     // texel 5: index 4, weight 37
  block.Scatter(7, {123, 124, 125});  // texel 14 (subset 1): index 7, E3
  auto texels = Decode(VK_FORMAT_BC6H_UFLOAT_BLOCK, block);
  EXPECT_EQ(texels[0].f[0], 0.0f);
  EXPECT_EQ(texels[1].f[1], 65504.0f);  // 127 is the largest 7-bit code: 0xFFFF -> 0x7BFF
  // 31 -> ((31 << 15) + 0x4000) >> 6 = 16128 -> 16128 * 31 >> 6 = 7812 = 0x1E84.
  for (unsigned t : {2u, 3u, 6u, 7u, 15u}) {
    ExpectTexel(texels[t], HalfToFloat(0x1E84), HalfToFloat(0x1E84), HalfToFloat(0x1E84), 1.0f, "E2");
  }
  // (27 * 0 + 37 * 65535 + 32) >> 6 = 37887 -> 37887 * 31 >> 6 = 18351 = 0x47AF.
  EXPECT_EQ(texels[5].f[0], HalfToFloat(0x47AF));
  // 106 -> ((106 << 15) + 0x4000) >> 6 = 54528 -> 54528 * 31 >> 6 = 26412 = 0x672C.
  ExpectTexel(texels[14], HalfToFloat(0x672C), HalfToFloat(0x672C), HalfToFloat(0x672C), 1.0f, "E3");

  // Signed: E1 = -1 unquantizes to -768 -> 0x82E8; E2 = 31 -> 16128 -> 0x3D08.
  texels = Decode(VK_FORMAT_BC6H_SFLOAT_BLOCK, block);
  EXPECT_EQ(texels[1].f[0], HalfToFloat(0x82E8));
  EXPECT_EQ(texels[2].f[0], 1.2578125f);
  EXPECT_EQ(texels[2].f[0], HalfToFloat(0x3D08));
  // E3 = 106 is -22 as 7-bit two's complement: 22 -> 11520, negated ->
  // (11520 * 31 >> 5) | 0x8000 = 0xAB98.
  ExpectTexel(texels[14], HalfToFloat(0xAB98), HalfToFloat(0xAB98), HalfToFloat(0xAB98), 1.0f, "signed E3");
}

TEST(BcDecode, Bc6hReservedModesDecodeToOpaqueBlack) {
  for (uint32_t mode : {19u, 23u, 27u, 31u}) {
    TestBlock block;
    for (unsigned i = 0; i < 16; ++i) block.PutByte(i, 0xA5);
    block.bytes[0] = static_cast<std::byte>((0xA5 & ~31u) | mode);
    for (VkFormat format : {VK_FORMAT_BC6H_UFLOAT_BLOCK, VK_FORMAT_BC6H_SFLOAT_BLOCK}) {
      for (const TexelValue& texel : Decode(format, block)) ExpectTexel(texel, 0.0f, 0.0f, 0.0f, 1.0f, "reserved");
    }
  }
}

// --- BC7 --------------------------------------------------------------------

// The spec's "Mode-dependent BPTC parameters", written out again here.
struct Bc7TestMode {
  unsigned subsets, partition_bits, rotation_bits, selection_bits, color_bits, alpha_bits;
  bool endpoint_pbits, shared_pbits;
  unsigned index_bits, secondary_index_bits;
};
constexpr Bc7TestMode kModes[8] = {
    {3, 4, 0, 0, 4, 0, true, false, 3, 0}, {2, 6, 0, 0, 6, 0, false, true, 3, 0},
    {3, 6, 0, 0, 5, 0, false, false, 2, 0}, {2, 6, 0, 0, 7, 0, true, false, 2, 0},
    {1, 0, 2, 1, 5, 6, false, false, 2, 3}, {1, 0, 2, 0, 7, 8, false, false, 2, 2},
    {1, 0, 0, 0, 7, 7, true, false, 4, 0},  {2, 6, 0, 0, 5, 5, true, false, 2, 0},
};

struct Bc7Endpoint {
  uint32_t rgba[4];  // raw stored bits per channel
  uint32_t pbit;     // per-endpoint p-bit, or the subset's shared one
};

// Writes mode, partition, rotation, selection, endpoints and p-bits; leaves
// the cursor at the first index bit (indices zero unless written after).
TestBlock Bc7Header(unsigned mode_number, unsigned partition, unsigned rotation, unsigned selection,
                    const std::vector<Bc7Endpoint>& endpoints) {
  const Bc7TestMode& mode = kModes[mode_number];
  TestBlock block;
  block.Put(1u << mode_number, mode_number + 1);
  block.Put(partition, mode.partition_bits);
  block.Put(rotation, mode.rotation_bits);
  block.Put(selection, mode.selection_bits);
  for (unsigned channel = 0; channel < 3; ++channel) {
    for (const Bc7Endpoint& e : endpoints) block.Put(e.rgba[channel], mode.color_bits);
  }
  for (const Bc7Endpoint& e : endpoints) block.Put(e.rgba[3], mode.alpha_bits);
  if (mode.endpoint_pbits) {
    for (const Bc7Endpoint& e : endpoints) block.Put(e.pbit, 1);
  }
  if (mode.shared_pbits) {
    for (size_t s = 0; s < endpoints.size(); s += 2) block.Put(endpoints[s].pbit, 1);
  }
  return block;
}

// The 8-bit value of a stored channel: p-bit appended, top bits replicated.
uint32_t Widen(uint32_t raw, unsigned bits, bool has_pbit, uint32_t pbit) {
  if (has_pbit) {
    raw = raw << 1 | pbit;
    ++bits;
  }
  uint32_t value = raw << (8 - bits);
  for (unsigned filled = bits; filled < 8; filled += bits) value |= raw << (8 - bits) >> filled;
  return value & 0xFF;
}

uint32_t Interp(uint32_t e0, uint32_t e1, uint32_t weight) { return ((64 - weight) * e0 + weight * e1 + 32) >> 6; }

float U8(uint32_t code) { return UnormToFloat(code, 8); }

// Every mode with a distinct solid colour per subset and zero indices: each
// texel reads endpoint 0 of its subset. Subsets follow the spec's partition
// tables; the patterns checked are written out here.
TEST(BcDecode, Bc7EveryModeSolidColors) {
  struct Case {
    unsigned mode, partition;
    const char* subsets;  // expected subset of texels 0..15
  };
  const Case cases[] = {
      {0, 13, "0122012201220122"}, {1, 13, "0000000011111111"}, {2, 8, "0000000011112222"},
      {3, 17, "0111000100000000"}, {4, 0, "0000000000000000"}, {5, 0, "0000000000000000"},
      {6, 0, "0000000000000000"},  {7, 35, "0011001111001100"},
  };
  for (const Case& c : cases) {
    const Bc7TestMode& mode = kModes[c.mode];
    std::vector<Bc7Endpoint> endpoints;
    for (unsigned s = 0; s < mode.subsets; ++s) {
      // Subset s: channel values that differ per channel and subset and use the top bit.
      const uint32_t color_max = (1u << mode.color_bits) - 1, alpha_max = (1u << mode.alpha_bits) - 1;
      Bc7Endpoint e{{(color_max - s) & color_max, (3 + 5 * s) & color_max, (color_max / 2 + s) & color_max,
                     mode.alpha_bits ? (alpha_max - 2 * s) : 0},
                    s & 1};
      endpoints.push_back(e);
      e.pbit ^= mode.shared_pbits ? 0u : 1u;  // endpoint 1: other colour, must not show with index 0
      for (uint32_t& v : e.rgba) v = 0;
      endpoints.push_back(e);
    }
    const TestBlock block = Bc7Header(c.mode, c.partition, 0, 0, endpoints);
    const bool pbits = mode.endpoint_pbits || mode.shared_pbits;
    for (VkFormat format : {VK_FORMAT_BC7_UNORM_BLOCK, VK_FORMAT_BC7_SRGB_BLOCK}) {
      const auto texels = Decode(format, block);
      for (unsigned t = 0; t < 16; ++t) {
        const Bc7Endpoint& e = endpoints[2 * static_cast<unsigned>(c.subsets[t] - '0')];
        uint32_t code[4];
        for (unsigned ch = 0; ch < 3; ++ch) code[ch] = Widen(e.rgba[ch], mode.color_bits, pbits, e.pbit);
        code[3] = mode.alpha_bits ? Widen(e.rgba[3], mode.alpha_bits, pbits, e.pbit) : 255;
        if (format == VK_FORMAT_BC7_SRGB_BLOCK) {
          const auto srgb = [](uint32_t c) { return SrgbToLinear8(static_cast<uint8_t>(c)); };
          ExpectTexel(texels[t], srgb(code[0]), srgb(code[1]), srgb(code[2]), U8(code[3]), "sRGB solid");
        } else {
          ExpectTexel(texels[t], U8(code[0]), U8(code[1]), U8(code[2]), U8(code[3]), "solid");
        }
        if (HasFailure()) FAIL() << "mode " << c.mode << " texel " << t;
      }
    }
  }
}

// The tiny BC7 encoder for one RGBA8 colour: mode 6, both endpoints
// (c >> 1) with the p-bit of red's low bit; exact when all four low bits
// agree, within 1/255 otherwise.
TEST(BcDecode, Bc7Mode6SingleColorEncoder) {
  const uint32_t colors[][4] = {{255, 255, 255, 255}, {0, 0, 0, 0}, {200, 100, 50, 30}, {17, 99, 201, 255}};
  for (const auto& c : colors) {
    const Bc7Endpoint e{{c[0] >> 1, c[1] >> 1, c[2] >> 1, c[3] >> 1}, c[0] & 1};
    const auto texels = Decode(VK_FORMAT_BC7_UNORM_BLOCK, Bc7Header(6, 0, 0, 0, {e, e}));
    for (unsigned ch = 0; ch < 4; ++ch) {
      EXPECT_NEAR(texels[10].f[ch], U8(c[ch]), 1.0 / 255 + 1e-7);
      if ((c[ch] & 1) == (c[0] & 1)) EXPECT_EQ(texels[10].f[ch], U8(c[ch]));
    }
  }
}

TEST(BcDecode, Bc7Mode6KnownEndpointsAndIndices) {
  const Bc7Endpoint e0{{0x10, 0x20, 0x30, 0x7F}, 0}, e1{{0x7F, 0x00, 0x40, 0x05}, 1};
  TestBlock block = Bc7Header(6, 0, 0, 0, {e0, e1});
  ASSERT_EQ(block.position, 65u);
  block.Put(0, 3);  // texel 0 (anchor): 3 bits
  for (unsigned t = 1; t < 16; ++t) block.Put(t, 4);
  const uint32_t c0[4] = {0x20, 0x40, 0x60, 0xFE}, c1[4] = {0xFF, 0x01, 0x81, 0x0B};
  constexpr uint32_t kWeights[16] = {0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64};
  const auto texels = Decode(VK_FORMAT_BC7_UNORM_BLOCK, block);
  for (unsigned t = 0; t < 16; ++t) {
    ExpectTexel(texels[t], U8(Interp(c0[0], c1[0], kWeights[t])), U8(Interp(c0[1], c1[1], kWeights[t])),
                U8(Interp(c0[2], c1[2], kWeights[t])), U8(Interp(c0[3], c1[3], kWeights[t])), "mode 6");
  }
  ExpectTexel(texels[15], U8(0xFF), U8(0x01), U8(0x81), U8(0x0B), "index 15 is endpoint 1");
  EXPECT_EQ(texels[8].f[0], U8(150));  // (30 * 0x20 + 34 * 0xFF + 32) >> 6
}

TEST(BcDecode, Bc7Mode5Rotation) {
  // Colour (127, 0, 64) 7-bit -> (255, 0, 129); alpha 8-bit 0x40.
  const Bc7Endpoint e{{127, 0, 64, 0x40}, 0};
  const float red = U8(255), green = U8(0), blue = U8(0x81), alpha = U8(0x40);
  ExpectTexel(Decode(VK_FORMAT_BC7_UNORM_BLOCK, Bc7Header(5, 0, 0, 0, {e, e}))[3], red, green, blue, alpha, "none");
  ExpectTexel(Decode(VK_FORMAT_BC7_UNORM_BLOCK, Bc7Header(5, 0, 1, 0, {e, e}))[3], alpha, green, blue, red, "A<->R");
  ExpectTexel(Decode(VK_FORMAT_BC7_UNORM_BLOCK, Bc7Header(5, 0, 2, 0, {e, e}))[3], red, alpha, blue, green, "A<->G");
  ExpectTexel(Decode(VK_FORMAT_BC7_UNORM_BLOCK, Bc7Header(5, 0, 3, 0, {e, e}))[3], red, green, alpha, blue, "A<->B");
  // sRGB applies to the channels after rotation: the rotated alpha is linear.
  ExpectTexel(Decode(VK_FORMAT_BC7_SRGB_BLOCK, Bc7Header(5, 0, 1, 0, {e, e}))[3], SrgbToLinear8(0x40),
              SrgbToLinear8(0), SrgbToLinear8(0x81), red, "sRGB A<->R");
}

TEST(BcDecode, Bc7Mode4IndexSelection) {
  // Colour 0 -> 31 (5-bit), alpha 0 -> 63 (6-bit).
  const Bc7Endpoint e0{{0, 0, 0, 0}, 0}, e1{{31, 31, 31, 63}, 0};
  for (unsigned selection : {0u, 1u}) {
    TestBlock block = Bc7Header(4, 0, 0, selection, {e0, e1});
    ASSERT_EQ(block.position, 50u);
    // Primary (2-bit) index of texel t: t % 4; secondary (3-bit): t % 8.
    block.Put(0, 1);
    for (unsigned t = 1; t < 16; ++t) block.Put(t % 4, 2);
    block.Put(0, 2);
    for (unsigned t = 1; t < 16; ++t) block.Put(t % 8, 3);
    ASSERT_EQ(block.position, 128u);
    constexpr uint32_t kW2[4] = {0, 21, 43, 64}, kW3[8] = {0, 9, 18, 27, 37, 46, 55, 64};
    const auto texels = Decode(VK_FORMAT_BC7_UNORM_BLOCK, block);
    for (unsigned t = 0; t < 16; ++t) {
      const uint32_t color_weight = selection ? kW3[t % 8] : kW2[t % 4];
      const uint32_t alpha_weight = selection ? kW2[t % 4] : kW3[t % 8];
      const float color = U8(Interp(0, 255, color_weight)), alpha = U8(Interp(0, 255, alpha_weight));
      ExpectTexel(texels[t], color, color, color, alpha, selection ? "selection 1" : "selection 0");
    }
  }
}

TEST(BcDecode, Bc7AnchorIndicesShiftLaterIndices) {
  // Mode 1, partition 17 ("0111 0001 0000 0000"): subset 1's anchor is
  // texel 2, so texels 0 and 2 have 2-bit indices and the rest 3 bits.
  const Bc7Endpoint s0e0{{0, 0, 0, 0}, 0}, s0e1{{63, 63, 63, 0}, 0}, s1e0{{63, 0, 0, 0}, 1}, s1e1{{0, 0, 63, 0}, 1};
  TestBlock block = Bc7Header(1, 17, 0, 0, {s0e0, s0e1, s1e0, s1e1});
  ASSERT_EQ(block.position, 82u);
  const uint32_t indices[16] = {3, 7, 2, 6, 5, 4, 1, 7, 0, 1, 2, 3, 4, 5, 6, 7};
  for (unsigned t = 0; t < 16; ++t) block.Put(indices[t], (t == 0 || t == 2) ? 2 : 3);
  ASSERT_EQ(block.position, 128u);
  constexpr uint32_t kW3[8] = {0, 9, 18, 27, 37, 46, 55, 64};
  constexpr char kSubsets[] = "0111000100000000";
  // 6 bits + shared p-bit, widened: subset 0 (p = 0) 63 -> 0xFD, subset 1
  // (p = 1) 63 -> 0xFF and 0 -> 0x02.
  ASSERT_EQ(Widen(63, 6, true, 0), 0xFDu);
  ASSERT_EQ(Widen(0, 6, true, 1), 0x02u);
  const auto texels = Decode(VK_FORMAT_BC7_UNORM_BLOCK, block);
  for (unsigned t = 0; t < 16; ++t) {
    const uint32_t w = kW3[indices[t]];
    if (kSubsets[t] == '0') {  // grey ramp
      const float v = U8(Interp(0, 0xFD, w));
      ExpectTexel(texels[t], v, v, v, 1.0f, "subset 0");
    } else {  // red to blue
      ExpectTexel(texels[t], U8(Interp(0xFF, 0x02, w)), U8(0x02), U8(Interp(0x02, 0xFF, w)), 1.0f, "subset 1");
    }
    if (HasFailure()) FAIL() << "texel " << t;
  }
}

TEST(BcDecode, Bc7ReservedModeIsTransparentBlack) {
  TestBlock block;
  for (unsigned i = 1; i < 16; ++i) block.PutByte(i, 0xFF);
  for (const TexelValue& texel : Decode(VK_FORMAT_BC7_UNORM_BLOCK, block)) {
    ExpectTexel(texel, 0.0f, 0.0f, 0.0f, 0.0f, "reserved");
  }
}

// --- rows and formats ---------------------------------------------------------

TEST(BcDecode, RowExtractionMatchesBlocks) {
  // Three BC7 blocks (mode 6 ramps with different endpoints) and three BC1
  // blocks; a row 10 texels wide ends inside the third block.
  std::vector<std::byte> bc7_row, bc1_row;
  for (uint32_t b = 0; b < 3; ++b) {
    TestBlock block = Bc7Header(6, 0, 0, 0, {{{10 * b, 20, 30, 127}, 0}, {{127, 60 + b, 90, 10}, 1}});
    block.Put(5, 3);
    for (unsigned t = 1; t < 16; ++t) block.Put((t * 5 + b) % 16, 4);
    bc7_row.insert(bc7_row.end(), block.bytes.begin(), block.bytes.end());
    TestBlock color;
    PutColorBlock(color, 0, 0xF800 + b, 0x001F, {0, 1, 2, 3, 3, 2, 1, 0, 1, 1, 2, 2, 3, 0, 3, 0});
    bc1_row.insert(bc1_row.end(), color.bytes.begin(), color.bytes.begin() + 8);
  }
  for (auto [format, row, block_bytes] : {std::tuple{VK_FORMAT_BC7_UNORM_BLOCK, &bc7_row, 16u},
                                          std::tuple{VK_FORMAT_BC1_RGB_UNORM_BLOCK, &bc1_row, 8u}}) {
    for (uint32_t line = 0; line < 4; ++line) {
      TexelValue out[11];
      std::memset(out, 0x7F, sizeof out);
      DecodeBcRow(format, row->data(), line, 10, out);
      for (uint32_t x = 0; x < 10; ++x) {
        TexelValue block_texels[16];
        ASSERT_TRUE(DecodeBcBlock(format, row->data() + (x / 4) * block_bytes, block_texels));
        EXPECT_EQ(std::memcmp(&out[x], &block_texels[line * 4 + x % 4], sizeof(TexelValue)), 0)
            << "line " << line << " x " << x;
      }
      EXPECT_EQ(out[10].u[0], 0x7F7F7F7Fu) << "wrote past the row";
    }
  }
}

TEST(BcDecode, EveryBcFormatDecodesAndOthersDoNot) {
  const VkFormat bc_formats[] = {
      VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_FORMAT_BC1_RGB_SRGB_BLOCK, VK_FORMAT_BC1_RGBA_UNORM_BLOCK,
      VK_FORMAT_BC1_RGBA_SRGB_BLOCK, VK_FORMAT_BC2_UNORM_BLOCK,    VK_FORMAT_BC2_SRGB_BLOCK,
      VK_FORMAT_BC3_UNORM_BLOCK,     VK_FORMAT_BC3_SRGB_BLOCK,     VK_FORMAT_BC4_UNORM_BLOCK,
      VK_FORMAT_BC4_SNORM_BLOCK,     VK_FORMAT_BC5_UNORM_BLOCK,    VK_FORMAT_BC5_SNORM_BLOCK,
      VK_FORMAT_BC6H_UFLOAT_BLOCK,   VK_FORMAT_BC6H_SFLOAT_BLOCK,  VK_FORMAT_BC7_UNORM_BLOCK,
      VK_FORMAT_BC7_SRGB_BLOCK,
  };
  TestBlock block;
  for (unsigned i = 0; i < 16; ++i) block.PutByte(i, 0x5A + 13 * i);
  for (VkFormat format : bc_formats) {
    EXPECT_TRUE(IsBcFormat(format)) << format;
    TexelValue texels[16];
    std::memset(texels, 0xFF, sizeof texels);  // NaN: every texel must be written
    ASSERT_TRUE(DecodeBcBlock(format, block.data(), texels)) << format;
    for (const TexelValue& texel : texels) {
      for (float channel : texel.f) EXPECT_FALSE(std::isnan(channel)) << format;
    }
  }
  for (VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_UNDEFINED, VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK,
                          VK_FORMAT_ASTC_4x4_UNORM_BLOCK, VK_FORMAT_D32_SFLOAT}) {
    EXPECT_FALSE(IsBcFormat(format));
    TexelValue texels[16];
    std::memset(texels, 0x3C, sizeof texels);
    EXPECT_FALSE(DecodeBcBlock(format, block.data(), texels));
    EXPECT_EQ(texels[0].u[0], 0x3C3C3C3Cu) << "wrote for a non-BC format";
    TexelValue row[4];
    std::memset(row, 0x3C, sizeof row);
    DecodeBcRow(format, block.data(), 0, 4, row);
    EXPECT_EQ(row[3].u[3], 0x3C3C3C3Cu);
  }
}

}  // namespace
}  // namespace duet::texel
