// Pack, unpack and convert texels of every format the driver advertises:
// the one format library that transfers (copies, blits, clears, resolves),
// the rasterizer and the samplers share.
//
// A TexelCodec is resolved once per format and carries row functions that
// move n texels between packed memory and TexelValue, four 32-bit channels
// in R, G, B, A order whatever the memory order (a B8G8R8A8 texel unpacks
// with R in [0]). Unpacking applies the spec's "Format Conversion" and
// "Conversion to RGBA": normalized, scaled, small-float and shared-exponent
// components become float, sRGB R/G/B are decoded to linear (alpha is
// linear), integer components are zero- or sign-extended, missing G/B read
// 0 and missing A reads 1 (1.0f for float formats, 1 for integer formats).
// Packing is the inverse with the spec's conversions: floats are clamped and
// rounded to nearest (ties to even) for normalized and scaled components,
// linear values are sRGB-encoded, and integers are clamped to the
// component's range (the blit rule; clears truncate instead, see
// EncodeClearColor). Components a format lacks are ignored.
//
// 64-bit formats (R64*_UINT/SINT/SFLOAT) only support transfers and vertex
// fetch, which move their bytes unchanged; their codec narrows to 32 bits
// (double -> float rounded to nearest, 64-bit integers saturated to the
// 32-bit range) and widens exactly on the way back. Same-format conversions
// (ConvertTexels) and 64-bit clears (EncodeClearColor) never go through that
// narrowing.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstddef>
#include <cstdint>

#include "texel/format_info.h"

namespace duet::texel {

// How a format's colour is read and written by shaders.
enum class ValueClass : uint8_t { kFloat, kUint, kSint };

// UINT -> kUint, SINT -> kSint, everything else (including depth) -> kFloat;
// a stencil-only format is kUint. A combined depth/stencil format reports its
// depth aspect (kFloat); its stencil aspect is kUint.
ValueClass ValueClassOf(const FormatInfo& info);

union TexelValue {
  float f[4];
  uint32_t u[4];
  int32_t i[4];
};

using UnpackRowFn = void (*)(const std::byte* src, TexelValue* dst, size_t n);
using PackRowFn = void (*)(const TexelValue* src, std::byte* dst, size_t n);

struct TexelCodec {
  VkFormat format;          // for depth/stencil aspects: the plane's element format (D16_UNORM,
                            // X8_D24_UNORM_PACK32, D32_SFLOAT or S8_UINT)
  ValueClass value_class;   // which member of TexelValue the row functions use
  uint8_t texel_size;       // bytes per texel in memory
  bool srgb;                // R, G, B carry the sRGB transfer function
  uint8_t channel_bits[4];  // stored bits of R, G, B, A; 0 when the format lacks the channel
  UnpackRowFn unpack;       // n texels from memory to R, G, B, A
  PackRowFn pack;           // n texels from R, G, B, A to memory
};

// Colour formats the driver advertises; nullptr for depth/stencil,
// compressed and unsupported formats.
const TexelCodec* GetTexelCodec(VkFormat format);

// What a read outside a resource gives (robustness2, null descriptors and
// vertex buffers): zero, with alpha 1 (1.0 in float formats) when the
// format has no alpha, as the missing components of any texel.
inline TexelValue OutOfBoundsTexel(const TexelCodec* codec) {
  TexelValue v{};
  if (codec != nullptr && codec->channel_bits[3] == 0)
    v.u[3] = codec->value_class == ValueClass::kFloat ? 0x3F800000u : 1u;
  return v;
}

// The codec of one aspect of a format as images store it (texel/image_layout):
// COLOR is GetTexelCodec; DEPTH is the depth plane element (D16: 16-bit UNORM,
// D24: 32-bit word with depth in the low 24 bits, D32: float), read as
// [D, 0, 0, 1.0f]; STENCIL is the 8-bit stencil plane, read as [S, 0, 0, 1].
// nullptr when the format lacks the aspect. Packing depth clamps to [0,1]
// (NaN -> 0) for the float format too: without
// VK_EXT_depth_range_unrestricted every depth a transfer, clear or
// attachment writes lies in [0,1].
const TexelCodec* GetAspectCodec(VkFormat format, VkImageAspectFlagBits aspect);

// One depth value of a format with depth (its depth plane element) <-> float.
// Unpack returns 0 and pack writes nothing for a format without depth.
float UnpackDepth(VkFormat format, const std::byte* element);
void PackDepth(VkFormat format, float depth, std::byte* element);

// The bytes of one texel of `format` holding a clear colour, as
// vkCmdClearColorImage and attachment clears define it: float32 for float
// formats (linear for sRGB formats; converted as packing does), uint32/int32
// for integer formats, cast to the component width by keeping the low bits.
// For 64-bit formats the clear value's first two words are R and the next two
// G, copied bit for bit (the spec's float64/int64/uint64 reading of the
// union); B and A of R64G64B64(A64) formats, which the union cannot express,
// are written as 0. Returns false when the format has no codec.
bool EncodeClearColor(VkFormat format, const VkClearColorValue& color, std::byte* texel_out);

// A stencil clear value keeps its low 8 bits ("the appropriate number of LSBs").
inline std::byte EncodeClearStencil(uint32_t stencil) { return static_cast<std::byte>(stencil & 0xFF); }

// Whether ConvertTexels can go from one codec to the other: float to float
// (including sRGB, scaled, depth), or integer to integer of the same
// signedness, as vkCmdBlitImage allows.
bool CanConvert(const TexelCodec& src, const TexelCodec& dst);

// n texels from src's format to dst's (CanConvert must hold): the same
// format is a plain copy; otherwise unpack and pack in chunks, which decodes
// sRGB to linear and encodes it again, clamps and rounds as packing does.
void ConvertTexels(const TexelCodec& src, const std::byte* src_texels, const TexelCodec& dst, std::byte* dst_texels,
                   size_t n);

// The same by format; returns false (writing nothing) when either format has
// no colour codec or the two cannot be converted.
bool ConvertTexels(VkFormat src_format, const std::byte* src_texels, VkFormat dst_format, std::byte* dst_texels,
                   size_t n);

}  // namespace duet::texel
