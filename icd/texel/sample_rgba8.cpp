// SampleComponents, and its wave path: OpImageSample* on 2D (array) views
// of the 8-bit RGBA/BGRA formats, UNORM or sRGB, with a weighted average
// and no comparison: the textures nearly every draw samples.
//
// Per call rather than per lane: the LOD is skipped when it cannot change
// the result (LodMatters); per view rather than per call, the view's
// component order, swizzle and sRGB decoding become one source byte and
// conversion per result component (rgba8_sources, ResolveSources). Lanes
// then go eight at a time through sample_rgba8_avx2.cpp on CPUs with AVX2,
// four at a time (SSE2) otherwise and for what those leave, results written
// straight to the caller's registers:
//  1. the LOD and level selection (ComputeLambdaPrime and ChooseLevels with
//     the same operations, log2 from the exponent bits and a short series);
//  2. the footprints: u = s * width + offset (- 0.5 for LINEAR), floor and
//     fraction, wrapping, integer byte offsets, then the 32-bit texel words
//     read straight from memory. Groups of one level and filter whose
//     footprints lie inside the level (or wrap by power-of-two REPEAT or
//     CLAMP_TO_EDGE) do this in vector registers (sample_rgba8_lanes.h),
//     in one loop over the wave when every lane reads level 0 with one
//     filter (no LOD); other groups (mixed levels, edges under other modes)
//     go lane by lane, and a lane whose footprint reaches a border texel
//     leaves for the general path (Sample);
//  3. per result component, the byte of each texel to float and the
//     bilinear weighting in the general path's order (with the shifts and
//     conversions fixed per loop when the components are the texel's bytes
//     in some order, as with RGBA and BGRA views). UNORM codes are
//     filtered as integers and then divided by 255, which rounds a single
//     texel (NEAREST, or a texel centre) exactly like the codec's c / 255;
//     sRGB codes go through the decode table first;
//  4. with LINEAR mipmapping, lanes between two levels repeat 2 and 3 on the
//     second level and blend.
#include "texel/sample_rgba8.h"

#include <emmintrin.h>

#include <bit>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "texel/sample.h"
#include "util/cpu_features.h"

namespace duet::texel {
namespace {

static_assert(std::endian::native == std::endian::little, "texel words are read as little-endian uint32");

using rgba8::ComponentSource;
using rgba8::kLanes;
using rgba8::LaneLevels;
using sampling::LaneCount;

// A texel word.
inline uint32_t LoadWord(const std::byte* at) {
  uint32_t word;
  std::memcpy(&word, at, sizeof word);
  return word;
}

// The vector operations sample_rgba8_lanes.h asks for, four lanes wide.
struct Sse2Lanes {
  using F = __m128;
  using I = __m128i;
  static constexpr uint32_t kWidth = 4;
  static F LoadF(const float* p) { return _mm_loadu_ps(p); }
  static I LoadI(const int32_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
  static F SetF(float x) { return _mm_set1_ps(x); }
  static void Store(uint32_t* p, F x) { _mm_storeu_ps(reinterpret_cast<float*>(p), x); }
  static I SetI(int32_t x) { return _mm_set1_epi32(x); }
  static F Add(F a, F b) { return _mm_add_ps(a, b); }
  static F Sub(F a, F b) { return _mm_sub_ps(a, b); }
  static F Mul(F a, F b) { return _mm_mul_ps(a, b); }
  static F Div(F a, F b) { return _mm_div_ps(a, b); }
  static F DivideBy255(F x) { return _mm_div_ps(x, _mm_set1_ps(255.0f)); }
  static constexpr bool kHasFloor = false;  // (no Floor: that is SSE4.1's)
  static F Min(F a, F b) { return _mm_min_ps(a, b); }
  static F Max(F a, F b) { return _mm_max_ps(a, b); }
  static F Less(F a, F b) { return _mm_cmplt_ps(a, b); }
  static F Greater(F a, F b) { return _mm_cmpgt_ps(a, b); }
  static F GreaterEqual(F a, F b) { return _mm_cmpge_ps(a, b); }
  static F LessEqual(F a, F b) { return _mm_cmple_ps(a, b); }
  static F Equal(F a, F b) { return _mm_cmpeq_ps(a, b); }
  static F NotEqual(F a, F b) { return _mm_cmpneq_ps(a, b); }
  static F AndF(F a, F b) { return _mm_and_ps(a, b); }
  static F SelectF(F mask, F a, F b) { return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b)); }
  static uint32_t MaskBits(F mask) { return static_cast<uint32_t>(_mm_movemask_ps(mask)); }
  static F AsFloat(I x) { return _mm_castsi128_ps(x); }
  static void StoreF(float* p, F x) { _mm_storeu_ps(p, x); }
  static void StoreI(int32_t* p, I x) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), x); }
  static I SubI(I a, I b) { return _mm_sub_epi32(a, b); }
  static I OrI(I a, I b) { return _mm_or_si128(a, b); }
  static I XorI(I a, I b) { return _mm_xor_si128(a, b); }
  static I AndNotI(I a, I b) { return _mm_andnot_si128(a, b); }  // ~a & b
  static bool AnySet(I mask) { return _mm_movemask_epi8(mask) != 0; }
  static I LaneBits() { return _mm_setr_epi32(1, 2, 4, 8); }
  static I TruncateToInt(F x) { return _mm_cvttps_epi32(x); }
  static I RoundToInt(F x) { return _mm_cvtps_epi32(x); }
  static F ToFloat(I x) { return _mm_cvtepi32_ps(x); }
  static I AsInt(F x) { return _mm_castps_si128(x); }
  static I AddI(I a, I b) { return _mm_add_epi32(a, b); }
  static I AndI(I a, I b) { return _mm_and_si128(a, b); }
  static I MinI(I a, I b) { return SelectI(_mm_cmplt_epi32(a, b), a, b); }  // pminsd is SSE4.1
  static I MaxI(I a, I b) { return SelectI(_mm_cmpgt_epi32(a, b), a, b); }
  static I SelectI(I mask, I a, I b) { return _mm_or_si128(_mm_and_si128(mask, a), _mm_andnot_si128(mask, b)); }
  static I ShiftLeft2(I a) { return _mm_slli_epi32(a, 2); }
  static I ShiftRight(I a, int count) { return _mm_srl_epi32(a, _mm_cvtsi32_si128(count)); }
  static I MulLo(I a, I b) {  // pmulld is SSE4.1
    const __m128i even = _mm_mul_epu32(a, b);
    const __m128i odd = _mm_mul_epu32(_mm_srli_epi64(a, 32), _mm_srli_epi64(b, 32));
    return _mm_unpacklo_epi32(_mm_shuffle_epi32(even, _MM_SHUFFLE(0, 0, 2, 0)),
                              _mm_shuffle_epi32(odd, _MM_SHUFFLE(0, 0, 2, 0)));
  }
  static I GreaterI(I a, I b) { return _mm_cmpgt_epi32(a, b); }
  static I EqualI(I a, I b) { return _mm_cmpeq_epi32(a, b); }
  static bool AllSet(I mask) { return _mm_movemask_epi8(mask) == 0xFFFF; }
  static bool AllEqualI(I a, I b) { return AllSet(EqualI(a, b)); }
  static I MiddleByte(I a, int byte) { return _mm_and_si128(ShiftRight(a, 8 * byte), _mm_set1_epi32(0xFF)); }
  static I Words(const std::byte* base, I offsets) {
    alignas(16) int32_t at[4];
    _mm_store_si128(reinterpret_cast<__m128i*>(at), offsets);
    return _mm_setr_epi32(static_cast<int32_t>(LoadWord(base + at[0])), static_cast<int32_t>(LoadWord(base + at[1])),
                          static_cast<int32_t>(LoadWord(base + at[2])), static_cast<int32_t>(LoadWord(base + at[3])));
  }
  static void Pairs(const std::byte* base, I offsets, I* first, I* second) {
    alignas(16) int32_t at[4];
    _mm_store_si128(reinterpret_cast<__m128i*>(at), offsets);
    long long pairs[4];
    for (int k = 0; k < 4; ++k) std::memcpy(&pairs[k], base + at[k], sizeof pairs[k]);
    // (a0 b0 a1 b1), (a2 b2 a3 b3) -> a0..a3, b0..b3
    const __m128 low = _mm_castsi128_ps(_mm_set_epi64x(pairs[1], pairs[0]));
    const __m128 high = _mm_castsi128_ps(_mm_set_epi64x(pairs[3], pairs[2]));
    *first = _mm_castps_si128(_mm_shuffle_ps(low, high, _MM_SHUFFLE(2, 0, 2, 0)));
    *second = _mm_castps_si128(_mm_shuffle_ps(low, high, _MM_SHUFFLE(3, 1, 3, 1)));
  }
  static F Lookup(const float* table, I index) {
    alignas(16) int32_t at[4];
    _mm_store_si128(reinterpret_cast<__m128i*>(at), index);
    return _mm_setr_ps(table[at[0]], table[at[1]], table[at[2]], table[at[3]]);
  }
};

#include "texel/sample_rgba8_lanes.h"

using Footprints4 = Footprints<Sse2Lanes>;

inline bool Inside(int32_t i, int32_t size) { return static_cast<uint32_t>(i) < static_cast<uint32_t>(size); }

// i and i + 1 wrapped; false when either is a border texel.
inline bool WrapPair(int32_t i, int32_t size, uint8_t mode, int32_t* i0, int32_t* i1) {
  if (static_cast<uint32_t>(i) < static_cast<uint32_t>(size - 1)) {  // the interior: both in range
    *i0 = i;
    *i1 = i + 1;
    return true;
  }
  *i0 = sampling::Wrap(i, size, mode);
  *i1 = sampling::Wrap(i + 1, size, mode);
  return Inside(*i0, size) && Inside(*i1, size);
}

// One lane's footprint (element `k` of the arrays), with the general path's
// arithmetic: u = s * width + offset, minus one half for LINEAR. False when
// it reaches a border texel.
bool LaneFootprint(const SampledImageState& state, const SampledLevel& level, const std::byte* layer_base,
                   bool linear, float s, float t, int32_t offset_s, int32_t offset_t, int k, uint32_t texels[4][4],
                   float* alpha, float* beta) {
  const size_t stride = state.texel_stride;
  if (!linear) {
    const int32_t i = sampling::Wrap(sampling::FloorToInt(s * level.scale[0] + static_cast<float>(offset_s)),
                                     level.extent[0], state.wrap_nearest[0]);
    const int32_t j = sampling::Wrap(sampling::FloorToInt(t * level.scale[1] + static_cast<float>(offset_t)),
                                     level.extent[1], state.wrap_nearest[1]);
    if (!Inside(i, level.extent[0]) || !Inside(j, level.extent[1])) return false;
    const uint32_t word =
        LoadWord(layer_base + static_cast<size_t>(j) * level.row_pitch + static_cast<size_t>(i) * stride);
    for (int corner = 0; corner < 4; ++corner) texels[corner][k] = word;
    alpha[k] = beta[k] = 0.0f;
    return true;
  }
  const int32_t i = sampling::FloorAndFraction(s * level.scale[0] + static_cast<float>(offset_s) - 0.5f, &alpha[k]);
  const int32_t j = sampling::FloorAndFraction(t * level.scale[1] + static_cast<float>(offset_t) - 0.5f, &beta[k]);
  int32_t i0, i1, j0, j1;
  if (!WrapPair(i, level.extent[0], state.wrap_linear[0], &i0, &i1) ||
      !WrapPair(j, level.extent[1], state.wrap_linear[1], &j0, &j1))
    return false;
  const std::byte* row0 = layer_base + static_cast<size_t>(j0) * level.row_pitch;
  const std::byte* row1 = layer_base + static_cast<size_t>(j1) * level.row_pitch;
  const size_t x0 = static_cast<size_t>(i0) * stride, x1 = static_cast<size_t>(i1) * stride;
  texels[0][k] = LoadWord(row0 + x0);
  texels[1][k] = LoadWord(row0 + x1);
  texels[2][k] = LoadWord(row1 + x0);
  texels[3][k] = LoadWord(row1 + x1);
  return true;
}

// The source of result component `component` (after the swizzle).
ComponentSource SourceOf(const SampledImageState& state, int component) {
  const uint8_t source = state.swizzle[component];
  if (source == kSwizzleZero) return {ComponentSource::kZero, 0};
  if (source == kSwizzleOne) return {ComponentSource::kOne, 0};
  // BGRA stores B, G, R, A: R and B trade places.
  const bool bgra = state.inline_format == InlineTexelFormat::kBgra8;
  const uint8_t byte = bgra && (source == 0 || source == 2) ? static_cast<uint8_t>(2 - source) : source;
  const bool srgb = state.srgb8 && source < 3;
  return {srgb ? ComponentSource::kSrgb : ComponentSource::kUnorm, static_cast<uint8_t>(8 * byte)};
}

// SampleUniformGroupsAvx512 in use (with the AVX2 groups): the CPU has it
// and DUET_LANE_ISA asks for neither the baseline nor AVX2.
bool Avx512Groups() {
  static const bool enabled = [] {
    const char* isa = std::getenv("DUET_LANE_ISA");
    return CpuHasAvx512() &&
           (isa == nullptr || (std::strcmp(isa, "baseline") != 0 && std::strcmp(isa, "avx2") != 0));
  }();
  return enabled;
}

// SampleGroupsAvx2 in use: the CPU has AVX2 and DUET_LANE_ISA (the
// interpreter's choice of instruction set) does not ask for the baseline.
bool& WideGroups() {
  static bool enabled = [] {
    const char* isa = std::getenv("DUET_LANE_ISA");
    return CpuHasAvx2() && (isa == nullptr || std::strcmp(isa, "baseline") != 0);
  }();
  return enabled;
}

void ChooseLaneLevels(const SampledImageState& state, const sampling::Operands& op, LaneMask lane_mask,
                      uint32_t lane_count, bool lod_matters, LaneLevels* out) {
  if (!lod_matters) {
    out->uniform = true;
    out->uniform_linear = state.mag_filter == VK_FILTER_LINEAR;
    return;
  }
  for (uint32_t lane = lane_count; lane < ((lane_count + 3) & ~3u); ++lane) {  // LevelsOf reads whole groups
    out->hi[lane] = out->lo[lane] = 0;
    out->linear[lane] = false;
  }
  // Eight lanes at a time with AVX2, four otherwise and for the rest, while
  // the operand arrays hold them (they end at the last active lane); lane by
  // lane from a group whose log2 needs the special cases.
  uint32_t first = WideGroups() ? rgba8::ChooseLevelsAvx2(state, op, lane_mask, lane_count, out) : 0;
  for (; first + 4 <= lane_count; first += 4)
    if (!ChooseGroupLevels<Sse2Lanes>(state, op, lane_mask, first, out)) break;
  if (first == lane_count) return;
  float lambda_prime[kLanes];
  sampling::ComputeLambdaPrime<SampledDim::k2D>(state, op, lane_count, lambda_prime);
  for (uint32_t lane = first; lane < lane_count; ++lane) {
    const sampling::LevelChoice choice = sampling::ChooseLevels(state, lambda_prime[lane], op.min_lod[lane]);
    out->hi[lane] = choice.hi;
    out->lo[lane] = choice.lo;
    out->linear[lane] = (choice.magnified ? state.mag_filter : state.min_filter) == VK_FILTER_LINEAR;
    const bool blend = choice.lo != choice.hi && choice.delta != 0.0f && ((lane_mask >> lane) & 1) != 0;
    out->delta[lane] = blend ? choice.delta : 0.0f;
    if (blend) out->two_levels |= LaneMask{1} << lane;
  }
}

// The levels and filters of four lanes (only those of the group's mask are
// meaningful).
struct GroupLevels {
  int32_t level[4];
  bool linear[4];
  bool same;  // all four alike
};

GroupLevels LevelsOf(const LaneLevels& levels, uint32_t first, bool lower) {
  GroupLevels g;
  if (levels.uniform) {
    for (int k = 0; k < 4; ++k) {
      g.level[k] = 0;
      g.linear[k] = levels.uniform_linear;
    }
    g.same = true;
    return g;
  }
  const int32_t* level = lower ? levels.lo : levels.hi;
  g.same = true;
  for (int k = 0; k < 4; ++k) {
    g.level[k] = level[first + k];
    g.linear[k] = levels.linear[first + k];
    g.same = g.same && g.level[k] == g.level[0] && g.linear[k] == g.linear[0];
  }
  return g;
}

// Pass 1 lane by lane for the lanes of `lanes` (a nibble) from `first`.
// Returns the lanes (a nibble) whose footprint reaches a border texel; they
// and the lanes outside `lanes` read zeros.
uint32_t LaneFootprints(const SampledImageState& state, const sampling::Operands& op, uint32_t first, uint32_t lanes,
                        const GroupLevels& g, Footprints4* fp, bool* nearest) {
  alignas(16) uint32_t texels[4][4] = {};
  alignas(16) float alpha[4] = {}, beta[4] = {};
  uint32_t border = 0;
  bool any_linear = false;
  for (int k = 0; k < 4; ++k) {
    if (((lanes >> k) & 1) == 0) continue;
    const uint32_t lane = first + k;
    const SampledLevel& level = state.levels[g.level[k]];
    const std::byte* layer_base = level.base;
    if (state.arrayed) {
      layer_base +=
          static_cast<size_t>(sampling::SelectLayer(op.coords[2][lane], state.layer_count)) * level.layer_pitch;
    }
    if (!LaneFootprint(state, level, layer_base, g.linear[k], op.coords[0][lane], op.coords[1][lane],
                       op.Offset(0, lane), op.Offset(1, lane), k, texels, alpha, beta)) {
      for (auto& corner : texels) corner[k] = 0;
      alpha[k] = beta[k] = 0.0f;
      border |= 1u << k;
    }
    any_linear = any_linear || g.linear[k];
  }
  for (int corner = 0; corner < 4; ++corner)
    fp->texels[corner] = _mm_load_si128(reinterpret_cast<const __m128i*>(texels[corner]));
  fp->alpha = _mm_load_ps(alpha);
  fp->beta = _mm_load_ps(beta);
  *nearest = !any_linear;
  return border;
}

// Pass 1 for four lanes: whole groups that read one level with one filter
// go through VectorFootprints, the rest lane by lane.
inline uint32_t GroupFootprints(const SampledImageState& state, const sampling::Operands& op, uint32_t first,
                                uint32_t lanes, const GroupLevels& g, Footprints4* fp, bool* nearest) {
  if (lanes == 0xF && g.same) {
    const SampledLevel& level = state.levels[g.level[0]];
    if (VectorAddressable(state, level) &&
        VectorFootprints<Sse2Lanes>(state, LevelAddressing<Sse2Lanes>(state, level, g.linear[0], op), op, first, fp)) {
      *nearest = !g.linear[0];
      return 0;
    }
  }
  return LaneFootprints(state, op, first, lanes, g, fp, nearest);
}

void SampleRgba8Waves(const SampledImageState& state, const SampleRequest& request, LaneMask lane_mask,
                      uint32_t* const out[4]) {
  const sampling::Operands op(request);
  const uint32_t lane_count = LaneCount(lane_mask);
  LaneLevels levels;
  ChooseLaneLevels(state, op, lane_mask, lane_count, LodMatters(state, request.min_lod != nullptr), &levels);
  const ComponentSource* sources = state.rgba8_sources;

  // Whole groups of sixteen first (with AVX-512), then of eight (with AVX2),
  // then whole groups of four of one level and filter, their results
  // written in place.
  LaneMask done = 0;
  if (WideGroups() && levels.uniform && Avx512Groups())
    done = rgba8::SampleUniformGroupsAvx512(state, op, lane_mask, lane_count, levels, sources, out);
  if (WideGroups() && (lane_mask & ~done) != 0)
    done |= rgba8::SampleGroupsAvx2(state, op, lane_mask & ~done, lane_count, levels, sources, out);
  if (levels.uniform && (lane_mask & ~done) != 0)
    done |= UniformGroups<Sse2Lanes>(state, op, lane_mask & ~done, lane_count, levels, sources, out);
  // Then the groups of four with lanes left.
  LaneMask general = 0;
  for (LaneMask rest = lane_mask & ~done; rest != 0;) {
    const uint32_t first = static_cast<uint32_t>(__builtin_ctzll(rest)) & ~3u;
    const uint32_t lanes = static_cast<uint32_t>(rest >> first) & 0xF;
    rest &= ~(LaneMask{0xF} << first);
    Footprints4 fp;
    bool nearest;
    uint32_t border = GroupFootprints(state, op, first, lanes, LevelsOf(levels, first, false), &fp, &nearest);
    __m128 value[4];
    Filter<Sse2Lanes>(state, sources, fp, nearest, value);
    const uint32_t blend = static_cast<uint32_t>(levels.two_levels >> first) & 0xF & ~border;
    if (blend != 0) {
      // value += delta * (lower - value), with delta 0 for lanes of one level.
      border |= GroupFootprints(state, op, first, blend, LevelsOf(levels, first, true), &fp, &nearest);
      __m128 lower[4];
      Filter<Sse2Lanes>(state, sources, fp, nearest, lower);
      alignas(16) float delta[4];
      for (int k = 0; k < 4; ++k) delta[k] = ((blend >> k) & 1) != 0 ? levels.delta[first + k] : 0.0f;
      BlendLevels<Sse2Lanes>(value, lower, _mm_load_ps(delta));
    }
    // Border lanes are written over by the general path below.
    if (lanes == 0xF) {
      StoreGroup<Sse2Lanes>(out, first, value);
    } else {
      for (int c = 0; c < 4; ++c) {
        alignas(16) uint32_t words[4];
        _mm_store_ps(reinterpret_cast<float*>(words), value[c]);
        for (uint32_t k = 0; k < 4; ++k)
          if (((lanes >> k) & 1) != 0) out[c][first + k] = words[k];
      }
    }
    general |= LaneMask{border} << first;
  }

  if (general != 0) {
    TexelValue values[kLanes];
    Sample(state, request, general, values);
    for (LaneMask mask = general; mask != 0; mask &= mask - 1) {
      const uint32_t lane = static_cast<uint32_t>(__builtin_ctzll(mask));
      for (int c = 0; c < 4; ++c) out[c][lane] = values[lane].u[c];
    }
  }
}

}  // namespace

namespace rgba8 {

void ResolveSources(SampledImageState* state) {
  uint32_t seen = 0;  // bytes read so far
  bool permutation = true;
  int8_t byte_component[4] = {-1, -1, -1, -1};
  for (int c = 0; c < 4; ++c) {
    const ComponentSource source = SourceOf(*state, c);
    state->rgba8_sources[c] = source;
    const int b = source.shift / 8;
    if (source.kind == ComponentSource::kZero || source.kind == ComponentSource::kOne || ((seen >> b) & 1) != 0) {
      permutation = false;
      continue;
    }
    seen |= 1u << b;
    byte_component[b] = static_cast<int8_t>(c);
  }
  for (int b = 0; b < 4; ++b) state->rgba8_byte_component[b] = permutation ? byte_component[b] : int8_t{-1};
}

bool WideGroupsEnabled() { return WideGroups(); }
void SetWideGroupsEnabled(bool enabled) { WideGroups() = enabled && CpuHasAvx2(); }

}  // namespace rgba8

bool LodMatters(const SampledImageState& state, bool has_min_lod_operand) {
  if (state.mag_filter != state.min_filter) return true;
  // Anisotropic probes follow the derivatives even within one level.
  if (state.sampler.max_anisotropy > 1.0f && state.dim != SampledDim::kCube) return true;
  if (state.level_count == 1) return false;
  // lambda = clamp(lambda', lod_min, lod_max) with lod_min = max(minLod, 0)
  // stays at or below 0 when both limits do: the base level.
  return !(state.sampler.max_lod <= 0.0f && state.sampler.min_lod <= 0.0f && !has_min_lod_operand);
}

void SampleComponents(const SampledImageState& state, const SampleRequest& request, LaneMask lane_mask,
                      uint32_t* const out[4]) {
  if (lane_mask == 0) return;
  if (state.rgba8_waves) {
    SampleRgba8Waves(state, request, lane_mask, out);
    return;
  }
  TexelValue values[kLanes];
  Sample(state, request, lane_mask, values);
  for (LaneMask mask = lane_mask; mask != 0; mask &= mask - 1) {
    const uint32_t lane = static_cast<uint32_t>(__builtin_ctzll(mask));
    for (int c = 0; c < 4; ++c) out[c][lane] = values[lane].u[c];
  }
}

}  // namespace duet::texel
