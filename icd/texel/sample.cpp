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

using sampling::CubeFace;
using sampling::FilteredCoordinateCount;
using sampling::Operands;
using sampling::TexelSpace;

// Lanes up to the last active one: the length per-lane loops may run.
inline uint32_t LaneCount(LaneMask lane_mask) {
  return lane_mask == 0 ? 0 : 64u - static_cast<uint32_t>(__builtin_clzll(lane_mask));
}

// lambda' = lambda_base + clamp(sampler bias + shader bias) for every lane
// up to the last active one (inactive lanes compute harmless garbage), so
// the explicit-LOD loop vectorizes. lambda_base is the Lod operand, or
// log2(rho_max) from the derivatives: rho_x is the length of the
// x-derivative of (u, v, w) scaled to the base level, rho_y likewise (the
// spec allows any f between the largest component and sqrt(2) times their
// sum; the Euclidean length is the isotropic footprint's own measure).
// Without anisotropy, eta = 1 and lambda_base = log2(rho_max).
template <SampledDim kDim>
void ComputeLambdaPrime(const SampledImageState& state, const Operands& op, uint32_t lane_count,
                        float* lambda_prime) {
  const float sampler_bias = state.sampler.mip_lod_bias;
  auto bias = [&](uint32_t lane) {
    return std::clamp(sampler_bias + op.bias[lane], -kMaxSamplerLodBias, kMaxSamplerLodBias);
  };
  if (op.explicit_lod) {
    for (uint32_t lane = 0; lane < lane_count; ++lane) lambda_prime[lane] = op.lod[lane] + bias(lane);
    return;
  }
  constexpr int n = FilteredCoordinateCount(kDim);
  const SampledLevel& base = state.levels[0];
  float rho2[kMaxSampleLanes];  // rho_max squared
  if constexpr (kDim == SampledDim::kCube) {
    for (uint32_t lane = 0; lane < lane_count; ++lane) {
      const CubeFace face = sampling::SelectCubeFace(op.coords[0][lane], op.coords[1][lane], op.coords[2][lane]);
      const float direction_dx[3] = {op.ddx[0][lane], op.ddx[1][lane], op.ddx[2][lane]};
      const float direction_dy[3] = {op.ddy[0][lane], op.ddy[1][lane], op.ddy[2][lane]};
      float dx[2], dy[2];
      sampling::CubeFaceDerivatives(face, direction_dx, &dx[0], &dx[1]);
      sampling::CubeFaceDerivatives(face, direction_dy, &dy[0], &dy[1]);
      float rho_x2 = 0.0f, rho_y2 = 0.0f;
      for (int c = 0; c < 2; ++c) {
        rho_x2 += dx[c] * base.scale[c] * dx[c] * base.scale[c];
        rho_y2 += dy[c] * base.scale[c] * dy[c] * base.scale[c];
      }
      rho2[lane] = std::max(rho_x2, rho_y2);
    }
  } else {
    for (uint32_t lane = 0; lane < lane_count; ++lane) {
      float rho_x2 = 0.0f, rho_y2 = 0.0f;
      for (int c = 0; c < n; ++c) {
        const float mx = op.ddx[c][lane] * base.scale[c], my = op.ddy[c][lane] * base.scale[c];
        rho_x2 += mx * mx;
        rho_y2 += my * my;
      }
      rho2[lane] = std::max(rho_x2, rho_y2);
    }
  }
  // log2(sqrt(x)) without the sqrt; log2(0) = -inf, a point footprint.
  for (uint32_t lane = 0; lane < lane_count; ++lane) lambda_prime[lane] = 0.5f * std::log2(rho2[lane]) + bias(lane);
}

// Image level selection for one lane.
struct LevelChoice {
  float level;     // d_l - level_base
  bool magnified;  // lambda <= 0: magFilter within a level
  int32_t hi, lo;  // levels read (relative to the base); lo == hi when one level
  float delta;     // weight of level lo
};

inline LevelChoice ChooseLevels(const SampledImageState& state, float lambda_prime, float shader_min_lod) {
  // shaderOp.lod_min is MinLod, or 0 without the operand (kZeros).
  const float lod_min = std::max(state.sampler.min_lod, shader_min_lod);
  const float lod_max = state.sampler.max_lod;
  // Written so a NaN lambda' (NaN coordinates or derivatives) lands on
  // lod_min rather than propagating into the level index.
  float lambda = lambda_prime > lod_max ? lod_max : (lambda_prime >= lod_min ? lambda_prime : lod_min);
  if (!(lambda == lambda)) lambda = 0.0f;  // NaN minLod/maxLod
  LevelChoice choice;
  choice.magnified = lambda <= 0.0f;
  const int32_t q = static_cast<int32_t>(state.level_count) - 1;
  const float d = std::clamp(lambda, 0.0f, static_cast<float>(q));
  const int32_t whole = static_cast<int32_t>(d);  // d >= 0: truncation is floor
  if (state.mip_linear) {
    choice.level = d;
    choice.hi = whole;
    choice.lo = std::min(whole + 1, q);
    choice.delta = d - static_cast<float>(whole);
  } else {
    // nearest(d') = ceil(d' + 0.5) - 1, the preferred rule, which rounds
    // ties down: the next level once the fraction exceeds one half.
    choice.hi = choice.lo = whole + (d - static_cast<float>(whole) > 0.5f ? 1 : 0);
    choice.level = static_cast<float>(choice.hi);
    choice.delta = 0.0f;
  }
  return choice;
}

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
  const float wi0 = 1.0f - alpha[0], wi1 = alpha[0], wj0 = 1.0f - alpha[1], wj1 = alpha[1];
  for (int c = 0; c < 4; ++c) {
    out->f[c] = wj0 * (wi0 * texels[0].f[c] + wi1 * texels[1].f[c]) +
                wj1 * (wi0 * texels[2].f[c] + wi1 * texels[3].f[c]);
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
  Reducer reducer(state.sampler.reduction_mode);
  for (int corner = 0; corner < (1 << N); ++corner) {
    int32_t ijk[3] = {0, 0, 0};
    float weight = 1.0f;
    for (int c = 0; c < N; ++c) {
      const bool upper = ((corner >> c) & 1) != 0;
      ijk[c] = upper ? i1[c] : i0[c];
      weight *= upper ? alpha[c] : 1.0f - alpha[c];
    }
    TexelValue texel;
    sampling::ReadTexel<kCompare>(state, level, space, ijk[0], ijk[1], ijk[2], dref, &texel);
    reducer.Add(weight, texel);
  }
  *out = reducer.value();
}

template <SampledDim kDim, bool kCompare>
void SampleLanes(const SampledImageState& state, const SampleRequest& request, LaneMask lane_mask, TexelValue* out) {
  constexpr int n = FilteredCoordinateCount(kDim);
  const Operands op(request);
  float lambda_prime[kMaxSampleLanes];
  ComputeLambdaPrime<kDim>(state, op, LaneCount(lane_mask), lambda_prime);
  for (LaneMask mask = lane_mask; mask != 0; mask &= mask - 1) {
    const uint32_t lane = static_cast<uint32_t>(__builtin_ctzll(mask));
    float coord[3];
    CubeFace cube_face{};
    const TexelSpace space = sampling::LocateLane<kDim>(state, op.coords, lane, coord, &cube_face);
    const LevelChoice choice = ChooseLevels(state, lambda_prime[lane], op.min_lod[lane]);
    const VkFilter filter = choice.magnified ? state.mag_filter : state.min_filter;
    int32_t offset[3] = {0, 0, 0};
    for (int c = 0; c < n; ++c) offset[c] = op.Offset(c, lane);
    const float dref = kCompare ? op.Dref(state, lane) : 0.0f;

    TexelValue value;
    FilterLevel<n, kCompare>(state, choice.hi, filter, coord, offset, space, dref, &value);
    if (choice.lo != choice.hi && choice.delta != 0.0f) {
      TexelValue lower;
      FilterLevel<n, kCompare>(state, choice.lo, filter, coord, offset, space, dref, &lower);
      if (state.sampler.reduction_mode == VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE) {
        for (int c = 0; c < 4; ++c) value.f[c] += choice.delta * (lower.f[c] - value.f[c]);
      } else {
        Reducer reducer(state.sampler.reduction_mode);
        reducer.Add(1.0f - choice.delta, value);
        reducer.Add(choice.delta, lower);
        value = reducer.value();
      }
    }
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
