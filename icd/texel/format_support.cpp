#include "texel/format_support.h"

#include <algorithm>
#include <bit>

#include "objects/device_limits.h"
#include "texel/format_info.h"

namespace duet::texel {
namespace {

constexpr VkFormatFeatureFlags2 kTransfer = VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT;
// Blits read through the sampling path, so whatever can be sampled can be a blit source.
constexpr VkFormatFeatureFlags2 kSampled = VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_2_BLIT_SRC_BIT;
// Linear filtering and its MIN/MAX reductions (samplerFilterMinmax) go together.
constexpr VkFormatFeatureFlags2 kFiltered =
    VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_LINEAR_BIT | VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_MINMAX_BIT;
constexpr VkFormatFeatureFlags2 kRenderable =
    VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_2_BLIT_DST_BIT;
constexpr VkFormatFeatureFlags2 kWithoutFormat =
    VK_FORMAT_FEATURE_2_STORAGE_READ_WITHOUT_FORMAT_BIT | VK_FORMAT_FEATURE_2_STORAGE_WRITE_WITHOUT_FORMAT_BIT;

// The last Vulkan 1.0 format. Of those after it (YCbCr, 4444, ASTC HDR,
// vendor formats), which came with extensions, only the 4444 ones are
// implemented.
constexpr VkFormat kLastCoreFormat = VK_FORMAT_ASTC_12x12_SRGB_BLOCK;

// Of the compressed formats, the BC family (textureCompressionBC: BC1-BC7
// decode in texel/bc_decode*), ETC2/EAC (textureCompressionETC2:
// texel/etc2_decode) and ASTC LDR (textureCompressionASTC_LDR:
// texel/astc_decode). ASTC HDR and 3D ASTC have no decoder.
bool IsSupported(const FormatInfo& f) {
  const bool compression_ok = f.compression == Compression::kNone || f.compression == Compression::kBC ||
                              f.compression == Compression::kETC2 || f.compression == Compression::kEAC ||
                              f.compression == Compression::kASTC_LDR;
  const bool known = f.format <= kLastCoreFormat || f.format == VK_FORMAT_A4R4G4B4_UNORM_PACK16 ||
                     f.format == VK_FORMAT_A4B4G4R4_UNORM_PACK16;  // VK_EXT_4444_formats
  return known && compression_ok && f.plane_count == 1 && !f.chroma_subsampled &&
         f.format != VK_FORMAT_R4G4_UNORM_PACK8;
}

bool IsCompressed(const FormatInfo& f) { return f.compression != Compression::kNone; }

// Colour formats have one numeric type for all components.
NumericType ColorType(const FormatInfo& f) { return f.components[0].type; }

bool IsInteger(NumericType t) { return t == NumericType::kUint || t == NumericType::kSint; }
bool IsScaled(NumericType t) { return t == NumericType::kUscaled || t == NumericType::kSscaled; }
bool Is64Bit(const FormatInfo& f) { return f.components[0].bits == 64; }

// R8G8B8, B8G8R8, R16G16B16, R32G32B32: no power-of-two texel, so no
// attachments or storage, as on hardware.
bool IsUnpackedRgb(const FormatInfo& f) { return f.component_count == 3 && f.packed_bits == 0; }

// Same bytes as R8G8B8A8 on a little-endian host; the spec requires them as storage texel buffers.
bool IsA8B8G8R8Storable(VkFormat format) {
  return format == VK_FORMAT_A8B8G8R8_UNORM_PACK32 || format == VK_FORMAT_A8B8G8R8_SNORM_PACK32 ||
         format == VK_FORMAT_A8B8G8R8_UINT_PACK32 || format == VK_FORMAT_A8B8G8R8_SINT_PACK32;
}

// The formats SPIR-V can name are exactly the spec's "formats without shader
// storage format" list, plus R64ui/R64i, which need VK_EXT_shader_image_atomic_int64.
bool HasSpirvStorageFormat(const FormatInfo& f) { return f.spirv_image_format != nullptr && !Is64Bit(f); }

bool HasStorage(const FormatInfo& f) { return HasSpirvStorageFormat(f) || IsA8B8G8R8Storable(f.format); }

// R32_SFLOAT for the float atomics (VK_EXT_shader_atomic_float, _float2).
bool HasAtomics(VkFormat format) {
  return format == VK_FORMAT_R32_UINT || format == VK_FORMAT_R32_SINT || format == VK_FORMAT_R32_SFLOAT;
}

VkFormatFeatureFlags2 StorageFeatures(const FormatInfo& f, VkFormatFeatureFlags2 storage,
                                      VkFormatFeatureFlags2 atomic) {
  if (!HasStorage(f)) return 0;
  VkFormatFeatureFlags2 features = storage;
  if (HasAtomics(f.format)) features |= atomic;
  if (HasSpirvStorageFormat(f)) features |= kWithoutFormat;
  return features;
}

VkFormatFeatureFlags2 ColorImageFeatures(const FormatInfo& f) {
  const NumericType type = ColorType(f);
  // Scaled formats are vertex formats only: no API above Vulkan makes
  // images of them, and the CTS's reference code reads their texels as
  // normalized values, so no image test of them could pass.
  if (IsScaled(type)) return 0;
  if (Is64Bit(f)) return kTransfer;
  VkFormatFeatureFlags2 features = kTransfer | kSampled;
  const bool filterable = !IsInteger(type);
  if (filterable) features |= kFiltered;
  // Hardware does not render to RGB or shared-exponent formats either.
  const bool renderable = !IsUnpackedRgb(f) && f.format != VK_FORMAT_E5B9G9R9_UFLOAT_PACK32;
  if (renderable) {
    features |= kRenderable;
    if (filterable) features |= VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BLEND_BIT;
  }
  return features |
         StorageFeatures(f, VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT, VK_FORMAT_FEATURE_2_STORAGE_IMAGE_ATOMIC_BIT);
}

VkFormatFeatureFlags2 ColorBufferFeatures(const FormatInfo& f) {
  if (Is64Bit(f) || IsScaled(ColorType(f))) return VK_FORMAT_FEATURE_2_VERTEX_BUFFER_BIT;
  // No sRGB decoding for buffers; 16-bit packed and shared-exponent
  // formats are image formats in practice.
  if (ColorType(f) == NumericType::kSrgb || f.packed_bits == 16 || f.format == VK_FORMAT_E5B9G9R9_UFLOAT_PACK32) {
    return 0;
  }
  return VK_FORMAT_FEATURE_2_VERTEX_BUFFER_BIT | VK_FORMAT_FEATURE_2_UNIFORM_TEXEL_BUFFER_BIT |
         StorageFeatures(f, VK_FORMAT_FEATURE_2_STORAGE_TEXEL_BUFFER_BIT,
                         VK_FORMAT_FEATURE_2_STORAGE_TEXEL_BUFFER_ATOMIC_BIT);
}

// What textureCompressionBC requires of every BC format (sampled, blit
// source, linear filtering) plus transfers. Blocks are read through the
// decoders only: no attachments, storage or blit destinations (there is no
// encoder), no texel buffers.
constexpr VkFormatFeatureFlags2 kCompressedFeatures = kTransfer | kSampled | kFiltered;

VkFormatFeatureFlags2 DepthStencilFeatures(const FormatInfo& f) {
  // Blits (nearest, between images of one format, as the spec allows for
  // depth/stencil) convert each aspect through its codec and back, exactly.
  VkFormatFeatureFlags2 features =
      kTransfer | kSampled | VK_FORMAT_FEATURE_2_BLIT_DST_BIT | VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT;
  // Linear filtering applies to the depth aspect only; Vulkan 1.3 requires
  // depth comparison for every sampleable depth format.
  if (f.has_depth) {
    features |= kFiltered | VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_DEPTH_COMPARISON_BIT;
  }
  return features;
}

VkFormatFeatureFlags2 TilingFeatures(VkFormat format, bool linear) {
  const FormatFeatures features = GetFormatFeatures(format);
  return linear ? features.linear : features.optimal;
}

// An uncompressed colour format whose texel is one block of the compressed
// `image` format: the views VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT allows.
bool IsBlockTexelViewFormat(const FormatInfo& image, const FormatInfo& view) {
  return !IsCompressed(view) && !view.has_depth && !view.has_stencil && view.block_size == image.block_size &&
         view.plane_count == 1 && !view.chroma_subsampled;
}

// What the usage can rely on: the image's own format, or with
// MUTABLE_FORMAT | EXTENDED_USAGE any format a view of it may have.
VkFormatFeatureFlags2 UsableFeatures(const FormatInfo& info, bool linear, VkImageCreateFlags flags,
                                     std::span<const VkFormat> view_formats) {
  VkFormatFeatureFlags2 features = TilingFeatures(info.format, linear);
  constexpr VkImageCreateFlags kExtended = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_EXTENDED_USAGE_BIT;
  if ((flags & kExtended) != kExtended) return features;
  const bool block_views = (flags & VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT) != 0;
  auto add = [&](const FormatInfo& other) {
    VkFormatFeatureFlags2 other_features = TilingFeatures(other.format, linear);
    // A block-texel view (an uncompressed format over the blocks) may be
    // sampled, stored to or copied, but is never an attachment.
    constexpr VkFormatFeatureFlags2 kAttachment = kRenderable | VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BLEND_BIT;
    if (block_views && !IsCompressed(other)) other_features &= ~kAttachment;
    features |= other_features;
  };
  if (!view_formats.empty()) {
    for (VkFormat view_format : view_formats) {
      if (const FormatInfo* other = GetFormatInfo(view_format)) add(*other);
    }
  } else {
    for (const FormatInfo& other : AllFormatInfos()) {
      if (other.compatibility_class == info.compatibility_class || (block_views && IsBlockTexelViewFormat(info, other)))
        add(other);
    }
  }
  return features;
}

bool UsageIsBacked(VkImageUsageFlags usage, VkFormatFeatureFlags2 features) {
  struct Requirement {
    VkImageUsageFlags usage;
    VkFormatFeatureFlags2 any_of;
  };
  constexpr Requirement kRequirements[] = {
      {VK_IMAGE_USAGE_TRANSFER_SRC_BIT, VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT},
      {VK_IMAGE_USAGE_TRANSFER_DST_BIT, VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT},
      {VK_IMAGE_USAGE_SAMPLED_BIT, VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT},
      {VK_IMAGE_USAGE_STORAGE_BIT, VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT},
      {VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT},
      {VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT},
      {VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT,
       VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT},
      // Transient attachments only change how memory may be backed.
      {VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT, 0},
      // VK_EXT_attachment_feedback_loop_layout: an attachment also read by
      // the draws that write it.
      {VK_IMAGE_USAGE_ATTACHMENT_FEEDBACK_LOOP_BIT_EXT,
       VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT},
  };
  VkImageUsageFlags known = 0;
  for (const Requirement& r : kRequirements) {
    known |= r.usage;
    if ((usage & r.usage) && r.any_of != 0 && !(features & r.any_of)) return false;
  }
  return usage != 0 && (usage & ~known) == 0;
}

VkExtent3D MaxExtent(VkImageType type, VkImageCreateFlags flags) {
  switch (type) {
    case VK_IMAGE_TYPE_1D:
      return {limits::kMaxImageDimension1D, 1, 1};
    case VK_IMAGE_TYPE_2D:
      if (flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) {
        return {limits::kMaxImageDimensionCube, limits::kMaxImageDimensionCube, 1};
      }
      return {limits::kMaxImageDimension2D, limits::kMaxImageDimension2D, 1};
    default:
      return {limits::kMaxImageDimension3D, limits::kMaxImageDimension3D, limits::kMaxImageDimension3D};
  }
}

// Multisampling needs an optimal 2D non-cube image of an attachment format
// or, for storage images (shaderStorageImageMultisample,
// storageImageSampleCounts), of a storage format; integer formats
// multisample like the others (framebufferIntegerColorSampleCounts,
// sampledImageIntegerSampleCounts).
VkSampleCountFlags SampleCounts(VkImageType type, bool linear, VkImageUsageFlags usage,
                                VkImageCreateFlags flags, VkFormatFeatureFlags2 features) {
  constexpr VkFormatFeatureFlags2 kAttachment =
      VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT;
  const bool storage = (usage & VK_IMAGE_USAGE_STORAGE_BIT) && (features & VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT);
  // (With VK_IMAGE_CREATE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_BIT_EXT: the
  // sample counts it may be rendered with.)
  const bool multisample = !linear && type == VK_IMAGE_TYPE_2D && !(flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) &&
                           ((features & kAttachment) || storage);
  return multisample ? limits::kSampleCounts : VkSampleCountFlags{VK_SAMPLE_COUNT_1_BIT};
}

}  // namespace

FormatFeatures GetFormatFeatures(VkFormat format) {
  const FormatInfo* info = GetFormatInfo(format);
  if (info == nullptr || !IsSupported(*info)) return {};
  if (IsCompressed(*info)) {
    // Linear images share the optimal layout (texel/image_layout), so both tilings work alike.
    return {.linear = kCompressedFeatures, .optimal = kCompressedFeatures, .buffer = 0};
  }
  if (info->has_depth || info->has_stencil) {
    // Depth/stencil images keep a private layout: optimal tiling only.
    return {.linear = 0, .optimal = DepthStencilFeatures(*info), .buffer = 0};
  }
  const VkFormatFeatureFlags2 image = ColorImageFeatures(*info);
  return {.linear = image, .optimal = image, .buffer = ColorBufferFeatures(*info)};
}

VkResult GetImageFormatLimits(VkFormat format, VkImageType type, VkImageTiling tiling, VkImageUsageFlags usage,
                              VkImageCreateFlags flags, VkImageFormatProperties* out,
                              std::span<const VkFormat> view_formats) {
  *out = {};
  const FormatInfo* info = GetFormatInfo(format);
  if (info == nullptr) return VK_ERROR_FORMAT_NOT_SUPPORTED;
  if (tiling != VK_IMAGE_TILING_OPTIMAL && tiling != VK_IMAGE_TILING_LINEAR) return VK_ERROR_FORMAT_NOT_SUPPORTED;
  if (type != VK_IMAGE_TYPE_1D && type != VK_IMAGE_TYPE_2D && type != VK_IMAGE_TYPE_3D) {
    return VK_ERROR_FORMAT_NOT_SUPPORTED;
  }
  const bool linear = tiling == VK_IMAGE_TILING_LINEAR;
  const VkFormatFeatureFlags2 own_features = TilingFeatures(format, linear);
  if (own_features == 0) return VK_ERROR_FORMAT_NOT_SUPPORTED;

  // No sparse residency, protected memory, device groups or multi-planar
  // formats; block-texel views need a compressed, mutable format.
  constexpr VkImageCreateFlags kSupportedFlags =
      VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT | VK_IMAGE_CREATE_ALIAS_BIT |
      VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT | VK_IMAGE_CREATE_EXTENDED_USAGE_BIT |
      VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT | VK_IMAGE_CREATE_2D_VIEW_COMPATIBLE_BIT_EXT |
      VK_IMAGE_CREATE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_BIT_EXT;
  if (flags & ~kSupportedFlags) return VK_ERROR_FORMAT_NOT_SUPPORTED;
  if ((flags & VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT) &&
      (!IsCompressed(*info) || !(flags & VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT))) {
    return VK_ERROR_FORMAT_NOT_SUPPORTED;
  }
  // Block-compressed images are 2D (arrays and cubes included).
  if (IsCompressed(*info) && type != VK_IMAGE_TYPE_2D) return VK_ERROR_FORMAT_NOT_SUPPORTED;
  if ((flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) && type != VK_IMAGE_TYPE_2D) return VK_ERROR_FORMAT_NOT_SUPPORTED;
  if ((flags & (VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT | VK_IMAGE_CREATE_2D_VIEW_COMPATIBLE_BIT_EXT)) &&
      type != VK_IMAGE_TYPE_3D) {
    return VK_ERROR_FORMAT_NOT_SUPPORTED;
  }
  // Every image is laid out linearly (texel/image_layout), so linear tiling
  // allows what optimal does, levels, layers, volumes and cubes too, and
  // vkGetImageSubresourceLayout describes each of their subresources.
  const bool depth_stencil = info->has_depth || info->has_stencil;
  if (depth_stencil && type == VK_IMAGE_TYPE_3D) return VK_ERROR_FORMAT_NOT_SUPPORTED;
  if (!UsageIsBacked(usage, UsableFeatures(*info, linear, flags, view_formats))) {
    return VK_ERROR_FORMAT_NOT_SUPPORTED;
  }

  const VkExtent3D extent = MaxExtent(type, flags);
  out->maxExtent = extent;
  out->maxMipLevels = static_cast<uint32_t>(std::bit_width(std::max({extent.width, extent.height, extent.depth})));
  out->maxArrayLayers = type == VK_IMAGE_TYPE_3D ? 1 : limits::kMaxImageArrayLayers;
  out->sampleCounts = SampleCounts(type, linear, usage, flags, own_features);
  out->maxResourceSize = limits::kMaxResourceSize;
  return VK_SUCCESS;
}

}  // namespace duet::texel
