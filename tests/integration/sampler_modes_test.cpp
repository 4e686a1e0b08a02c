// Sampler modes from extensions and Vulkan 1.2, and anisotropic filtering
// (samplerAnisotropy): custom border colours
// (VK_EXT_custom_border_color) through the view's component mapping
// (VK_EXT_border_color_swizzle), MIN and MAX reduction of the filter
// footprint (samplerFilterMinmax), and cube maps filtered face by face
// (VK_EXT_non_seamless_cube_map).
#include <array>
#include <cstring>
#include <vector>

#include "compute_fixture.h"
#include "shaders/sample_cube_points.comp.h"
#include "shaders/sample_grad_points.comp.h"
#include "shaders/sample_points.comp.h"

namespace duet_test {
namespace {

constexpr uint32_t kSize = 8;

// Texel (x, y) of the 2D test image: distinct bytes in every channel.
std::array<uint8_t, 4> TexelAt(uint32_t x, uint32_t y) {
  return {uint8_t(10 + x * 20), uint8_t(200 - y * 25), uint8_t(90 + x * 9 - y * 7), uint8_t(40 + x * 3 + y * 11)};
}

class SamplerModesTest : public ComputeFixture {
 protected:
  SamplerModesTest() {
    device_options_.extensions = {VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME, VK_EXT_BORDER_COLOR_SWIZZLE_EXTENSION_NAME,
                                  VK_EXT_NON_SEAMLESS_CUBE_MAP_EXTENSION_NAME, VK_EXT_4444_FORMATS_EXTENSION_NAME};
    border_features_.customBorderColors = VK_TRUE;
    border_features_.customBorderColorWithoutFormat = VK_TRUE;
    swizzle_features_.borderColorSwizzle = VK_TRUE;
    swizzle_features_.borderColorSwizzleFromImage = VK_TRUE;
    cube_features_.nonSeamlessCubeMap = VK_TRUE;
    device_options_.extension_features = {reinterpret_cast<VkBaseOutStructure*>(&border_features_),
                                          reinterpret_cast<VkBaseOutStructure*>(&swizzle_features_),
                                          reinterpret_cast<VkBaseOutStructure*>(&cube_features_),
                                          reinterpret_cast<VkBaseOutStructure*>(&formats_4444_)};
  }

  VkSampler MakeSampler(const VkSamplerCreateInfo& sci) {
    VkSampler sampler = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateSampler(device_, &sci, nullptr, &sampler), VK_SUCCESS);
    if (sampler != VK_NULL_HANDLE) Defer([this, sampler] { vkDestroySampler(device_, sampler, nullptr); });
    return sampler;
  }

  VkImageView MakeView(VkImage image, VkImageViewType type, uint32_t layers, const VkComponentMapping& mapping) {
    VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = image;
    vci.viewType = type;
    vci.format = VK_FORMAT_R8G8B8A8_UNORM;
    vci.components = mapping;
    vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, layers};
    VkImageView view = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateImageView(device_, &vci, nullptr, &view), VK_SUCCESS);
    if (view != VK_NULL_HANDLE) Defer([this, view] { vkDestroyImageView(device_, view, nullptr); });
    return view;
  }

  // The RGBA8 test image (TexelAt) through a view with `mapping`.
  VkImageView TestView(const VkComponentMapping& mapping) {
    VkImage image = MakeGeneralImage(ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {kSize, kSize, 1}, 1, 1,
                                               VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT));
    if (image == VK_NULL_HANDLE) return VK_NULL_HANDLE;
    std::vector<uint8_t> bytes;
    for (uint32_t y = 0; y < kSize; ++y)
      for (uint32_t x = 0; x < kSize; ++x)
        for (uint8_t b : TexelAt(x, y)) bytes.push_back(b);
    WriteImage(image, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {kSize, kSize, 1}, 4, bytes);
    return MakeView(image, VK_IMAGE_VIEW_TYPE_2D, 1, mapping);
  }

  // Runs `shader` (sample_points.comp or sample_cube_points.comp) over `points`.
  std::vector<std::array<float, 4>> Sample(std::span<const uint32_t> shader, VkImageView view, VkSampler sampler,
                                           const std::vector<std::array<float, 4>>& points) {
    const uint32_t count = uint32_t(points.size());
    HostBuffer in = StorageBuffer(count * 16), out = StorageBuffer(count * 16);
    if (view == VK_NULL_HANDLE || sampler == VK_NULL_HANDLE || in.data == nullptr || out.data == nullptr) return {};
    std::memcpy(in.data, points.data(), count * 16);
    BufferBinding texture;
    texture.type = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    texture.view = view;
    texture.sampler = sampler;
    const Kernel k = MakeKernelWithBindings(shader, {texture, {in.buffer}, {out.buffer}}, 4);
    Run(k, (count + 31) / 32, 1, 1, &count, 4);
    std::vector<std::array<float, 4>> results(count);
    std::memcpy(results.data(), out.data, count * 16);
    return results;
  }

  VkPhysicalDeviceCustomBorderColorFeaturesEXT border_features_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_FEATURES_EXT};
  VkPhysicalDeviceBorderColorSwizzleFeaturesEXT swizzle_features_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BORDER_COLOR_SWIZZLE_FEATURES_EXT};
  VkPhysicalDeviceNonSeamlessCubeMapFeaturesEXT cube_features_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_NON_SEAMLESS_CUBE_MAP_FEATURES_EXT};
  VkPhysicalDevice4444FormatsFeaturesEXT formats_4444_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_4444_FORMATS_FEATURES_EXT,
                                                       nullptr, VK_TRUE, VK_TRUE};
};

// Reads outside the image give the sampler's custom colour, inside the
// texels; the view's component mapping applies to both.
TEST_F(SamplerModesTest, CustomBorderColorsFollowTheViewsMapping) {
  const VkComponentMapping swapped = {VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_R,
                                      VK_COMPONENT_SWIZZLE_ONE};
  VkSamplerCustomBorderColorCreateInfoEXT custom{VK_STRUCTURE_TYPE_SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT};
  custom.customBorderColor.float32[0] = 0.25f;
  custom.customBorderColor.float32[1] = 0.5f;
  custom.customBorderColor.float32[2] = 0.75f;
  custom.customBorderColor.float32[3] = 0.125f;
  custom.format = VK_FORMAT_UNDEFINED;  // customBorderColorWithoutFormat
  VkSamplerBorderColorComponentMappingCreateInfoEXT mapping{
      VK_STRUCTURE_TYPE_SAMPLER_BORDER_COLOR_COMPONENT_MAPPING_CREATE_INFO_EXT, &custom, swapped, VK_FALSE};
  VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO, &mapping};
  sci.magFilter = sci.minFilter = VK_FILTER_NEAREST;
  sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
  sci.borderColor = VK_BORDER_COLOR_FLOAT_CUSTOM_EXT;
  const VkSampler sampler = MakeSampler(sci);

  const std::vector<std::array<float, 4>> points = {
      {-0.5f, 0.5f, 0, 0}, {0.5f, 1.5f, 0, 0}, {2.0f, -3.0f, 0, 0}, {(3 + 0.5f) / kSize, (6 + 0.5f) / kSize, 0, 0}};
  for (bool swizzled : {false, true}) {
    SCOPED_TRACE(swizzled ? "B, G, R, ONE view" : "identity view");
    const VkImageView view = TestView(swizzled ? swapped : VkComponentMapping{});
    const std::vector<std::array<float, 4>> results = Sample(kSamplePointsComp, view, sampler, points);
    ASSERT_EQ(results.size(), points.size());
    const std::array<float, 4> border = swizzled ? std::array<float, 4>{0.75f, 0.5f, 0.25f, 1.0f}
                                                 : std::array<float, 4>{0.25f, 0.5f, 0.75f, 0.125f};
    for (size_t i = 0; i < 3; ++i)
      for (int c = 0; c < 4; ++c) ASSERT_EQ(results[i][c], border[c]) << "point " << i << " component " << c;
    const std::array<uint8_t, 4> t = TexelAt(3, 6);
    const std::array<float, 4> inside = swizzled ? std::array<float, 4>{t[2] / 255.0f, t[1] / 255.0f, t[0] / 255.0f, 1}
                                                 : std::array<float, 4>{t[0] / 255.0f, t[1] / 255.0f, t[2] / 255.0f,
                                                                        t[3] / 255.0f};
    for (int c = 0; c < 4; ++c) ASSERT_NEAR(results[3][c], inside[c], 1e-6) << "inside, component " << c;
  }
}

// MIN and MAX reductions take the component-wise extreme of the texels the
// linear filter weighs, leaving out those of weight zero; the average
// blends them.
TEST_F(SamplerModesTest, MinMaxReductionsOfTheFootprint) {
  VkFormatProperties props;
  vkGetPhysicalDeviceFormatProperties(phys_, VK_FORMAT_R8G8B8A8_UNORM, &props);
  EXPECT_NE(props.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_MINMAX_BIT, 0u);
  const VkImageView view = TestView({});
  // Between the centres of columns 2 and 3 and of rows 4 and 5; then on
  // the centre of row 4, where row 5 weighs nothing.
  const std::vector<std::array<float, 4>> points = {{3.0f / kSize, 5.0f / kSize, 0, 0},
                                                    {3.0f / kSize, 4.5f / kSize, 0, 0}};
  const std::vector<std::array<uint32_t, 2>> footprints[2] = {{{2, 4}, {3, 4}, {2, 5}, {3, 5}}, {{2, 4}, {3, 4}}};
  for (VkSamplerReductionMode mode :
       {VK_SAMPLER_REDUCTION_MODE_MIN, VK_SAMPLER_REDUCTION_MODE_MAX, VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE}) {
    SCOPED_TRACE(testing::Message() << "reduction mode " << mode);
    VkSamplerReductionModeCreateInfo reduction{VK_STRUCTURE_TYPE_SAMPLER_REDUCTION_MODE_CREATE_INFO, nullptr, mode};
    VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO, &reduction};
    sci.magFilter = sci.minFilter = VK_FILTER_LINEAR;
    sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    const std::vector<std::array<float, 4>> results = Sample(kSamplePointsComp, view, MakeSampler(sci), points);
    ASSERT_EQ(results.size(), points.size());
    for (size_t i = 0; i < points.size(); ++i) {
      for (int c = 0; c < 4; ++c) {
        float lo = 1, hi = 0, sum = 0;
        for (const auto& [x, y] : footprints[i]) {
          const float v = TexelAt(x, y)[c] / 255.0f;
          lo = std::min(lo, v);
          hi = std::max(hi, v);
          sum += v;
        }
        const float want = mode == VK_SAMPLER_REDUCTION_MODE_MIN   ? lo
                           : mode == VK_SAMPLER_REDUCTION_MODE_MAX ? hi
                                                                   : sum / float(footprints[i].size());
        ASSERT_NEAR(results[i][c], want, 1e-5) << "point " << i << " component " << c;
      }
    }
  }
}

// Near the edge of a face, linear filtering reads the neighbouring face,
// unless the sampler asks for non-seamless cube maps: then the face's own
// edge texels stand in (CLAMP_TO_EDGE).
TEST_F(SamplerModesTest, NonSeamlessCubeMapsStayOnTheirFace) {
  VkImageCreateInfo ci = ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {2, 2, 1}, 1, 6,
                                   VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
  ci.flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
  const VkImage image = MakeGeneralImage(ci);
  ASSERT_NE(image, VK_NULL_HANDLE);
  auto face_value = [](uint32_t face) { return uint8_t(30 + face * 40); };  // +X 30, -X 70, +Y 110, ...
  for (uint32_t face = 0; face < 6; ++face)
    WriteImage(image, {VK_IMAGE_ASPECT_COLOR_BIT, 0, face, 1}, {0, 0, 0}, {2, 2, 1}, 4,
               std::vector<uint8_t>(16, face_value(face)));
  const VkImageView view = MakeView(image, VK_IMAGE_VIEW_TYPE_CUBE, 6, {});
  // On +X, a quarter texel from its edge with +Y.
  const std::vector<std::array<float, 4>> points = {{1.0f, 0.875f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f, 0.0f}};
  for (bool seamless : {true, false}) {
    SCOPED_TRACE(seamless ? "seamless" : "non-seamless");
    VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    sci.flags = seamless ? 0 : VK_SAMPLER_CREATE_NON_SEAMLESS_CUBE_MAP_BIT_EXT;
    sci.magFilter = sci.minFilter = VK_FILTER_LINEAR;
    sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    const std::vector<std::array<float, 4>> results = Sample(kSampleCubePointsComp, view, MakeSampler(sci), points);
    ASSERT_EQ(results.size(), points.size());
    const float own = face_value(0) / 255.0f, above = face_value(2) / 255.0f;
    // t = (1 - 0.875) / 2 = 1/16 of the face: 3/8 of a texel outside the
    // first row's centre, so 3/8 of the row across the edge.
    EXPECT_NEAR(results[0][0], seamless ? own + 0.375f * (above - own) : own, 2e-3);
    EXPECT_NEAR(results[1][0], own, 1e-6) << "the face's centre";
  }
}

// A footprint 8 texels wide and 1 tall on a 64x64 texture whose level 0
// has 1-texel horizontal stripes (odd rows 255) and whose smaller levels
// are grey: isotropic filtering takes level 3 (grey); with anisotropy 16 it
// takes 8 probes along x on level 0, all on the stripe (white).
TEST_F(SamplerModesTest, AnisotropicFilteringFollowsTheLongAxis) {
  ASSERT_EQ(features_.samplerAnisotropy, VK_TRUE);
  ASSERT_GE(props_.limits.maxSamplerAnisotropy, 16.0f);
  constexpr uint32_t n = 64, levels = 7;
  VkImage image = MakeGeneralImage(ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {n, n, 1}, levels, 1,
                                             VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT));
  ASSERT_NE(image, VK_NULL_HANDLE);
  for (uint32_t level = 0; level < levels; ++level) {
    const uint32_t size = n >> level;
    std::vector<uint8_t> bytes(size * size * 4);
    for (uint32_t y = 0; y < size; ++y)
      for (uint32_t x = 0; x < size; ++x)
        for (uint32_t c = 0; c < 4; ++c) bytes[(y * size + x) * 4 + c] = level == 0 ? (y % 2 ? 255 : 0) : 128;
    WriteImage(image, {VK_IMAGE_ASPECT_COLOR_BIT, level, 0, 1}, {0, 0, 0}, {size, size, 1}, 4, bytes);
  }
  VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vci.image = image;
  vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
  vci.format = VK_FORMAT_R8G8B8A8_UNORM;
  vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, levels, 0, 1};
  VkImageView view = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateImageView(device_, &vci, nullptr, &view), VK_SUCCESS);
  Defer([this, view] { vkDestroyImageView(device_, view, nullptr); });
  HostBuffer in = StorageBuffer(2 * 16), out = StorageBuffer(16);
  // Row 21's centre, halfway across; dPdx 8 texels along x, dPdy 1 texel along y.
  const float point[8] = {0.5f, 21.5f / n, 8.0f / n, 0.0f, 0.0f, 1.0f / n, 0.0f, 0.0f};
  std::memcpy(in.data, point, sizeof point);
  for (bool anisotropic : {false, true}) {
    SCOPED_TRACE(anisotropic ? "anisotropy 16" : "isotropic");
    VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    sci.magFilter = sci.minFilter = VK_FILTER_LINEAR;
    sci.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
    sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
    sci.maxLod = VK_LOD_CLAMP_NONE;
    sci.anisotropyEnable = anisotropic;
    sci.maxAnisotropy = 16.0f;
    BufferBinding texture;
    texture.type = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    texture.view = view;
    texture.sampler = MakeSampler(sci);
    const Kernel k = MakeKernelWithBindings(kSampleGradPointsComp, {texture, {in.buffer}, {out.buffer}}, 4);
    const uint32_t count = 1;
    Run(k, 1, 1, 1, &count, 4);
    const float expected = anisotropic ? 1.0f : 128.0f / 255.0f;
    for (int c = 0; c < 4; ++c) EXPECT_NEAR(out.as<float>()[c], expected, 1.5f / 255) << "component " << c;
  }
}

// VK_EXT_4444_formats: A4R4G4B4 and A4B4G4R4 texels (alpha in the top
// nibble) fetched and linearly filtered as RGBA.
TEST_F(SamplerModesTest, Formats4444AreSampled) {
  const uint16_t texel = 0x9C63;  // A4R4G4B4: a 9, r C, g 6, b 3; A4B4G4R4: a 9, b C, g 6, r 3
  for (VkFormat format : {VK_FORMAT_A4R4G4B4_UNORM_PACK16, VK_FORMAT_A4B4G4R4_UNORM_PACK16}) {
    SCOPED_TRACE(format == VK_FORMAT_A4R4G4B4_UNORM_PACK16 ? "A4R4G4B4" : "A4B4G4R4");
    VkImage image = MakeGeneralImage(ImageInfo(VK_IMAGE_TYPE_2D, format, {2, 2, 1}, 1, 1,
                                               VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT));
    ASSERT_NE(image, VK_NULL_HANDLE);
    std::vector<uint8_t> bytes;
    for (int i = 0; i < 4; ++i) {
      bytes.push_back(uint8_t(texel & 0xFF));
      bytes.push_back(uint8_t(texel >> 8));
    }
    WriteImage(image, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {2, 2, 1}, 2, bytes);
    const VkImageView view = ComputeFixture::MakeImageView(image, format);
    VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    sci.magFilter = sci.minFilter = VK_FILTER_LINEAR;
    // A texel fetch and a filtered sample between texels (every texel the same).
    const std::vector<std::array<float, 4>> results =
        Sample(kSamplePointsComp, view, MakeSampler(sci), {{1, 0, 0, 1}, {0.3f, 0.6f, 0, 0}});
    ASSERT_EQ(results.size(), 2u);
    const bool argb = format == VK_FORMAT_A4R4G4B4_UNORM_PACK16;
    const float expected[4] = {(argb ? 0xC : 0x3) / 15.0f, 0x6 / 15.0f, (argb ? 0x3 : 0xC) / 15.0f, 0x9 / 15.0f};
    for (const std::array<float, 4>& got : results)
      for (int c = 0; c < 4; ++c) EXPECT_NEAR(got[c], expected[c], 1e-5f) << "component " << c;
  }
}

}  // namespace
}  // namespace duet_test
