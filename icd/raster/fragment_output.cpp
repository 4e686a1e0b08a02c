#include "raster/fragment_output.h"

#include <algorithm>
#include <cmath>
#include <bit>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "objects/image.h"
#include "raster/direct_color.h"
#include "raster/depth_plane.h"
#include "raster/view_access.h"
#include "texel/fixed_point.h"
#include "texel/srgb.h"

namespace duet::raster {
namespace {

uint8_t StencilOperation(VkStencilOp op, uint8_t value, uint8_t reference) {
  switch (op) {
    case VK_STENCIL_OP_KEEP: return value;
    case VK_STENCIL_OP_ZERO: return 0;
    case VK_STENCIL_OP_REPLACE: return reference;
    case VK_STENCIL_OP_INCREMENT_AND_CLAMP: return value == 255 ? 255 : value + 1;
    case VK_STENCIL_OP_DECREMENT_AND_CLAMP: return value == 0 ? 0 : value - 1;
    case VK_STENCIL_OP_INVERT: return uint8_t(~value);
    case VK_STENCIL_OP_INCREMENT_AND_WRAP: return uint8_t(value + 1);
    case VK_STENCIL_OP_DECREMENT_AND_WRAP: return uint8_t(value - 1);
    default: return value;
  }
}

float Factor(VkBlendFactor f, const float* src, const float* src1, const float* dst, const float* constants, int c) {
  switch (f) {
    case VK_BLEND_FACTOR_ZERO: return 0.0f;
    case VK_BLEND_FACTOR_ONE: return 1.0f;
    case VK_BLEND_FACTOR_SRC_COLOR: return src[c];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR: return 1.0f - src[c];
    case VK_BLEND_FACTOR_DST_COLOR: return dst[c];
    case VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR: return 1.0f - dst[c];
    case VK_BLEND_FACTOR_SRC_ALPHA: return src[3];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA: return 1.0f - src[3];
    case VK_BLEND_FACTOR_DST_ALPHA: return dst[3];
    case VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA: return 1.0f - dst[3];
    case VK_BLEND_FACTOR_CONSTANT_COLOR: return constants[c];
    case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR: return 1.0f - constants[c];
    case VK_BLEND_FACTOR_CONSTANT_ALPHA: return constants[3];
    case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA: return 1.0f - constants[3];
    case VK_BLEND_FACTOR_SRC_ALPHA_SATURATE: return c == 3 ? 1.0f : std::min(src[3], 1.0f - dst[3]);
    case VK_BLEND_FACTOR_SRC1_COLOR: return src1[c];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR: return 1.0f - src1[c];
    case VK_BLEND_FACTOR_SRC1_ALPHA: return src1[3];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA: return 1.0f - src1[3];
    default: return 0.0f;
  }
}

float BlendOp(VkBlendOp op, float s, float sf, float d, float df) {
  switch (op) {
    case VK_BLEND_OP_ADD: return s * sf + d * df;
    case VK_BLEND_OP_SUBTRACT: return s * sf - d * df;
    case VK_BLEND_OP_REVERSE_SUBTRACT: return d * df - s * sf;
    case VK_BLEND_OP_MIN: return std::min(s, d);
    case VK_BLEND_OP_MAX: return std::max(s, d);
    default: return s;
  }
}

// Fixed-point attachments clamp the source colour and constants to their range.
void ClampForFormat(const texel::TexelCodec& codec, VkFormat format, float* v) {
  const texel::FormatInfo* info = texel::GetFormatInfo(format);
  if (info == nullptr || info->component_count == 0) return;
  const texel::NumericType type = info->components[0].type;
  float lo = 0.0f;
  if (type == texel::NumericType::kSnorm) lo = -1.0f;
  else if (type != texel::NumericType::kUnorm && type != texel::NumericType::kSrgb) return;
  (void)codec;
  for (int c = 0; c < 4; ++c) v[c] = std::clamp(v[c], lo, 1.0f);
}

// `src1`: the second source colour of dual-source blending (nullptr: zeros).
void WriteColor(const ColorOutput& out, const ColorBlendState& blend_state, uint32_t x, uint32_t y, uint32_t sample,
                const uint32_t* value, const uint32_t* src1) {
  const texel::TexelCodec& codec = *out.codec;
  std::byte* at = out.access.Block(x, y, 0) + sample * codec.texel_size;
  if (out.logic_op.active) return WriteLogicOp(out.logic_op, codec, value, at);
  if (out.direct != DirectColor::kNone) {
    WriteDirect(out.direct, value[0], value[1], value[2], value[3], at);
    return;
  }
  const VkColorComponentFlags mask = out.blend.colorWriteMask;
  texel::TexelValue src;
  std::memcpy(src.u, value, 16);
  const bool full_mask = (mask & 0xF) == 0xF;
  const bool blending = out.blend.blendEnable && codec.value_class == texel::ValueClass::kFloat;
  if (!blending && full_mask) {
    codec.pack(&src, at, 1);
    return;
  }
  texel::TexelValue dst;
  codec.unpack(at, &dst, 1);
  texel::TexelValue result = src;
  if (blending) {
    float s[4], s1[4] = {}, d[4], k[4];
    std::memcpy(s, src.f, 16);
    if (src1 != nullptr) std::memcpy(s1, src1, 16);
    std::memcpy(d, dst.f, 16);
    std::memcpy(k, blend_state.blend_constants, 16);
    ClampForFormat(codec, codec.format, s);
    ClampForFormat(codec, codec.format, s1);
    ClampForFormat(codec, codec.format, k);
    const VkPipelineColorBlendAttachmentState& b = out.blend;
    for (int c = 0; c < 4; ++c) {
      const bool alpha = c == 3;
      const VkBlendFactor sf = alpha ? b.srcAlphaBlendFactor : b.srcColorBlendFactor;
      const VkBlendFactor df = alpha ? b.dstAlphaBlendFactor : b.dstColorBlendFactor;
      const VkBlendOp op = alpha ? b.alphaBlendOp : b.colorBlendOp;
      result.f[c] = BlendOp(op, s[c], Factor(sf, s, s1, d, k, c), d[c], Factor(df, s, s1, d, k, c));
    }
  }
  for (int c = 0; c < 4; ++c)
    if ((mask & (1u << c)) == 0) result.u[c] = dst.u[c];
  codec.pack(&result, at, 1);
}

}  // namespace

OutputTargets ResolveOutputs(const RenderTargets& targets, const GraphicsState& state, uint32_t layer) {
  OutputTargets out;
  out.deferred = targets.deferred;
  out.sample_mask = state.multisample.sample_mask;
  out.alpha_to_coverage = state.multisample.alpha_to_coverage;
  out.alpha_to_one = state.multisample.alpha_to_one;
  out.depth_stencil = state.depth_stencil;
  out.blend = state.blend;
  out.colors.resize(targets.colors.size());
  for (size_t i = 0; i < targets.colors.size(); ++i) {
    const AttachmentTarget& t = targets.colors[i];
    if (t.view == nullptr || t.view->image->Data() == nullptr) continue;
    ColorOutput& c = out.colors[i];
    c.codec = texel::GetTexelCodec(t.view->format);
    if (c.codec == nullptr) continue;
    c.enabled = true;
    c.access = AccessViewLayer(*t.view, VK_IMAGE_ASPECT_COLOR_BIT, layer);
    out.samples = uint32_t(t.view->image->samples);
    if (i < state.blend.attachments.size()) {
      c.blend = state.blend.attachments[i];
    } else {
      c.blend.colorWriteMask = 0xF;
    }
    if (((state.blend.write_enable >> i) & 1) == 0) c.blend.colorWriteMask = 0;
    ConfigureLogicOp(state.blend, t.view->format, &c.blend, &c.logic_op);
    c.direct = ChooseDirect(t.view->format, c.blend, state.blend.logic_op_enable);
  }
  if (targets.depth.view != nullptr && targets.depth.view->image->Data() != nullptr) {
    out.has_depth = true;
    out.depth_format = targets.depth.view->image->format;
    out.depth = AccessViewLayer(*targets.depth.view, VK_IMAGE_ASPECT_DEPTH_BIT, layer);
    const VkFormat plane = PlaneFormat(out.depth_format, VK_IMAGE_ASPECT_DEPTH_BIT);
    out.depth_target.format = out.depth_format;
    out.depth_target.plane = plane == VK_FORMAT_D32_SFLOAT
                                 ? (state.depth_unrestricted ? DepthPlane::kFloat32Unrestricted : DepthPlane::kFloat32)
                             : plane == VK_FORMAT_D16_UNORM ? DepthPlane::kUnorm16
                                                            : DepthPlane::kOther;
    out.samples = uint32_t(targets.depth.view->image->samples);
  }
  if (targets.stencil.view != nullptr && targets.stencil.view->image->Data() != nullptr) {
    out.has_stencil = true;
    out.stencil = AccessViewLayer(*targets.stencil.view, VK_IMAGE_ASPECT_STENCIL_BIT, layer);
    out.samples = uint32_t(targets.stencil.view->image->samples);
  }
  return out;
}

namespace {

// The depth/stencil tests and writes for one sample; true when it passes.
bool TestSample(const OutputTargets& t, uint32_t x, uint32_t y, uint32_t sample, float depth, bool front_facing,
                const uint32_t* stencil_reference = nullptr) {
  const DepthStencilState& ds = t.depth_stencil;
  if (t.depth_clamp) depth = std::clamp(depth, t.min_depth, t.max_depth);
  std::byte* depth_at = t.has_depth ? t.DepthAt(x, y, sample) : nullptr;
  std::byte* stencil_at = t.has_stencil ? t.stencil.Block(x, y, 0) + sample : nullptr;
  const float stored_depth = depth_at != nullptr ? t.depth_target.Load(depth_at) : 0.0f;

  if (ds.depth_bounds_test && depth_at != nullptr &&
      (stored_depth < ds.min_depth_bounds || stored_depth > ds.max_depth_bounds))
    return false;

  const StencilFaceState& face = front_facing ? ds.front : ds.back;
  const bool stencil_enabled = ds.stencil_test && stencil_at != nullptr;
  const uint8_t stencil = stencil_at != nullptr ? uint8_t(*stencil_at) : 0;
  const uint8_t reference = uint8_t(stencil_reference != nullptr ? *stencil_reference : face.reference);
  auto write_stencil = [&](VkStencilOp op) {
    const uint8_t updated = StencilOperation(op, stencil, reference);
    const uint8_t mask = uint8_t(face.write_mask);
    *stencil_at = std::byte((stencil & ~mask) | (updated & mask));
  };
  if (stencil_enabled) {
    const uint8_t m = uint8_t(face.compare_mask);
    if (!Compare(face.compare, float(reference & m), float(stencil & m))) {
      write_stencil(face.fail);
      return false;
    }
  }
  if (ds.depth_test && depth_at != nullptr) {
    if (!Compare(ds.depth_compare, t.depth_target.Quantize(depth), stored_depth)) {
      if (stencil_enabled) write_stencil(face.depth_fail);
      return false;
    }
    if (ds.depth_write) t.depth_target.Store(depth, depth_at);
  }
  if (stencil_enabled) write_stencil(face.pass);
  return true;
}

// Alpha to coverage: the first round(alpha * samples) samples, a fixed pattern.
uint32_t AlphaCoverage(float alpha, uint32_t samples) {
  const int n = int(std::lround(std::clamp(alpha, 0.0f, 1.0f) * float(samples)));
  return n >= 32 ? ~0u : (1u << n) - 1;
}

}  // namespace

uint32_t WriteFragment(const OutputTargets& t, uint32_t x, uint32_t y, const FragmentValues& values) {
  uint32_t coverage = values.coverage & t.sample_mask;
  // Location 0's alpha, whether or not a colour attachment takes it (alpha
  // to coverage applies to depth-only rendering too).
  const uint32_t* first_color = values.colors[0];
  if (t.alpha_to_coverage && first_color != nullptr)
    coverage &= AlphaCoverage(std::bit_cast<float>(first_color[3]), t.samples);
  uint32_t passed = 0;
  for (uint32_t s = 0; s < t.samples; ++s) {
    if (((coverage >> s) & 1) == 0) continue;
    if (!TestSample(t, x, y, s, values.depth[s], values.front_facing, values.stencil_reference)) continue;
    ++passed;
    for (size_t i = 0; i < t.colors.size() && i < 8; ++i) {
      if (!t.colors[i].enabled || values.colors[i] == nullptr) continue;
      uint32_t color[4], src1[4];
      std::memcpy(color, values.colors[i], 16);
      // Dual-source blending reads location 0's second colour.
      const bool dual = i == 0 && values.src1 != nullptr;
      if (dual) std::memcpy(src1, values.src1, 16);
      if (t.alpha_to_one && t.colors[i].codec->value_class == texel::ValueClass::kFloat) {
        color[3] = std::bit_cast<uint32_t>(1.0f);
        src1[3] = color[3];
      }
      WriteColor(t.colors[i], t.blend, x, y, s, color, dual ? src1 : nullptr);
    }
  }
  return passed;
}

uint32_t DepthSurvivors(const OutputTargets& t, uint32_t x, uint32_t y, uint32_t coverage, const float* depth) {
  uint32_t survivors = 0;
  for (uint32_t s = 0; s < t.samples; ++s) {
    if (((coverage >> s) & 1) == 0) continue;
    const float z = t.depth_clamp ? std::clamp(depth[s], t.min_depth, t.max_depth) : depth[s];
    if (Compare(t.depth_stencil.depth_compare, t.depth_target.Quantize(z), t.depth_target.Load(t.DepthAt(x, y, s))))
      survivors |= 1u << s;
  }
  return survivors;
}

uint32_t RunFragmentTests(const OutputTargets& t, uint32_t x, uint32_t y, uint32_t coverage, const float* depth,
                          bool front_facing, uint32_t* passed) {
  coverage &= t.sample_mask;
  uint32_t passing = 0;
  for (uint32_t s = 0; s < t.samples; ++s)
    if (((coverage >> s) & 1) != 0 && TestSample(t, x, y, s, depth[s], front_facing)) passing |= 1u << s;
  *passed = uint32_t(std::popcount(passing));
  return passing;
}

bool MergesDirect(const OutputTargets& t) {
  if (t.samples > 1 || (t.sample_mask & 1) == 0 || t.alpha_to_coverage || t.alpha_to_one) return false;
  const DepthStencilState& ds = t.depth_stencil;
  if ((ds.stencil_test && t.has_stencil) || (ds.depth_bounds_test && t.has_depth)) return false;
  if (t.has_depth && (ds.depth_test || ds.depth_write) && t.depth_target.plane != DepthPlane::kFloat32 &&
      t.depth_target.plane != DepthPlane::kUnorm16)
    return false;
  for (const ColorOutput& c : t.colors)
    if (c.enabled && c.direct == DirectColor::kNone) return false;
  return true;
}

namespace {

// MergeDirect for one depth plane: D16 compares and stores its 16-bit codes
// (the order of the codes is the order of the values they stand for).
template <DepthPlane kPlane>
uint32_t MergeDirectWith(const OutputTargets& t, const DirectWave& wave) {
  const DepthStencilState& ds = t.depth_stencil;
  const bool depth_test = t.has_depth && ds.depth_test;
  const bool depth_write = depth_test && ds.depth_write;  // writes happen only when the test is on
  const VkCompareOp compare = ds.depth_compare;
  struct ColorTarget {
    std::byte* base;
    VkDeviceSize row_pitch;
    const uint32_t* texels;
  } targets[8];
  uint32_t target_count = 0;
  for (size_t c = 0; c < t.colors.size() && c < 8; ++c)
    if (t.colors[c].enabled && wave.texels != nullptr && wave.texels->location[c] != nullptr)
      targets[target_count++] = {t.colors[c].access.base, t.colors[c].access.row_pitch, wave.texels->location[c]};
  if (wave.block && wave.live == ~uint64_t{0} && !depth_test) {
    // An 8x8 block: each row is four quads' row pairs. Two quads are two
    // 64-bit pairs per row; the top pairs of two quads make half a row.
    for (uint32_t c = 0; c < target_count; ++c)
      for (uint32_t r = 0; r < 8; r += 2) {
        std::byte* top = targets[c].base + (wave.y[0] + r) * targets[c].row_pitch + size_t{wave.x[0]} * 4;
        std::byte* bottom = top + targets[c].row_pitch;
        const uint32_t* texels = targets[c].texels + 8 * r;
        for (uint32_t half = 0; half < 2; ++half) {
#if defined(__SSE2__)
          const __m128i left = _mm_loadu_si128(reinterpret_cast<const __m128i*>(texels + 8 * half));
          const __m128i right = _mm_loadu_si128(reinterpret_cast<const __m128i*>(texels + 8 * half + 4));
          _mm_storeu_si128(reinterpret_cast<__m128i*>(top + 16 * half), _mm_unpacklo_epi64(left, right));
          _mm_storeu_si128(reinterpret_cast<__m128i*>(bottom + 16 * half), _mm_unpackhi_epi64(left, right));
#else
          for (uint32_t q = 0; q < 2; ++q) {
            std::memcpy(top + 16 * half + 8 * q, texels + 8 * half + 4 * q, 8);
            std::memcpy(bottom + 16 * half + 8 * q, texels + 8 * half + 4 * q + 2, 8);
          }
#endif
        }
      }
    return 64;
  }
  uint32_t passed = 0;
  for (uint32_t q = 0; q < wave.quads; ++q) {
    uint32_t bits = uint32_t(wave.live >> (4 * q)) & 0xF;
    if (bits == 0) continue;
    const uint32_t qx = wave.block ? wave.x[0] + 2 * (q & 3) : wave.x[q];
    const uint32_t qy = wave.block ? wave.y[0] + 2 * (q >> 2) : wave.y[q];
    if (depth_test) {
      for (uint32_t i = 0; i < 4; ++i) {
        if (((bits >> i) & 1) == 0) continue;
        const uint32_t l = 4 * q + i;
        const float depth = wave.depth[l];
        const float z = t.depth_clamp ? std::clamp(depth, t.min_depth, t.max_depth) : depth;
        std::byte* at = t.depth.Block(qx + (i & 1), qy + (i >> 1), 0);
        bool passes;
        if constexpr (kPlane == DepthPlane::kUnorm16) {
          const uint16_t reference = uint16_t(texel::FloatToUnorm(z, 16));
          uint16_t stored;
          std::memcpy(&stored, at, 2);
          passes = CompareValues(compare, reference, stored);
          if (passes && depth_write) std::memcpy(at, &reference, 2);
        } else if constexpr (kPlane == DepthPlane::kFloat32) {
          const float reference = DepthTarget::ClampFloat(z);
          float stored;
          std::memcpy(&stored, at, 4);
          passes = Compare(compare, reference, stored);
          if (passes && depth_write) std::memcpy(at, &reference, 4);
        } else {
          passes = Compare(compare, t.depth_target.Quantize(z), t.depth_target.Load(at));
          if (passes && depth_write) t.depth_target.Store(z, at);
        }
        if (!passes) bits &= ~(1u << i);
      }
    }
    passed += (0x4332322132212110ull >> (4 * bits)) & 0xF;  // popcount of a nibble
    // The quad's two rows: a row with both pixels is one 8-byte store (the
    // lanes' texels are adjacent).
    for (uint32_t c = 0; c < target_count; ++c) {
      const uint32_t* texels = targets[c].texels + 4 * q;
      for (uint32_t r = 0; r < 2; ++r) {
        const uint32_t pair = (bits >> (2 * r)) & 3;
        if (pair == 0) continue;  // (and the row may be past the image)
        std::byte* row = targets[c].base + (qy + r) * targets[c].row_pitch + size_t{qx} * 4;
        if (pair == 3) {
          std::memcpy(row, texels + 2 * r, 8);
        } else if (pair == 1) {
          std::memcpy(row, texels + 2 * r, 4);
        } else if (pair == 2) {
          std::memcpy(row + 4, texels + 2 * r + 1, 4);
        }
      }
    }
  }
  return passed;
}

}  // namespace

uint32_t MergeDirect(const OutputTargets& t, const DirectWave& wave) {
  const bool depth_test = t.has_depth && t.depth_stencil.depth_test;
  switch (depth_test ? t.depth_target.plane : DepthPlane::kOther) {
    case DepthPlane::kUnorm16: return MergeDirectWith<DepthPlane::kUnorm16>(t, wave);
    case DepthPlane::kFloat32: return MergeDirectWith<DepthPlane::kFloat32>(t, wave);
    default: return MergeDirectWith<DepthPlane::kOther>(t, wave);
  }
}

}  // namespace duet::raster
