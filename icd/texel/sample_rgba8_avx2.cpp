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
  static constexpr uint32_t kWidth = 8;
  static F LoadF(const float* p) { return _mm256_loadu_ps(p); }
  static I LoadI(const int32_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
  static F SetF(float x) { return _mm256_set1_ps(x); }
  static void Store(uint32_t* p, F x) { _mm256_storeu_ps(reinterpret_cast<float*>(p), x); }
  static I SetI(int32_t x) { return _mm256_set1_epi32(x); }
  static F Add(F a, F b) { return _mm256_add_ps(a, b); }
  static F Sub(F a, F b) { return _mm256_sub_ps(a, b); }
  static F Mul(F a, F b) { return _mm256_mul_ps(a, b); }
  static F Div(F a, F b) { return _mm256_div_ps(a, b); }
  static F DivideBy255(F x) { return _mm256_div_ps(x, _mm256_set1_ps(255.0f)); }
  static constexpr bool kHasFloor = true;
  static F Floor(F x) { return _mm256_floor_ps(x); }
  static F Min(F a, F b) { return _mm256_min_ps(a, b); }
  static F Max(F a, F b) { return _mm256_max_ps(a, b); }
  static F Less(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
  // The predicates of SSE's cmpgt/cmpge/cmple/cmpeq/cmpneq: the same masks.
  static F Greater(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_GT_OS); }
  static F GreaterEqual(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_GE_OS); }
  static F LessEqual(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_LE_OS); }
  static F Equal(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_EQ_OQ); }
  static F NotEqual(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_NEQ_UQ); }
  static F AndF(F a, F b) { return _mm256_and_ps(a, b); }
  static F SelectF(F mask, F a, F b) { return _mm256_or_ps(_mm256_and_ps(mask, a), _mm256_andnot_ps(mask, b)); }
  static uint32_t MaskBits(F mask) { return static_cast<uint32_t>(_mm256_movemask_ps(mask)); }
  static F AsFloat(I x) { return _mm256_castsi256_ps(x); }
  static void StoreF(float* p, F x) { _mm256_storeu_ps(p, x); }
  static void StoreI(int32_t* p, I x) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), x); }
  static I SubI(I a, I b) { return _mm256_sub_epi32(a, b); }
  static I OrI(I a, I b) { return _mm256_or_si256(a, b); }
  static I XorI(I a, I b) { return _mm256_xor_si256(a, b); }
  static I AndNotI(I a, I b) { return _mm256_andnot_si256(a, b); }  // ~a & b
  static bool AnySet(I mask) { return _mm256_movemask_epi8(mask) != 0; }
  static I LaneBits() { return _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128); }
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
  static bool AllEqualI(I a, I b) { return AllSet(EqualI(a, b)); }
  // One byte shuffle: byte `byte` of each word to its low byte, zeros above
  // (indices with the top bit set give zero; they count within 128 bits).
  static I MiddleByte(I a, int byte) {
    const __m256i index = _mm256_add_epi32(_mm256_set1_epi32(int(0x80808000u) + byte),
                                           _mm256_setr_epi32(0, 4, 8, 12, 0, 4, 8, 12));
    return _mm256_shuffle_epi8(a, index);
  }
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
  const __m256i group = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(&levels[first]));
  uint64_t filters;  // eight bools, each 0 or 1
  std::memcpy(&filters, &linear[first], sizeof filters);
  return _mm256_movemask_epi8(_mm256_cmpeq_epi32(group, _mm256_set1_epi32(*level))) == -1 &&
         filters == (*is_linear ? 0x0101010101010101ull : 0);
}

// The LevelAddressing of one level and filter, set up again only when the
// groups move to another: groups of a wave mostly share their levels.
class AddressingCache {
 public:
  // Null when the level is not vector addressable.
  const LevelAddressing<Avx2Lanes>* Get(const SampledImageState& state, const sampling::Operands& op, int32_t level,
                                        bool linear) {
    if (level != level_ || linear != linear_) {
      level_ = level;
      linear_ = linear;
      addressable_ = VectorAddressable(state, state.levels[level]);
      if (addressable_) at_ = LevelAddressing<Avx2Lanes>(state, state.levels[level], linear, op);
    }
    return addressable_ ? &at_ : nullptr;
  }

 private:
  LevelAddressing<Avx2Lanes> at_;
  int32_t level_ = -1;
  bool linear_ = false;
  bool addressable_ = false;
};

// The groups of lanes of several levels or filters (the LOD chose them per
// lane): those whose eight lanes share theirs, results to the targets of
// ConversionOf.
template <Conversion kConversion>
LaneMask MixedGroups(const SampledImageState& state, const sampling::Operands& op, LaneMask lane_mask,
                     uint32_t lane_count, const LaneLevels& levels, const ComponentSource sources[4],
                     uint32_t* const targets[4], uint32_t unused) {
  AddressingCache upper_cache, lower_cache;
  // (A copy the stores cannot alias: the pointers stay in registers.)
  uint32_t* const dst[4] = {targets[0], targets[1], targets[2], targets[3]};
  LaneMask done = 0;
  for (uint32_t first = 0; first + 8 <= lane_count; first += 8) {
    if (((lane_mask >> first) & 0xFF) != 0xFF) continue;
    int32_t hi, lo = 0;
    bool linear, lo_linear = false;
    const uint32_t blend = static_cast<uint32_t>(levels.two_levels >> first) & 0xFF;
    if (!SameLevel(levels.hi, levels.linear, first, &hi, &linear)) continue;
    if (blend != 0 && (blend != 0xFF || !SameLevel(levels.lo, levels.linear, first, &lo, &lo_linear))) continue;
    const LevelAddressing<Avx2Lanes>* upper = upper_cache.Get(state, op, hi, linear);
    const LevelAddressing<Avx2Lanes>* lower = blend != 0 ? lower_cache.Get(state, op, lo, lo_linear) : nullptr;
    if (upper == nullptr || (blend != 0 && lower == nullptr)) continue;
    Footprints<Avx2Lanes> fp;
    if (!VectorFootprints<Avx2Lanes>(state, *upper, op, first, &fp)) continue;
    __m256 value[4];
    FilterAs<Avx2Lanes, kConversion>(state, sources, fp, !linear, value, unused);
    if (blend != 0) {
      if (!VectorFootprints<Avx2Lanes>(state, *lower, op, first, &fp)) continue;
      __m256 lower_value[4];
      FilterAs<Avx2Lanes, kConversion>(state, sources, fp, !lo_linear, lower_value, unused);
      BlendLevels<Avx2Lanes>(value, lower_value, _mm256_loadu_ps(&levels.delta[first]));
    }
    StoreGroup<Avx2Lanes>(dst, first, value, unused);
    done |= LaneMask{0xFF} << first;
  }
  return done;
}

}  // namespace

uint32_t ChooseLevelsAvx2(const SampledImageState& state, const sampling::Operands& op, LaneMask lane_mask,
                          uint32_t lane_count, LaneLevels* levels) {
  uint32_t first = 0;
  for (; first + 8 <= lane_count; first += 8)
    if (!ChooseGroupLevels<Avx2Lanes>(state, op, lane_mask, first, levels)) break;
  return first;
}

LaneMask SampleGroupsAvx2(const SampledImageState& state, const sampling::Operands& op, LaneMask lane_mask,
                          uint32_t lane_count, const LaneLevels& levels, const ComponentSource sources[4],
                          uint32_t* const out[4]) {
  if (levels.uniform) return UniformGroups<Avx2Lanes>(state, op, lane_mask, lane_count, levels, sources, out);
  uint32_t* targets[4];
  uint32_t unused;
  switch (ConversionOf(state, out, op.unused_components, targets, &unused)) {
    case Conversion::kSources:
      return MixedGroups<Conversion::kSources>(state, op, lane_mask, lane_count, levels, sources, targets, unused);
    case Conversion::kUnormBytes:
      return MixedGroups<Conversion::kUnormBytes>(state, op, lane_mask, lane_count, levels, sources, targets, unused);
    default:
      return MixedGroups<Conversion::kSrgbBytes>(state, op, lane_mask, lane_count, levels, sources, targets, unused);
  }
}

}  // namespace duet::texel::rgba8

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#else  // not x86-64: no AVX2 groups

namespace duet::texel::rgba8 {

uint32_t ChooseLevelsAvx2(const SampledImageState&, const sampling::Operands&, LaneMask, uint32_t, LaneLevels*) {
  return 0;
}

LaneMask SampleGroupsAvx2(const SampledImageState&, const sampling::Operands&, LaneMask, uint32_t, const LaneLevels&,
                          const ComponentSource[4], uint32_t* const[4]) {
  return 0;
}

}  // namespace duet::texel::rgba8

#endif
