#include "raster/unorm8_fma.h"

// GCC 12's AVX-512 intrinsics start some results from an undefined
// register, which its uninitialized-use warnings report.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

#include <cstdlib>
#include <cstring>

#include "util/cpu_features.h"

namespace duet::raster {
namespace {

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

// Sixteen components' float bits to UNORM8 codes (in 32-bit lanes).
__attribute__((target("avx512f"), always_inline)) inline __m512i Unorm8x16(__m512i bits) {
  // Clamped on the bits as integers (ordered as the values for non-negative
  // floats; negative ones are negative integers), NaN to 0.
  __m512i c = _mm512_max_epi32(bits, _mm512_setzero_si512());
  c = _mm512_mask_mov_epi32(c, _mm512_cmpgt_epi32_mask(c, _mm512_set1_epi32(0x7F800000)), _mm512_setzero_si512());
  c = _mm512_min_epi32(c, _mm512_set1_epi32(0x3F800000));
  const __m512 v = _mm512_castsi512_ps(c);
  const __m512 scale = _mm512_set1_ps(255.0f);
  const __m512 k =
      _mm512_roundscale_ps(_mm512_fmadd_ps(v, scale, _mm512_set1_ps(0.5f)), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  const __m512 residual = _mm512_fmadd_ps(v, scale, _mm512_sub_ps(_mm512_set1_ps(0.5f), k));
  const __mmask16 over = _mm512_cmp_ps_mask(residual, _mm512_setzero_ps(), _CMP_LT_OQ);
  const __m512i code = _mm512_cvttps_epi32(k);
  return _mm512_mask_sub_epi32(code, over, code, _mm512_set1_epi32(1));
}

__attribute__((target("avx512f"))) void PackAvx512(const uint32_t* r, const uint32_t* g, const uint32_t* b,
                                                   const uint32_t* a, uint32_t alpha_byte, uint32_t lanes,
                                                   uint32_t red_shift, uint32_t blue_shift, uint32_t* texels) {
  const __m128i red = _mm_cvtsi32_si128(int(red_shift)), blue = _mm_cvtsi32_si128(int(blue_shift));
  const __m512i alpha = _mm512_set1_epi32(int(alpha_byte << 24));
  for (uint32_t l = 0; l < lanes; l += 16) {
    const __mmask16 m = lanes - l >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (lanes - l)) - 1);
    __m512i texel = _mm512_or_si512(_mm512_sll_epi32(Unorm8x16(_mm512_maskz_loadu_epi32(m, r + l)), red),
                                    _mm512_slli_epi32(Unorm8x16(_mm512_maskz_loadu_epi32(m, g + l)), 8));
    texel = _mm512_or_si512(texel, _mm512_sll_epi32(Unorm8x16(_mm512_maskz_loadu_epi32(m, b + l)), blue));
    texel = _mm512_or_si512(
        texel, a != nullptr ? _mm512_slli_epi32(Unorm8x16(_mm512_maskz_loadu_epi32(m, a + l)), 24) : alpha);
    _mm512_mask_storeu_epi32(texels + l, m, texel);
  }
}

// Eight components, as Unorm8x16.
__attribute__((target("avx2,fma"), always_inline)) inline __m256i Unorm8x8(__m256i bits) {
  __m256i c = _mm256_max_epi32(bits, _mm256_setzero_si256());
  c = _mm256_andnot_si256(_mm256_cmpgt_epi32(c, _mm256_set1_epi32(0x7F800000)), c);
  c = _mm256_min_epi32(c, _mm256_set1_epi32(0x3F800000));
  const __m256 v = _mm256_castsi256_ps(c);
  const __m256 scale = _mm256_set1_ps(255.0f);
  const __m256 k = _mm256_floor_ps(_mm256_fmadd_ps(v, scale, _mm256_set1_ps(0.5f)));
  const __m256 residual = _mm256_fmadd_ps(v, scale, _mm256_sub_ps(_mm256_set1_ps(0.5f), k));
  // The compare's mask is -1 where one too many: adding it subtracts one.
  const __m256i over = _mm256_castps_si256(_mm256_cmp_ps(residual, _mm256_setzero_ps(), _CMP_LT_OQ));
  return _mm256_add_epi32(_mm256_cvttps_epi32(k), over);
}

__attribute__((target("avx2"), always_inline)) inline __m256i Load8(const uint32_t* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}

__attribute__((target("avx2,fma"))) void PackAvx2(const uint32_t* r, const uint32_t* g, const uint32_t* b,
                                                  const uint32_t* a, uint32_t alpha_byte, uint32_t lanes,
                                                  uint32_t red_shift, uint32_t blue_shift, uint32_t* texels) {
  const __m128i red = _mm_cvtsi32_si128(int(red_shift)), blue = _mm_cvtsi32_si128(int(blue_shift));
  const __m256i alpha = _mm256_set1_epi32(int(alpha_byte << 24));
  alignas(32) uint32_t tail[4][8] = {};
  for (uint32_t l = 0; l < lanes; l += 8) {
    const uint32_t n = lanes - l >= 8 ? 8 : lanes - l;
    const uint32_t* src[4] = {r + l, g + l, b + l, a != nullptr ? a + l : nullptr};
    if (n < 8) {
      // The last few lanes through a zero-padded copy (no reads past the end).
      for (int c = 0; c < 4; ++c) {
        if (src[c] == nullptr) continue;
        for (uint32_t k = 0; k < n; ++k) tail[c][k] = src[c][k];
        src[c] = tail[c];
      }
    }
    __m256i texel =
        _mm256_or_si256(_mm256_sll_epi32(Unorm8x8(Load8(src[0])), red), _mm256_slli_epi32(Unorm8x8(Load8(src[1])), 8));
    texel = _mm256_or_si256(texel, _mm256_sll_epi32(Unorm8x8(Load8(src[2])), blue));
    texel = _mm256_or_si256(texel, src[3] != nullptr ? _mm256_slli_epi32(Unorm8x8(Load8(src[3])), 24) : alpha);
    if (n == 8) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(texels + l), texel);
    } else {
      alignas(32) uint32_t out[8];
      _mm256_store_si256(reinterpret_cast<__m256i*>(out), texel);
      for (uint32_t k = 0; k < n; ++k) texels[l + k] = out[k];
    }
  }
}

#endif

}  // namespace

bool PackUnorm8FmaWith(Unorm8Isa isa, const uint32_t* r, const uint32_t* g, const uint32_t* b, const uint32_t* a,
                       uint32_t alpha_byte, uint32_t lanes, uint32_t red_shift, uint32_t blue_shift, uint32_t* texels) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  if (isa == Unorm8Isa::kAvx512 && CpuHasAvx512()) {
    PackAvx512(r, g, b, a, alpha_byte, lanes, red_shift, blue_shift, texels);
    return true;
  }
  if (isa == Unorm8Isa::kAvx2Fma && CpuHasAvx2() && CpuHasFma()) {
    PackAvx2(r, g, b, a, alpha_byte, lanes, red_shift, blue_shift, texels);
    return true;
  }
#endif
  return false;
}

bool PackUnorm8Fma(const uint32_t* r, const uint32_t* g, const uint32_t* b, const uint32_t* a, uint32_t alpha_byte,
                   uint32_t lanes, uint32_t red_shift, uint32_t blue_shift, uint32_t* texels) {
  // The widest path the CPU and DUET_LANE_ISA allow (0: none).
  static const int path = [] {
    const char* isa = std::getenv("DUET_LANE_ISA");
    const bool baseline = isa != nullptr && std::strcmp(isa, "baseline") == 0;
    const bool avx2 = isa != nullptr && std::strcmp(isa, "avx2") == 0;
    if (!baseline && !avx2 && CpuHasAvx512()) return 2;
    if (!baseline && CpuHasAvx2() && CpuHasFma()) return 1;
    return 0;
  }();
  if (path == 0) return false;
  return PackUnorm8FmaWith(path == 2 ? Unorm8Isa::kAvx512 : Unorm8Isa::kAvx2Fma, r, g, b, a, alpha_byte, lanes,
                           red_shift, blue_shift, texels);
}

}  // namespace duet::raster
