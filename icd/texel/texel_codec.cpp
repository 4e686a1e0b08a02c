#include "texel/texel_codec.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "texel/fixed_point.h"
#include "texel/texel_layout.h"
#include "texel/texel_rows.h"

namespace duet::texel {
namespace {

template <layout::Layout L>
constexpr TexelCodec MakeCodec(VkFormat format) {
  TexelCodec codec{};
  codec.format = format;
  codec.value_class = L.value_class;
  codec.texel_size = L.size;
  codec.srgb = layout::HasSrgb(L);
  if constexpr (L.kind == layout::Kind::kSharedExponent) {
    codec.channel_bits[0] = codec.channel_bits[1] = codec.channel_bits[2] = 9;
  } else {
    for (uint8_t i = 0; i < L.field_count; ++i) {
      if (L.fields[i].channel != layout::kNoChannel) codec.channel_bits[L.fields[i].channel] = L.fields[i].bits;
    }
  }
  codec.unpack = &rows::UnpackRow<L>;
  codec.pack = &rows::PackRow<L>;
  return codec;
}

// The layout is read from the name itself, so each entry is written once.
#define DUET_CODEC(name) MakeCodec<layout::ParseLayout(#name)>(VK_FORMAT_##name)

// Every colour format texel/format_support advertises (a unit test checks
// that the two lists agree), in VkFormat order.
constexpr TexelCodec kColorCodecs[] = {
    DUET_CODEC(R4G4B4A4_UNORM_PACK16), DUET_CODEC(B4G4R4A4_UNORM_PACK16),
    DUET_CODEC(R5G6B5_UNORM_PACK16), DUET_CODEC(B5G6R5_UNORM_PACK16),
    DUET_CODEC(R5G5B5A1_UNORM_PACK16), DUET_CODEC(B5G5R5A1_UNORM_PACK16),
    DUET_CODEC(A1R5G5B5_UNORM_PACK16),

    DUET_CODEC(R8_UNORM), DUET_CODEC(R8_SNORM), DUET_CODEC(R8_USCALED), DUET_CODEC(R8_SSCALED),
    DUET_CODEC(R8_UINT), DUET_CODEC(R8_SINT), DUET_CODEC(R8_SRGB),
    DUET_CODEC(R8G8_UNORM), DUET_CODEC(R8G8_SNORM), DUET_CODEC(R8G8_USCALED), DUET_CODEC(R8G8_SSCALED),
    DUET_CODEC(R8G8_UINT), DUET_CODEC(R8G8_SINT), DUET_CODEC(R8G8_SRGB),
    DUET_CODEC(R8G8B8_UNORM), DUET_CODEC(R8G8B8_SNORM), DUET_CODEC(R8G8B8_USCALED), DUET_CODEC(R8G8B8_SSCALED),
    DUET_CODEC(R8G8B8_UINT), DUET_CODEC(R8G8B8_SINT), DUET_CODEC(R8G8B8_SRGB),
    DUET_CODEC(B8G8R8_UNORM), DUET_CODEC(B8G8R8_SNORM), DUET_CODEC(B8G8R8_USCALED), DUET_CODEC(B8G8R8_SSCALED),
    DUET_CODEC(B8G8R8_UINT), DUET_CODEC(B8G8R8_SINT), DUET_CODEC(B8G8R8_SRGB),
    DUET_CODEC(R8G8B8A8_UNORM), DUET_CODEC(R8G8B8A8_SNORM), DUET_CODEC(R8G8B8A8_USCALED),
    DUET_CODEC(R8G8B8A8_SSCALED), DUET_CODEC(R8G8B8A8_UINT), DUET_CODEC(R8G8B8A8_SINT),
    DUET_CODEC(R8G8B8A8_SRGB),
    DUET_CODEC(B8G8R8A8_UNORM), DUET_CODEC(B8G8R8A8_SNORM), DUET_CODEC(B8G8R8A8_USCALED),
    DUET_CODEC(B8G8R8A8_SSCALED), DUET_CODEC(B8G8R8A8_UINT), DUET_CODEC(B8G8R8A8_SINT),
    DUET_CODEC(B8G8R8A8_SRGB),
    DUET_CODEC(A8B8G8R8_UNORM_PACK32), DUET_CODEC(A8B8G8R8_SNORM_PACK32), DUET_CODEC(A8B8G8R8_USCALED_PACK32),
    DUET_CODEC(A8B8G8R8_SSCALED_PACK32), DUET_CODEC(A8B8G8R8_UINT_PACK32), DUET_CODEC(A8B8G8R8_SINT_PACK32),
    DUET_CODEC(A8B8G8R8_SRGB_PACK32),

    DUET_CODEC(A2R10G10B10_UNORM_PACK32), DUET_CODEC(A2R10G10B10_SNORM_PACK32),
    DUET_CODEC(A2R10G10B10_USCALED_PACK32), DUET_CODEC(A2R10G10B10_SSCALED_PACK32),
    DUET_CODEC(A2R10G10B10_UINT_PACK32), DUET_CODEC(A2R10G10B10_SINT_PACK32),
    DUET_CODEC(A2B10G10R10_UNORM_PACK32), DUET_CODEC(A2B10G10R10_SNORM_PACK32),
    DUET_CODEC(A2B10G10R10_USCALED_PACK32), DUET_CODEC(A2B10G10R10_SSCALED_PACK32),
    DUET_CODEC(A2B10G10R10_UINT_PACK32), DUET_CODEC(A2B10G10R10_SINT_PACK32),

    DUET_CODEC(R16_UNORM), DUET_CODEC(R16_SNORM), DUET_CODEC(R16_USCALED), DUET_CODEC(R16_SSCALED),
    DUET_CODEC(R16_UINT), DUET_CODEC(R16_SINT), DUET_CODEC(R16_SFLOAT),
    DUET_CODEC(R16G16_UNORM), DUET_CODEC(R16G16_SNORM), DUET_CODEC(R16G16_USCALED), DUET_CODEC(R16G16_SSCALED),
    DUET_CODEC(R16G16_UINT), DUET_CODEC(R16G16_SINT), DUET_CODEC(R16G16_SFLOAT),
    DUET_CODEC(R16G16B16_UNORM), DUET_CODEC(R16G16B16_SNORM), DUET_CODEC(R16G16B16_USCALED),
    DUET_CODEC(R16G16B16_SSCALED), DUET_CODEC(R16G16B16_UINT), DUET_CODEC(R16G16B16_SINT),
    DUET_CODEC(R16G16B16_SFLOAT),
    DUET_CODEC(R16G16B16A16_UNORM), DUET_CODEC(R16G16B16A16_SNORM), DUET_CODEC(R16G16B16A16_USCALED),
    DUET_CODEC(R16G16B16A16_SSCALED), DUET_CODEC(R16G16B16A16_UINT), DUET_CODEC(R16G16B16A16_SINT),
    DUET_CODEC(R16G16B16A16_SFLOAT),

    DUET_CODEC(R32_UINT), DUET_CODEC(R32_SINT), DUET_CODEC(R32_SFLOAT),
    DUET_CODEC(R32G32_UINT), DUET_CODEC(R32G32_SINT), DUET_CODEC(R32G32_SFLOAT),
    DUET_CODEC(R32G32B32_UINT), DUET_CODEC(R32G32B32_SINT), DUET_CODEC(R32G32B32_SFLOAT),
    DUET_CODEC(R32G32B32A32_UINT), DUET_CODEC(R32G32B32A32_SINT), DUET_CODEC(R32G32B32A32_SFLOAT),

    DUET_CODEC(R64_UINT), DUET_CODEC(R64_SINT), DUET_CODEC(R64_SFLOAT),
    DUET_CODEC(R64G64_UINT), DUET_CODEC(R64G64_SINT), DUET_CODEC(R64G64_SFLOAT),
    DUET_CODEC(R64G64B64_UINT), DUET_CODEC(R64G64B64_SINT), DUET_CODEC(R64G64B64_SFLOAT),
    DUET_CODEC(R64G64B64A64_UINT), DUET_CODEC(R64G64B64A64_SINT), DUET_CODEC(R64G64B64A64_SFLOAT),

    DUET_CODEC(B10G11R11_UFLOAT_PACK32), DUET_CODEC(E5B9G9R9_UFLOAT_PACK32),
};

// The depth and stencil plane elements of texel/image_layout.
constexpr TexelCodec kDepth16 = DUET_CODEC(D16_UNORM);
// Colour formats of extensions (VK_EXT_4444_formats), past the core
// numbering: looked up by a search.
constexpr TexelCodec kExtensionColorCodecs[] = {
    DUET_CODEC(A4R4G4B4_UNORM_PACK16),
    DUET_CODEC(A4B4G4R4_UNORM_PACK16),
};

constexpr TexelCodec kDepth24 = DUET_CODEC(X8_D24_UNORM_PACK32);
constexpr TexelCodec kDepth32 = DUET_CODEC(D32_SFLOAT);
constexpr TexelCodec kStencil8 = DUET_CODEC(S8_UINT);

#undef DUET_CODEC

// Core formats are numbered 1..184: a direct index.
constexpr size_t kIndexSize = VK_FORMAT_ASTC_12x12_SRGB_BLOCK + 1;

constexpr std::array<const TexelCodec*, kIndexSize> BuildIndex() {
  std::array<const TexelCodec*, kIndexSize> index{};
  for (const TexelCodec& codec : kColorCodecs) {
    if (static_cast<size_t>(codec.format) >= kIndexSize || index[codec.format] != nullptr) throw "bad codec list";
    index[codec.format] = &codec;
  }
  return index;
}

constexpr std::array<const TexelCodec*, kIndexSize> kColorIndex = BuildIndex();

const TexelCodec* DepthCodec(VkFormat format) {
  switch (format) {
    case VK_FORMAT_D16_UNORM:
    case VK_FORMAT_D16_UNORM_S8_UINT:
      return &kDepth16;
    case VK_FORMAT_X8_D24_UNORM_PACK32:
    case VK_FORMAT_D24_UNORM_S8_UINT:
      return &kDepth24;
    case VK_FORMAT_D32_SFLOAT:
    case VK_FORMAT_D32_SFLOAT_S8_UINT:
      return &kDepth32;
    default:
      return nullptr;
  }
}

const TexelCodec* StencilCodec(VkFormat format) {
  switch (format) {
    case VK_FORMAT_S8_UINT:
    case VK_FORMAT_D16_UNORM_S8_UINT:
    case VK_FORMAT_D24_UNORM_S8_UINT:
    case VK_FORMAT_D32_SFLOAT_S8_UINT:
      return &kStencil8;
    default:
      return nullptr;
  }
}

}  // namespace

ValueClass ValueClassOf(const FormatInfo& info) {
  if (info.has_depth) return ValueClass::kFloat;
  if (info.has_stencil) return ValueClass::kUint;
  switch (info.components[0].type) {
    case NumericType::kUint:
      return ValueClass::kUint;
    case NumericType::kSint:
      return ValueClass::kSint;
    default:
      return ValueClass::kFloat;
  }
}

const TexelCodec* GetTexelCodec(VkFormat format) {
  const auto value = static_cast<size_t>(format);
  if (value < kIndexSize) return kColorIndex[value];
  for (const TexelCodec& codec : kExtensionColorCodecs)
    if (codec.format == format) return &codec;
  return nullptr;
}

const TexelCodec* GetAspectCodec(VkFormat format, VkImageAspectFlagBits aspect) {
  switch (aspect) {
    case VK_IMAGE_ASPECT_COLOR_BIT:
      return GetTexelCodec(format);
    case VK_IMAGE_ASPECT_DEPTH_BIT:
      return DepthCodec(format);
    case VK_IMAGE_ASPECT_STENCIL_BIT:
      return StencilCodec(format);
    default:
      return nullptr;
  }
}

float UnpackDepth(VkFormat format, const std::byte* element) {
  const TexelCodec* codec = DepthCodec(format);
  if (codec == nullptr) return 0.0f;
  TexelValue value;
  codec->unpack(element, &value, 1);
  return value.f[0];
}

void PackDepth(VkFormat format, float depth, std::byte* element) {
  const TexelCodec* codec = DepthCodec(format);
  if (codec == nullptr) return;
  TexelValue value{};
  value.f[0] = depth;
  codec->pack(&value, element, 1);
}

bool EncodeClearColor(VkFormat format, const VkClearColorValue& color, std::byte* texel_out) {
  const TexelCodec* codec = GetTexelCodec(format);
  if (codec == nullptr) return false;
  if (codec->channel_bits[0] == 64) {
    // R from words 0-1, G from words 2-3, bit for bit; B and A zero.
    std::memset(texel_out, 0, codec->texel_size);
    std::memcpy(texel_out, &color, std::min<size_t>(codec->texel_size, sizeof(color)));
    return true;
  }
  TexelValue value;
  static_assert(sizeof(value) == sizeof(color));
  std::memcpy(&value, &color, sizeof(value));
  // Integer clears cast to the narrower type: keep the low bits (sign-extended
  // for SINT, so packing's range clamp leaves them alone).
  for (int c = 0; c < 4; ++c) {
    const unsigned bits = codec->channel_bits[c];
    if (bits == 0 || bits >= 32) continue;
    if (codec->value_class == ValueClass::kUint) value.u[c] &= BitMask(bits);
    if (codec->value_class == ValueClass::kSint) value.i[c] = SignExtend(value.u[c], bits);
  }
  codec->pack(&value, texel_out, 1);
  return true;
}

bool CanConvert(const TexelCodec& src, const TexelCodec& dst) { return src.value_class == dst.value_class; }

void ConvertTexels(const TexelCodec& src, const std::byte* src_texels, const TexelCodec& dst, std::byte* dst_texels,
                   size_t n) {
  if (&src == &dst) {
    std::memcpy(dst_texels, src_texels, n * src.texel_size);
    return;
  }
  // Small enough for the stack, large enough to amortize the two calls.
  constexpr size_t kChunk = 64;
  TexelValue values[kChunk];
  while (n > 0) {
    const size_t count = std::min(n, kChunk);
    src.unpack(src_texels, values, count);
    dst.pack(values, dst_texels, count);
    src_texels += count * src.texel_size;
    dst_texels += count * dst.texel_size;
    n -= count;
  }
}

bool ConvertTexels(VkFormat src_format, const std::byte* src_texels, VkFormat dst_format, std::byte* dst_texels,
                   size_t n) {
  const TexelCodec* src = GetTexelCodec(src_format);
  const TexelCodec* dst = GetTexelCodec(dst_format);
  if (src == nullptr || dst == nullptr || !CanConvert(*src, *dst)) return false;
  ConvertTexels(*src, src_texels, *dst, dst_texels, n);
  return true;
}

}  // namespace duet::texel
