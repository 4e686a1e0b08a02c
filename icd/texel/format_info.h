// Static description of every VkFormat the registry knows, generated from
// vk.xml (<formats>). Transfers, the rasterizer and samplers all read
// formats through this one table.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <span>

namespace duet::texel {

enum class NumericType : uint8_t { kNone, kUnorm, kSnorm, kUscaled, kSscaled, kUint, kSint, kUfloat, kSfloat, kSrgb };

enum class Compression : uint8_t { kNone, kBC, kETC2, kEAC, kASTC_LDR, kASTC_HDR, kPVRTC };

struct ComponentInfo {
  char name;            // 'R','G','B','A','D','S', or 'E' (shared exponent)
  uint8_t bits;         // 0 when compressed
  NumericType type;
};

struct FormatInfo {
  VkFormat format;
  const char* name;            // "VK_FORMAT_R8G8B8A8_UNORM"
  uint8_t block_size;          // bytes per texel block
  uint8_t block_width, block_height, block_depth;  // 1,1,1 unless compressed or 422
  uint8_t packed_bits;         // 0 unless a packed format (8, 16, 32)
  uint8_t component_count;
  ComponentInfo components[4]; // in the registry's order (MSB first when packed)
  Compression compression;
  uint8_t plane_count;         // 1 except multi-planar YCbCr formats
  bool has_depth, has_stencil;
  bool chroma_subsampled;      // 422/420 formats
  uint8_t compatibility_class; // equal values: same vk.xml class, so views and copies may reinterpret
  const char* spirv_image_format;  // SPIR-V ImageFormat name ("Rgba8"), nullptr when SPIR-V has none
};

// nullptr when the format is VK_FORMAT_UNDEFINED or unknown.
const FormatInfo* GetFormatInfo(VkFormat format);

// Every known format, sorted by VkFormat value.
std::span<const FormatInfo> AllFormatInfos();

}  // namespace duet::texel
