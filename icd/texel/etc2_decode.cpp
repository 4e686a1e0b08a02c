// ETC2 (individual, differential, T, H and planar modes; punch-through
// alpha) and EAC (8-bit alpha, 11-bit R and RG), after the Data Format
// Specification's "ETC2 Compressed Texture Image Formats".
#include "texel/etc2_decode.h"

#include <algorithm>
#include <array>
#include <cstdint>

#include "texel/srgb.h"

namespace duet::texel {
namespace {

enum class Etc2Kind : uint8_t { kRgb, kRgbA1, kRgba, kR11, kRg11 };

struct Etc2Format {
  Etc2Kind kind;
  bool srgb;
  bool is_signed;
};

bool DescribeEtc2Format(VkFormat format, Etc2Format* d) {
  using K = Etc2Kind;
  switch (format) {
    case VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK: *d = {K::kRgb, false, false}; return true;
    case VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK: *d = {K::kRgb, true, false}; return true;
    case VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK: *d = {K::kRgbA1, false, false}; return true;
    case VK_FORMAT_ETC2_R8G8B8A1_SRGB_BLOCK: *d = {K::kRgbA1, true, false}; return true;
    case VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK: *d = {K::kRgba, false, false}; return true;
    case VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK: *d = {K::kRgba, true, false}; return true;
    case VK_FORMAT_EAC_R11_UNORM_BLOCK: *d = {K::kR11, false, false}; return true;
    case VK_FORMAT_EAC_R11_SNORM_BLOCK: *d = {K::kR11, false, true}; return true;
    case VK_FORMAT_EAC_R11G11_UNORM_BLOCK: *d = {K::kRg11, false, false}; return true;
    case VK_FORMAT_EAC_R11G11_SNORM_BLOCK: *d = {K::kRg11, false, true}; return true;
    default: return false;
  }
}

// A 64-bit half block, big-endian: byte 0 holds bits 63..56.
uint64_t LoadBigEndian64(const std::byte* bytes) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = v << 8 | std::to_integer<uint64_t>(bytes[i]);
  return v;
}

uint32_t Bits(uint64_t v, int high, int low) { return uint32_t((v >> low) & ((uint64_t{1} << (high - low + 1)) - 1)); }

int32_t Extend4(uint32_t x) { return int32_t(x << 4 | x); }
int32_t Extend5(uint32_t x) { return int32_t(x << 3 | x >> 2); }
int32_t Extend6(uint32_t x) { return int32_t(x << 2 | x >> 4); }
int32_t Extend7(uint32_t x) { return int32_t(x << 1 | x >> 6); }
int32_t Clamp255(int32_t x) { return std::clamp(x, 0, 255); }

constexpr int32_t kIntensity[8][4] = {{2, 8, -2, -8},     {5, 17, -5, -17},   {9, 29, -9, -29},
                                      {13, 42, -13, -42}, {18, 60, -18, -60}, {24, 80, -24, -80},
                                      {33, 106, -33, -106}, {47, 183, -47, -183}};
constexpr int32_t kDistance[8] = {3, 6, 11, 16, 23, 32, 41, 64};

// RGBA of 8 bits per channel per texel, row-major.
using Rgba8Block = std::array<std::array<int32_t, 4>, 16>;

// The 2-bit index of texel (x, y): its high bit at 16 + x * 4 + y, low at x * 4 + y.
uint32_t TexelIndex(uint64_t v, int x, int y) {
  const int i = x * 4 + y;
  return Bits(v, 16 + i, 16 + i) << 1 | Bits(v, i, i);
}

// An ETC2 colour block. `punch_through`: RGB8A1, whose "opaque" bit takes
// the place of the diff bit (there is no individual mode).
void DecodeColor(uint64_t v, bool punch_through, Rgba8Block* out) {
  const bool diff = punch_through || Bits(v, 33, 33) != 0;
  const bool opaque = !punch_through || Bits(v, 33, 33) != 0;
  auto set = [&](int x, int y, int32_t r, int32_t g, int32_t b, bool transparent = false) {
    (*out)[size_t(y * 4 + x)] = transparent ? std::array<int32_t, 4>{0, 0, 0, 0}
                                            : std::array<int32_t, 4>{Clamp255(r), Clamp255(g), Clamp255(b), 255};
  };
  // T and H modes: each texel's index picks one of four paint colours
  // (index 2 transparent without the opaque bit).
  auto paint = [&](const int32_t (&colors)[4][3]) {
    for (int x = 0; x < 4; ++x)
      for (int y = 0; y < 4; ++y) {
        const uint32_t i = TexelIndex(v, x, y);
        set(x, y, colors[i][0], colors[i][1], colors[i][2], !opaque && i == 2);
      }
  };
  int32_t base[2][3];
  if (!diff) {
    for (int c = 0; c < 3; ++c) {
      base[0][c] = Extend4(Bits(v, 63 - 8 * c, 60 - 8 * c));
      base[1][c] = Extend4(Bits(v, 59 - 8 * c, 56 - 8 * c));
    }
  } else {
    int32_t first[3], second[3];
    for (int c = 0; c < 3; ++c) {
      first[c] = int32_t(Bits(v, 63 - 8 * c, 59 - 8 * c));
      const int32_t delta = int32_t(Bits(v, 58 - 8 * c, 56 - 8 * c) << 29) >> 29;  // 3-bit signed
      second[c] = first[c] + delta;
    }
    if (second[0] < 0 || second[0] > 31) {
      // T mode: two colours, the second with a distance either way.
      const int32_t c1[3] = {Extend4(Bits(v, 60, 59) << 2 | Bits(v, 57, 56)), Extend4(Bits(v, 55, 52)),
                             Extend4(Bits(v, 51, 48))};
      const int32_t c2[3] = {Extend4(Bits(v, 47, 44)), Extend4(Bits(v, 43, 40)), Extend4(Bits(v, 39, 36))};
      const int32_t d = kDistance[Bits(v, 35, 34) << 1 | Bits(v, 32, 32)];
      paint({{c1[0], c1[1], c1[2]},
             {c2[0] + d, c2[1] + d, c2[2] + d},
             {c2[0], c2[1], c2[2]},
             {c2[0] - d, c2[1] - d, c2[2] - d}});
      return;
    }
    if (second[1] < 0 || second[1] > 31) {
      // H mode: two colours, each with a distance either way.
      const uint32_t r1 = Bits(v, 62, 59), g1 = Bits(v, 58, 56) << 1 | Bits(v, 52, 52),
                     b1 = Bits(v, 51, 51) << 3 | Bits(v, 49, 47);
      const uint32_t r2 = Bits(v, 46, 43), g2 = Bits(v, 42, 39), b2 = Bits(v, 38, 35);
      const int32_t c1[3] = {Extend4(r1), Extend4(g1), Extend4(b1)};
      const int32_t c2[3] = {Extend4(r2), Extend4(g2), Extend4(b2)};
      const uint32_t order = (c1[0] << 16 | c1[1] << 8 | c1[2]) >= (c2[0] << 16 | c2[1] << 8 | c2[2]) ? 1 : 0;
      const int32_t d = kDistance[Bits(v, 34, 34) << 2 | Bits(v, 32, 32) << 1 | order];
      paint({{c1[0] + d, c1[1] + d, c1[2] + d},
             {c1[0] - d, c1[1] - d, c1[2] - d},
             {c2[0] + d, c2[1] + d, c2[2] + d},
             {c2[0] - d, c2[1] - d, c2[2] - d}});
      return;
    }
    if (second[2] < 0 || second[2] > 31) {
      // Planar mode: a colour at the origin, at (4, 0) and at (0, 4), interpolated.
      const int32_t o[3] = {Extend6(Bits(v, 62, 57)), Extend7(Bits(v, 56, 56) << 6 | Bits(v, 54, 49)),
                            Extend6(Bits(v, 48, 48) << 5 | Bits(v, 44, 43) << 3 | Bits(v, 41, 39))};
      const int32_t h[3] = {Extend6(Bits(v, 38, 34) << 1 | Bits(v, 32, 32)), Extend7(Bits(v, 31, 25)),
                            Extend6(Bits(v, 24, 19))};
      const int32_t vv[3] = {Extend6(Bits(v, 18, 13)), Extend7(Bits(v, 12, 6)), Extend6(Bits(v, 5, 0))};
      for (int x = 0; x < 4; ++x)
        for (int y = 0; y < 4; ++y) {
          int32_t c[3];
          for (int k = 0; k < 3; ++k) c[k] = (x * (h[k] - o[k]) + y * (vv[k] - o[k]) + 4 * o[k] + 2) >> 2;
          set(x, y, c[0], c[1], c[2]);
        }
      return;
    }
    for (int c = 0; c < 3; ++c) {
      base[0][c] = Extend5(uint32_t(first[c]));
      base[1][c] = Extend5(uint32_t(second[c]));
    }
  }
  // Individual and differential modes: two sub-blocks, side by side (flip
  // 0) or one above the other (flip 1), each a base colour and a table.
  const bool flip = Bits(v, 32, 32) != 0;
  const uint32_t table[2] = {Bits(v, 39, 37), Bits(v, 36, 34)};
  for (int x = 0; x < 4; ++x)
    for (int y = 0; y < 4; ++y) {
      const int sub = flip ? (y >= 2) : (x >= 2);
      const uint32_t i = TexelIndex(v, x, y);
      if (!opaque && i == 2) {
        set(x, y, 0, 0, 0, true);
        continue;
      }
      // Without the opaque bit, the small modifiers are 0.
      const int32_t modifier = !opaque && (i == 0 || i == 2) ? 0 : kIntensity[table[sub]][i];
      set(x, y, base[sub][0] + modifier, base[sub][1] + modifier, base[sub][2] + modifier);
    }
}

constexpr int32_t kEacModifiers[16][8] = {
    {-3, -6, -9, -15, 2, 5, 8, 14}, {-3, -7, -10, -13, 2, 6, 9, 12}, {-2, -5, -8, -13, 1, 4, 7, 12},
    {-2, -4, -6, -13, 1, 3, 5, 12}, {-3, -6, -8, -12, 2, 5, 7, 11}, {-3, -7, -9, -11, 2, 6, 8, 10},
    {-4, -7, -8, -11, 3, 6, 7, 10}, {-3, -5, -8, -11, 2, 4, 7, 10}, {-2, -6, -8, -10, 1, 5, 7, 9},
    {-2, -5, -8, -10, 1, 4, 7, 9},  {-2, -4, -8, -10, 1, 3, 7, 9},  {-2, -5, -7, -10, 1, 4, 6, 9},
    {-3, -4, -7, -10, 2, 3, 6, 9},  {-1, -2, -3, -10, 0, 1, 2, 9},  {-4, -6, -8, -9, 3, 5, 7, 8},
    {-3, -5, -7, -9, 2, 4, 6, 8}};

// The 3-bit index of texel (x, y) of an EAC block: texel x * 4 + y's at bits 47 - 3i .. 45 - 3i.
uint32_t EacIndex(uint64_t v, int x, int y) {
  const int i = x * 4 + y;
  return Bits(v, 47 - 3 * i, 45 - 3 * i);
}

// An EAC block as 8-bit alpha (ETC2 RGBA8).
void DecodeEacAlpha(uint64_t v, Rgba8Block* out) {
  const int32_t base = int32_t(Bits(v, 63, 56)), multiplier = int32_t(Bits(v, 55, 52));
  const int32_t* table = kEacModifiers[Bits(v, 51, 48)];
  for (int x = 0; x < 4; ++x)
    for (int y = 0; y < 4; ++y) (*out)[size_t(y * 4 + x)][3] = Clamp255(base + table[EacIndex(v, x, y)] * multiplier);
}

// An EAC block as an 11-bit channel: unsigned 0..2047 or signed -1023..1023, as floats.
void DecodeEac11(uint64_t v, bool is_signed, float out[16]) {
  const int32_t multiplier = int32_t(Bits(v, 55, 52));
  const int32_t* table = kEacModifiers[Bits(v, 51, 48)];
  const int32_t base = is_signed ? std::max(int32_t(int8_t(Bits(v, 63, 56))), -127) : int32_t(Bits(v, 63, 56));
  for (int x = 0; x < 4; ++x)
    for (int y = 0; y < 4; ++y) {
      const int32_t modifier = table[EacIndex(v, x, y)];
      const int32_t scaled = multiplier != 0 ? modifier * multiplier * 8 : modifier;
      if (is_signed) {
        const int32_t value = std::clamp(base * 8 + scaled, -1023, 1023);
        out[y * 4 + x] = float(value) / 1023.0f;
      } else {
        const int32_t value = std::clamp(base * 8 + 4 + scaled, 0, 2047);
        out[y * 4 + x] = float(value) / 2047.0f;
      }
    }
}

}  // namespace

bool IsEtc2Format(VkFormat format) {
  Etc2Format d;
  return DescribeEtc2Format(format, &d);
}

bool DecodeEtc2Block(VkFormat format, const std::byte* block, TexelValue out[16]) {
  Etc2Format d;
  if (!DescribeEtc2Format(format, &d)) return false;
  if (d.kind == Etc2Kind::kR11 || d.kind == Etc2Kind::kRg11) {
    float r[16], g[16] = {};
    DecodeEac11(LoadBigEndian64(block), d.is_signed, r);
    if (d.kind == Etc2Kind::kRg11) DecodeEac11(LoadBigEndian64(block + 8), d.is_signed, g);
    for (int i = 0; i < 16; ++i) {
      out[i] = TexelValue{};
      out[i].f[0] = r[i];
      out[i].f[1] = g[i];
      out[i].f[3] = 1.0f;
    }
    return true;
  }
  Rgba8Block texels;
  const std::byte* color = d.kind == Etc2Kind::kRgba ? block + 8 : block;
  DecodeColor(LoadBigEndian64(color), d.kind == Etc2Kind::kRgbA1, &texels);
  if (d.kind == Etc2Kind::kRgba) DecodeEacAlpha(LoadBigEndian64(block), &texels);
  for (int i = 0; i < 16; ++i) {
    out[i] = TexelValue{};
    for (int c = 0; c < 4; ++c) {
      const int32_t code = texels[size_t(i)][size_t(c)];
      out[i].f[c] = d.srgb && c < 3 ? SrgbToLinear8(uint8_t(code)) : float(code) / 255.0f;
    }
  }
  return true;
}

}  // namespace duet::texel
