// Arm's libastcenc as the tests' ASTC reference: encoding RGBA8 images into
// blocks, and decoding blocks to the values the driver must return for the
// VK_FORMAT_ASTC_*_{UNORM,SRGB}_BLOCK formats (decode_float16 for UNORM, the
// 8-bit codes for sRGB).
#pragma once

#include <astcenc.h>
#include <vulkan/vulkan_core.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

namespace duet_test {

struct AstcDims {
  uint32_t width, height;
};

inline AstcDims AstcBlockDims(VkFormat format) {
  static constexpr AstcDims kDims[14] = {{4, 4}, {5, 4},  {5, 5},  {6, 5},  {6, 6},   {8, 5},   {8, 6},
                                         {8, 8}, {10, 5}, {10, 6}, {10, 8}, {10, 10}, {12, 10}, {12, 12}};
  return kDims[(format - VK_FORMAT_ASTC_4x4_UNORM_BLOCK) / 2];
}

inline bool AstcIsSrgb(VkFormat format) { return ((format - VK_FORMAT_ASTC_4x4_UNORM_BLOCK) & 1) != 0; }

inline float HalfToFloat(uint16_t h) {
  const uint32_t exponent = (h >> 10) & 31, mantissa = h & 1023;
  float v;
  if (exponent == 0) v = std::ldexp(float(mantissa), -24);
  else if (exponent == 31) v = mantissa != 0 ? NAN : INFINITY;
  else v = std::ldexp(float(mantissa | 1024), int(exponent) - 25);
  return (h & 0x8000) != 0 ? -v : v;
}

// libastcenc 4.2's FP16 output for the error colour: NaN for a whole error
// block, and (0xFF00, 0, 0xFF00, 0xFF00) as UNORM16 for the texels of a
// partition with an HDR endpoint mode in the LDR profile. The spec's, the
// CTS's and the driver's is (1, 0, 1, 1).
constexpr uint16_t kLibastcencPartitionError[4] = {0x3BF8, 0, 0x3BF8, 0x3BF8};

// `rgba8` (blocks_x * block width by blocks_y * block height texels) as ASTC
// blocks, row-major. Empty on failure.
inline std::vector<uint8_t> AstcEncode(VkFormat format, uint32_t blocks_x, uint32_t blocks_y,
                                       std::vector<uint8_t> rgba8) {
  const AstcDims dims = AstcBlockDims(format);
  astcenc_config config;
  const astcenc_profile profile = AstcIsSrgb(format) ? ASTCENC_PRF_LDR_SRGB : ASTCENC_PRF_LDR;
  if (astcenc_config_init(profile, dims.width, dims.height, 1, ASTCENC_PRE_FAST, 0, &config) != ASTCENC_SUCCESS) {
    return {};
  }
  astcenc_context* encoder = nullptr;
  if (astcenc_context_alloc(&config, 1, &encoder) != ASTCENC_SUCCESS) return {};
  void* slice = rgba8.data();
  astcenc_image image{blocks_x * dims.width, blocks_y * dims.height, 1, ASTCENC_TYPE_U8, &slice};
  const astcenc_swizzle identity{ASTCENC_SWZ_R, ASTCENC_SWZ_G, ASTCENC_SWZ_B, ASTCENC_SWZ_A};
  std::vector<uint8_t> blocks(size_t(blocks_x) * blocks_y * 16);
  const bool ok =
      astcenc_compress_image(encoder, &image, &identity, blocks.data(), blocks.size(), 0) == ASTCENC_SUCCESS;
  astcenc_context_free(encoder);
  return ok ? blocks : std::vector<uint8_t>{};
}

// The texels of `blocks` (a row-major grid blocks_x wide), row-major over
// the whole grid, as the driver must return them; `srgb_decode` turns an
// sRGB code into its linear value. Error blocks read magenta.
template <typename SrgbDecode>
std::vector<std::array<float, 4>> AstcDecode(VkFormat format, const uint8_t* blocks, uint32_t blocks_x,
                                             uint32_t blocks_y, SrgbDecode srgb_decode) {
  const AstcDims dims = AstcBlockDims(format);
  const bool srgb = AstcIsSrgb(format);
  astcenc_config config;
  if (astcenc_config_init(srgb ? ASTCENC_PRF_LDR_SRGB : ASTCENC_PRF_LDR, dims.width, dims.height, 1,
                          ASTCENC_PRE_FASTEST, ASTCENC_FLG_DECOMPRESS_ONLY, &config) != ASTCENC_SUCCESS) {
    return {};
  }
  astcenc_context* decoder = nullptr;
  if (astcenc_context_alloc(&config, 1, &decoder) != ASTCENC_SUCCESS) return {};
  const uint32_t width = blocks_x * dims.width, height = blocks_y * dims.height;
  const size_t texels = size_t(width) * height;
  std::vector<uint16_t> halves(texels * 4);
  std::vector<uint8_t> codes(texels * 4);
  void* slice = srgb ? static_cast<void*>(codes.data()) : static_cast<void*>(halves.data());
  astcenc_image image{width, height, 1, srgb ? ASTCENC_TYPE_U8 : ASTCENC_TYPE_F16, &slice};
  const astcenc_swizzle identity{ASTCENC_SWZ_R, ASTCENC_SWZ_G, ASTCENC_SWZ_B, ASTCENC_SWZ_A};
  const bool ok = astcenc_decompress_image(decoder, blocks, size_t(blocks_x) * blocks_y * 16, &image, &identity,
                                           0) == ASTCENC_SUCCESS;
  astcenc_context_free(decoder);
  if (!ok) return {};
  std::vector<std::array<float, 4>> out(texels);
  for (size_t i = 0; i < texels; ++i) {
    if (srgb) {
      for (int c = 0; c < 3; ++c) out[i][c] = srgb_decode(codes[i * 4 + c]);
      out[i][3] = float(codes[i * 4 + 3]) / 255.0f;
      continue;
    }
    for (int c = 0; c < 4; ++c) out[i][c] = HalfToFloat(halves[i * 4 + c]);
    const bool partition_error = halves[i * 4] == kLibastcencPartitionError[0] &&
                                 halves[i * 4 + 1] == kLibastcencPartitionError[1] &&
                                 halves[i * 4 + 2] == kLibastcencPartitionError[2] &&
                                 halves[i * 4 + 3] == kLibastcencPartitionError[3];
    if (std::isnan(out[i][0]) || partition_error) out[i] = {1.0f, 0.0f, 1.0f, 1.0f};
  }
  return out;
}

}  // namespace duet_test
