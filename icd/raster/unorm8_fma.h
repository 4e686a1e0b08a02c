// UNORM8 packing of colour outputs with FMA (AVX-512, or AVX2 with FMA):
// the same bytes as direct_color's float formula, in fewer operations.
// For v clamped to [0, 1], k = floor(RN(v * 255 + 0.5)) is the answer or
// one too many; the exact residual v * 255 + (0.5 - k) (one FMA: 0.5 - k is
// exact, and rounding keeps the sign) is negative exactly when it is one
// too many. raster_direct_color_test checks every float in [0, 1].
#pragma once

#include <cstdint>

namespace duet::raster {

enum class Unorm8Isa : uint8_t { kAvx512, kAvx2Fma };

// texels[l] = r << red_shift | g << 8 | b << blue_shift | a << 24 for lanes
// [0, lanes), each component's float bits packed to UNORM8; `a` null: every
// lane's alpha byte is `alpha_byte`. With the CPU's best path (AVX-512,
// else AVX2 with FMA; DUET_LANE_ISA=avx2 or baseline asks for less); false
// (nothing written) when it has neither.
bool PackUnorm8Fma(const uint32_t* r, const uint32_t* g, const uint32_t* b, const uint32_t* a, uint32_t alpha_byte,
                   uint32_t lanes, uint32_t red_shift, uint32_t blue_shift, uint32_t* texels);
// The same with one path (tests); false when the CPU lacks it.
bool PackUnorm8FmaWith(Unorm8Isa isa, const uint32_t* r, const uint32_t* g, const uint32_t* b, const uint32_t* a,
                       uint32_t alpha_byte, uint32_t lanes, uint32_t red_shift, uint32_t blue_shift, uint32_t* texels);

}  // namespace duet::raster
