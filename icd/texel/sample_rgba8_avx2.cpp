// The RGBA8 wave path eight lanes at a time, for x86-64 CPUs with AVX2:
// sample_rgba8_lanes.h at twice the width of sample_rgba8.cpp's, with
// gathers for texel words and sRGB decoding. The same operations in the
// same order (no FMA), so the results are bit-identical.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "texel/sample_rgba8.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// Everything from here on may use AVX2; only code in this file (nothing a
// header defines inline) is compiled for it.
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif

namespace duet::texel::rgba8 {
namespace {

// The vector operations sample_rgba8_lanes.h asks for, eight lanes wide.
struct Avx2Lanes {
  using F = __m256;
  using I = __m256i;
  static F LoadF(const float* p) { return _mm256_loadu_ps(p); }
  static I LoadI(const int32_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
  static F SetF(float x) { return _mm256_set1_ps(x); }
  static I SetI(int32_t x) { return _mm256_set1_epi32(x); }
  static F Add(F a, F b) { return _mm256_add_ps(a, b); }
  static F Sub(F a, F b) { return _mm256_sub_ps(a, b); }
  static F Mul(F a, F b) { return _mm256_mul_ps(a, b); }
  static F Div(F a, F b) { return _mm256_div_ps(a, b); }
  static F Min(F a, F b) { return _mm256_min_ps(a, b); }
  static F Max(F a, F b) { return _mm256_max_ps(a, b); }
  static F Less(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
  static I TruncateToInt(F x) { return _mm256_cvttps_epi32(x); }
  static I RoundToInt(F x) { return _mm256_cvtps_epi32(x); }
  static F ToFloat(I x) { return _mm256_cvtepi32_ps(x); }
  static I AsInt(F x) { return _mm256_castps_si256(x); }
  static I AddI(I a, I b) { return _mm256_add_epi32(a, b); }
  static I AndI(I a, I b) { return _mm256_and_si256(a, b); }
  static I MinI(I a, I b) { return _mm256_min_epi32(a, b); }
  static I MaxI(I a, I b) { return _mm256_max_epi32(a, b); }
  static I ShiftLeft2(I a) { return _mm256_slli_epi32(a, 2); }
  static I ShiftRight(I a, int count) { return _mm256_srl_epi32(a, _mm_cvtsi32_si128(count)); }
  static I MulLo(I a, I b) { return _mm256_mullo_epi32(a, b); }
  static I GreaterI(I a, I b) { return _mm256_cmpgt_epi32(a, b); }
  static I EqualI(I a, I b) { return _mm256_cmpeq_epi32(a, b); }
  static bool AllSet(I mask) { return _mm256_movemask_epi8(mask) == -1; }
  static I Words(const std::byte* base, I offsets) {
    return _mm256_i32gather_epi32(reinterpret_cast<const int*>(base), offsets, 1);
  }
  // Scalar 64-bit loads: cheaper than gathers on some CPUs, never dearer.
  static void Pairs(const std::byte* base, I offsets, I* first, I* second) {
    alignas(32) int32_t at[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(at), offsets);
    long long pairs[8];
    for (int k = 0; k < 8; ++k) std::memcpy(&pairs[k], base + at[k], sizeof pairs[k]);
    const __m256 low = _mm256_castsi256_ps(_mm256_setr_epi64x(pairs[0], pairs[1], pairs[2], pairs[3]));
    const __m256 high = _mm256_castsi256_ps(_mm256_setr_epi64x(pairs[4], pairs[5], pairs[6], pairs[7]));
    // (a0 b0 a1 b1 | a2 b2 a3 b3), (a4 b4 a5 b5 | a6 b6 a7 b7) -> a0..a7, b0..b7
    const __m256i a = _mm256_castps_si256(_mm256_shuffle_ps(low, high, _MM_SHUFFLE(2, 0, 2, 0)));
    const __m256i b = _mm256_castps_si256(_mm256_shuffle_ps(low, high, _MM_SHUFFLE(3, 1, 3, 1)));
    *first = _mm256_permute4x64_epi64(a, _MM_SHUFFLE(3, 1, 2, 0));
    *second = _mm256_permute4x64_epi64(b, _MM_SHUFFLE(3, 1, 2, 0));
  }
  static F Lookup(const float* table, I index) { return _mm256_i32gather_ps(table, index, 4); }
};

#include "texel/sample_rgba8_lanes.h"

// Lanes [first, first + 8) of one level and filter: `level` and `linear`
// when they all agree (false otherwise).
bool SameLevel(const int32_t* levels, const bool* linear, uint32_t first, int32_t* level, bool* is_linear) {
  *level = levels[first];
  *is_linear = linear[first];
  for (uint32_t k = 1; k < 8; ++k)
    if (levels[first + k] != *level || linear[first + k] != *is_linear) return false;
  return true;
}

}  // namespace

LaneMask SampleGroupsAvx2(const SampledImageState& state, const sampling::Operands& op, LaneMask lane_mask,
                          uint32_t lane_count, const LaneLevels& levels, const ComponentSource sources[4],
                          uint32_t* const out[4]) {
  // Every lane on level 0 with one filter: addressable or not once per call.
  if (levels.uniform && !VectorAddressable(state, state.levels[0])) return 0;
  LaneMask done = 0;
  for (uint32_t first = 0; first + 8 <= lane_count; first += 8) {
    if (((lane_mask >> first) & 0xFF) != 0xFF) continue;
    int32_t hi = 0, lo = 0;
    bool linear = levels.uniform_linear, lo_linear = false;
    const uint32_t blend = static_cast<uint32_t>(levels.two_levels >> first) & 0xFF;
    if (!levels.uniform) {
      if (!SameLevel(levels.hi, levels.linear, first, &hi, &linear)) continue;
      if (blend != 0 && (blend != 0xFF || !SameLevel(levels.lo, levels.linear, first, &lo, &lo_linear))) continue;
      if (!VectorAddressable(state, state.levels[hi]) ||
          (blend != 0 && !VectorAddressable(state, state.levels[lo])))
        continue;
    }
    Footprints<Avx2Lanes> fp;
    if (!VectorFootprints<Avx2Lanes>(state, state.levels[hi], linear, op, first, &fp)) continue;
    __m256 value[4];
    Filter<Avx2Lanes>(state, sources, fp, !linear, value);
    if (blend != 0) {
      if (!VectorFootprints<Avx2Lanes>(state, state.levels[lo], lo_linear, op, first, &fp)) continue;
      __m256 lower[4];
      Filter<Avx2Lanes>(state, sources, fp, !lo_linear, lower);
      BlendLevels<Avx2Lanes>(value, lower, _mm256_loadu_ps(&levels.delta[first]));
    }
    // Every lane of the group is active: whole registers' worth of lanes.
    for (int c = 0; c < 4; ++c) _mm256_storeu_ps(reinterpret_cast<float*>(&out[c][first]), value[c]);
    done |= LaneMask{0xFF} << first;
  }
  return done;
}

}  // namespace duet::texel::rgba8

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#else  // not x86-64: no AVX2 groups

namespace duet::texel::rgba8 {

LaneMask SampleGroupsAvx2(const SampledImageState&, const sampling::Operands&, LaneMask, uint32_t, const LaneLevels&,
                          const ComponentSource[4], uint32_t* const[4]) {
  return 0;
}

}  // namespace duet::texel::rgba8

#endif
