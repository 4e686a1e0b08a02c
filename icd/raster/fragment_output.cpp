#include "raster/fragment_output.h"

#include <algorithm>
#include <cmath>
#include <bit>
#include <cstring>

#include "objects/image.h"
#include "raster/view_access.h"

namespace duet::raster {
namespace {

bool Compare(VkCompareOp op, float reference, float stored) {
  switch (op) {
    case VK_COMPARE_OP_NEVER: return false;
    case VK_COMPARE_OP_LESS: return reference < stored;
    case VK_COMPARE_OP_EQUAL: return reference == stored;
    case VK_COMPARE_OP_LESS_OR_EQUAL: return reference <= stored;
    case VK_COMPARE_OP_GREATER: return reference > stored;
    case VK_COMPARE_OP_NOT_EQUAL: return reference != stored;
    case VK_COMPARE_OP_GREATER_OR_EQUAL: return reference >= stored;
    default: return true;
  }
}

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

float Factor(VkBlendFactor f, const float* src, const float* dst, const float* constants, int c) {
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
    default: return 0.0f;  // dual-source factors: dualSrcBlend is not advertised
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

void WriteColor(const ColorOutput& out, const ColorBlendState& blend_state, uint32_t x, uint32_t y, uint32_t sample,
                const uint32_t* value) {
  const texel::TexelCodec& codec = *out.codec;
  std::byte* at = out.access.Block(x, y, 0) + sample * codec.texel_size;
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
    float s[4], d[4], k[4];
    std::memcpy(s, src.f, 16);
    std::memcpy(d, dst.f, 16);
    std::memcpy(k, blend_state.blend_constants, 16);
    ClampForFormat(codec, codec.format, s);
    ClampForFormat(codec, codec.format, k);
    const VkPipelineColorBlendAttachmentState& b = out.blend;
    for (int c = 0; c < 4; ++c) {
      const bool alpha = c == 3;
      const VkBlendFactor sf = alpha ? b.srcAlphaBlendFactor : b.srcColorBlendFactor;
      const VkBlendFactor df = alpha ? b.dstAlphaBlendFactor : b.dstColorBlendFactor;
      const VkBlendOp op = alpha ? b.alphaBlendOp : b.colorBlendOp;
      result.f[c] = BlendOp(op, s[c], Factor(sf, s, d, k, c), d[c], Factor(df, s, d, k, c));
    }
  }
  for (int c = 0; c < 4; ++c)
    if ((mask & (1u << c)) == 0) result.u[c] = dst.u[c];
  codec.pack(&result, at, 1);
}

}  // namespace

OutputTargets ResolveOutputs(const RenderTargets& targets, const GraphicsState& state, uint32_t layer) {
  OutputTargets out;
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
  }
  if (targets.depth.view != nullptr && targets.depth.view->image->Data() != nullptr) {
    out.has_depth = true;
    out.depth_format = targets.depth.view->image->format;
    out.depth = AccessViewLayer(*targets.depth.view, VK_IMAGE_ASPECT_DEPTH_BIT, layer);
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
bool TestSample(const OutputTargets& t, uint32_t x, uint32_t y, uint32_t sample, float depth, bool front_facing) {
  const DepthStencilState& ds = t.depth_stencil;
  if (t.depth_clamp) depth = std::clamp(depth, t.min_depth, t.max_depth);
  const uint32_t depth_size = t.depth.block_size / std::max(t.samples, 1u);
  std::byte* depth_at = t.has_depth ? t.depth.Block(x, y, 0) + sample * depth_size : nullptr;
  std::byte* stencil_at = t.has_stencil ? t.stencil.Block(x, y, 0) + sample : nullptr;
  const float stored_depth = depth_at != nullptr ? texel::UnpackDepth(t.depth_format, depth_at) : 0.0f;

  if (ds.depth_bounds_test && depth_at != nullptr &&
      (stored_depth < ds.min_depth_bounds || stored_depth > ds.max_depth_bounds))
    return false;

  const StencilFaceState& face = front_facing ? ds.front : ds.back;
  const bool stencil_enabled = ds.stencil_test && stencil_at != nullptr;
  const uint8_t stencil = stencil_at != nullptr ? uint8_t(*stencil_at) : 0;
  const uint8_t reference = uint8_t(face.reference);
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
    // Depth compares in the attachment's precision: quantize first.
    std::byte quantized[4];
    texel::PackDepth(t.depth_format, depth, quantized);
    const float fragment_depth = texel::UnpackDepth(t.depth_format, quantized);
    if (!Compare(ds.depth_compare, fragment_depth, stored_depth)) {
      if (stencil_enabled) write_stencil(face.depth_fail);
      return false;
    }
    if (ds.depth_write) texel::PackDepth(t.depth_format, depth, depth_at);
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
  const uint32_t* first_color = t.colors.empty() ? nullptr : values.colors[0];
  if (t.alpha_to_coverage && first_color != nullptr)
    coverage &= AlphaCoverage(std::bit_cast<float>(first_color[3]), t.samples);
  uint32_t passed = 0;
  for (uint32_t s = 0; s < t.samples; ++s) {
    if (((coverage >> s) & 1) == 0) continue;
    if (!TestSample(t, x, y, s, values.depth[s], values.front_facing)) continue;
    ++passed;
    for (size_t i = 0; i < t.colors.size() && i < 8; ++i) {
      if (!t.colors[i].enabled || values.colors[i] == nullptr) continue;
      uint32_t color[4];
      std::memcpy(color, values.colors[i], 16);
      if (t.alpha_to_one && t.colors[i].codec->value_class == texel::ValueClass::kFloat)
        color[3] = std::bit_cast<uint32_t>(1.0f);
      WriteColor(t.colors[i], t.blend, x, y, s, color);
    }
  }
  return passed;
}

}  // namespace duet::raster
