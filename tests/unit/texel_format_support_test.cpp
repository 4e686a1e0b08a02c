// The driver's format policy against the Vulkan 1.3 spec: the "Required
// Format Support" tables (transcribed here by hand from the Formats
// chapter), the image creation limits of vkGetPhysicalDeviceImageFormatProperties,
// and the format query entry points.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <vector>

#include "dispatch/entrypoints.h"
#include "objects/device_capabilities.h"
#include "objects/device_limits.h"
#include "texel/format_info.h"
#include "texel/format_support.h"

namespace duet::texel {
namespace {

// Short names for the feature columns of the spec's tables.
constexpr VkFormatFeatureFlags2 S = VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT;
constexpr VkFormatFeatureFlags2 BS = VK_FORMAT_FEATURE_2_BLIT_SRC_BIT;
constexpr VkFormatFeatureFlags2 L = VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
constexpr VkFormatFeatureFlags2 MM = VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_MINMAX_BIT;
constexpr VkFormatFeatureFlags2 ST = VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT;
constexpr VkFormatFeatureFlags2 SA = VK_FORMAT_FEATURE_2_STORAGE_IMAGE_ATOMIC_BIT;
constexpr VkFormatFeatureFlags2 C = VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT;
constexpr VkFormatFeatureFlags2 BD = VK_FORMAT_FEATURE_2_BLIT_DST_BIT;
constexpr VkFormatFeatureFlags2 B = VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BLEND_BIT;
constexpr VkFormatFeatureFlags2 DS = VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT;
constexpr VkFormatFeatureFlags2 V = VK_FORMAT_FEATURE_2_VERTEX_BUFFER_BIT;
constexpr VkFormatFeatureFlags2 U = VK_FORMAT_FEATURE_2_UNIFORM_TEXEL_BUFFER_BIT;
constexpr VkFormatFeatureFlags2 SB = VK_FORMAT_FEATURE_2_STORAGE_TEXEL_BUFFER_BIT;
constexpr VkFormatFeatureFlags2 SBA = VK_FORMAT_FEATURE_2_STORAGE_TEXEL_BUFFER_ATOMIC_BIT;
constexpr VkFormatFeatureFlags2 kTransfer = VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT;
constexpr VkFormatFeatureFlags2 kWithoutFormat =
    VK_FORMAT_FEATURE_2_STORAGE_READ_WITHOUT_FORMAT_BIT | VK_FORMAT_FEATURE_2_STORAGE_WRITE_WITHOUT_FORMAT_BIT;

struct MandatoryRow {
  VkFormat format;
  VkFormatFeatureFlags2 optimal;  // marked "must" in the table
  VkFormatFeatureFlags2 buffer;
};

// Vulkan 1.3, "Required Format Support", the unconditional entries. Storage
// marked as depending on shaderStorageImageExtendedFormats is in kExtendedStorage.
const MandatoryRow kMandatory[] = {
    // Sub-byte components.
    {VK_FORMAT_B4G4R4A4_UNORM_PACK16, S | BS | L, 0},
    {VK_FORMAT_R5G6B5_UNORM_PACK16, S | BS | L | C | BD | B, 0},
    {VK_FORMAT_A1R5G5B5_UNORM_PACK16, S | BS | L | C | BD | B, 0},
    // 1-3 byte-sized components.
    {VK_FORMAT_R8_UNORM, S | BS | L | C | BD | B, V | U},
    {VK_FORMAT_R8_SNORM, S | BS | L, V | U},
    {VK_FORMAT_R8_UINT, S | BS | C | BD, V | U},
    {VK_FORMAT_R8_SINT, S | BS | C | BD, V | U},
    {VK_FORMAT_R8G8_UNORM, S | BS | L | C | BD | B, V | U},
    {VK_FORMAT_R8G8_SNORM, S | BS | L, V | U},
    {VK_FORMAT_R8G8_UINT, S | BS | C | BD, V | U},
    {VK_FORMAT_R8G8_SINT, S | BS | C | BD, V | U},
    // 4 byte-sized components.
    {VK_FORMAT_R8G8B8A8_UNORM, S | BS | L | ST | C | BD | B, V | U | SB},
    {VK_FORMAT_R8G8B8A8_SNORM, S | BS | L | ST, V | U | SB},
    {VK_FORMAT_R8G8B8A8_UINT, S | BS | ST | C | BD, V | U | SB},
    {VK_FORMAT_R8G8B8A8_SINT, S | BS | ST | C | BD, V | U | SB},
    {VK_FORMAT_R8G8B8A8_SRGB, S | BS | L | C | BD | B, 0},
    {VK_FORMAT_B8G8R8A8_UNORM, S | BS | L | C | BD | B, V | U},
    {VK_FORMAT_B8G8R8A8_SRGB, S | BS | L | C | BD | B, 0},
    {VK_FORMAT_A8B8G8R8_UNORM_PACK32, S | BS | L | C | BD | B, V | U | SB},
    {VK_FORMAT_A8B8G8R8_SNORM_PACK32, S | BS | L, V | U | SB},
    {VK_FORMAT_A8B8G8R8_UINT_PACK32, S | BS | C | BD, V | U | SB},
    {VK_FORMAT_A8B8G8R8_SINT_PACK32, S | BS | C | BD, V | U | SB},
    {VK_FORMAT_A8B8G8R8_SRGB_PACK32, S | BS | L | C | BD | B, 0},
    // 10- and 12-bit components.
    {VK_FORMAT_A2B10G10R10_UNORM_PACK32, S | BS | L | C | BD | B, V | U},
    {VK_FORMAT_A2B10G10R10_UINT_PACK32, S | BS | C | BD, U},
    // 16-bit components.
    {VK_FORMAT_R16_UNORM, 0, V},
    {VK_FORMAT_R16_SNORM, 0, V},
    {VK_FORMAT_R16_UINT, S | BS | C | BD, V | U},
    {VK_FORMAT_R16_SINT, S | BS | C | BD, V | U},
    {VK_FORMAT_R16_SFLOAT, S | BS | L | C | BD | B, V | U},
    {VK_FORMAT_R16G16_UNORM, 0, V},
    {VK_FORMAT_R16G16_SNORM, 0, V},
    {VK_FORMAT_R16G16_UINT, S | BS | C | BD, V | U},
    {VK_FORMAT_R16G16_SINT, S | BS | C | BD, V | U},
    {VK_FORMAT_R16G16_SFLOAT, S | BS | L | C | BD | B, V | U},
    {VK_FORMAT_R16G16B16A16_UNORM, 0, V},
    {VK_FORMAT_R16G16B16A16_SNORM, 0, V},
    {VK_FORMAT_R16G16B16A16_UINT, S | BS | ST | C | BD, V | U | SB},
    {VK_FORMAT_R16G16B16A16_SINT, S | BS | ST | C | BD, V | U | SB},
    {VK_FORMAT_R16G16B16A16_SFLOAT, S | BS | L | ST | C | BD | B, V | U | SB},
    // 32-bit components.
    {VK_FORMAT_R32_UINT, S | BS | ST | SA | C | BD, V | U | SB | SBA},
    {VK_FORMAT_R32_SINT, S | BS | ST | SA | C | BD, V | U | SB | SBA},
    {VK_FORMAT_R32_SFLOAT, S | BS | ST | C | BD, V | U | SB},
    {VK_FORMAT_R32G32_UINT, S | BS | ST | C | BD, V | U | SB},
    {VK_FORMAT_R32G32_SINT, S | BS | ST | C | BD, V | U | SB},
    {VK_FORMAT_R32G32_SFLOAT, S | BS | ST | C | BD, V | U | SB},
    {VK_FORMAT_R32G32B32_UINT, 0, V},
    {VK_FORMAT_R32G32B32_SINT, 0, V},
    {VK_FORMAT_R32G32B32_SFLOAT, 0, V},
    {VK_FORMAT_R32G32B32A32_UINT, S | BS | ST | C | BD, V | U | SB},
    {VK_FORMAT_R32G32B32A32_SINT, S | BS | ST | C | BD, V | U | SB},
    {VK_FORMAT_R32G32B32A32_SFLOAT, S | BS | ST | C | BD, V | U | SB},
    // 64-bit and uneven components.
    {VK_FORMAT_B10G11R11_UFLOAT_PACK32, S | BS | L, U},
    {VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, S | BS | L, 0},
    // Depth/stencil (VK_IMAGE_TYPE_2D).
    {VK_FORMAT_D16_UNORM, S | BS | DS, 0},
    {VK_FORMAT_D32_SFLOAT, S | BS, 0},
};

// Storage required when shaderStorageImageExtendedFormats is advertised.
const VkFormat kExtendedStorage[] = {
    VK_FORMAT_R8_UNORM,           VK_FORMAT_R8_SNORM,           VK_FORMAT_R8_UINT,
    VK_FORMAT_R8_SINT,            VK_FORMAT_R8G8_UNORM,         VK_FORMAT_R8G8_SNORM,
    VK_FORMAT_R8G8_UINT,          VK_FORMAT_R8G8_SINT,          VK_FORMAT_A2B10G10R10_UNORM_PACK32,
    VK_FORMAT_A2B10G10R10_UINT_PACK32, VK_FORMAT_R16_UNORM,     VK_FORMAT_R16_SNORM,
    VK_FORMAT_R16_UINT,           VK_FORMAT_R16_SINT,           VK_FORMAT_R16_SFLOAT,
    VK_FORMAT_R16G16_UNORM,       VK_FORMAT_R16G16_SNORM,       VK_FORMAT_R16G16_UINT,
    VK_FORMAT_R16G16_SINT,        VK_FORMAT_R16G16_SFLOAT,      VK_FORMAT_R16G16B16A16_UNORM,
    VK_FORMAT_R16G16B16A16_SNORM, VK_FORMAT_B10G11R11_UFLOAT_PACK32,
};

// The spec's "Formats Without Shader Storage Format" list.
const VkFormat kWithoutFormatList[] = {
    VK_FORMAT_R8G8B8A8_UNORM,      VK_FORMAT_R8G8B8A8_SNORM,      VK_FORMAT_R8G8B8A8_UINT,
    VK_FORMAT_R8G8B8A8_SINT,       VK_FORMAT_R32_UINT,            VK_FORMAT_R32_SINT,
    VK_FORMAT_R32_SFLOAT,          VK_FORMAT_R32G32_UINT,         VK_FORMAT_R32G32_SINT,
    VK_FORMAT_R32G32_SFLOAT,       VK_FORMAT_R32G32B32A32_UINT,   VK_FORMAT_R32G32B32A32_SINT,
    VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R16G16B16A16_UINT,   VK_FORMAT_R16G16B16A16_SINT,
    VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R16G16_SFLOAT,       VK_FORMAT_B10G11R11_UFLOAT_PACK32,
    VK_FORMAT_R16_SFLOAT,          VK_FORMAT_R16G16B16A16_UNORM,  VK_FORMAT_A2B10G10R10_UNORM_PACK32,
    VK_FORMAT_R16G16_UNORM,        VK_FORMAT_R8G8_UNORM,          VK_FORMAT_R16_UNORM,
    VK_FORMAT_R8_UNORM,            VK_FORMAT_R16G16B16A16_SNORM,  VK_FORMAT_R16G16_SNORM,
    VK_FORMAT_R8G8_SNORM,          VK_FORMAT_R16_SNORM,           VK_FORMAT_R8_SNORM,
    VK_FORMAT_R16G16_SINT,         VK_FORMAT_R8G8_SINT,           VK_FORMAT_R16_SINT,
    VK_FORMAT_R8_SINT,             VK_FORMAT_A2B10G10R10_UINT_PACK32, VK_FORMAT_R16G16_UINT,
    VK_FORMAT_R8G8_UINT,           VK_FORMAT_R16_UINT,            VK_FORMAT_R8_UINT,
};

const char* Name(VkFormat format) {
  const FormatInfo* info = GetFormatInfo(format);
  return info ? info->name : "?";
}

bool HasDepthStencilAttachment(VkFormat format) { return GetFormatFeatures(format).optimal & DS; }

// Features that would be every usage's backing, for building usage masks from features.
VkImageUsageFlags UsageFor(VkFormatFeatureFlags2 features) {
  VkImageUsageFlags usage = 0;
  if (features & VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT) usage |= VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  if (features & VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT) usage |= VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  if (features & S) usage |= VK_IMAGE_USAGE_SAMPLED_BIT;
  if (features & ST) usage |= VK_IMAGE_USAGE_STORAGE_BIT;
  if (features & C) usage |= VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT;
  if (features & DS) usage |= VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT;
  return usage;
}

std::vector<const FormatInfo*> SupportedFormats() {
  std::vector<const FormatInfo*> formats;
  for (const FormatInfo& info : AllFormatInfos()) {
    const FormatFeatures f = GetFormatFeatures(info.format);
    if (f.linear | f.optimal | f.buffer) formats.push_back(&info);
  }
  return formats;
}

TEST(FormatSupport, EveryMandatoryRowIsSupported) {
  for (const MandatoryRow& row : kMandatory) {
    const FormatFeatures f = GetFormatFeatures(row.format);
    EXPECT_EQ(f.optimal & row.optimal, row.optimal) << Name(row.format);
    EXPECT_EQ(f.buffer & row.buffer, row.buffer) << Name(row.format);
    // Vulkan 1.1: formats that must be sampleable must also be transfer sources and destinations.
    if (row.optimal & S) {
      EXPECT_EQ(f.optimal & kTransfer, kTransfer) << Name(row.format);
    }
  }
}

TEST(FormatSupport, DepthStencilAttachmentAlternativesAreCovered) {
  EXPECT_TRUE(HasDepthStencilAttachment(VK_FORMAT_X8_D24_UNORM_PACK32) ||
              HasDepthStencilAttachment(VK_FORMAT_D32_SFLOAT));
  EXPECT_TRUE(HasDepthStencilAttachment(VK_FORMAT_D24_UNORM_S8_UINT) ||
              HasDepthStencilAttachment(VK_FORMAT_D32_SFLOAT_S8_UINT));
}

TEST(FormatSupport, ExtendedStorageFormatsHaveStorage) {
  for (VkFormat format : kExtendedStorage) EXPECT_TRUE(GetFormatFeatures(format).optimal & ST) << Name(format);
}

// Vulkan 1.3 requires the without-format bits on these formats once the
// device advertises shaderStorageImageRead/WriteWithoutFormat; the driver
// gives them whenever the format is a storage format at all.
TEST(FormatSupport, WithoutFormatListHasTheWithoutFormatBits) {
  for (VkFormat format : kWithoutFormatList) {
    const FormatFeatures f = GetFormatFeatures(format);
    if (f.optimal & ST) {
      EXPECT_EQ(f.optimal & kWithoutFormat, kWithoutFormat) << Name(format);
    }
    if (f.buffer & SB) {
      EXPECT_EQ(f.buffer & kWithoutFormat, kWithoutFormat) << Name(format);
    }
  }
  // And nowhere else.
  for (const FormatInfo* info : SupportedFormats()) {
    bool listed = false;
    for (VkFormat format : kWithoutFormatList) listed |= format == info->format;
    if (!listed) {
      EXPECT_EQ(GetFormatFeatures(info->format).optimal & kWithoutFormat, 0u) << info->name;
    }
  }
}

// The compressed tables require one whole family (BC, ETC2/EAC or ASTC LDR)
// to be sampleable: the driver decodes all three.
TEST(FormatSupport, OneCompressedFamilyIsSampleable) {
  auto family_sampleable = [](Compression family) {
    bool any = false;
    for (const FormatInfo& info : AllFormatInfos()) {
      if (info.compression != family || info.format > VK_FORMAT_ASTC_12x12_SRGB_BLOCK) continue;
      any = true;
      if ((GetFormatFeatures(info.format).optimal & (S | BS | L)) != (S | BS | L)) return false;
    }
    return any;
  };
  EXPECT_TRUE(family_sampleable(Compression::kBC) ||
              (family_sampleable(Compression::kETC2) && family_sampleable(Compression::kEAC)) ||
              family_sampleable(Compression::kASTC_LDR));
}

TEST(FormatSupport, UnsupportedKindsAdvertiseNothing) {
  for (VkFormat format : {VK_FORMAT_UNDEFINED, VK_FORMAT_R4G4_UNORM_PACK8, VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK,
                          VK_FORMAT_G8B8G8R8_422_UNORM, VK_FORMAT_G8_B8R8_2PLANE_420_UNORM,
                          VK_FORMAT_ASTC_12x12_SFLOAT_BLOCK,
                          VK_FORMAT_R16G16_S10_5_NV, static_cast<VkFormat>(12345)}) {
    const FormatFeatures f = GetFormatFeatures(format);
    EXPECT_EQ(f.linear | f.optimal | f.buffer, 0u) << format;
  }
}

TEST(FormatSupport, EverySupportedFormatIsCoreUncompressedOrBcOrEtc2OrAstcLdrSinglePlane) {
  const std::vector<const FormatInfo*> supported = SupportedFormats();
  // 130 uncompressed Vulkan 1.0 formats, less R4G4_UNORM_PACK8, the 16 BC
  // formats, the 10 ETC2 and EAC formats, the 28 ASTC LDR formats and the two
  // of VK_EXT_4444_formats.
  EXPECT_EQ(supported.size(), 129u + 16u + 10u + 28u + 2u);
  for (const FormatInfo* info : supported) {
    if (info->format == VK_FORMAT_A4R4G4B4_UNORM_PACK16 || info->format == VK_FORMAT_A4B4G4R4_UNORM_PACK16) {
      // VK_EXT_4444_formats: sampled, filtered and blitted from, in optimal tiling.
      const FormatFeatures f = GetFormatFeatures(info->format);
      constexpr VkFormatFeatureFlags2 kRequired = VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT |
                                                  VK_FORMAT_FEATURE_2_BLIT_SRC_BIT |
                                                  VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
      EXPECT_EQ(f.optimal & kRequired, kRequired) << info->name;
    } else if (info->compression == Compression::kBC) {
      EXPECT_GE(info->format, VK_FORMAT_BC1_RGB_UNORM_BLOCK) << info->name;
      EXPECT_LE(info->format, VK_FORMAT_BC7_SRGB_BLOCK) << info->name;
    } else if (info->compression == Compression::kETC2 || info->compression == Compression::kEAC) {
      EXPECT_GE(info->format, VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK) << info->name;
      EXPECT_LE(info->format, VK_FORMAT_EAC_R11G11_SNORM_BLOCK) << info->name;
    } else if (info->compression == Compression::kASTC_LDR) {
      EXPECT_GE(info->format, VK_FORMAT_ASTC_4x4_UNORM_BLOCK) << info->name;
      EXPECT_LE(info->format, VK_FORMAT_ASTC_12x12_SRGB_BLOCK) << info->name;
    } else {
      EXPECT_LE(info->format, VK_FORMAT_D32_SFLOAT_S8_UINT) << info->name;
      EXPECT_EQ(info->compression, Compression::kNone) << info->name;
    }
    EXPECT_EQ(info->plane_count, 1) << info->name;
  }
}

// textureCompressionBC: SAMPLED_IMAGE, BLIT_SRC and SAMPLED_IMAGE_FILTER_LINEAR
// in optimal tiling for every BC format; transfers too. Blocks are never
// written by the device (no attachment, storage or blit destination) and
// there are no compressed texel buffers.
// filterMinmaxSingleComponentFormats: these must reduce by MIN and MAX,
// and every format that filters linearly does too.
TEST(FormatSupport, MinMaxFilteringWhereTheSpecAsks) {
  for (VkFormat format : {VK_FORMAT_R8_UNORM, VK_FORMAT_R8_SNORM, VK_FORMAT_R16_UNORM, VK_FORMAT_R16_SNORM,
                          VK_FORMAT_R16_SFLOAT, VK_FORMAT_R32_SFLOAT, VK_FORMAT_D16_UNORM, VK_FORMAT_X8_D24_UNORM_PACK32,
                          VK_FORMAT_D32_SFLOAT, VK_FORMAT_D16_UNORM_S8_UINT, VK_FORMAT_D24_UNORM_S8_UINT,
                          VK_FORMAT_D32_SFLOAT_S8_UINT})
    EXPECT_NE(GetFormatFeatures(format).optimal & MM, 0u) << format;
  for (const FormatInfo& info : AllFormatInfos()) {
    const FormatFeatures f = GetFormatFeatures(info.format);
    EXPECT_EQ((f.optimal & L) != 0, (f.optimal & MM) != 0) << info.name;
  }
  EXPECT_EQ(SupportedFeatures().vulkan12.samplerFilterMinmax, VK_TRUE);
}

TEST(FormatSupport, BcEtc2AndAstcFormatsHaveTheTextureCompressionFeatures) {
  size_t count = 0, etc2 = 0, astc = 0;
  for (const FormatInfo& info : AllFormatInfos()) {
    const bool is_etc2 = info.compression == Compression::kETC2 || info.compression == Compression::kEAC;
    const bool is_astc = info.compression == Compression::kASTC_LDR && info.format <= VK_FORMAT_ASTC_12x12_SRGB_BLOCK;
    if (info.compression != Compression::kBC && !is_etc2 && !is_astc) continue;
    ++(is_etc2 ? etc2 : is_astc ? astc : count);
    const FormatFeatures f = GetFormatFeatures(info.format);
    EXPECT_EQ(f.optimal, S | BS | L | MM | kTransfer) << info.name;
    EXPECT_EQ(f.linear, f.optimal) << info.name;
    EXPECT_EQ(f.buffer, 0u) << info.name;
  }
  EXPECT_EQ(count, 16u) << "BC1 RGB/RGBA, BC2, BC3, BC4, BC5 (UNORM and sRGB or SNORM), BC6H, BC7";
  EXPECT_EQ(etc2, 10u) << "ETC2 RGB8, RGB8A1, RGBA8 (UNORM and sRGB), EAC R11, RG11 (UNORM and SNORM)";
  EXPECT_EQ(astc, 28u) << "ASTC 4x4 .. 12x12, UNORM and sRGB";
  // And the device says so.
  EXPECT_EQ(SupportedFeatures().core.textureCompressionBC, VK_TRUE);
  EXPECT_EQ(SupportedFeatures().core.textureCompressionETC2, VK_TRUE);
  EXPECT_EQ(SupportedFeatures().core.textureCompressionASTC_LDR, VK_TRUE);
}

TEST(FormatSupport, FeatureImplications) {
  for (const FormatInfo* info : SupportedFormats()) {
    const FormatFeatures f = GetFormatFeatures(info->format);
    for (VkFormatFeatureFlags2 image : {f.linear, f.optimal}) {
      if (image == 0) continue;
      EXPECT_EQ(image & kTransfer, kTransfer) << info->name;
      if (image & L) {
        EXPECT_TRUE(image & S) << info->name;
      }
      if (image & B) {
        EXPECT_TRUE(image & C) << info->name;
      }
      if (image & BD) {
        EXPECT_TRUE(image & (C | DS)) << info->name;
      }
      if (image & SA) {
        EXPECT_TRUE(image & ST) << info->name;
      }
      if (image & S) {
        EXPECT_TRUE(image & BS) << info->name;
      }
    }
    if (f.buffer & SBA) {
      EXPECT_TRUE(f.buffer & SB) << info->name;
    }
  }
}

TEST(FormatSupport, IntegerFormatsAreNeitherFilterableNorBlendable) {
  for (const FormatInfo* info : SupportedFormats()) {
    const NumericType type = info->components[0].type;
    if (info->has_depth || info->has_stencil) continue;
    if (type != NumericType::kUint && type != NumericType::kSint) continue;
    EXPECT_EQ(GetFormatFeatures(info->format).optimal & (L | B), 0u) << info->name;
  }
}

TEST(FormatSupport, SrgbFormatsHaveNoStorageAndNoBufferFeatures) {
  for (const FormatInfo* info : SupportedFormats()) {
    if (info->components[0].type != NumericType::kSrgb) continue;
    const FormatFeatures f = GetFormatFeatures(info->format);
    EXPECT_EQ(f.optimal & (ST | SA), 0u) << info->name;
    EXPECT_EQ(f.linear & (ST | SA), 0u) << info->name;
    EXPECT_EQ(f.buffer, 0u) << info->name;
    EXPECT_TRUE(f.optimal & L) << info->name;
  }
}

TEST(FormatSupport, SixtyFourBitFormatsOnlyTransferAndVertexFetch) {
  for (VkFormat format : {VK_FORMAT_R64_UINT, VK_FORMAT_R64_SINT, VK_FORMAT_R64_SFLOAT, VK_FORMAT_R64G64_SFLOAT,
                          VK_FORMAT_R64G64B64_UINT, VK_FORMAT_R64G64B64A64_SFLOAT}) {
    const FormatFeatures f = GetFormatFeatures(format);
    EXPECT_EQ(f.optimal, kTransfer) << Name(format);
    EXPECT_EQ(f.linear, kTransfer) << Name(format);
    EXPECT_EQ(f.buffer, V) << Name(format);
  }
}

// Scaled formats are vertex formats only: no image of them.
TEST(FormatSupport, ScaledFormatsAreVertexFormatsOnly) {
  for (VkFormat format : {VK_FORMAT_R8_USCALED, VK_FORMAT_R8G8B8A8_SSCALED, VK_FORMAT_R16G16B16_USCALED,
                          VK_FORMAT_A2B10G10R10_SSCALED_PACK32, VK_FORMAT_B8G8R8A8_USCALED}) {
    const FormatFeatures f = GetFormatFeatures(format);
    EXPECT_EQ(f.optimal, 0u) << Name(format);
    EXPECT_EQ(f.linear, 0u) << Name(format);
    EXPECT_EQ(f.buffer, V) << Name(format);
  }
}

TEST(FormatSupport, ThreeComponentFormatsAreNotRenderable) {
  for (VkFormat format : {VK_FORMAT_R8G8B8_UNORM, VK_FORMAT_B8G8R8_SINT, VK_FORMAT_R16G16B16_SFLOAT,
                          VK_FORMAT_R32G32B32_SFLOAT, VK_FORMAT_R32G32B32_UINT}) {
    const FormatFeatures f = GetFormatFeatures(format);
    EXPECT_EQ(f.optimal & (C | B | BD | ST | DS), 0u) << Name(format);
    EXPECT_TRUE(f.optimal & S) << Name(format);
    EXPECT_EQ(f.buffer & (V | U), V | U) << Name(format);
    EXPECT_EQ(f.buffer & SB, 0u) << Name(format);
  }
  EXPECT_TRUE(GetFormatFeatures(VK_FORMAT_R32G32B32_SFLOAT).optimal & L);
  EXPECT_FALSE(GetFormatFeatures(VK_FORMAT_R32G32B32_UINT).optimal & L);
}

TEST(FormatSupport, DepthStencilFormatsAreOptimalOnly) {
  for (VkFormat format : {VK_FORMAT_D16_UNORM, VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D32_SFLOAT, VK_FORMAT_S8_UINT,
                          VK_FORMAT_D16_UNORM_S8_UINT, VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT}) {
    const FormatFeatures f = GetFormatFeatures(format);
    EXPECT_EQ(f.linear, 0u) << Name(format);
    EXPECT_EQ(f.buffer, 0u) << Name(format);
    // Blits from and to (nearest, as the spec allows for depth/stencil).
    EXPECT_EQ(f.optimal & (S | BS | BD | DS | kTransfer), S | BS | BD | DS | kTransfer) << Name(format);
    EXPECT_EQ(f.optimal & (C | B | ST), 0u) << Name(format);
    const bool depth = GetFormatInfo(format)->has_depth;
    // Vulkan 1.3: sampleable depth formats support depth comparison.
    EXPECT_EQ((f.optimal & VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_DEPTH_COMPARISON_BIT) != 0, depth) << Name(format);
    EXPECT_EQ((f.optimal & L) != 0, depth) << Name(format);
  }
}

TEST(FormatSupport, LinearTilingMatchesOptimalForColour) {
  for (const FormatInfo* info : SupportedFormats()) {
    if (info->has_depth || info->has_stencil) continue;
    const FormatFeatures f = GetFormatFeatures(info->format);
    EXPECT_EQ(f.linear, f.optimal) << info->name;
  }
}

// 32-bit integers, and R32_SFLOAT for the float atomics (VK_EXT_shader_atomic_float).
TEST(FormatSupport, AtomicsOnlyOn32BitSingleChannelFormats) {
  for (const FormatInfo* info : SupportedFormats()) {
    const FormatFeatures f = GetFormatFeatures(info->format);
    const bool atomic = info->format == VK_FORMAT_R32_UINT || info->format == VK_FORMAT_R32_SINT ||
                        info->format == VK_FORMAT_R32_SFLOAT;
    EXPECT_EQ((f.optimal & SA) != 0, atomic) << info->name;
    EXPECT_EQ((f.buffer & SBA) != 0, atomic) << info->name;
  }
}

TEST(FormatSupport, LegacyFlagsDropTheUpperBits) {
  const VkFormatFeatureFlags2 all = GetFormatFeatures(VK_FORMAT_R8G8B8A8_UNORM).optimal;
  ASSERT_TRUE(all & kWithoutFormat);
  const VkFormatFeatureFlags legacy = LegacyFormatFeatures(all);
  EXPECT_EQ(legacy, static_cast<VkFormatFeatureFlags>(all & ~kWithoutFormat));
  EXPECT_EQ(LegacyFormatFeatures(VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_DEPTH_COMPARISON_BIT), 0u);
}

// ---- Image creation limits ----

VkResult Limits(VkFormat format, VkImageType type, VkImageTiling tiling, VkImageUsageFlags usage,
                VkImageCreateFlags flags, VkImageFormatProperties* out = nullptr,
                std::span<const VkFormat> views = {}) {
  VkImageFormatProperties scratch;
  return GetImageFormatLimits(format, type, tiling, usage, flags, out ? out : &scratch, views);
}

constexpr VkImageTiling kOptimal = VK_IMAGE_TILING_OPTIMAL;
constexpr VkImageTiling kLinear = VK_IMAGE_TILING_LINEAR;
constexpr VkImageUsageFlags kSampledUsage = VK_IMAGE_USAGE_SAMPLED_BIT;
constexpr VkImageUsageFlags kColorUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
constexpr VkImageUsageFlags kDepthUsage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
constexpr VkImageUsageFlags kStorageUsage = VK_IMAGE_USAGE_STORAGE_BIT;

TEST(ImageFormatLimits, Optimal2DColour) {
  VkImageFormatProperties p;
  ASSERT_EQ(Limits(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, kOptimal, kSampledUsage | kColorUsage, 0, &p),
            VK_SUCCESS);
  EXPECT_EQ(p.maxExtent.width, limits::kMaxImageDimension2D);
  EXPECT_EQ(p.maxExtent.height, limits::kMaxImageDimension2D);
  EXPECT_EQ(p.maxExtent.depth, 1u);
  EXPECT_EQ(p.maxMipLevels, 15u);  // 16384 -> 1
  EXPECT_EQ(p.maxArrayLayers, limits::kMaxImageArrayLayers);
  EXPECT_EQ(p.sampleCounts, limits::kSampleCounts);
  EXPECT_EQ(p.maxResourceSize, limits::kMaxResourceSize);
  EXPECT_GE(p.maxResourceSize, VkDeviceSize{1} << 31);  // the spec's minimum
}

TEST(ImageFormatLimits, OneDimensionalAndVolumeImages) {
  VkImageFormatProperties p;
  ASSERT_EQ(Limits(VK_FORMAT_R32_SFLOAT, VK_IMAGE_TYPE_1D, kOptimal, kSampledUsage, 0, &p), VK_SUCCESS);
  EXPECT_EQ(p.maxExtent.width, limits::kMaxImageDimension1D);
  EXPECT_EQ(p.maxExtent.height, 1u);
  EXPECT_EQ(p.maxExtent.depth, 1u);
  EXPECT_EQ(p.maxArrayLayers, limits::kMaxImageArrayLayers);
  EXPECT_EQ(p.sampleCounts, VkSampleCountFlags{VK_SAMPLE_COUNT_1_BIT});

  ASSERT_EQ(Limits(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_3D, kOptimal, kSampledUsage | kColorUsage, 0, &p),
            VK_SUCCESS);
  EXPECT_EQ(p.maxExtent.width, limits::kMaxImageDimension3D);
  EXPECT_EQ(p.maxExtent.height, limits::kMaxImageDimension3D);
  EXPECT_EQ(p.maxExtent.depth, limits::kMaxImageDimension3D);
  EXPECT_EQ(p.maxMipLevels, 12u);  // 2048 -> 1
  EXPECT_EQ(p.maxArrayLayers, 1u);
  EXPECT_EQ(p.sampleCounts, VkSampleCountFlags{VK_SAMPLE_COUNT_1_BIT});
}

TEST(ImageFormatLimits, CubeCompatibility) {
  VkImageFormatProperties p;
  ASSERT_EQ(Limits(VK_FORMAT_R8G8B8A8_SRGB, VK_IMAGE_TYPE_2D, kOptimal, kSampledUsage | kColorUsage,
                   VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT, &p),
            VK_SUCCESS);
  EXPECT_EQ(p.maxExtent.width, limits::kMaxImageDimensionCube);
  EXPECT_EQ(p.maxExtent.height, limits::kMaxImageDimensionCube);
  EXPECT_EQ(p.sampleCounts, VkSampleCountFlags{VK_SAMPLE_COUNT_1_BIT});
  EXPECT_GE(p.maxArrayLayers, 6u);
  EXPECT_EQ(Limits(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_1D, kOptimal, kSampledUsage,
                   VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT),
            VK_ERROR_FORMAT_NOT_SUPPORTED);
  EXPECT_EQ(Limits(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_3D, kOptimal, kSampledUsage,
                   VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT),
            VK_ERROR_FORMAT_NOT_SUPPORTED);
  EXPECT_EQ(Limits(VK_FORMAT_D32_SFLOAT, VK_IMAGE_TYPE_2D, kOptimal, kSampledUsage | kDepthUsage,
                   VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT),
            VK_SUCCESS);
}

TEST(ImageFormatLimits, ArrayCompatibilityNeedsAVolume) {
  EXPECT_EQ(Limits(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_3D, kOptimal, kColorUsage,
                   VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT),
            VK_SUCCESS);
  EXPECT_EQ(Limits(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, kOptimal, kColorUsage,
                   VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT),
            VK_ERROR_FORMAT_NOT_SUPPORTED);
}

// Every image is laid out linearly, so linear tiling allows levels, layers,
// volumes and cubes like optimal tiling; only multisampling is optimal's.
TEST(ImageFormatLimits, LinearTilingAllowsWhatOptimalDoesButSamples) {
  VkImageFormatProperties p;
  ASSERT_EQ(Limits(VK_FORMAT_B8G8R8A8_UNORM, VK_IMAGE_TYPE_2D, kLinear,
                   VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | kSampledUsage | kColorUsage,
                   0, &p),
            VK_SUCCESS);
  EXPECT_EQ(p.maxMipLevels, 15u);
  EXPECT_EQ(p.maxArrayLayers, limits::kMaxImageArrayLayers);
  EXPECT_EQ(p.sampleCounts, VkSampleCountFlags{VK_SAMPLE_COUNT_1_BIT});
  EXPECT_EQ(p.maxExtent.width, limits::kMaxImageDimension2D);
  EXPECT_EQ(Limits(VK_FORMAT_B8G8R8A8_UNORM, VK_IMAGE_TYPE_1D, kLinear, kSampledUsage, 0), VK_SUCCESS);
  EXPECT_EQ(Limits(VK_FORMAT_B8G8R8A8_UNORM, VK_IMAGE_TYPE_3D, kLinear, kSampledUsage, 0), VK_SUCCESS);
  EXPECT_EQ(Limits(VK_FORMAT_B8G8R8A8_UNORM, VK_IMAGE_TYPE_2D, kLinear, kSampledUsage,
                   VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT),
            VK_SUCCESS);
  for (VkFormat ds : {VK_FORMAT_D16_UNORM, VK_FORMAT_S8_UINT, VK_FORMAT_D24_UNORM_S8_UINT}) {
    EXPECT_EQ(Limits(ds, VK_IMAGE_TYPE_2D, kLinear, VK_IMAGE_USAGE_TRANSFER_SRC_BIT, 0),
              VK_ERROR_FORMAT_NOT_SUPPORTED)
        << Name(ds);
  }
}

TEST(ImageFormatLimits, UsageNeedsTheMatchingFeature) {
  EXPECT_EQ(Limits(VK_FORMAT_R8G8B8A8_SRGB, VK_IMAGE_TYPE_2D, kOptimal, kStorageUsage, 0),
            VK_ERROR_FORMAT_NOT_SUPPORTED);
  EXPECT_EQ(Limits(VK_FORMAT_D16_UNORM, VK_IMAGE_TYPE_2D, kOptimal, kColorUsage, 0), VK_ERROR_FORMAT_NOT_SUPPORTED);
  EXPECT_EQ(Limits(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, kOptimal, kDepthUsage, 0),
            VK_ERROR_FORMAT_NOT_SUPPORTED);
  EXPECT_EQ(Limits(VK_FORMAT_R32G32B32_SFLOAT, VK_IMAGE_TYPE_2D, kOptimal, kColorUsage, 0),
            VK_ERROR_FORMAT_NOT_SUPPORTED);
  EXPECT_EQ(Limits(VK_FORMAT_R32G32B32_SFLOAT, VK_IMAGE_TYPE_2D, kOptimal, VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT, 0),
            VK_ERROR_FORMAT_NOT_SUPPORTED);
  EXPECT_EQ(Limits(VK_FORMAT_R64_UINT, VK_IMAGE_TYPE_2D, kOptimal, kSampledUsage, 0), VK_ERROR_FORMAT_NOT_SUPPORTED);
  EXPECT_EQ(Limits(VK_FORMAT_R64_UINT, VK_IMAGE_TYPE_2D, kOptimal, VK_IMAGE_USAGE_TRANSFER_DST_BIT, 0), VK_SUCCESS);
  EXPECT_EQ(Limits(VK_FORMAT_D24_UNORM_S8_UINT, VK_IMAGE_TYPE_2D, kOptimal,
                   kDepthUsage | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT, 0),
            VK_SUCCESS);
  EXPECT_EQ(Limits(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, kOptimal, 0, 0), VK_ERROR_FORMAT_NOT_SUPPORTED);
  EXPECT_EQ(Limits(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, kOptimal,
                   kSampledUsage | VK_IMAGE_USAGE_FRAGMENT_DENSITY_MAP_BIT_EXT, 0),
            VK_ERROR_FORMAT_NOT_SUPPORTED);
}

TEST(ImageFormatLimits, ExtendedUsageLooksAtViewFormats) {
  constexpr VkImageCreateFlags kMutable = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
  constexpr VkImageCreateFlags kExtended = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_EXTENDED_USAGE_BIT;
  // Any compatible format (R8G8B8A8_UNORM here) can back storage.
  EXPECT_EQ(Limits(VK_FORMAT_R8G8B8A8_SRGB, VK_IMAGE_TYPE_2D, kOptimal, kStorageUsage, kExtended), VK_SUCCESS);
  EXPECT_EQ(Limits(VK_FORMAT_R8G8B8A8_SRGB, VK_IMAGE_TYPE_2D, kOptimal, kStorageUsage, kMutable),
            VK_ERROR_FORMAT_NOT_SUPPORTED);
  const VkFormat srgb_only[] = {VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_B8G8R8A8_SRGB};
  EXPECT_EQ(Limits(VK_FORMAT_R8G8B8A8_SRGB, VK_IMAGE_TYPE_2D, kOptimal, kStorageUsage, kExtended, nullptr, srgb_only),
            VK_ERROR_FORMAT_NOT_SUPPORTED);
  const VkFormat with_unorm[] = {VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_R8G8B8A8_UNORM};
  EXPECT_EQ(Limits(VK_FORMAT_R8G8B8A8_SRGB, VK_IMAGE_TYPE_2D, kOptimal, kStorageUsage, kExtended, nullptr, with_unorm),
            VK_SUCCESS);
}

TEST(ImageFormatLimits, UnsupportedFlagsAndTilings) {
  for (VkImageCreateFlags flags :
       {VkImageCreateFlags{VK_IMAGE_CREATE_SPARSE_BINDING_BIT}, VkImageCreateFlags{VK_IMAGE_CREATE_SPARSE_RESIDENCY_BIT},
        VkImageCreateFlags{VK_IMAGE_CREATE_PROTECTED_BIT}, VkImageCreateFlags{VK_IMAGE_CREATE_DISJOINT_BIT},
        VkImageCreateFlags{VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT | VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT}}) {
    EXPECT_EQ(Limits(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, kOptimal, kSampledUsage, flags),
              VK_ERROR_FORMAT_NOT_SUPPORTED)
        << flags;
  }
  EXPECT_EQ(Limits(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, kOptimal, kSampledUsage, VK_IMAGE_CREATE_ALIAS_BIT),
            VK_SUCCESS);
  EXPECT_EQ(Limits(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_DRM_FORMAT_MODIFIER_EXT, kSampledUsage,
                   0),
            VK_ERROR_FORMAT_NOT_SUPPORTED);
}

TEST(ImageFormatLimits, UnsupportedFormatsZeroTheResult) {
  VkImageFormatProperties p;
  std::memset(&p, 0xAB, sizeof p);
  EXPECT_EQ(Limits(VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK, VK_IMAGE_TYPE_2D, kOptimal, kSampledUsage, 0, &p),
            VK_ERROR_FORMAT_NOT_SUPPORTED);
  const VkImageFormatProperties zero{};
  EXPECT_EQ(std::memcmp(&p, &zero, sizeof p), 0);
  EXPECT_EQ(Limits(VK_FORMAT_UNDEFINED, VK_IMAGE_TYPE_2D, kOptimal, kSampledUsage, 0), VK_ERROR_FORMAT_NOT_SUPPORTED);
}

TEST(ImageFormatLimits, BlockCompressedImages) {
  constexpr VkImageUsageFlags kRead =
      VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  constexpr VkImageCreateFlags kMutable = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
  constexpr VkImageCreateFlags kBlockViews = kMutable | VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT;
  constexpr VkImageCreateFlags kExtended = kBlockViews | VK_IMAGE_CREATE_EXTENDED_USAGE_BIT;
  const VkFormat bc7 = VK_FORMAT_BC7_SRGB_BLOCK;
  VkImageFormatProperties p;
  ASSERT_EQ(Limits(bc7, VK_IMAGE_TYPE_2D, kOptimal, kRead, 0, &p), VK_SUCCESS);
  EXPECT_EQ(p.maxExtent.width, limits::kMaxImageDimension2D);
  EXPECT_EQ(p.maxMipLevels, static_cast<uint32_t>(std::bit_width(limits::kMaxImageDimension2D)));
  EXPECT_EQ(p.maxArrayLayers, limits::kMaxImageArrayLayers);
  EXPECT_EQ(p.sampleCounts, VkSampleCountFlags{VK_SAMPLE_COUNT_1_BIT});
  EXPECT_EQ(Limits(bc7, VK_IMAGE_TYPE_2D, kOptimal, kRead, VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT), VK_SUCCESS);
  ASSERT_EQ(Limits(bc7, VK_IMAGE_TYPE_2D, kLinear, kRead, 0, &p), VK_SUCCESS);
  EXPECT_EQ(p.maxMipLevels, static_cast<uint32_t>(std::bit_width(limits::kMaxImageDimension2D)));
  // 2D only; never written by shaders or attachments.
  EXPECT_EQ(Limits(bc7, VK_IMAGE_TYPE_1D, kOptimal, kRead, 0), VK_ERROR_FORMAT_NOT_SUPPORTED);
  EXPECT_EQ(Limits(bc7, VK_IMAGE_TYPE_3D, kOptimal, kRead, 0), VK_ERROR_FORMAT_NOT_SUPPORTED);
  EXPECT_EQ(Limits(bc7, VK_IMAGE_TYPE_2D, kOptimal, kStorageUsage, 0), VK_ERROR_FORMAT_NOT_SUPPORTED);
  EXPECT_EQ(Limits(bc7, VK_IMAGE_TYPE_2D, kOptimal, kColorUsage, 0), VK_ERROR_FORMAT_NOT_SUPPORTED);
  // Block-texel views: only for compressed formats, and only with MUTABLE_FORMAT.
  EXPECT_EQ(Limits(bc7, VK_IMAGE_TYPE_2D, kOptimal, kRead, kBlockViews), VK_SUCCESS);
  EXPECT_EQ(Limits(bc7, VK_IMAGE_TYPE_2D, kOptimal, kRead, VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT),
            VK_ERROR_FORMAT_NOT_SUPPORTED);
  // With EXTENDED_USAGE, a size-compatible uncompressed view (R32G32B32A32_UINT
  // for a 16-byte block) can back storage, but nothing backs an attachment.
  EXPECT_EQ(Limits(bc7, VK_IMAGE_TYPE_2D, kOptimal, kStorageUsage, kExtended), VK_SUCCESS);
  EXPECT_EQ(Limits(bc7, VK_IMAGE_TYPE_2D, kOptimal, kColorUsage, kExtended), VK_ERROR_FORMAT_NOT_SUPPORTED);
  const VkFormat rg32[] = {VK_FORMAT_R32G32_UINT};  // the size of a BC1 block
  const VkFormat rgba32[] = {VK_FORMAT_R32G32B32A32_UINT};
  EXPECT_EQ(Limits(bc7, VK_IMAGE_TYPE_2D, kOptimal, kStorageUsage, kExtended, nullptr, rgba32), VK_SUCCESS);
  EXPECT_EQ(Limits(VK_FORMAT_BC1_RGBA_UNORM_BLOCK, VK_IMAGE_TYPE_2D, kOptimal, kStorageUsage, kExtended, nullptr,
                   rg32),
            VK_SUCCESS);
  // Without block-texel views, a BC image's views stay within its class.
  EXPECT_EQ(Limits(bc7, VK_IMAGE_TYPE_2D, kOptimal, kStorageUsage, kMutable | VK_IMAGE_CREATE_EXTENDED_USAGE_BIT),
            VK_ERROR_FORMAT_NOT_SUPPORTED);
}

TEST(ImageFormatLimits, DepthStencilImages) {
  VkImageFormatProperties p;
  ASSERT_EQ(Limits(VK_FORMAT_D24_UNORM_S8_UINT, VK_IMAGE_TYPE_2D, kOptimal, kDepthUsage | kSampledUsage, 0, &p),
            VK_SUCCESS);
  EXPECT_EQ(p.sampleCounts, limits::kSampleCounts);
  EXPECT_EQ(p.maxArrayLayers, limits::kMaxImageArrayLayers);
  EXPECT_EQ(Limits(VK_FORMAT_D32_SFLOAT, VK_IMAGE_TYPE_3D, kOptimal, kSampledUsage, 0), VK_ERROR_FORMAT_NOT_SUPPORTED);
  EXPECT_EQ(Limits(VK_FORMAT_D16_UNORM, VK_IMAGE_TYPE_2D, kOptimal, kStorageUsage, 0), VK_ERROR_FORMAT_NOT_SUPPORTED);
}

TEST(ImageFormatLimits, SampleCountsFollowTheDeviceLimits) {
  VkImageFormatProperties p;
  // Integer formats multisample like the others
  // (framebufferIntegerColorSampleCounts, sampledImageIntegerSampleCounts),
  // and storage images too (shaderStorageImageMultisample).
  ASSERT_EQ(Limits(VK_FORMAT_R32_UINT, VK_IMAGE_TYPE_2D, kOptimal, kColorUsage, 0, &p), VK_SUCCESS);
  EXPECT_EQ(p.sampleCounts, limits::kSampleCounts);
  ASSERT_EQ(Limits(VK_FORMAT_R8G8B8A8_SINT, VK_IMAGE_TYPE_2D, kOptimal, kColorUsage | kSampledUsage, 0, &p),
            VK_SUCCESS);
  EXPECT_EQ(p.sampleCounts, limits::kSampleCounts);
  ASSERT_EQ(Limits(VK_FORMAT_R32_UINT, VK_IMAGE_TYPE_2D, kOptimal, kColorUsage | kStorageUsage, 0, &p), VK_SUCCESS);
  EXPECT_EQ(p.sampleCounts, limits::kSampleCounts);
  ASSERT_EQ(Limits(VK_FORMAT_R16G16_SNORM, VK_IMAGE_TYPE_2D, kOptimal, kStorageUsage, 0, &p), VK_SUCCESS);
  EXPECT_EQ(p.sampleCounts, limits::kSampleCounts);
  // Not 2D: single-sampled.
  ASSERT_EQ(Limits(VK_FORMAT_R32_SFLOAT, VK_IMAGE_TYPE_3D, kOptimal, kStorageUsage, 0, &p), VK_SUCCESS);
  EXPECT_EQ(p.sampleCounts, VkSampleCountFlags{VK_SAMPLE_COUNT_1_BIT});
  ASSERT_EQ(Limits(VK_FORMAT_R32_SFLOAT, VK_IMAGE_TYPE_2D, kOptimal, kColorUsage, 0, &p), VK_SUCCESS);
  EXPECT_EQ(p.sampleCounts, limits::kSampleCounts);
  // Not an attachment format: single-sampled only.
  ASSERT_EQ(Limits(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, VK_IMAGE_TYPE_2D, kOptimal, kSampledUsage, 0, &p), VK_SUCCESS);
  EXPECT_EQ(p.sampleCounts, VkSampleCountFlags{VK_SAMPLE_COUNT_1_BIT});
}

// "For images, these features must be supported for every VkImageType
// (including arrayed and cube variants)"; depth/stencil only for 2D.
TEST(ImageFormatLimits, MandatoryFormatsWorkForEveryImageType) {
  for (const MandatoryRow& row : kMandatory) {
    const VkFormatFeatureFlags2 optimal = GetFormatFeatures(row.format).optimal;
    const VkImageUsageFlags usage = UsageFor(row.optimal & optimal);
    if (usage == 0) continue;
    const bool depth_stencil = GetFormatInfo(row.format)->has_depth;
    const VkImageUsageFlags shape_usage = usage & ~(kColorUsage | kDepthUsage | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT);
    EXPECT_EQ(Limits(row.format, VK_IMAGE_TYPE_2D, kOptimal, usage, 0), VK_SUCCESS) << Name(row.format);
    EXPECT_EQ(Limits(row.format, VK_IMAGE_TYPE_2D, kOptimal, usage, VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT), VK_SUCCESS)
        << Name(row.format);
    if (depth_stencil || shape_usage == 0) continue;
    EXPECT_EQ(Limits(row.format, VK_IMAGE_TYPE_1D, kOptimal, shape_usage, 0), VK_SUCCESS) << Name(row.format);
    EXPECT_EQ(Limits(row.format, VK_IMAGE_TYPE_3D, kOptimal, shape_usage, 0), VK_SUCCESS) << Name(row.format);
  }
}

TEST(ImageFormatLimits, EveryImageFormatAllowsTransfersIn2D) {
  for (const FormatInfo* info : SupportedFormats()) {
    if ((GetFormatFeatures(info->format).optimal) == 0) continue;  // a buffer-only format (SCALED)
    VkImageFormatProperties p;
    EXPECT_EQ(Limits(info->format, VK_IMAGE_TYPE_2D, kOptimal, VK_IMAGE_USAGE_TRANSFER_DST_BIT, 0, &p), VK_SUCCESS)
        << info->name;
    EXPECT_GE(p.maxExtent.width, limits::kMaxImageDimension2D) << info->name;
  }
}

}  // namespace
}  // namespace duet::texel

// ---- The entry points ----

namespace duet::api {
namespace {

TEST(FormatPropertiesApi, LegacyAndProperties3Agree) {
  VkFormatProperties3 properties3{VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3};
  VkFormatProperties2 properties2{VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2, &properties3};
  GetPhysicalDeviceFormatProperties2(VK_NULL_HANDLE, VK_FORMAT_R32_SFLOAT, &properties2);
  const texel::FormatFeatures expected = texel::GetFormatFeatures(VK_FORMAT_R32_SFLOAT);
  EXPECT_EQ(properties3.optimalTilingFeatures, expected.optimal);
  EXPECT_EQ(properties3.linearTilingFeatures, expected.linear);
  EXPECT_EQ(properties3.bufferFeatures, expected.buffer);
  EXPECT_EQ(properties2.formatProperties.optimalTilingFeatures, texel::LegacyFormatFeatures(expected.optimal));
  EXPECT_EQ(properties2.formatProperties.bufferFeatures, texel::LegacyFormatFeatures(expected.buffer));

  VkFormatProperties legacy;
  GetPhysicalDeviceFormatProperties(VK_NULL_HANDLE, VK_FORMAT_D32_SFLOAT, &legacy);
  EXPECT_EQ(legacy.linearTilingFeatures, 0u);
  EXPECT_TRUE(legacy.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT);
}

VkPhysicalDeviceImageFormatInfo2 ImageInfo(VkFormat format, VkImageUsageFlags usage, const void* next = nullptr) {
  return {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2, next, format, VK_IMAGE_TYPE_2D,
          VK_IMAGE_TILING_OPTIMAL, usage, 0};
}

TEST(FormatPropertiesApi, ImageFormatProperties2Chains) {
  VkSamplerYcbcrConversionImageFormatProperties ycbcr{VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_IMAGE_FORMAT_PROPERTIES};
  VkExternalImageFormatProperties external{VK_STRUCTURE_TYPE_EXTERNAL_IMAGE_FORMAT_PROPERTIES, &ycbcr};
  external.externalMemoryProperties.externalMemoryFeatures = 0xFF;
  VkImageFormatProperties2 out{VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2, &external};

  VkPhysicalDeviceExternalImageFormatInfo no_handle{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_IMAGE_FORMAT_INFO};
  const auto info = ImageInfo(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_SAMPLED_BIT, &no_handle);
  ASSERT_EQ(GetPhysicalDeviceImageFormatProperties2(VK_NULL_HANDLE, &info, &out), VK_SUCCESS);
  EXPECT_EQ(out.imageFormatProperties.maxArrayLayers, limits::kMaxImageArrayLayers);
  EXPECT_EQ(external.externalMemoryProperties.externalMemoryFeatures, 0u);
  EXPECT_EQ(ycbcr.combinedImageSamplerDescriptorCount, 1u);

  // Opaque fds are exported and imported (VK_KHR_external_memory_fd); dma-bufs are not supported.
  VkPhysicalDeviceExternalImageFormatInfo fd{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_IMAGE_FORMAT_INFO, nullptr,
                                             VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
  const auto fd_info = ImageInfo(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_SAMPLED_BIT, &fd);
  ASSERT_EQ(GetPhysicalDeviceImageFormatProperties2(VK_NULL_HANDLE, &fd_info, &out), VK_SUCCESS);
  EXPECT_EQ(external.externalMemoryProperties.externalMemoryFeatures,
            VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT);
  VkPhysicalDeviceExternalImageFormatInfo dma_buf{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_IMAGE_FORMAT_INFO,
                                                  nullptr, VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT};
  const auto dma_buf_info = ImageInfo(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_SAMPLED_BIT, &dma_buf);
  EXPECT_EQ(GetPhysicalDeviceImageFormatProperties2(VK_NULL_HANDLE, &dma_buf_info, &out),
            VK_ERROR_FORMAT_NOT_SUPPORTED);
  EXPECT_EQ(out.imageFormatProperties.maxMipLevels, 0u);
}

TEST(FormatPropertiesApi, StencilUsageAndFormatListAreHonoured) {
  VkImageStencilUsageCreateInfo stencil{VK_STRUCTURE_TYPE_IMAGE_STENCIL_USAGE_CREATE_INFO, nullptr,
                                        VK_IMAGE_USAGE_STORAGE_BIT};
  VkImageFormatProperties2 out{VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2};
  const auto ds = ImageInfo(VK_FORMAT_D24_UNORM_S8_UINT, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, &stencil);
  EXPECT_EQ(GetPhysicalDeviceImageFormatProperties2(VK_NULL_HANDLE, &ds, &out), VK_ERROR_FORMAT_NOT_SUPPORTED);
  stencil.stencilUsage = VK_IMAGE_USAGE_SAMPLED_BIT;
  EXPECT_EQ(GetPhysicalDeviceImageFormatProperties2(VK_NULL_HANDLE, &ds, &out), VK_SUCCESS);

  const VkFormat views[] = {VK_FORMAT_R8G8B8A8_SRGB};
  VkImageFormatListCreateInfo list{VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO, nullptr, 1, views};
  auto info = ImageInfo(VK_FORMAT_R8G8B8A8_SRGB, VK_IMAGE_USAGE_STORAGE_BIT, &list);
  info.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_EXTENDED_USAGE_BIT;
  EXPECT_EQ(GetPhysicalDeviceImageFormatProperties2(VK_NULL_HANDLE, &info, &out), VK_ERROR_FORMAT_NOT_SUPPORTED);
  list.pNext = nullptr;
  info.pNext = nullptr;  // no list: every compatible format may be a view
  EXPECT_EQ(GetPhysicalDeviceImageFormatProperties2(VK_NULL_HANDLE, &info, &out), VK_SUCCESS);
}

TEST(FormatPropertiesApi, NoSparseImageFormats) {
  uint32_t count = 7;
  GetPhysicalDeviceSparseImageFormatProperties(VK_NULL_HANDLE, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D,
                                               VK_SAMPLE_COUNT_1_BIT, VK_IMAGE_USAGE_SAMPLED_BIT,
                                               VK_IMAGE_TILING_OPTIMAL, &count, nullptr);
  EXPECT_EQ(count, 0u);
  count = 7;
  VkPhysicalDeviceSparseImageFormatInfo2 info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SPARSE_IMAGE_FORMAT_INFO_2};
  GetPhysicalDeviceSparseImageFormatProperties2(VK_NULL_HANDLE, &info, &count, nullptr);
  EXPECT_EQ(count, 0u);
}

}  // namespace
}  // namespace duet::api
