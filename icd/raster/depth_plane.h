// Depth values as an attachment's depth plane holds them, and the compare
// ops. D16 and D32 are read and written inline (bit-exact with the texel
// codecs, which handle every other format).
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "texel/fixed_point.h"
#include "texel/texel_codec.h"

namespace duet::raster {

// kFloat32Unrestricted: D32 on a device with VK_EXT_depth_range_unrestricted
// enabled, where depth values outside [0, 1] are stored as they are (read
// and written here, not by the codec, and never by the fast paths).
enum class DepthPlane : uint8_t { kOther, kFloat32, kUnorm16, kFloat32Unrestricted };

// Compares in any type whose order is the depth order (float, or the
// integer codes of a UNORM plane).
template <typename T>
inline bool CompareValues(VkCompareOp op, T reference, T stored) {
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

inline bool Compare(VkCompareOp op, float reference, float stored) { return CompareValues(op, reference, stored); }

// Where depth is stored: `format` is the attachment's (depth or
// depth/stencil) format, `plane` its classification.
struct DepthTarget {
  DepthPlane plane = DepthPlane::kOther;
  VkFormat format = VK_FORMAT_UNDEFINED;

  float Load(const std::byte* at) const {
    switch (plane) {
      case DepthPlane::kFloat32:
      case DepthPlane::kFloat32Unrestricted: {
        float v;
        std::memcpy(&v, at, 4);
        return v;
      }
      case DepthPlane::kUnorm16: {
        uint16_t v;
        std::memcpy(&v, at, 2);
        return texel::UnormToFloat(v, 16);
      }
      default: return texel::UnpackDepth(format, at);
    }
  }

  void Store(float depth, std::byte* at) const {
    switch (plane) {
      case DepthPlane::kFloat32:
      case DepthPlane::kFloat32Unrestricted: {
        const float v = Quantize(depth);
        std::memcpy(at, &v, 4);
        return;
      }
      case DepthPlane::kUnorm16: {
        const uint16_t v = uint16_t(texel::FloatToUnorm(depth, 16));
        std::memcpy(at, &v, 2);
        return;
      }
      default: texel::PackDepth(format, depth, at);
    }
  }

  // The value the attachment would hold: compares happen in its precision.
  float Quantize(float depth) const {
    switch (plane) {
      case DepthPlane::kFloat32: return ClampFloat(depth);
      case DepthPlane::kFloat32Unrestricted: return depth == depth ? depth : 0.0f;  // NaN as 0
      case DepthPlane::kUnorm16: return texel::UnormToFloat(texel::FloatToUnorm(depth, 16), 16);
      default: {
        std::byte quantized[4];
        texel::PackDepth(format, depth, quantized);
        return texel::UnpackDepth(format, quantized);
      }
    }
  }

  // As the codec stores D32: clamped to [0, 1], NaN as 0.
  static float ClampFloat(float depth) { return depth > 0.0f ? (depth < 1.0f ? depth : 1.0f) : 0.0f; }
};

}  // namespace duet::raster
