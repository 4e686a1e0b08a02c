// The ETC2 and EAC decoder on hand-made blocks, one per mode (individual,
// differential, T, H, planar; punch-through alpha; EAC 8-bit alpha and
// 11-bit R, unsigned and signed), against the Data Format Specification's
// formulas written out here.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "texel/etc2_decode.h"

namespace duet::texel {
namespace {

// A 64-bit word assembled by bit ranges, stored big-endian (byte 0 = bits 63..56).
struct Word {
  uint64_t v = 0;
  void Put(int high, int low, uint64_t value) {
    const uint64_t mask = ((uint64_t{1} << (high - low + 1)) - 1) << low;
    v = (v & ~mask) | ((value << low) & mask);
  }
  void Store(std::byte* out) const {
    for (int i = 0; i < 8; ++i) out[i] = std::byte(uint8_t(v >> (56 - 8 * i)));
  }
};

// Texel (x, y)'s 2-bit index (pixels numbered x * 4 + y: MSB at 16 + i, LSB at i).
void PutIndex(Word& w, int x, int y, uint32_t index) {
  const int i = x * 4 + y;
  w.Put(16 + i, 16 + i, index >> 1);
  w.Put(i, i, index & 1);
}
uint32_t IndexOf(int x, int y) { return uint32_t(x + 2 * y) % 4; }

constexpr int kTables[8][2] = {{2, 8}, {5, 17}, {9, 29}, {13, 42}, {18, 60}, {24, 80}, {33, 106}, {47, 183}};
int Modifier(uint32_t table, uint32_t index) {
  const int a = kTables[table][0], b = kTables[table][1];
  return index == 0 ? a : index == 1 ? b : index == 2 ? -a : -b;
}
int C(int v) { return std::clamp(v, 0, 255); }

std::array<TexelValue, 16> Decode(VkFormat format, const Word& first, const Word* second = nullptr) {
  std::byte block[16] = {};
  first.Store(block);
  if (second != nullptr) second->Store(block + 8);
  std::array<TexelValue, 16> out{};
  EXPECT_TRUE(DecodeEtc2Block(format, block, out.data()));
  return out;
}

void ExpectRgba(const TexelValue& t, int r, int g, int b, int a, int x, int y) {
  EXPECT_FLOAT_EQ(t.f[0], float(r) / 255.0f) << x << "," << y;
  EXPECT_FLOAT_EQ(t.f[1], float(g) / 255.0f) << x << "," << y;
  EXPECT_FLOAT_EQ(t.f[2], float(b) / 255.0f) << x << "," << y;
  EXPECT_FLOAT_EQ(t.f[3], float(a) / 255.0f) << x << "," << y;
}

TEST(Etc2Decode, IndividualModeSideBySideSubBlocks) {
  Word w;
  w.Put(63, 60, 0xA); w.Put(59, 56, 0x1);  // R1, R2
  w.Put(55, 52, 0x5); w.Put(51, 48, 0xF);  // G1, G2
  w.Put(47, 44, 0x3); w.Put(43, 40, 0x8);  // B1, B2
  w.Put(39, 37, 2); w.Put(36, 34, 5);      // tables
  w.Put(33, 33, 0); w.Put(32, 32, 0);      // individual, flip 0
  for (int x = 0; x < 4; ++x)
    for (int y = 0; y < 4; ++y) PutIndex(w, x, y, IndexOf(x, y));
  const auto out = Decode(VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, w);
  for (int x = 0; x < 4; ++x)
    for (int y = 0; y < 4; ++y) {
      const bool second = x >= 2;
      const int m = Modifier(second ? 5 : 2, IndexOf(x, y));
      const int r = (second ? 0x1 : 0xA) * 17, g = (second ? 0xF : 0x5) * 17, b = (second ? 0x8 : 0x3) * 17;
      ExpectRgba(out[size_t(y * 4 + x)], C(r + m), C(g + m), C(b + m), 255, x, y);
    }
}

TEST(Etc2Decode, DifferentialModeStackedSubBlocks) {
  Word w;
  w.Put(63, 59, 20); w.Put(58, 56, 5);  // R 20, dR -3
  w.Put(55, 51, 10); w.Put(50, 48, 2);  // G 10, dG +2
  w.Put(47, 43, 30); w.Put(42, 40, 1);  // B 30, dB +1
  w.Put(39, 37, 7); w.Put(36, 34, 0);
  w.Put(33, 33, 1); w.Put(32, 32, 1);  // differential, flip 1
  for (int x = 0; x < 4; ++x)
    for (int y = 0; y < 4; ++y) PutIndex(w, x, y, IndexOf(x, y));
  auto extend5 = [](int v) { return v << 3 | v >> 2; };
  const auto out = Decode(VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, w);
  for (int x = 0; x < 4; ++x)
    for (int y = 0; y < 4; ++y) {
      const bool second = y >= 2;
      const int m = Modifier(second ? 0 : 7, IndexOf(x, y));
      const int r = extend5(second ? 17 : 20), g = extend5(second ? 12 : 10), b = extend5(second ? 31 : 30);
      ExpectRgba(out[size_t(y * 4 + x)], C(r + m), C(g + m), C(b + m), 255, x, y);
    }
}

constexpr int kDistances[8] = {3, 6, 11, 16, 23, 32, 41, 64};

TEST(Etc2Decode, TModeWhenRedOverflows) {
  Word w;
  w.Put(63, 61, 7); w.Put(60, 59, 3); w.Put(58, 58, 0); w.Put(57, 56, 1);  // R 31 + dR 1: T; R1 = 0b1101
  w.Put(55, 52, 0x4); w.Put(51, 48, 0x9);                                  // G1, B1
  w.Put(47, 44, 0x6); w.Put(43, 40, 0xC); w.Put(39, 36, 0x2);              // R2, G2, B2
  w.Put(35, 34, 2); w.Put(33, 33, 1); w.Put(32, 32, 1);                    // distance 5
  for (int x = 0; x < 4; ++x)
    for (int y = 0; y < 4; ++y) PutIndex(w, x, y, IndexOf(x, y));
  const int d = kDistances[5];
  const int c1[3] = {13 * 17, 4 * 17, 9 * 17}, c2[3] = {6 * 17, 12 * 17, 2 * 17};
  const auto out = Decode(VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, w);
  for (int x = 0; x < 4; ++x)
    for (int y = 0; y < 4; ++y) {
      const uint32_t i = IndexOf(x, y);
      const int* c = i == 0 ? c1 : c2;
      const int o = i == 1 ? d : i == 3 ? -d : 0;
      ExpectRgba(out[size_t(y * 4 + x)], C(c[0] + o), C(c[1] + o), C(c[2] + o), 255, x, y);
    }
}

TEST(Etc2Decode, HModeWhenGreenOverflows) {
  Word w;
  w.Put(63, 63, 0); w.Put(62, 59, 0x4); w.Put(58, 56, 2);  // R 4 + dR 2: no overflow; G1a
  w.Put(55, 53, 7); w.Put(52, 52, 1); w.Put(51, 51, 1);    // G 31 ...
  w.Put(50, 50, 0); w.Put(49, 47, 3);                      // ... + dG 1: H; B1b
  w.Put(46, 43, 0x2); w.Put(42, 39, 0xE); w.Put(38, 35, 0x7);  // R2, G2, B2
  w.Put(34, 34, 1); w.Put(33, 33, 1); w.Put(32, 32, 0);
  for (int x = 0; x < 4; ++x)
    for (int y = 0; y < 4; ++y) PutIndex(w, x, y, IndexOf(x, y));
  const int c1[3] = {0x4 * 17, (2 << 1 | 1) * 17, (1 << 3 | 3) * 17}, c2[3] = {0x2 * 17, 0xE * 17, 0x7 * 17};
  const int order = (c1[0] << 16 | c1[1] << 8 | c1[2]) >= (c2[0] << 16 | c2[1] << 8 | c2[2]) ? 1 : 0;
  const int d = kDistances[1 << 2 | 0 << 1 | order];
  const auto out = Decode(VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, w);
  for (int x = 0; x < 4; ++x)
    for (int y = 0; y < 4; ++y) {
      const uint32_t i = IndexOf(x, y);
      const int* c = i < 2 ? c1 : c2;
      const int o = i % 2 == 0 ? d : -d;
      ExpectRgba(out[size_t(y * 4 + x)], C(c[0] + o), C(c[1] + o), C(c[2] + o), 255, x, y);
    }
}

TEST(Etc2Decode, PlanarModeWhenBlueOverflows) {
  Word w;
  const uint32_t ro = 0b000100, go = 0b0010110, bo = 0b111010;
  w.Put(63, 63, 0); w.Put(62, 57, ro); w.Put(56, 56, go >> 6); w.Put(55, 55, 0); w.Put(54, 49, go & 63);
  w.Put(48, 48, bo >> 5); w.Put(47, 45, 7); w.Put(44, 43, (bo >> 3) & 3); w.Put(42, 42, 0); w.Put(41, 39, bo & 7);
  const uint32_t rh = 0b101011, gh = 0b1110001, bh = 0b000111, rv = 0b010101, gv = 0b0001111, bv = 0b110000;
  w.Put(38, 34, rh >> 1); w.Put(33, 33, 1); w.Put(32, 32, rh & 1);
  w.Put(31, 25, gh); w.Put(24, 19, bh); w.Put(18, 13, rv); w.Put(12, 6, gv); w.Put(5, 0, bv);
  auto e6 = [](int v) { return v << 2 | v >> 4; };
  auto e7 = [](int v) { return v << 1 | v >> 6; };
  const int o[3] = {e6(ro), e7(go), e6(bo)}, h[3] = {e6(rh), e7(gh), e6(bh)}, v[3] = {e6(rv), e7(gv), e6(bv)};
  const auto out = Decode(VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, w);
  for (int x = 0; x < 4; ++x)
    for (int y = 0; y < 4; ++y) {
      int c[3];
      for (int k = 0; k < 3; ++k) c[k] = C((x * (h[k] - o[k]) + y * (v[k] - o[k]) + 4 * o[k] + 2) >> 2);
      ExpectRgba(out[size_t(y * 4 + x)], c[0], c[1], c[2], 255, x, y);
    }
}

// RGB8A1 without the opaque bit: index 2 is transparent black, index 0's
// modifier is 0; sRGB decodes the colour only.
TEST(Etc2Decode, PunchThroughAlpha) {
  Word w;
  w.Put(63, 59, 12); w.Put(58, 56, 0); w.Put(55, 51, 12); w.Put(50, 48, 0); w.Put(47, 43, 12); w.Put(42, 40, 0);
  w.Put(39, 37, 4); w.Put(36, 34, 4); w.Put(33, 33, 0); w.Put(32, 32, 0);
  for (int x = 0; x < 4; ++x)
    for (int y = 0; y < 4; ++y) PutIndex(w, x, y, IndexOf(x, y));
  const int base = 12 << 3 | 12 >> 2;
  const auto out = Decode(VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK, w);
  for (int x = 0; x < 4; ++x)
    for (int y = 0; y < 4; ++y) {
      const uint32_t i = IndexOf(x, y);
      if (i == 2) {
        ExpectRgba(out[size_t(y * 4 + x)], 0, 0, 0, 0, x, y);
        continue;
      }
      const int m = i == 0 ? 0 : Modifier(4, i);
      ExpectRgba(out[size_t(y * 4 + x)], C(base + m), C(base + m), C(base + m), 255, x, y);
    }
  const auto srgb = Decode(VK_FORMAT_ETC2_R8G8B8A1_SRGB_BLOCK, w);
  EXPECT_LT(srgb[0].f[0], out[0].f[0]);  // (0, 0): index 0, a mid grey: darker as linear
  EXPECT_FLOAT_EQ(srgb[0].f[3], 1.0f);
}

constexpr int kEac[16][8] = {
    {-3, -6, -9, -15, 2, 5, 8, 14}, {-3, -7, -10, -13, 2, 6, 9, 12}, {-2, -5, -8, -13, 1, 4, 7, 12},
    {-2, -4, -6, -13, 1, 3, 5, 12}, {-3, -6, -8, -12, 2, 5, 7, 11}, {-3, -7, -9, -11, 2, 6, 8, 10},
    {-4, -7, -8, -11, 3, 6, 7, 10}, {-3, -5, -8, -11, 2, 4, 7, 10}, {-2, -6, -8, -10, 1, 5, 7, 9},
    {-2, -5, -8, -10, 1, 4, 7, 9},  {-2, -4, -8, -10, 1, 3, 7, 9},  {-2, -5, -7, -10, 1, 4, 6, 9},
    {-3, -4, -7, -10, 2, 3, 6, 9},  {-1, -2, -3, -10, 0, 1, 2, 9},  {-4, -6, -8, -9, 3, 5, 7, 8},
    {-3, -5, -7, -9, 2, 4, 6, 8}};

Word EacWord(uint32_t base, uint32_t multiplier, uint32_t table) {
  Word w;
  w.Put(63, 56, base);
  w.Put(55, 52, multiplier);
  w.Put(51, 48, table);
  for (int i = 0; i < 16; ++i) w.Put(47 - 3 * i, 45 - 3 * i, uint32_t(i) % 8);
  return w;
}

// RGBA8: the EAC alpha block first, then the colour block.
TEST(Etc2Decode, EacAlphaOfRgba8) {
  const Word alpha = EacWord(100, 11, 13);
  Word color;
  color.Put(33, 33, 1);  // differential, base 0, index 0 everywhere: colour 2
  color.Put(39, 37, 0); color.Put(36, 34, 0);
  const auto out = Decode(VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK, alpha, &color);
  for (int x = 0; x < 4; ++x)
    for (int y = 0; y < 4; ++y) {
      const int i = x * 4 + y;
      ExpectRgba(out[size_t(y * 4 + x)], 2, 2, 2, C(100 + kEac[13][i % 8] * 11), x, y);
    }
}

TEST(Etc2Decode, EacElevenBitChannels) {
  // Unsigned, multiplier 0: base * 8 + 4 + modifier.
  const auto r = Decode(VK_FORMAT_EAC_R11_UNORM_BLOCK, EacWord(200, 0, 0));
  for (int x = 0; x < 4; ++x)
    for (int y = 0; y < 4; ++y) {
      const int i = x * 4 + y;
      EXPECT_FLOAT_EQ(r[size_t(y * 4 + x)].f[0], float(200 * 8 + 4 + kEac[0][i % 8]) / 2047.0f);
      EXPECT_EQ(r[size_t(y * 4 + x)].f[1], 0.0f);
      EXPECT_EQ(r[size_t(y * 4 + x)].f[3], 1.0f);
    }
  // RG11 signed: R from the first half (base -128, read as -127, multiplier
  // 2), G from the second (base 127, multiplier 15: clamped at 1023).
  const Word red = EacWord(0x80, 2, 3), green = EacWord(127, 15, 15);
  const auto rg = Decode(VK_FORMAT_EAC_R11G11_SNORM_BLOCK, red, &green);
  for (int x = 0; x < 4; ++x)
    for (int y = 0; y < 4; ++y) {
      const int i = x * 4 + y;
      const int rv = std::clamp(-127 * 8 + kEac[3][i % 8] * 2 * 8, -1023, 1023);
      const int gv = std::clamp(127 * 8 + kEac[15][i % 8] * 15 * 8, -1023, 1023);
      EXPECT_FLOAT_EQ(rg[size_t(y * 4 + x)].f[0], float(rv) / 1023.0f) << x << "," << y;
      EXPECT_FLOAT_EQ(rg[size_t(y * 4 + x)].f[1], float(gv) / 1023.0f) << x << "," << y;
    }
}

TEST(Etc2Decode, OnlyEtc2AndEacFormats) {
  std::byte block[16] = {};
  TexelValue out[16];
  EXPECT_FALSE(DecodeEtc2Block(VK_FORMAT_BC1_RGB_UNORM_BLOCK, block, out));
  EXPECT_FALSE(IsEtc2Format(VK_FORMAT_R8G8B8A8_UNORM));
  EXPECT_TRUE(IsEtc2Format(VK_FORMAT_EAC_R11G11_SNORM_BLOCK));
}

}  // namespace
}  // namespace duet::texel
