// The per-texel steps the sampling files share: coordinate wrapping, texel
// reads with texel replacement and depth comparison, cube face selection and
// reads across cube edges, lane location (cube face, array layer), the
// swizzle, the LOD operation and level selection. Internal to
// texel/sample*.cpp.
//
// Speed: the common case (an in-range texel of an uncompressed format) is
// inline and branch-light; everything rarer (border texels, cube edges and
// corners, block formats) is out of line.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "texel/sample.h"

namespace duet::texel::sampling {

// Coordinates beyond this many texels are clamped before conversion to int:
// far past every image dimension, and exact in float.
inline constexpr float kCoordinateLimit = 16777216.0f;  // 2^24

// Read in place of absent per-lane operands.
alignas(64) inline constexpr float kZeros[kMaxSampleLanes] = {};

// floor(x) as an int, with NaN and huge values clamped (the spec leaves them
// undefined; this keeps them from being undefined behaviour). Truncation
// plus a correction: cheaper than std::floor without SSE4.1.
inline int32_t FloorToInt(float x) {
  if (!(x >= -kCoordinateLimit)) x = -kCoordinateLimit;
  if (x > kCoordinateLimit) x = kCoordinateLimit;
  const int32_t truncated = static_cast<int32_t>(x);
  return truncated - (x < static_cast<float>(truncated) ? 1 : 0);
}

// floor(x) and frac(x) = x - floor(x) together (the linear filter's i0 and alpha).
inline int32_t FloorAndFraction(float x, float* fraction) {
  if (!(x >= -kCoordinateLimit)) x = -kCoordinateLimit;
  if (x > kCoordinateLimit) x = kCoordinateLimit;
  const int32_t truncated = static_cast<int32_t>(x);
  const int32_t floor_x = truncated - (x < static_cast<float>(truncated) ? 1 : 0);
  *fraction = x - static_cast<float>(floor_x);
  return floor_x;
}

// The spec's mirror(n): n for n >= 0, -(1 + n) otherwise.
inline int32_t Mirror(int32_t n) { return n >= 0 ? n : -(1 + n); }

int32_t WrapOutside(int32_t i, int32_t size, uint8_t mode);

// The wrapping operation on one integer coordinate: the result lies in
// [0, size), or is -1 / size for CLAMP_TO_BORDER (a border texel), or is
// unchanged for kWrapCubeEdge. Every mode maps [0, size) to itself, so only
// coordinates outside pay for the mode.
inline int32_t Wrap(int32_t i, int32_t size, uint8_t mode) {
  if (static_cast<uint32_t>(i) < static_cast<uint32_t>(size)) return i;
  return WrapOutside(i, size, mode);
}

// The layer (or cube) an array coordinate selects: clamp(RNE(a), 0, count - 1).
inline int32_t SelectLayer(float a, uint32_t count) {
  const float rounded = std::nearbyint(a);  // ties to even in the default rounding mode
  if (!(rounded >= 0.0f)) return 0;
  const float last = static_cast<float>(count - 1);
  return rounded > last ? static_cast<int32_t>(count - 1) : static_cast<int32_t>(rounded);
}

// VkCompareOp with Dref as the reference and the texel as the test value.
inline bool CompareDepth(VkCompareOp op, float reference, float test) {
  switch (op) {
    case VK_COMPARE_OP_NEVER: return false;
    case VK_COMPARE_OP_LESS: return reference < test;
    case VK_COMPARE_OP_EQUAL: return reference == test;
    case VK_COMPARE_OP_LESS_OR_EQUAL: return reference <= test;
    case VK_COMPARE_OP_GREATER: return reference > test;
    case VK_COMPARE_OP_NOT_EQUAL: return reference != test;
    case VK_COMPARE_OP_GREATER_OR_EQUAL: return reference >= test;
    default: return true;  // ALWAYS
  }
}

inline void ApplySwizzle(const SampledImageState& state, const TexelValue& in, TexelValue* out) {
  if (state.identity_swizzle) {
    *out = in;
    return;
  }
  for (int c = 0; c < 4; ++c) {
    const uint8_t source = state.swizzle[c];
    out->u[c] = source < 4 ? in.u[source] : (source == kSwizzleZero ? 0u : state.one_bits);
  }
}

// The bytes of an in-range texel of an uncompressed format.
inline const std::byte* TexelAddress(const SampledImageState& state, const SampledLevel& level, int32_t layer,
                                     int32_t x, int32_t y, int32_t z) {
  return level.base + static_cast<size_t>(layer) * level.layer_pitch + static_cast<size_t>(z) * level.slice_pitch +
         static_cast<size_t>(y) * level.row_pitch + static_cast<size_t>(x) * state.texel_stride;
}

// An 8-bit RGBA or BGRA texel through the state's tables.
inline void DecodeInline8(const SampledImageState& state, const std::byte* texel, TexelValue* out) {
  const auto* b = reinterpret_cast<const uint8_t*>(texel);
  const bool bgra = state.inline_format == InlineTexelFormat::kBgra8;
  out->f[0] = state.rgb8_table[b[bgra ? 2 : 0]];
  out->f[1] = state.rgb8_table[b[1]];
  out->f[2] = state.rgb8_table[b[bgra ? 0 : 2]];
  out->f[3] = state.alpha8_table[b[3]];
}

// Reads an in-range texel of one layer, converted to RGBA.
inline void LoadTexel(const SampledImageState& state, const SampledLevel& level, int32_t layer, int32_t x, int32_t y,
                      int32_t z, TexelValue* out) {
  if (state.inline_format != InlineTexelFormat::kNone) {
    DecodeInline8(state, TexelAddress(state, level, layer, x, y, z), out);
  } else if (state.codec != nullptr) {
    state.codec->unpack(TexelAddress(state, level, layer, x, y, z), out, 1);
  } else {
    state.block_load(state, level, level.base + static_cast<size_t>(layer) * level.layer_pitch, x, y, z, out);
  }
}

// Where a lane reads within the view, after cube face and layer selection.
struct TexelSpace {
  int32_t layer = 0;       // the view layer of the lane's face / array element
  int32_t face = -1;       // cube face 0..5, -1 when not reading across cube edges
  int32_t cube_layer = 0;  // cube views: the layer of face 0 of the lane's cube
};

// Cube map face selection (z wins ties over y and x, y over x, as the spec
// recommends) and the face's coordinates: sc, tc and |rc| of the spec's table.
struct CubeFace {
  int32_t face;
  float sc, tc, rc_abs;
};
CubeFace SelectCubeFace(float rx, float ry, float rz);

// s_face, t_face of the spec's cube map coordinate transformation.
inline float CubeFaceCoord(float c, float rc_abs) { return 0.5f * c / rc_abs + 0.5f; }

// d(s_face)/dx and d(t_face)/dx (or /dy) from the derivatives of the direction.
void CubeFaceDerivatives(const CubeFace& face, const float d_direction[3], float* ds_face, float* dt_face);

// Cube map edge handling for a texel (i, j) of a face of size n that lies
// past exactly one edge (by one texel): the same texel's neighbour on the
// adjacent face.
void CubeAdjacentTexel(int32_t face, int32_t i, int32_t j, int32_t n, int32_t* face_out, int32_t* i_out,
                       int32_t* j_out);

// Texel replacement for a texel outside the level: the border texel, or the
// texel across a cube edge, or the cube corner average; compared against
// *dref when dref is not null.
void ReadReplacedTexel(const SampledImageState& state, const SampledLevel& level, const TexelSpace& space, int32_t i,
                       int32_t j, int32_t k, const float* dref, TexelValue* out);

// A texel as a sample or gather reads it: texel replacement, depth
// comparison (kCompare), conversion to RGBA. i, j, k are already wrapped.
template <bool kCompare>
inline void ReadTexel(const SampledImageState& state, const SampledLevel& level, const TexelSpace& space, int32_t i,
                      int32_t j, int32_t k, float dref, TexelValue* out) {
  if (static_cast<uint32_t>(i) < static_cast<uint32_t>(level.extent[0]) &&
      static_cast<uint32_t>(j) < static_cast<uint32_t>(level.extent[1]) &&
      static_cast<uint32_t>(k) < static_cast<uint32_t>(level.extent[2])) {
    LoadTexel(state, level, space.layer, i, j, k, out);
    if constexpr (kCompare) out->f[0] = CompareDepth(state.sampler.compare_op, dref, out->f[0]) ? 1.0f : 0.0f;
  } else {
    ReadReplacedTexel(state, level, space, i, j, k, kCompare ? &dref : nullptr, out);
  }
}

// Coordinates a dimensionality filters over: 1D reads i, 2D and cube faces
// (i, j), 3D (i, j, k).
constexpr int FilteredCoordinateCount(SampledDim dim) {
  return dim == SampledDim::k1D ? 1 : (dim == SampledDim::k3D ? 3 : 2);
}

// Cube face and layer selection for a lane. coords are the request's
// (absent ones reading kZeros); coord receives the normalized coordinates
// within the image or face.
template <SampledDim kDim>
inline TexelSpace LocateLane(const SampledImageState& state, const float* const coords[4], uint32_t lane,
                             float coord[3], CubeFace* cube_face) {
  TexelSpace space;
  coord[0] = coords[0][lane];
  coord[1] = coord[2] = 0.0f;
  if constexpr (kDim == SampledDim::k1D) {
    if (state.arrayed) space.layer = SelectLayer(coords[1][lane], state.layer_count);
  } else if constexpr (kDim == SampledDim::k2D) {
    coord[1] = coords[1][lane];
    if (state.arrayed) space.layer = SelectLayer(coords[2][lane], state.layer_count);
  } else if constexpr (kDim == SampledDim::k3D) {
    coord[1] = coords[1][lane];
    coord[2] = coords[2][lane];
  } else {
    *cube_face = SelectCubeFace(coords[0][lane], coords[1][lane], coords[2][lane]);
    const uint32_t cubes = state.layer_count >= 6 ? state.layer_count / 6 : 1;
    space.cube_layer = state.arrayed ? 6 * SelectLayer(coords[3][lane], cubes) : 0;
    space.layer = space.cube_layer + cube_face->face;
    // Seamless sampling reads across edges; otherwise a face is a 2D image.
    space.face = state.wrap_linear[0] == kWrapCubeEdge ? cube_face->face : -1;
    coord[0] = CubeFaceCoord(cube_face->sc, cube_face->rc_abs);
    coord[1] = CubeFaceCoord(cube_face->tc, cube_face->rc_abs);
  }
  return space;
}

// The request's per-lane arrays with absent ones pointing at zeros, so lane
// loops read them unconditionally.
struct Operands {
  explicit Operands(const SampleRequest& request) {
    for (int c = 0; c < 4; ++c) coords[c] = request.coords[c] != nullptr ? request.coords[c] : kZeros;
    for (int c = 0; c < 3; ++c) {
      ddx[c] = request.ddx[c] != nullptr ? request.ddx[c] : kZeros;
      ddy[c] = request.ddy[c] != nullptr ? request.ddy[c] : kZeros;
      offsets[c] = request.offsets[c];
      const_offset[c] = request.const_offset[c];
    }
    lod = request.lod != nullptr ? request.lod : kZeros;
    bias = request.bias != nullptr ? request.bias : kZeros;
    min_lod = request.min_lod != nullptr ? request.min_lod : kZeros;
    dref = request.dref != nullptr ? request.dref : kZeros;
    explicit_lod = request.lod_mode == LodMode::kExplicit;
    unused_components = request.unused_components;
  }

  int32_t Offset(int c, uint32_t lane) const { return offsets[c] != nullptr ? offsets[c][lane] : const_offset[c]; }

  // Dref, clamped to [0, 1] for UNORM depth formats.
  float Dref(const SampledImageState& state, uint32_t lane) const {
    return state.clamp_dref ? std::clamp(dref[lane], 0.0f, 1.0f) : dref[lane];
  }

  const float* coords[4];
  const float* ddx[3];
  const float* ddy[3];
  const float* lod;
  const float* bias;
  const float* min_lod;
  const float* dref;
  const int32_t* offsets[3];
  int32_t const_offset[3];
  bool explicit_lod;
  uint8_t unused_components;  // SampleRequest's
};


// log2(x) for the LOD operation, without a libm call per lane: the exponent
// bits give the integer part, and log2 of the mantissa m (folded into
// [sqrt(1/2), sqrt(2))) is 2 atanh(t) / ln 2 with t = (m - 1) / (m + 1), a
// series in t^2 (|t| < 0.172, so five terms leave an error below 1e-8).
// Exact at powers of two (t = 0), which is where level selection has its
// ties; within a few ulps of std::log2 elsewhere. Zero, denormals, negative
// numbers, infinities and NaN take std::log2.
inline float Log2(float x) {
  const uint32_t bits = std::bit_cast<uint32_t>(x);
  if (bits - 0x00800000u >= 0x7F000000u) return std::log2(x);
  int32_t exponent = static_cast<int32_t>(bits >> 23) - 127;
  uint32_t mantissa_bits = (bits & 0x007FFFFFu) | 0x3F800000u;  // m in [1, 2)
  if (mantissa_bits > 0x3FB504F3u) {                             // m > sqrt(2): m / 2
    mantissa_bits -= 0x00800000u;
    ++exponent;
  }
  const float m = std::bit_cast<float>(mantissa_bits);
  const float t = (m - 1.0f) / (m + 1.0f);
  const float t2 = t * t;
  // 2 / ln 2 / (2k + 1) for k = 0..4.
  const float series =
      2.88539008f + t2 * (0.961796694f + t2 * (0.577078016f + t2 * (0.412198583f + t2 * 0.320598898f)));
  return static_cast<float>(exponent) + t * series;
}

// Lanes up to the last active one: the length per-lane loops may run.
inline uint32_t LaneCount(LaneMask lane_mask) {
  return lane_mask == 0 ? 0 : 64u - static_cast<uint32_t>(__builtin_clzll(lane_mask));
}

// The sampler's mipLodBias plus the Bias operand, within maxSamplerLodBias.
inline float LodBias(const SampledImageState& state, const Operands& op, uint32_t lane) {
  return std::clamp(state.sampler.mip_lod_bias + op.bias[lane], -kMaxSamplerLodBias, kMaxSamplerLodBias);
}

// The squared lengths of one lane's x and y derivatives in texels of the
// base level (first n coordinates).
template <int n>
void ScaledDerivatives(const SampledLevel& base, const Operands& op, uint32_t lane, float* rho_x2, float* rho_y2) {
  *rho_x2 = 0.0f;
  *rho_y2 = 0.0f;
  for (int c = 0; c < n; ++c) {
    const float mx = op.ddx[c][lane] * base.scale[c], my = op.ddy[c][lane] * base.scale[c];
    *rho_x2 += mx * mx;
    *rho_y2 += my * my;
  }
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
  auto bias = [&](uint32_t lane) { return LodBias(state, op, lane); };
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
      float rho_x2, rho_y2;
      ScaledDerivatives<n>(base, op, lane, &rho_x2, &rho_y2);
      rho2[lane] = std::max(rho_x2, rho_y2);
    }
  }
  // log2(sqrt(x)) without the sqrt; log2(0) = -inf, a point footprint.
  for (uint32_t lane = 0; lane < lane_count; ++lane) lambda_prime[lane] = 0.5f * Log2(rho2[lane]) + bias(lane);
}

// Anisotropic filtering (the spec's "Texel Anisotropic Filtering"): the
// footprint's long axis gets `samples` = min(ceil(rho_max / rho_min),
// maxAnisotropy) probes, spread along the derivative of that axis (`axis`,
// in normalized coordinates), and the level comes from rho_max / samples.
// Explicit LODs and cube maps (whose derivatives change face) sample
// isotropically.
struct Anisotropy {
  uint32_t samples[kMaxSampleLanes];
  float axis[kMaxSampleLanes][3];
};

template <SampledDim kDim>
void ComputeAnisotropicLambda(const SampledImageState& state, const Operands& op, uint32_t lane_count,
                              float* lambda_prime, Anisotropy* aniso) {
  constexpr int n = FilteredCoordinateCount(kDim);
  const SampledLevel& base = state.levels[0];
  const float max_samples = state.sampler.max_anisotropy;
  for (uint32_t lane = 0; lane < lane_count; ++lane) {
    float rho_x2, rho_y2;
    ScaledDerivatives<n>(base, op, lane, &rho_x2, &rho_y2);
    const bool x_major = rho_x2 >= rho_y2;
    const float rho_max = std::sqrt(x_major ? rho_x2 : rho_y2), rho_min = std::sqrt(x_major ? rho_y2 : rho_x2);
    float samples = 1.0f;
    if (rho_max > 0.0f)
      samples = rho_min > 0.0f ? std::min(std::ceil(rho_max / rho_min), max_samples) : max_samples;
    if (!(samples >= 1.0f)) samples = 1.0f;  // NaN derivatives
    aniso->samples[lane] = static_cast<uint32_t>(samples);
    for (int c = 0; c < 3; ++c) aniso->axis[lane][c] = c < n ? (x_major ? op.ddx : op.ddy)[c][lane] : 0.0f;
    lambda_prime[lane] = Log2(rho_max / samples) + LodBias(state, op, lane);
  }
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

}  // namespace duet::texel::sampling
