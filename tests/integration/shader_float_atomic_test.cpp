// Float atomics (VK_EXT_shader_atomic_float and _float2): add, min, max and
// exchange on buffers, add and max on shared memory and on R32_SFLOAT
// storage image texels, contended by many invocations at once; the same on
// doubles and halves in buffers and shared memory.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "compute_fixture.h"
#include "shaders/float16_atomics.comp.h"
#include "shaders/float64_atomics.comp.h"
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

// The device is made with the 64-bit bits on too (it fails to be made
// without them).
class Float64AtomicTest : public FloatAtomicTest {
 protected:
  Float64AtomicTest() {
    float_.shaderBufferFloat64Atomics = float_.shaderBufferFloat64AtomicAdd = VK_TRUE;
    float_.shaderSharedFloat64Atomics = float_.shaderSharedFloat64AtomicAdd = VK_TRUE;
    float2_.shaderBufferFloat64AtomicMinMax = float2_.shaderSharedFloat64AtomicMinMax = VK_TRUE;
  }
};

TEST_F(Float64AtomicTest, ContendedDoubleAddMinMaxExchange) {
  ASSERT_EQ(features_.shaderFloat64, VK_TRUE);
  HostBuffer totals = StorageBuffer(12 * 8);
  double* t = totals.as<double>();
  std::fill(t, t + 12, 0.0);
  t[3] = -1.0;
  HostBuffer results = StorageBuffer(kInvocations * 2 * 8);
  Kernel k = MakeKernel(kFloat64AtomicsComp, {totals.buffer, results.buffer}, 0);
  Run(k, kGroups);

  const double tiny = std::ldexp(1.0, -40);
  EXPECT_EQ(t[0], 960.0 + kInvocations * tiny) << "add";
  const double* r = results.as<double>();
  std::vector<double> olds;
  for (uint32_t i = 0; i < kInvocations; ++i) olds.push_back(r[2 * i]);
  std::sort(olds.begin(), olds.end());
  EXPECT_EQ(olds.front(), 0.0);
  EXPECT_LT(olds.back(), t[0]);
  EXPECT_EQ(std::adjacent_find(olds.begin(), olds.end()), olds.end()) << "every add saw a distinct partial sum";
  EXPECT_EQ(t[1], -100.25 - tiny) << "min";
  EXPECT_EQ(t[2], 510.0 + tiny) << "max";
  std::vector<double> exchanged{t[3]};
  for (uint32_t i = 0; i < kInvocations; ++i) exchanged.push_back(r[2 * i + 1]);
  std::sort(exchanged.begin(), exchanged.end());
  EXPECT_EQ(exchanged[0], -1.0);
  for (uint32_t i = 0; i < kInvocations; ++i) EXPECT_EQ(exchanged[i + 1], double(i) + tiny) << i;
  for (uint32_t g = 0; g < kGroups; ++g) {
    EXPECT_EQ(t[4 + g], 64 * (1.5 + tiny)) << "shared sum of workgroup " << g;
    EXPECT_EQ(t[8 + g], 7.5 + tiny + double(g)) << "shared max of workgroup " << g;
  }
}

// The device is made with the 16-bit bits on too.
class Float16AtomicTest : public FloatAtomicTest {
 protected:
  Float16AtomicTest() {
    float2_.shaderBufferFloat16Atomics = float2_.shaderBufferFloat16AtomicAdd = VK_TRUE;
    float2_.shaderBufferFloat16AtomicMinMax = VK_TRUE;
    float2_.shaderSharedFloat16Atomics = float2_.shaderSharedFloat16AtomicAdd = VK_TRUE;
    float2_.shaderSharedFloat16AtomicMinMax = VK_TRUE;
  }
};

TEST_F(Float16AtomicTest, ContendedHalfAddMinMaxExchange) {
  HostBuffer totals = StorageBuffer(14 * 2);
  uint16_t* t = totals.as<uint16_t>();
  std::fill(t, t + 14, uint16_t{0});
  t[3] = 0xBC00;  // -1
  t[4] = 0x6800;  // 2048
  HostBuffer results = StorageBuffer(kInvocations * 2 * 2);
  Kernel k = MakeKernel(kFloat16AtomicsComp, {totals.buffer, results.buffer}, 0);
  Run(k, kGroups);

  auto half = [](uint16_t h) {  // normal halves and zero
    const int exponent = (h >> 10) & 0x1F;
    const float magnitude = exponent == 0 ? 0.0f : std::ldexp(1.0f + float(h & 0x3FF) / 1024.0f, exponent - 15);
    return (h & 0x8000) != 0 ? -magnitude : magnitude;
  };
  EXPECT_EQ(half(t[0]), 128.0f) << "add";
  const uint16_t* r = results.as<uint16_t>();
  std::vector<float> olds;
  for (uint32_t i = 0; i < kInvocations; ++i) olds.push_back(half(r[2 * i]));
  std::sort(olds.begin(), olds.end());
  for (uint32_t i = 0; i < kInvocations; ++i) EXPECT_EQ(olds[i], float(i) * 0.5f) << "each add saw another partial sum";
  EXPECT_EQ(half(t[1]), -10.0f) << "min";
  EXPECT_EQ(half(t[2]), 127.5f) << "max";
  std::vector<float> exchanged{half(t[3])};
  for (uint32_t i = 0; i < kInvocations; ++i) exchanged.push_back(half(r[2 * i + 1]));
  std::sort(exchanged.begin(), exchanged.end());
  for (uint32_t i = 0; i <= kInvocations; ++i) EXPECT_EQ(exchanged[i], float(i) - 1.0f) << i;
  EXPECT_EQ(half(t[4]), 2052.0f) << "2048 + 3 rounds to the even half";
  EXPECT_EQ(t[5], 0u) << "the neighbouring half is untouched";
  for (uint32_t g = 0; g < kGroups; ++g) {
    EXPECT_EQ(half(t[6 + g]), 16.0f) << "shared sum of workgroup " << g;
    EXPECT_EQ(half(t[10 + g]), 7.875f + float(g)) << "shared max of workgroup " << g;
  }
}

}  // namespace
}  // namespace duet_test
