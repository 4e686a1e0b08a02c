#include "raster/direct_color.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "raster/unorm8_fma.h"
#include "texel/srgb.h"

namespace duet::raster {
namespace {

// A UNORM8 component as the codecs round it: clamped to [0, 1] (NaN to 0),
// then floor(v * 255 + 0.5) exactly, which the codecs get in double. Here
// in float, twice as many lanes per instruction: v * 255 + 0.5 is
// 256v - v + 0.5 = i + (f - v + 0.5) with i + f = 256v (i its integer
// part, f exact), and f - v + 0.5 lies in (-0.5, 1.5), so the result is i,
// one more when f - 0.5 >= v, one less when f + 0.5 < v; both compares are
// exact (checked against the double form for all 2^32 bit patterns once;
// the unit test covers every float in [0, 1] and slices of the rest).
inline uint32_t Unorm8(uint32_t bits) {
  // The clamp on the bits as integers (ordered as the values for
  // non-negative floats; negative ones are negative integers).
  int32_t clamped = std::max(int32_t(bits), 0);
  clamped = clamped > 0x7F800000 ? 0 : clamped;  // NaN
  const float v = std::bit_cast<float>(std::min(clamped, 0x3F800000));
  const float scaled = v * 256.0f;
  const int32_t whole = int32_t(scaled);
  const float fraction = scaled - float(whole);
  return uint32_t(whole) + uint32_t(fraction - 0.5f >= v) - uint32_t(fraction + 0.5f < v);
}

bool IsBgra(DirectColor direct) { return direct == DirectColor::kBgra8Unorm || direct == DirectColor::kBgra8Srgb; }
bool IsSrgb(DirectColor direct) { return direct == DirectColor::kRgba8Srgb || direct == DirectColor::kBgra8Srgb; }

// The UNORM texels of lanes [0, lanes): a loop the compiler vectorizes (this
// file is built with the full cost model), for AVX2 and AVX-512 as well; red goes to bit
// `red_shift`, blue to `blue_shift`.
__attribute__((target_clones("avx512f", "avx2", "default"))) void PackUnorm8(
    const uint32_t* __restrict r, const uint32_t* __restrict g, const uint32_t* __restrict b,
    const uint32_t* __restrict a, uint32_t lanes, uint32_t red_shift, uint32_t blue_shift,
    uint32_t* __restrict texels) {
  for (uint32_t l = 0; l < lanes; ++l)
    texels[l] = Unorm8(r[l]) << red_shift | Unorm8(g[l]) << 8 | Unorm8(b[l]) << blue_shift | Unorm8(a[l]) << 24;
}

// PackUnorm8 with one alpha for every lane (`alpha`: its byte in place).
__attribute__((target_clones("avx512f", "avx2", "default"))) void PackUnorm8Alpha(
    const uint32_t* __restrict r, const uint32_t* __restrict g, const uint32_t* __restrict b, uint32_t alpha,
    uint32_t lanes, uint32_t red_shift, uint32_t blue_shift, uint32_t* __restrict texels) {
  for (uint32_t l = 0; l < lanes; ++l)
    texels[l] = Unorm8(r[l]) << red_shift | Unorm8(g[l]) << 8 | Unorm8(b[l]) << blue_shift | alpha;
}

// sRGB: the colour components through the encoding tables, alpha kept.
void EncodeSrgb(const uint32_t* const component[4], uint32_t lanes, bool bgra, uint32_t* texels) {
  const texel::SrgbTables& tables = texel::GetSrgbTables();
  for (uint32_t l = 0; l < lanes; ++l) {
    uint32_t texel = texels[l] & 0xFF000000u;
    for (int c = 0; c < 3; ++c)
      texel |= uint32_t(texel::EncodeSrgb8(tables, std::bit_cast<float>(component[c][l]))) << (8 * (bgra ? 2 - c : c));
    texels[l] = texel;
  }
}

}  // namespace

DirectColor ChooseDirect(VkFormat format, const VkPipelineColorBlendAttachmentState& blend, bool logic_op) {
  if (blend.blendEnable || logic_op || (blend.colorWriteMask & 0xF) != 0xF) return DirectColor::kNone;
  switch (format) {
    case VK_FORMAT_R8G8B8A8_UNORM: return DirectColor::kRgba8Unorm;
    case VK_FORMAT_B8G8R8A8_UNORM: return DirectColor::kBgra8Unorm;
    case VK_FORMAT_R8G8B8A8_SRGB: return DirectColor::kRgba8Srgb;
    case VK_FORMAT_B8G8R8A8_SRGB: return DirectColor::kBgra8Srgb;
    default: return DirectColor::kNone;
  }
}

void WriteDirect(DirectColor direct, uint32_t r, uint32_t g, uint32_t b, uint32_t a, std::byte* at) {
  const uint32_t value[4] = {r, g, b, a};
  const uint32_t* const component[4] = {&value[0], &value[1], &value[2], &value[3]};
  uint32_t texel;
  PackDirect(direct, component, 1, &texel);
  std::memcpy(at, &texel, 4);
}

void PackDirect(DirectColor direct, const uint32_t* const component[4], uint32_t lanes, uint32_t* texels) {
  const bool bgra = IsBgra(direct);
  // (A few lanes, WriteDirect's one above all, stay with the plain loop.)
  if (lanes < 8 || !PackUnorm8Fma(component[0], component[1], component[2], component[3], 0, lanes, bgra ? 16 : 0,
                                  bgra ? 0 : 16, texels))
    PackUnorm8(component[0], component[1], component[2], component[3], lanes, bgra ? 16 : 0, bgra ? 0 : 16, texels);
  if (IsSrgb(direct)) EncodeSrgb(component, lanes, bgra, texels);
}

void PackDirectAlpha(DirectColor direct, const uint32_t* const component[3], uint32_t alpha, uint32_t lanes,
                     uint32_t* texels) {
  const bool bgra = IsBgra(direct);
  if (lanes < 8 || !PackUnorm8Fma(component[0], component[1], component[2], nullptr, Unorm8(alpha), lanes,
                                  bgra ? 16 : 0, bgra ? 0 : 16, texels))
    PackUnorm8Alpha(component[0], component[1], component[2], Unorm8(alpha) << 24, lanes, bgra ? 16 : 0,
                    bgra ? 0 : 16, texels);
  if (IsSrgb(direct)) EncodeSrgb(component, lanes, bgra, texels);
}

}  // namespace duet::raster
