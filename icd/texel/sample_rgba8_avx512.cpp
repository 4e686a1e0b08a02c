// The RGBA8 wave path sixteen lanes at a time, for x86-64 CPUs with
// AVX-512 (F, DQ, BW): sample_rgba8_lanes.h at four times the width of
// sample_rgba8.cpp's, for the common case of every lane reading level 0
// with one filter (the AVX2 groups take the rest). The same operations in
// the same order, and this file is built without FMA contraction, so the
// results are bit-identical. Compare results are vector masks as in SSE
// and AVX2 (expanded from AVX-512's mask registers).
// GCC 12's AVX-512 intrinsics start some results from an undefined
// register, which its uninitialized-use warnings report.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "texel/divide_by_255.h"
#include "texel/sample_rgba8.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// Everything from here on may use AVX-512; only code in this file (nothing
// a header defines inline) is compiled for it.
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq,avx512bw,avx512vl")
#endif

namespace duet::texel::rgba8 {
namespace {

// The vector operations sample_rgba8_lanes.h asks for, sixteen lanes wide.
struct Avx512Lanes {
  using F = __m512;
  using I = __m512i;
  static constexpr uint32_t kWidth = 16;
  static F Mask(__mmask16 k) { return _mm512_castsi512_ps(_mm512_movm_epi32(k)); }
  static I MaskI(__mmask16 k) { return _mm512_movm_epi32(k); }
  static F LoadF(const float* p) { return _mm512_loadu_ps(p); }
  static I LoadI(const int32_t* p) { return _mm512_loadu_si512(p); }
  static F SetF(float x) { return _mm512_set1_ps(x); }
  static void Store(uint32_t* p, F x) { _mm512_storeu_ps(p, x); }
  static I SetI(int32_t x) { return _mm512_set1_epi32(x); }
  static F Add(F a, F b) { return _mm512_add_ps(a, b); }
  static F Sub(F a, F b) { return _mm512_sub_ps(a, b); }
  static F Mul(F a, F b) { return _mm512_mul_ps(a, b); }
  static F Div(F a, F b) { return _mm512_div_ps(a, b); }
  static F DivideBy255(F x) { return texel::DivideBy255(x); }
  static constexpr bool kHasFloor = true;
  static F Floor(F x) { return _mm512_roundscale_ps(x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC); }
  // vminps/vmaxps: the second operand for NaN, as SSE's.
  static F Min(F a, F b) { return _mm512_min_ps(a, b); }
  static F Max(F a, F b) { return _mm512_max_ps(a, b); }
  static F Less(F a, F b) { return Mask(_mm512_cmp_ps_mask(a, b, _CMP_LT_OQ)); }
  static F Greater(F a, F b) { return Mask(_mm512_cmp_ps_mask(a, b, _CMP_GT_OS)); }
  static F GreaterEqual(F a, F b) { return Mask(_mm512_cmp_ps_mask(a, b, _CMP_GE_OS)); }
  static F LessEqual(F a, F b) { return Mask(_mm512_cmp_ps_mask(a, b, _CMP_LE_OS)); }
  static F Equal(F a, F b) { return Mask(_mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ)); }
  static F NotEqual(F a, F b) { return Mask(_mm512_cmp_ps_mask(a, b, _CMP_NEQ_UQ)); }
  static F AndF(F a, F b) { return _mm512_and_ps(a, b); }
  static F SelectF(F mask, F a, F b) { return _mm512_or_ps(_mm512_and_ps(mask, a), _mm512_andnot_ps(mask, b)); }
  static uint32_t MaskBits(F mask) { return _mm512_movepi32_mask(_mm512_castps_si512(mask)); }
  static F AsFloat(I x) { return _mm512_castsi512_ps(x); }
  static void StoreF(float* p, F x) { _mm512_storeu_ps(p, x); }
  static void StoreI(int32_t* p, I x) { _mm512_storeu_si512(p, x); }
  static I SubI(I a, I b) { return _mm512_sub_epi32(a, b); }
  static I OrI(I a, I b) { return _mm512_or_si512(a, b); }
  static I XorI(I a, I b) { return _mm512_xor_si512(a, b); }
  static I AndNotI(I a, I b) { return _mm512_andnot_si512(a, b); }  // ~a & b
  static bool AnySet(I mask) { return _mm512_test_epi32_mask(mask, mask) != 0; }
  static I LaneBits() {
    return _mm512_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768);
  }
  static I TruncateToInt(F x) { return _mm512_cvttps_epi32(x); }
  static I RoundToInt(F x) { return _mm512_cvtps_epi32(x); }
  static F ToFloat(I x) { return _mm512_cvtepi32_ps(x); }
  static I AsInt(F x) { return _mm512_castps_si512(x); }
  static I AddI(I a, I b) { return _mm512_add_epi32(a, b); }
  static I AndI(I a, I b) { return _mm512_and_si512(a, b); }
  static I MinI(I a, I b) { return _mm512_min_epi32(a, b); }
  static I MaxI(I a, I b) { return _mm512_max_epi32(a, b); }
  static I ShiftLeft2(I a) { return _mm512_slli_epi32(a, 2); }
  static I ShiftRight(I a, int count) { return _mm512_srl_epi32(a, _mm_cvtsi32_si128(count)); }
  static I MulLo(I a, I b) { return _mm512_mullo_epi32(a, b); }
  static I GreaterI(I a, I b) { return MaskI(_mm512_cmpgt_epi32_mask(a, b)); }
  static I EqualI(I a, I b) { return MaskI(_mm512_cmpeq_epi32_mask(a, b)); }
  static bool AllSet(I mask) { return _mm512_cmpeq_epi32_mask(mask, _mm512_set1_epi32(-1)) == 0xFFFF; }
  static bool AllEqualI(I a, I b) { return _mm512_cmpeq_epi32_mask(a, b) == 0xFFFF; }
  // One byte shuffle: byte `byte` of each word to its low byte, zeros above
  // (indices with the top bit set give zero; they count within 128 bits).
  static I MiddleByte(I a, int byte) {
    const __m512i index = _mm512_add_epi32(_mm512_set1_epi32(int(0x80808000u) + byte),
                                           _mm512_setr_epi32(0, 4, 8, 12, 0, 4, 8, 12, 0, 4, 8, 12, 0, 4, 8, 12));
    return _mm512_shuffle_epi8(a, index);
  }
  static I Words(const std::byte* base, I offsets) { return _mm512_i32gather_epi32(offsets, base, 1); }
  // Each lane's two texels of a row: two gathers of 64-bit words (on Zen 4,
  // a sixth faster over a whole sample than sixteen scalar loads).
  static void Pairs(const std::byte* base, I offsets, I* first, I* second) {
    const __m512i low = _mm512_i32gather_epi64(_mm512_castsi512_si256(offsets), base, 1);
    const __m512i high = _mm512_i32gather_epi64(_mm512_extracti64x4_epi64(offsets, 1), base, 1);
    // Words 0, 2, 4, ... of low then high: the first texels; 1, 3, 5, ...: the second.
    const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    *first = _mm512_permutex2var_epi32(low, even, high);
    *second = _mm512_permutex2var_epi32(low, _mm512_add_epi32(even, _mm512_set1_epi32(1)), high);
  }
  static F Lookup(const float* table, I index) { return _mm512_i32gather_ps(index, table, 4); }
};

#include "texel/sample_rgba8_lanes.h"

}  // namespace

LaneMask SampleUniformGroupsAvx512(const SampledImageState& state, const sampling::Operands& op, LaneMask lane_mask,
                                   uint32_t lane_count, const LaneLevels& levels, const ComponentSource sources[4],
                                   uint32_t* const out[4]) {
  return UniformGroups<Avx512Lanes>(state, op, lane_mask, lane_count, levels, sources, out);
}

}  // namespace duet::texel::rgba8

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#else  // not x86-64: no AVX-512 groups

namespace duet::texel::rgba8 {

LaneMask SampleUniformGroupsAvx512(const SampledImageState&, const sampling::Operands&, LaneMask, uint32_t,
                                   const LaneLevels&, const ComponentSource[4], uint32_t* const[4]) {
  return 0;
}

}  // namespace duet::texel::rgba8

#endif

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
