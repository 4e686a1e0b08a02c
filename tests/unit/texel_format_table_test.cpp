// The generated format table against facts from the Vulkan spec's format
// descriptions (written here by hand, not taken from vk.xml).
#include <gtest/gtest.h>

#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "texel/format_info.h"

namespace duet::texel {
namespace {

// The last Vulkan 1.0 format; 1..184 are all core formats.
constexpr int kLastCoreFormat = VK_FORMAT_ASTC_12x12_SRGB_BLOCK;

const FormatInfo& Info(VkFormat format) {
  const FormatInfo* info = GetFormatInfo(format);
  EXPECT_NE(info, nullptr) << format;
  static const FormatInfo kEmpty{};
  return info ? *info : kEmpty;
}

// "B8G8R8A8" style summary of the components: letter then bits.
std::string ComponentString(const FormatInfo& info) {
  std::string s;
  for (int i = 0; i < info.component_count; ++i) {
    s += info.components[i].name;
    s += std::to_string(info.components[i].bits);
  }
  return s;
}

// The components a format's name spells, padding ('X') dropped:
// VK_FORMAT_X8_D24_UNORM_PACK32 -> {D,24}; VK_FORMAT_A2B10G10R10_... -> A2 B10 G10 R10.
std::string ComponentsFromName(const std::string& name) {
  std::string result;
  size_t start = std::string("VK_FORMAT_").size();
  while (start < name.size()) {
    size_t end = name.find('_', start);
    if (end == std::string::npos) end = name.size();
    const std::string token = name.substr(start, end - start);
    std::string spelled;
    bool ok = !token.empty();
    for (size_t i = 0; ok && i < token.size();) {
      const char letter = token[i++];
      ok = std::string("RGBADSEX").find(letter) != std::string::npos && i < token.size() &&
           std::isdigit(static_cast<unsigned char>(token[i]));
      std::string digits;
      while (ok && i < token.size() && std::isdigit(static_cast<unsigned char>(token[i]))) digits += token[i++];
      if (ok && letter != 'X') spelled += letter + digits;
    }
    if (ok) result += spelled;
    start = end + 1;
  }
  return result;
}

TEST(FormatTable, UndefinedAndUnknownFormatsHaveNoInfo) {
  EXPECT_EQ(GetFormatInfo(VK_FORMAT_UNDEFINED), nullptr);
  EXPECT_EQ(GetFormatInfo(static_cast<VkFormat>(kLastCoreFormat + 1)), nullptr);
  EXPECT_EQ(GetFormatInfo(static_cast<VkFormat>(1000999999)), nullptr);
  EXPECT_EQ(GetFormatInfo(VK_FORMAT_MAX_ENUM), nullptr);
}

TEST(FormatTable, EveryCoreFormatIsPresentAndFindsItself) {
  for (int value = 1; value <= kLastCoreFormat; ++value) {
    const FormatInfo* info = GetFormatInfo(static_cast<VkFormat>(value));
    ASSERT_NE(info, nullptr) << value;
    EXPECT_EQ(info->format, value);
  }
  VkFormat previous = VK_FORMAT_UNDEFINED;
  for (const FormatInfo& info : AllFormatInfos()) {
    EXPECT_GT(info.format, previous) << info.name;  // sorted, no duplicates
    EXPECT_EQ(GetFormatInfo(info.format), &info) << info.name;
    previous = info.format;
  }
}

TEST(FormatTable, ExtensionFormatsAreFound) {
  for (VkFormat format : {VK_FORMAT_G8B8G8R8_422_UNORM, VK_FORMAT_G16_B16_R16_3PLANE_444_UNORM,
                          VK_FORMAT_PVRTC1_2BPP_UNORM_BLOCK_IMG, VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK,
                          VK_FORMAT_G8_B8R8_2PLANE_444_UNORM, VK_FORMAT_A4R4G4B4_UNORM_PACK16,
                          VK_FORMAT_A4B4G4R4_UNORM_PACK16}) {
    const FormatInfo* info = GetFormatInfo(format);
    ASSERT_NE(info, nullptr) << format;
    EXPECT_EQ(info->format, format);
  }
}

TEST(FormatTable, NamesMatchTheEnum) {
  EXPECT_STREQ(Info(VK_FORMAT_R8G8B8A8_UNORM).name, "VK_FORMAT_R8G8B8A8_UNORM");
  EXPECT_STREQ(Info(VK_FORMAT_D24_UNORM_S8_UINT).name, "VK_FORMAT_D24_UNORM_S8_UINT");
  EXPECT_STREQ(Info(VK_FORMAT_G8_B8R8_2PLANE_420_UNORM).name, "VK_FORMAT_G8_B8R8_2PLANE_420_UNORM");
}

TEST(FormatTable, BlockSizes) {
  const std::pair<VkFormat, int> kSizes[] = {
      {VK_FORMAT_R4G4_UNORM_PACK8, 1},       {VK_FORMAT_R5G6B5_UNORM_PACK16, 2},
      {VK_FORMAT_R8_UNORM, 1},               {VK_FORMAT_R8G8B8_SRGB, 3},
      {VK_FORMAT_B8G8R8A8_UNORM, 4},         {VK_FORMAT_A2B10G10R10_UNORM_PACK32, 4},
      {VK_FORMAT_R16G16B16_SFLOAT, 6},       {VK_FORMAT_R16G16B16A16_SFLOAT, 8},
      {VK_FORMAT_R32G32B32_SFLOAT, 12},      {VK_FORMAT_R32G32B32A32_UINT, 16},
      {VK_FORMAT_R64_SFLOAT, 8},             {VK_FORMAT_R64G64B64_SFLOAT, 24},
      {VK_FORMAT_R64G64B64A64_SFLOAT, 32},   {VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, 4},
      {VK_FORMAT_D16_UNORM, 2},              {VK_FORMAT_X8_D24_UNORM_PACK32, 4},
      {VK_FORMAT_D32_SFLOAT, 4},             {VK_FORMAT_S8_UINT, 1},
      {VK_FORMAT_D24_UNORM_S8_UINT, 4},      {VK_FORMAT_BC1_RGB_UNORM_BLOCK, 8},
      {VK_FORMAT_BC4_SNORM_BLOCK, 8},        {VK_FORMAT_BC7_SRGB_BLOCK, 16},
      {VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, 8}, {VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK, 16},
      {VK_FORMAT_EAC_R11_UNORM_BLOCK, 8},    {VK_FORMAT_EAC_R11G11_SNORM_BLOCK, 16},
      {VK_FORMAT_ASTC_12x12_SRGB_BLOCK, 16}, {VK_FORMAT_G8B8G8R8_422_UNORM, 4},
  };
  for (const auto& [format, size] : kSizes) EXPECT_EQ(Info(format).block_size, size) << Info(format).name;
}

TEST(FormatTable, BlockExtents) {
  struct Extent {
    VkFormat format;
    int width, height, depth;
  };
  const Extent kExtents[] = {
      {VK_FORMAT_R8G8B8A8_UNORM, 1, 1, 1},       {VK_FORMAT_D32_SFLOAT_S8_UINT, 1, 1, 1},
      {VK_FORMAT_BC1_RGBA_SRGB_BLOCK, 4, 4, 1},  {VK_FORMAT_BC6H_UFLOAT_BLOCK, 4, 4, 1},
      {VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK, 4, 4, 1}, {VK_FORMAT_EAC_R11G11_UNORM_BLOCK, 4, 4, 1},
      {VK_FORMAT_ASTC_4x4_UNORM_BLOCK, 4, 4, 1}, {VK_FORMAT_ASTC_5x4_SRGB_BLOCK, 5, 4, 1},
      {VK_FORMAT_ASTC_10x6_UNORM_BLOCK, 10, 6, 1}, {VK_FORMAT_ASTC_12x10_SRGB_BLOCK, 12, 10, 1},
      {VK_FORMAT_ASTC_8x8_SFLOAT_BLOCK, 8, 8, 1}, {VK_FORMAT_PVRTC1_2BPP_UNORM_BLOCK_IMG, 8, 4, 1},
      {VK_FORMAT_G8B8G8R8_422_UNORM, 2, 1, 1},
  };
  for (const Extent& e : kExtents) {
    const FormatInfo& info = Info(e.format);
    EXPECT_EQ(info.block_width, e.width) << info.name;
    EXPECT_EQ(info.block_height, e.height) << info.name;
    EXPECT_EQ(info.block_depth, e.depth) << info.name;
  }
}

TEST(FormatTable, ComponentOrderBitsAndTypes) {
  EXPECT_EQ(ComponentString(Info(VK_FORMAT_R8G8B8A8_UNORM)), "R8G8B8A8");
  EXPECT_EQ(ComponentString(Info(VK_FORMAT_B8G8R8A8_SRGB)), "B8G8R8A8");
  EXPECT_EQ(ComponentString(Info(VK_FORMAT_A8B8G8R8_UINT_PACK32)), "A8B8G8R8");
  EXPECT_EQ(ComponentString(Info(VK_FORMAT_A2R10G10B10_SNORM_PACK32)), "A2R10G10B10");
  EXPECT_EQ(ComponentString(Info(VK_FORMAT_R5G6B5_UNORM_PACK16)), "R5G6B5");
  EXPECT_EQ(ComponentString(Info(VK_FORMAT_A1R5G5B5_UNORM_PACK16)), "A1R5G5B5");
  EXPECT_EQ(ComponentString(Info(VK_FORMAT_B10G11R11_UFLOAT_PACK32)), "B10G11R11");
  EXPECT_EQ(ComponentString(Info(VK_FORMAT_R16G16B16_SFLOAT)), "R16G16B16");
  EXPECT_EQ(ComponentString(Info(VK_FORMAT_X8_D24_UNORM_PACK32)), "D24");
  EXPECT_EQ(ComponentString(Info(VK_FORMAT_D32_SFLOAT_S8_UINT)), "D32S8");
  EXPECT_EQ(ComponentString(Info(VK_FORMAT_G8B8G8R8_422_UNORM)), "G8B8G8R8");
  // vk.xml 1.3.239 gets these wrong; the table must follow the spec.
  EXPECT_EQ(ComponentString(Info(VK_FORMAT_B5G5R5A1_UNORM_PACK16)), "B5G5R5A1");
  EXPECT_EQ(ComponentString(Info(VK_FORMAT_R64G64_SFLOAT)), "R64G64");
  EXPECT_EQ(ComponentString(Info(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32)), "E5B9G9R9");

  EXPECT_EQ(Info(VK_FORMAT_R8_SNORM).components[0].type, NumericType::kSnorm);
  EXPECT_EQ(Info(VK_FORMAT_R8G8_USCALED).components[1].type, NumericType::kUscaled);
  EXPECT_EQ(Info(VK_FORMAT_R16_SSCALED).components[0].type, NumericType::kSscaled);
  EXPECT_EQ(Info(VK_FORMAT_R32G32B32A32_UINT).components[3].type, NumericType::kUint);
  EXPECT_EQ(Info(VK_FORMAT_A2B10G10R10_SINT_PACK32).components[0].type, NumericType::kSint);
  EXPECT_EQ(Info(VK_FORMAT_R16_SFLOAT).components[0].type, NumericType::kSfloat);
  EXPECT_EQ(Info(VK_FORMAT_B10G11R11_UFLOAT_PACK32).components[2].type, NumericType::kUfloat);
  EXPECT_EQ(Info(VK_FORMAT_R8G8B8A8_SRGB).components[0].type, NumericType::kSrgb);
  const FormatInfo& d32s8 = Info(VK_FORMAT_D32_SFLOAT_S8_UINT);
  EXPECT_EQ(d32s8.components[0].type, NumericType::kSfloat);
  EXPECT_EQ(d32s8.components[1].type, NumericType::kUint);
}

// Every uncompressed format's components must be the ones its name spells, in order.
TEST(FormatTable, ComponentsFollowTheFormatName) {
  for (const FormatInfo& info : AllFormatInfos()) {
    if (info.compression != Compression::kNone) continue;
    if (info.format == VK_FORMAT_R16G16_S10_5_NV) continue;  // "S10_5" names a fixed-point encoding
    EXPECT_EQ(ComponentString(info), ComponentsFromName(info.name)) << info.name;
  }
}

// Bits add up to the texel block unless the name says there is padding ('X').
TEST(FormatTable, ComponentBitsFillTheBlock) {
  for (const FormatInfo& info : AllFormatInfos()) {
    if (info.compression != Compression::kNone || info.plane_count != 1 || info.block_width != 1) continue;
    int bits = 0;
    for (int i = 0; i < info.component_count; ++i) bits += info.components[i].bits;
    const bool padded = std::string(info.name).find('X') != std::string::npos;
    if (padded) {
      EXPECT_LT(bits, 8 * info.block_size) << info.name;
    } else {
      EXPECT_EQ(bits, 8 * info.block_size) << info.name;
    }
  }
}

TEST(FormatTable, PackedBits) {
  EXPECT_EQ(Info(VK_FORMAT_R4G4_UNORM_PACK8).packed_bits, 8);
  EXPECT_EQ(Info(VK_FORMAT_B4G4R4A4_UNORM_PACK16).packed_bits, 16);
  EXPECT_EQ(Info(VK_FORMAT_A2B10G10R10_UINT_PACK32).packed_bits, 32);
  EXPECT_EQ(Info(VK_FORMAT_X8_D24_UNORM_PACK32).packed_bits, 32);
  EXPECT_EQ(Info(VK_FORMAT_R8G8B8A8_UNORM).packed_bits, 0);
  EXPECT_EQ(Info(VK_FORMAT_D24_UNORM_S8_UINT).packed_bits, 0);
}

TEST(FormatTable, DepthStencilFlags) {
  struct Aspects {
    VkFormat format;
    bool depth, stencil;
  };
  const Aspects kAspects[] = {
      {VK_FORMAT_D16_UNORM, true, false},          {VK_FORMAT_X8_D24_UNORM_PACK32, true, false},
      {VK_FORMAT_D32_SFLOAT, true, false},         {VK_FORMAT_S8_UINT, false, true},
      {VK_FORMAT_D16_UNORM_S8_UINT, true, true},   {VK_FORMAT_D24_UNORM_S8_UINT, true, true},
      {VK_FORMAT_D32_SFLOAT_S8_UINT, true, true},  {VK_FORMAT_R32_SFLOAT, false, false},
      {VK_FORMAT_R8_UINT, false, false},           {VK_FORMAT_B8G8R8A8_UNORM, false, false},
  };
  for (const Aspects& a : kAspects) {
    EXPECT_EQ(Info(a.format).has_depth, a.depth) << Info(a.format).name;
    EXPECT_EQ(Info(a.format).has_stencil, a.stencil) << Info(a.format).name;
  }
  int depth_stencil_formats = 0;
  for (const FormatInfo& info : AllFormatInfos()) depth_stencil_formats += info.has_depth || info.has_stencil;
  EXPECT_EQ(depth_stencil_formats, 7);
}

TEST(FormatTable, CompressionSchemes) {
  EXPECT_EQ(Info(VK_FORMAT_R8G8B8A8_UNORM).compression, Compression::kNone);
  EXPECT_EQ(Info(VK_FORMAT_BC1_RGB_UNORM_BLOCK).compression, Compression::kBC);
  EXPECT_EQ(Info(VK_FORMAT_BC6H_SFLOAT_BLOCK).compression, Compression::kBC);
  EXPECT_EQ(Info(VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK).compression, Compression::kETC2);
  EXPECT_EQ(Info(VK_FORMAT_EAC_R11_SNORM_BLOCK).compression, Compression::kEAC);
  EXPECT_EQ(Info(VK_FORMAT_ASTC_6x6_UNORM_BLOCK).compression, Compression::kASTC_LDR);
  EXPECT_EQ(Info(VK_FORMAT_ASTC_6x6_SFLOAT_BLOCK).compression, Compression::kASTC_HDR);
  EXPECT_EQ(Info(VK_FORMAT_PVRTC2_4BPP_SRGB_BLOCK_IMG).compression, Compression::kPVRTC);
  const FormatInfo& bc3 = Info(VK_FORMAT_BC3_SRGB_BLOCK);
  EXPECT_EQ(bc3.component_count, 4);
  EXPECT_EQ(bc3.components[0].bits, 0);
  EXPECT_EQ(bc3.components[0].type, NumericType::kSrgb);
  // Every format from BC1 to the last core one is block-compressed.
  for (int value = VK_FORMAT_BC1_RGB_UNORM_BLOCK; value <= kLastCoreFormat; ++value) {
    EXPECT_NE(Info(static_cast<VkFormat>(value)).compression, Compression::kNone) << value;
  }
}

TEST(FormatTable, PlanesAndChroma) {
  EXPECT_EQ(Info(VK_FORMAT_R8G8B8A8_UNORM).plane_count, 1);
  EXPECT_FALSE(Info(VK_FORMAT_R8G8B8A8_UNORM).chroma_subsampled);
  EXPECT_EQ(Info(VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM).plane_count, 3);
  EXPECT_TRUE(Info(VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM).chroma_subsampled);
  EXPECT_EQ(Info(VK_FORMAT_G16_B16R16_2PLANE_422_UNORM).plane_count, 2);
  EXPECT_TRUE(Info(VK_FORMAT_G16_B16R16_2PLANE_422_UNORM).chroma_subsampled);
  EXPECT_EQ(Info(VK_FORMAT_G8_B8_R8_3PLANE_444_UNORM).plane_count, 3);
  EXPECT_FALSE(Info(VK_FORMAT_G8_B8_R8_3PLANE_444_UNORM).chroma_subsampled);
  EXPECT_EQ(Info(VK_FORMAT_B8G8R8G8_422_UNORM).plane_count, 1);
  EXPECT_TRUE(Info(VK_FORMAT_B8G8R8G8_422_UNORM).chroma_subsampled);
}

TEST(FormatTable, CompatibilityClasses) {
  auto same = [](VkFormat a, VkFormat b) { return Info(a).compatibility_class == Info(b).compatibility_class; };
  EXPECT_TRUE(same(VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB));
  EXPECT_TRUE(same(VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_SINT));
  EXPECT_TRUE(same(VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R32_SFLOAT));  // both "32-bit"
  EXPECT_TRUE(same(VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R32G32_UINT));
  EXPECT_TRUE(same(VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_FORMAT_BC1_RGB_SRGB_BLOCK));
  EXPECT_FALSE(same(VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R16G16B16A16_UNORM));
  EXPECT_FALSE(same(VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_D24_UNORM_S8_UINT));
  EXPECT_FALSE(same(VK_FORMAT_D32_SFLOAT, VK_FORMAT_R32_SFLOAT));
  EXPECT_FALSE(same(VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_FORMAT_BC1_RGBA_UNORM_BLOCK));
  EXPECT_FALSE(same(VK_FORMAT_R8G8B8_UNORM, VK_FORMAT_R8G8B8A8_UNORM));
}

TEST(FormatTable, SpirvImageFormats) {
  EXPECT_STREQ(Info(VK_FORMAT_R8G8B8A8_UNORM).spirv_image_format, "Rgba8");
  EXPECT_STREQ(Info(VK_FORMAT_R32_UINT).spirv_image_format, "R32ui");
  EXPECT_STREQ(Info(VK_FORMAT_R16G16_SNORM).spirv_image_format, "Rg16Snorm");
  EXPECT_STREQ(Info(VK_FORMAT_A2B10G10R10_UINT_PACK32).spirv_image_format, "Rgb10a2ui");
  EXPECT_STREQ(Info(VK_FORMAT_B10G11R11_UFLOAT_PACK32).spirv_image_format, "R11fG11fB10f");
  EXPECT_EQ(Info(VK_FORMAT_R8G8B8A8_SRGB).spirv_image_format, nullptr);
  EXPECT_EQ(Info(VK_FORMAT_B8G8R8A8_UNORM).spirv_image_format, nullptr);
  EXPECT_EQ(Info(VK_FORMAT_R32G32B32_SFLOAT).spirv_image_format, nullptr);
  EXPECT_EQ(Info(VK_FORMAT_D32_SFLOAT).spirv_image_format, nullptr);
}

}  // namespace
}  // namespace duet::texel
