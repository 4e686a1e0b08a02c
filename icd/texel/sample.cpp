// OpImageSample* and OpImageQueryLod: the LOD operation, level selection and
// texel filtering within and between levels.
//
// The lane loop is instantiated per dimensionality and for depth comparison
// on or off, so per-lane code has no switches on view type; filters, mip
// mode and address modes stay runtime values (branches every lane of a call
// takes the same way).
#include "texel/sample.h"

#include <algorithm>
#include <cmath>

#include "texel/sample_internal.h"

namespace duet::texel {
namespace {

using sampling::ChooseLevels;
using sampling::ComputeLambdaPrime;
using sampling::CubeFace;
using sampling::FilteredCoordinateCount;
using sampling::LaneCount;
using sampling::LevelChoice;
using sampling::Operands;
using sampling::TexelSpace;

// Combines weighted values: a weighted sum, or the component-wise min/max
// of those with non-zero weight (VK_SAMPLER_REDUCTION_MODE_MIN/MAX).
class Reducer {
 public:
  explicit Reducer(VkSamplerReductionMode mode) : mode_(mode) {}

  void Add(float weight, const TexelValue& texel) {
    if (mode_ == VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE) {
      for (int c = 0; c < 4; ++c) value_.f[c] += weight * texel.f[c];
      return;
    }
    if (weight == 0.0f) return;
    for (int c = 0; c < 4; ++c) {
      if (!any_) value_.f[c] = texel.f[c];
      else if (mode_ == VK_SAMPLER_REDUCTION_MODE_MIN) value_.f[c] = std::min(value_.f[c], texel.f[c]);
      else value_.f[c] = std::max(value_.f[c], texel.f[c]);
    }
    any_ = true;
  }

  const TexelValue& value() const { return value_; }

 private:
  VkSamplerReductionMode mode_;
  TexelValue value_{};
  bool any_ = false;
};

// a + t (b - a): exactly a where the texels agree (a weighted sum of the
// same texel may miss it by an ulp, which a 32-bit float format shows).
inline float Lerp(float a, float b, float t) { return a + t * (b - a); }

// The interior of a 2D level with an uncompressed format and a weighted
// average: i1 = i0 + 1 and both rows in range, so each row's two texels are
// neighbours in memory and unpack together.
template <bool kCompare>
bool TryBilinearInterior(const SampledImageState& state, const SampledLevel& level, const TexelSpace& space,
                         const int32_t i0[2], const int32_t i1[2], const float alpha[2], float dref, TexelValue* out) {
  if (state.codec == nullptr || i1[0] != i0[0] + 1 ||
      static_cast<uint32_t>(i1[0]) >= static_cast<uint32_t>(level.extent[0]) ||
      static_cast<uint32_t>(i0[0]) >= static_cast<uint32_t>(level.extent[0]) ||
      static_cast<uint32_t>(i0[1]) >= static_cast<uint32_t>(level.extent[1]) ||
      static_cast<uint32_t>(i1[1]) >= static_cast<uint32_t>(level.extent[1]) ||
      state.sampler.reduction_mode != VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE)
    return false;
  TexelValue texels[4];  // i0j0, i1j0, i0j1, i1j1
  const std::byte* row0 = sampling::TexelAddress(state, level, space.layer, i0[0], i0[1], 0);
  const std::byte* row1 = sampling::TexelAddress(state, level, space.layer, i0[0], i1[1], 0);
  if (state.inline_format != InlineTexelFormat::kNone) {
    sampling::DecodeInline8(state, row0, &texels[0]);
    sampling::DecodeInline8(state, row0 + state.texel_stride, &texels[1]);
    sampling::DecodeInline8(state, row1, &texels[2]);
    sampling::DecodeInline8(state, row1 + state.texel_stride, &texels[3]);
  } else {
    state.codec->unpack(row0, &texels[0], 2);
    state.codec->unpack(row1, &texels[2], 2);
  }
  if constexpr (kCompare) {
    for (TexelValue& t : texels)
      t.f[0] = sampling::CompareDepth(state.sampler.compare_op, dref, t.f[0]) ? 1.0f : 0.0f;
  }
  for (int c = 0; c < 4; ++c) {
    out->f[c] = Lerp(Lerp(texels[0].f[c], texels[1].f[c], alpha[0]), Lerp(texels[2].f[c], texels[3].f[c], alpha[0]),
                     alpha[1]);
  }
  return true;
}

// Texel filtering within one level over the N coordinates the
// dimensionality has.
template <int N, bool kCompare>
void FilterLevel(const SampledImageState& state, int32_t level_index, VkFilter filter, const float coord[3],
                 const int32_t offset[3], const TexelSpace& space, float dref, TexelValue* out) {
  const SampledLevel& level = state.levels[level_index];
  if (filter == VK_FILTER_NEAREST) {
    int32_t ijk[3] = {0, 0, 0};
    for (int c = 0; c < N; ++c) {
      const float u = coord[c] * level.scale[c] + static_cast<float>(offset[c]);
      ijk[c] = sampling::Wrap(sampling::FloorToInt(u), level.extent[c], state.wrap_nearest[c]);
    }
    sampling::ReadTexel<kCompare>(state, level, space, ijk[0], ijk[1], ijk[2], dref, out);
    return;
  }
  int32_t i0[3] = {0, 0, 0}, i1[3] = {0, 0, 0};
  float alpha[3] = {0.0f, 0.0f, 0.0f};
  for (int c = 0; c < N; ++c) {
    const float u = coord[c] * level.scale[c] + static_cast<float>(offset[c]) - 0.5f;
    const int32_t floor_u = sampling::FloorAndFraction(u, &alpha[c]);
    i0[c] = sampling::Wrap(floor_u, level.extent[c], state.wrap_linear[c]);
    i1[c] = sampling::Wrap(floor_u + 1, level.extent[c], state.wrap_linear[c]);
  }
  if constexpr (N == 2) {
    if (TryBilinearInterior<kCompare>(state, level, space, i0, i1, alpha, dref, out)) return;
  }
  TexelValue texels[1 << N];
  const bool average = state.sampler.reduction_mode == VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE;
  Reducer reducer(state.sampler.reduction_mode);
  for (int corner = 0; corner < (1 << N); ++corner) {
    int32_t ijk[3] = {0, 0, 0};
    float weight = 1.0f;
    for (int c = 0; c < N; ++c) {
      const bool upper = ((corner >> c) & 1) != 0;
      ijk[c] = upper ? i1[c] : i0[c];
      weight *= upper ? alpha[c] : 1.0f - alpha[c];
    }
    sampling::ReadTexel<kCompare>(state, level, space, ijk[0], ijk[1], ijk[2], dref, &texels[corner]);
    if (!average) reducer.Add(weight, texels[corner]);
  }
  if (!average) {
    *out = reducer.value();
    return;
  }
  // The weighted average as lerps along each coordinate in turn.
  for (int c = 0; c < N; ++c) {
    const int pairs = 1 << (N - 1 - c);
    for (int k = 0; k < pairs; ++k)
      for (int comp = 0; comp < 4; ++comp)
        texels[k].f[comp] = Lerp(texels[2 * k].f[comp], texels[2 * k + 1].f[comp], alpha[c]);
  }
  *out = texels[0];
}

// One probe: filtered within level(s) `choice` at `coord`.
template <int N, bool kCompare>
TexelValue FilterLevels(const SampledImageState& state, const LevelChoice& choice, const float coord[3],
                        const int32_t offset[3], const TexelSpace& space, float dref) {
  const VkFilter filter = choice.magnified ? state.mag_filter : state.min_filter;
  TexelValue value;
  FilterLevel<N, kCompare>(state, choice.hi, filter, coord, offset, space, dref, &value);
  if (choice.lo != choice.hi && choice.delta != 0.0f) {
    TexelValue lower;
    FilterLevel<N, kCompare>(state, choice.lo, filter, coord, offset, space, dref, &lower);
    if (state.sampler.reduction_mode == VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE) {
      for (int c = 0; c < 4; ++c) value.f[c] += choice.delta * (lower.f[c] - value.f[c]);
    } else {
      Reducer reducer(state.sampler.reduction_mode);
      reducer.Add(1.0f - choice.delta, value);
      reducer.Add(choice.delta, lower);
      value = reducer.value();
    }
  }
  return value;
}

template <SampledDim kDim, bool kCompare>
void SampleLanes(const SampledImageState& state, const SampleRequest& request, LaneMask lane_mask, TexelValue* out) {
  constexpr int n = FilteredCoordinateCount(kDim);
  const Operands op(request);
  float lambda_prime[kMaxSampleLanes];
  // Anisotropy needs derivatives and one face (not cube maps).
  const bool anisotropic = kDim != SampledDim::kCube && state.sampler.max_anisotropy > 1.0f && !op.explicit_lod;
  sampling::Anisotropy aniso;
  if (anisotropic) sampling::ComputeAnisotropicLambda<kDim>(state, op, LaneCount(lane_mask), lambda_prime, &aniso);
  else ComputeLambdaPrime<kDim>(state, op, LaneCount(lane_mask), lambda_prime);
  for (LaneMask mask = lane_mask; mask != 0; mask &= mask - 1) {
    const uint32_t lane = static_cast<uint32_t>(__builtin_ctzll(mask));
    float coord[3];
    CubeFace cube_face{};
    const TexelSpace space = sampling::LocateLane<kDim>(state, op.coords, lane, coord, &cube_face);
    const LevelChoice choice = ChooseLevels(state, lambda_prime[lane], op.min_lod[lane]);
    int32_t offset[3] = {0, 0, 0};
    for (int c = 0; c < n; ++c) offset[c] = op.Offset(c, lane);
    const float dref = kCompare ? op.Dref(state, lane) : 0.0f;

    TexelValue value;
    const uint32_t probes = anisotropic ? aniso.samples[lane] : 1;
    if (probes <= 1) {
      value = FilterLevels<n, kCompare>(state, choice, coord, offset, space, dref);
    } else {
      // Probes i = 1..N at (i / (N + 1) - 1/2) of the long axis, averaged.
      Reducer reducer(state.sampler.reduction_mode);
      for (uint32_t i = 1; i <= probes; ++i) {
        const float t = static_cast<float>(i) / static_cast<float>(probes + 1) - 0.5f;
        float at[3] = {coord[0], coord[1], coord[2]};
        for (int c = 0; c < n; ++c) at[c] += t * aniso.axis[lane][c];
        reducer.Add(1.0f / static_cast<float>(probes), FilterLevels<n, kCompare>(state, choice, at, offset, space, dref));
      }
      value = reducer.value();
    }
    if (state.filtered_min <= state.filtered_max)
      for (int c = 0; c < 4; ++c) value.f[c] = std::clamp(value.f[c], state.filtered_min, state.filtered_max);
    sampling::ApplySwizzle(state, value, &out[lane]);
  }
}

template <bool kCompare>
void SampleByDim(const SampledImageState& state, const SampleRequest& request, LaneMask lane_mask, TexelValue* out) {
  switch (state.dim) {
    case SampledDim::k1D: return SampleLanes<SampledDim::k1D, kCompare>(state, request, lane_mask, out);
    case SampledDim::k2D: return SampleLanes<SampledDim::k2D, kCompare>(state, request, lane_mask, out);
    case SampledDim::k3D: return SampleLanes<SampledDim::k3D, kCompare>(state, request, lane_mask, out);
    case SampledDim::kCube: return SampleLanes<SampledDim::kCube, kCompare>(state, request, lane_mask, out);
  }
}

template <SampledDim kDim>
void QueryLodLanes(const SampledImageState& state, const SampleRequest& request, LaneMask lane_mask,
                   float (*out)[2]) {
  const Operands op(request);
  float lambda_prime[kMaxSampleLanes];
  ComputeLambdaPrime<kDim>(state, op, LaneCount(lane_mask), lambda_prime);
  for (LaneMask mask = lane_mask; mask != 0; mask &= mask - 1) {
    const uint32_t lane = static_cast<uint32_t>(__builtin_ctzll(mask));
    out[lane][0] = ChooseLevels(state, lambda_prime[lane], op.min_lod[lane]).level;
    out[lane][1] = lambda_prime[lane];
  }
}

}  // namespace

void Sample(const SampledImageState& state, const SampleRequest& request, LaneMask lane_mask, TexelValue* out) {
  if (state.compare) SampleByDim<true>(state, request, lane_mask, out);
  else SampleByDim<false>(state, request, lane_mask, out);
}

void QueryLod(const SampledImageState& state, const SampleRequest& request, LaneMask lane_mask, float (*out)[2]) {
  switch (state.dim) {
    case SampledDim::k1D: return QueryLodLanes<SampledDim::k1D>(state, request, lane_mask, out);
    case SampledDim::k2D: return QueryLodLanes<SampledDim::k2D>(state, request, lane_mask, out);
    case SampledDim::k3D: return QueryLodLanes<SampledDim::k3D>(state, request, lane_mask, out);
    case SampledDim::kCube: return QueryLodLanes<SampledDim::kCube>(state, request, lane_mask, out);
  }
}

}  // namespace duet::texel
