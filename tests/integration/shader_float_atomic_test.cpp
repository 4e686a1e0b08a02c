// 32-bit float atomics (VK_EXT_shader_atomic_float and _float2): add, min,
// max and exchange on buffers, add and max on shared memory and on
// R32_SFLOAT storage image texels, contended by many invocations at once.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "compute_fixture.h"
#include "shaders/float_atomics.comp.h"

namespace duet_test {
namespace {

constexpr uint32_t kInvocations = 256, kGroups = 4;

class FloatAtomicTest : public ComputeFixture {
 protected:
  FloatAtomicTest() {
    device_options_.extensions = {VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME, VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME};
    device_options_.extension_features = {reinterpret_cast<VkBaseOutStructure*>(&float_),
                                          reinterpret_cast<VkBaseOutStructure*>(&float2_)};
    float_.shaderBufferFloat32AtomicAdd = float_.shaderBufferFloat32Atomics = VK_TRUE;
    float_.shaderSharedFloat32AtomicAdd = float_.shaderSharedFloat32Atomics = VK_TRUE;
    float_.shaderImageFloat32AtomicAdd = float_.shaderImageFloat32Atomics = VK_TRUE;
    float2_.shaderBufferFloat32AtomicMinMax = float2_.shaderSharedFloat32AtomicMinMax = VK_TRUE;
    float2_.shaderImageFloat32AtomicMinMax = VK_TRUE;
  }

  // A zeroed 4x4 R32_SFLOAT storage image and a view of it.
  VkImageView StorageImage(VkImage* image) {
    *image = MakeGeneralImage(ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R32_SFLOAT, {4, 4, 1}, 1, 1,
                                        VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                            VK_IMAGE_USAGE_TRANSFER_DST_BIT));
    if (*image == VK_NULL_HANDLE) return VK_NULL_HANDLE;
    WriteImage(*image, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {4, 4, 1}, 4, std::vector<uint8_t>(64, 0));
    VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = *image;
    vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vci.format = VK_FORMAT_R32_SFLOAT;
    vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageView view = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateImageView(device_, &vci, nullptr, &view), VK_SUCCESS);
    if (view != VK_NULL_HANDLE) Defer([this, view] { vkDestroyImageView(device_, view, nullptr); });
    return view;
  }
  std::vector<float> Texels(VkImage image) {
    const std::vector<uint8_t> bytes = ReadImage(image, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {4, 4, 1}, 4);
    std::vector<float> texels(bytes.size() / 4);
    std::memcpy(texels.data(), bytes.data(), bytes.size());
    return texels;
  }

  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT float_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
  VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT float2_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT};
};

TEST_F(FloatAtomicTest, ContendedAddMinMaxExchange) {
  VkFormatProperties format{};
  vkGetPhysicalDeviceFormatProperties(phys_, VK_FORMAT_R32_SFLOAT, &format);
  EXPECT_NE(format.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_ATOMIC_BIT, 0u)
      << "shaderImageFloat32Atomics needs R32_SFLOAT storage image atomics";

  VkImage sums_image, maximums_image;
  const VkImageView sums = StorageImage(&sums_image), maximums = StorageImage(&maximums_image);
  ASSERT_TRUE(sums != VK_NULL_HANDLE && maximums != VK_NULL_HANDLE);
  HostBuffer totals = StorageBuffer(12 * 4);
  float* t = totals.as<float>();
  std::fill(t, t + 12, 0.0f);
  t[3] = -1.0f;
  HostBuffer results = StorageBuffer(kInvocations * 2 * 4);
  auto image = [](VkImageView view) {
    BufferBinding b;
    b.type = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    b.view = view;
    return b;
  };
  Kernel k = MakeKernelWithBindings(kFloatAtomicsComp, {{totals.buffer}, image(sums), image(maximums), {results.buffer}}, 0);
  Run(k, kGroups);

  // Add: 16 rounds of 0, 0.5 .. 7.5; every invocation saw a distinct partial sum below the total.
  EXPECT_EQ(t[0], 960.0f);
  const float* r = results.as<float>();
  std::vector<float> olds;
  for (uint32_t i = 0; i < kInvocations; ++i) olds.push_back(r[2 * i]);
  std::sort(olds.begin(), olds.end());
  EXPECT_EQ(olds.front(), 0.0f);
  EXPECT_LT(olds.back(), 960.0f);
  EXPECT_EQ(t[1], -100.25f) << "min";
  EXPECT_EQ(t[2], 510.0f) << "max";
  // Exchange: the old values and the final one are -1 and every invocation's value, once each.
  std::vector<float> exchanged{t[3]};
  for (uint32_t i = 0; i < kInvocations; ++i) exchanged.push_back(r[2 * i + 1]);
  std::sort(exchanged.begin(), exchanged.end());
  for (uint32_t i = 0; i <= kInvocations; ++i) EXPECT_EQ(exchanged[i], float(i) - 1.0f) << i;
  for (uint32_t g = 0; g < kGroups; ++g) {
    EXPECT_EQ(t[4 + g], 96.0f) << "shared sum of workgroup " << g;
    EXPECT_EQ(t[8 + g], 7.5f + float(g)) << "shared max of workgroup " << g;
  }
  const std::vector<float> sum_texels = Texels(sums_image), max_texels = Texels(maximums_image);
  for (uint32_t texel = 0; texel < 16; ++texel) {
    EXPECT_EQ(sum_texels[texel], 4.0f) << "texel " << texel;
    EXPECT_EQ(max_texels[texel], float(240 + texel)) << "texel " << texel;
  }
}

}  // namespace
}  // namespace duet_test
