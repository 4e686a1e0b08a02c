// Storage image features: images declared without a format
// (shaderStorageImageReadWithoutFormat / WriteWithoutFormat) read and
// written in whatever format the bound view has, including the extended
// storage formats (shaderStorageImageExtendedFormats); multisampled storage
// images written and read per sample (shaderStorageImageMultisample); and
// gathers with dynamic and four constant offsets (shaderImageGatherExtended).
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include "compute_fixture.h"
#include "shaders/gather_offsets.comp.h"
#include "shaders/storage_multisample.comp.h"
#include "shaders/storage_without_format.comp.h"

namespace duet_test {
namespace {

constexpr uint32_t kSize = 4;

class StorageImageTest : public ComputeFixture {
 protected:
  void SetUp() override {
    ComputeFixture::SetUp();
    if (HasFatalFailure()) return;
    for (VkBool32 feature : {features_.shaderStorageImageReadWithoutFormat,
                             features_.shaderStorageImageWriteWithoutFormat,
                             features_.shaderStorageImageExtendedFormats, features_.shaderStorageImageMultisample,
                             features_.shaderImageGatherExtended})
      ASSERT_EQ(feature, VK_TRUE);
  }

  // A kSize x kSize storage image of `format` (`samples` samples) and a view of it.
  std::pair<VkImage, VkImageView> StorageImage(VkFormat format,
                                               VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT) {
    VkImageCreateInfo ci = ImageInfo(VK_IMAGE_TYPE_2D, format, {kSize, kSize, 1}, 1, 1,
                                     VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                         VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    ci.samples = samples;
    if (samples != VK_SAMPLE_COUNT_1_BIT) ci.usage = VK_IMAGE_USAGE_STORAGE_BIT;
    VkImage image = MakeGeneralImage(ci);
    return {image, image != VK_NULL_HANDLE ? MakeImageView(image, format) : VkImageView{VK_NULL_HANDLE}};
  }

  BufferBinding Storage(VkImageView view) {
    BufferBinding b;
    b.type = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    b.view = view;
    return b;
  }
};

uint16_t Half(float f) {
  // Exact for the values used here (small multiples of 1/8).
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if (f == 0.0f) return 0;
  const uint32_t exponent = ((bits >> 23) & 0xff) - 127 + 15;
  return uint16_t(((bits >> 16) & 0x8000) | (exponent << 10) | ((bits >> 13) & 0x3ff));
}

float FromHalf(uint16_t h) {
  if ((h & 0x7fff) == 0) return 0.0f;
  const uint32_t bits = uint32_t(h & 0x8000) << 16 | (((h >> 10) & 0x1f) - 15 + 127) << 23 | uint32_t(h & 0x3ff) << 13;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

// One pipeline, two pairs of formats: the shader's loads and stores follow
// the views (RGBA16F -> RGBA8 UNORM, then R32F -> RG16F, an extended format).
TEST_F(StorageImageTest, WithoutFormatFollowsTheViewsFormat) {
  auto [src, src_view] = StorageImage(VK_FORMAT_R16G16B16A16_SFLOAT);
  auto [dst, dst_view] = StorageImage(VK_FORMAT_R8G8B8A8_UNORM);
  auto [src2, src2_view] = StorageImage(VK_FORMAT_R32_SFLOAT);
  auto [dst2, dst2_view] = StorageImage(VK_FORMAT_R16G16_SFLOAT);
  ASSERT_NE(dst2_view, VK_NULL_HANDLE);
  auto value = [](uint32_t i, uint32_t c) { return float((i * 4 + c) % 9) / 8.0f; };  // 0 .. 1
  std::vector<uint8_t> halves(kSize * kSize * 8), floats(kSize * kSize * 4);
  for (uint32_t i = 0; i < kSize * kSize; ++i) {
    for (uint32_t c = 0; c < 4; ++c) {
      const uint16_t h = Half(value(i, c));
      std::memcpy(&halves[i * 8 + c * 2], &h, 2);
    }
    const float f = value(i, 0) * 3.0f;
    std::memcpy(&floats[i * 4], &f, 4);
  }
  const VkImageSubresourceLayers sub = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  WriteImage(src, sub, {0, 0, 0}, {kSize, kSize, 1}, 8, halves);
  WriteImage(src2, sub, {0, 0, 0}, {kSize, kSize, 1}, 4, floats);

  const Kernel first = MakeKernelWithBindings(kStorageWithoutFormatComp, {Storage(src_view), Storage(dst_view)}, 0);
  Run(first, 1, 1);
  const std::vector<uint8_t> rgba8 = ReadImage(dst, sub, {0, 0, 0}, {kSize, kSize, 1}, 4);
  ASSERT_EQ(rgba8.size(), kSize * kSize * 4);
  for (uint32_t i = 0; i < kSize * kSize; ++i)
    for (uint32_t c = 0; c < 4; ++c)  // dst = src.yzwx * 0.5, stored as UNORM8
      EXPECT_EQ(rgba8[i * 4 + c], uint8_t(std::lround(value(i, (c + 1) % 4) * 0.5f * 255.0f)))
          << "texel " << i << " component " << c;

  // Runs the shader from `from` into the RG16F image and checks texel i is expected(i).
  auto run_into_rg16 = [&](VkImageView from, auto expected) {
    const Kernel k = MakeKernelWithBindings(kStorageWithoutFormatComp, {Storage(from), Storage(dst2_view)}, 0);
    Run(k, 1, 1);
    const std::vector<uint8_t> rg16 = ReadImage(dst2, sub, {0, 0, 0}, {kSize, kSize, 1}, 4);
    ASSERT_EQ(rg16.size(), kSize * kSize * 4);
    for (uint32_t i = 0; i < kSize * kSize; ++i) {
      uint16_t rg[2];
      std::memcpy(rg, &rg16[i * 4], 4);
      const std::pair<float, float> want = expected(i);
      EXPECT_EQ(FromHalf(rg[0]), want.first) << "texel " << i;
      EXPECT_EQ(FromHalf(rg[1]), want.second) << "texel " << i;
    }
  };
  // An R32F texel reads as (r, 0, 0, 1): .yzwx * 0.5 = (0, 0, 0.5, r / 2); RG16F keeps (0, 0).
  run_into_rg16(src2_view, [](uint32_t) { return std::pair{0.0f, 0.0f}; });
  // From RGBA16F: (g, b) / 2 land in (r, g).
  run_into_rg16(src_view, [&](uint32_t i) { return std::pair{value(i, 1) * 0.5f, value(i, 2) * 0.5f}; });
}

// Every sample of a 4x multisampled RGBA8UI storage image keeps its own value.
TEST_F(StorageImageTest, MultisampledImagesKeepEverySample) {
  VkImageFormatProperties properties{};
  ASSERT_EQ(vkGetPhysicalDeviceImageFormatProperties(phys_, VK_FORMAT_R8G8B8A8_UINT, VK_IMAGE_TYPE_2D,
                                                     VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_STORAGE_BIT, 0,
                                                     &properties),
            VK_SUCCESS);
  ASSERT_TRUE(properties.sampleCounts & VK_SAMPLE_COUNT_4_BIT);
  auto [image, view] = StorageImage(VK_FORMAT_R8G8B8A8_UINT, VK_SAMPLE_COUNT_4_BIT);
  ASSERT_NE(view, VK_NULL_HANDLE);
  HostBuffer out = StorageBuffer(4 + kSize * kSize * 4 * 4);
  const Kernel k = MakeKernelWithBindings(kStorageMultisampleComp, {Storage(view), {out.buffer}}, 0);
  Run(k, 1, 1);
  const uint32_t* words = out.as<uint32_t>();
  ASSERT_EQ(words[0], 4u);
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x)
      for (uint32_t s = 0; s < 4; ++s)
        EXPECT_EQ(words[1 + (y * kSize + x) * 4 + s], x | y << 8 | s << 16 | (200 + s) << 24)
            << "pixel " << x << "," << y << " sample " << s;
}

// Texel (x, y) of an 8x8 R32F texture is x + 10 y; the gathers sample at
// (2.5, 3.5) texels, whose footprint is i0 = 2, j0 = 3.
TEST_F(StorageImageTest, GathersWithDynamicAndConstantOffsets) {
  constexpr uint32_t n = 8;
  VkImage image = MakeGeneralImage(ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R32_SFLOAT, {n, n, 1}));
  ASSERT_NE(image, VK_NULL_HANDLE);
  std::vector<uint8_t> bytes(n * n * 4);
  for (uint32_t y = 0; y < n; ++y)
    for (uint32_t x = 0; x < n; ++x) {
      const float v = float(x + 10 * y);
      std::memcpy(&bytes[(y * n + x) * 4], &v, 4);
    }
  WriteImage(image, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {n, n, 1}, 4, bytes);
  VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sci.magFilter = sci.minFilter = VK_FILTER_LINEAR;
  sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  VkSampler sampler = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateSampler(device_, &sci, nullptr, &sampler), VK_SUCCESS);
  Defer([this, sampler] { vkDestroySampler(device_, sampler, nullptr); });
  BufferBinding texture;
  texture.type = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  texture.view = MakeImageView(image, VK_FORMAT_R32_SFLOAT);
  texture.sampler = sampler;
  HostBuffer out = StorageBuffer(3 * 16);
  struct {
    float uv[2];
    int32_t offset[2];
  } push = {{2.5f / n, 3.5f / n}, {1, 2}};
  const Kernel k = MakeKernelWithBindings(kGatherOffsetsComp, {texture, {out.buffer}}, sizeof push);
  Run(k, 1, 1, 1, &push, sizeof push);
  const float* got = out.as<float>();
  auto t = [](int x, int y) { return float(x + 10 * y); };
  // Gathers return (i0j1, i1j1, i1j0, i0j0).
  const float expected[3][4] = {
      {t(2, 4), t(3, 4), t(3, 3), t(2, 3)},
      {t(3, 6), t(4, 6), t(4, 5), t(3, 5)},  // moved by (1, 2)
      {t(2, 3), t(3, 3), t(2, 4), t(0, 2)},  // texel k: i0j0 moved by offset k
  };
  for (int g = 0; g < 3; ++g)
    for (int c = 0; c < 4; ++c) EXPECT_EQ(got[g * 4 + c], expected[g][c]) << "gather " << g << " component " << c;
}

}  // namespace
}  // namespace duet_test
