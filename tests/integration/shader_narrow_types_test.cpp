// 8- and 16-bit integers and 16-bit floats (shaderInt8, shaderInt16,
// shaderFloat16) and their storage (VK_KHR_8bit_storage,
// VK_KHR_16bit_storage): arithmetic on edge and random values against C++
// (_Float16 rounds each operation to half like the spec asks), loads and
// stores of narrow scalars, vectors and structs under std430, std140 and
// scalar layouts, through push constants, uniform buffers and device
// addresses, subgroup operations on them, integer dot products of them, and
// narrow vectors packed into wider words.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <vector>

#include "compute_fixture.h"
#include "graphics_fixture.h"  // Random
#include "shaders/narrow_arithmetic.comp.h"
#include "shaders/narrow_integer_dot.spvasm.h"
#include "shaders/narrow_packing.comp.h"
#include "shaders/narrow_spec_constants.comp.h"
#include "shaders/narrow_storage.comp.h"
#include "shaders/subgroup_narrow.comp.h"

namespace duet_test {
namespace {

constexpr uint32_t kResults = 48;

using Half = _Float16;
Half HalfOf(uint16_t bits) { return std::bit_cast<Half>(bits); }
uint32_t BitsOf(Half h) { return std::bit_cast<uint16_t>(h); }
uint32_t FloatBits(float f) { return std::bit_cast<uint32_t>(f); }

// Results that are floats (kind 1: half bits, kind 2: float bits), compared
// as "any NaN" where C++ gives a NaN.
int FloatKind(uint32_t j) {
  if (j >= 27 && j <= 29) return 2;
  if ((j >= 30 && j <= 32) || (j >= 35 && j <= 38)) return 1;
  return 0;
}

// What narrow_arithmetic.comp computes for (x, y); results that depend on
// NaN handling the spec leaves open are marked skipped.
std::vector<uint32_t> Expected(uint32_t x, uint32_t y, std::vector<bool>* skip) {
  const uint16_t a = uint16_t(x), b = uint16_t(y);
  const int16_t sa = int16_t(a), sb = int16_t(b);
  const uint8_t c = uint8_t(x >> 16), d = uint8_t(y >> 16);
  const int8_t sc = int8_t(c), sd = int8_t(d);
  const Half fa = HalfOf(a), fb = HalfOf(b);
  const uint16_t nonzero = b == 0 ? 3 : b;
  const int16_t snonzero = sb == 0 || sb == -1 ? 7 : sb;
  const int8_t snonzero8 = sd == 0 || sd == -1 ? 5 : sd;
  const bool nan = std::isnan(float(fa)) || std::isnan(float(fb));
  std::vector<uint32_t> r(kResults);
  skip->assign(kResults, false);
  r[0] = uint16_t(a + b);
  r[1] = uint16_t(a * b);
  r[2] = uint16_t(a - b);
  r[3] = uint16_t(a / nonzero);
  r[4] = uint32_t(int32_t(int16_t(sa / snonzero)));
  r[5] = uint32_t(int32_t(int16_t(sa >> (b & 15))));
  r[6] = uint16_t(a >> (b & 15));
  r[7] = uint16_t(a << (b & 15));
  r[8] = uint16_t(~a);
  r[9] = uint32_t(sa < sb) | uint32_t(a < b) << 1 | uint32_t(sa >= sb) << 2 | uint32_t(a == b) << 3 |
         uint32_t(sa > sb) << 4;
  r[10] = uint32_t(int32_t(std::min(sa, sb)));
  r[11] = std::max(a, b);
  r[12] = uint32_t(int32_t(int16_t(std::abs(int32_t(sa)))));
  r[13] = uint32_t(int32_t(std::clamp<int16_t>(sa, -100, 100)));
  r[14] = uint16_t(a % nonzero);
  r[15] = uint32_t(int32_t(int16_t(-sa)));
  r[16] = uint32_t(int32_t(int16_t(uint16_t(int32_t(sa) * int32_t(sb)))));
  r[17] = uint8_t(c + d);
  r[18] = uint8_t(c * d);
  r[19] = uint32_t(int32_t(int8_t(sc / snonzero8)));
  r[20] = uint32_t(int32_t(int8_t(sc >> (d & 7))));
  r[21] = uint32_t(sc < sd) | uint32_t(c < d) << 1 | uint32_t(sc <= sd) << 2 | uint32_t(c != d) << 3;
  r[22] = uint32_t(int32_t(std::max(sc, sd)));
  r[23] = uint32_t(int32_t(int8_t(sa)));
  r[24] = uint16_t(int16_t(sc));
  r[25] = uint32_t(int32_t(sc));
  r[26] = uint16_t(x * 3u);
  r[27] = FloatBits(float(Half(fa + fb)));
  r[28] = FloatBits(float(Half(fa * fb)));
  r[29] = FloatBits(float(Half(fa / fb)));
  r[30] = BitsOf(Half(fa - fb));
  r[31] = BitsOf(Half(std::sqrt(std::fabs(float(fa)))));
  r[32] = BitsOf(Half(float(x) * 0.001f));
  r[33] = uint32_t(fa < fb) | uint32_t(fa == fb) << 1 | uint32_t(std::isnan(float(fa))) << 2 |
          uint32_t(std::isinf(float(fa))) << 3 | uint32_t(fa >= fb) << 4;
  r[34] = uint32_t(int32_t(std::clamp(float(fa), -1000.0f, 1000.0f)));
  (*skip)[34] = std::isnan(float(fa));
  r[35] = BitsOf(Half(float(sa)));
  r[36] = BitsOf(Half(Half(float(c)) * Half(0.5f)));
  r[37] = BitsOf(std::min(fa, fb));
  (*skip)[37] = nan;
  r[38] = BitsOf(Half(std::floor(float(fa))));
  r[39] = a | uint32_t(b) << 16;
  r[40] = b | uint32_t(a) << 16;
  r[41] = c | uint32_t(d) << 8 | uint32_t(c ^ d) << 16 | 7u << 24;
  r[42] = x >> 16;
  r[43] = uint32_t(int32_t(int8_t(y >> 24)));
  r[44] = x >> 16;
  r[45] = uint32_t(int32_t(int16_t(uint16_t(sb * 3 - 1))));
  const float clamped = float(fa) < 0.0f ? 0.0f : std::min(float(fa), 60000.0f);
  r[46] = uint16_t(uint32_t(clamped));
  (*skip)[46] = std::isnan(float(fa));
  r[47] = 0;  // dot: checked with a tolerance
  return r;
}

class ShaderNarrowTypesTest : public ComputeFixture {
 protected:
  void SetUp() override {
    ComputeFixture::SetUp();
    if (HasFatalFailure()) return;
    VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
    VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &v11};
    VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v12};
    vkGetPhysicalDeviceFeatures2(phys_, &f2);
    ASSERT_EQ(f2.features.shaderInt16, VK_TRUE);
    ASSERT_EQ(v12.shaderInt8, VK_TRUE);
    ASSERT_EQ(v12.shaderFloat16, VK_TRUE);
    ASSERT_EQ(v11.storageBuffer16BitAccess, VK_TRUE);
    ASSERT_EQ(v11.uniformAndStorageBuffer16BitAccess, VK_TRUE);
    ASSERT_EQ(v11.storagePushConstant16, VK_TRUE);
    ASSERT_EQ(v12.storageBuffer8BitAccess, VK_TRUE);
    ASSERT_EQ(v12.uniformAndStorageBuffer8BitAccess, VK_TRUE);
    ASSERT_EQ(v12.storagePushConstant8, VK_TRUE);
  }
};

TEST_F(ShaderNarrowTypesTest, EveryOperationOnEdgeAndRandomValues) {
  // 16-bit edges: zero, one, all ones, the sign bit, the largest positive;
  // as halves 1.0, +-Inf, quiet and signalling NaNs, denormals, the
  // largest finite value, -2. The high halves hold the 8-bit operands.
  const uint32_t edges[] = {0,      1,      0xFFFF, 0x8000, 0x7FFF, 0x3C00, 0x7C00, 0xFC00, 0x7E00, 0x7D01,
                            0x0001, 0x03FF, 0x7BFF, 0xC000, 300,    5,      0x00FF, 0x8001, 0x3555, 0x0400};
  const uint32_t highs[] = {0, 0x0001, 0x00FF, 0x0080, 0x007F, 0xFF80, 0x12FE, 0x8005};
  std::vector<uint32_t> pairs;
  uint32_t k = 0;
  for (uint32_t a : edges)
    for (uint32_t b : edges) {
      pairs.insert(pairs.end(), {a | highs[k % 8] << 16, b | highs[(k / 8 + k) % 8] << 16});
      ++k;
    }
  Random random(16);
  while (pairs.size() / 2 % 16 != 0 || pairs.size() < 1024) pairs.insert(pairs.end(), {random.Next(), random.Next()});
  const uint32_t invocations = uint32_t(pairs.size() / 2);
  HostBuffer in = StorageBuffer(pairs.size() * 4);
  std::memcpy(in.data, pairs.data(), pairs.size() * 4);
  HostBuffer out = StorageBuffer(size_t(invocations) * kResults * 4);
  Kernel kernel = MakeKernel(kNarrowArithmeticComp, {in.buffer, out.buffer}, 0);
  Run(kernel, invocations / 16);
  const uint32_t* r = out.as<uint32_t>();
  int failures = 0;
  for (uint32_t i = 0; i < invocations && failures < 30; ++i) {
    const uint32_t x = pairs[2 * i], y = pairs[2 * i + 1];
    std::vector<bool> skip;
    const std::vector<uint32_t> expected = Expected(x, y, &skip);
    for (uint32_t j = 0; j < kResults; ++j) {
      const uint32_t got = r[i * kResults + j];
      if (skip[j] || got == expected[j]) continue;
      if (j == 47) {
        // dot((fa, fb, 1), (1, fa, fb)): each product and sum rounded to
        // half, or less; within a few half ulps of the exact value.
        const double fa = double(float(HalfOf(uint16_t(x)))), fb = double(float(HalfOf(uint16_t(y))));
        const double exact = fa + fb * fa + fb;
        const double value = double(float(HalfOf(uint16_t(got))));
        const double scale = std::max({std::fabs(fa), std::fabs(fb * fa), std::fabs(fb), 6.2e-5});
        if (!std::isfinite(exact) || std::isnan(value) || std::fabs(value - exact) <= scale * 4.0 / 1024.0) continue;
        if (std::isinf(value) && std::fabs(exact) > 65000.0) continue;
      }
      const int kind = FloatKind(j);
      if (kind == 1 && std::isnan(float(HalfOf(uint16_t(expected[j])))) && std::isnan(float(HalfOf(uint16_t(got)))))
        continue;
      if (kind == 2 && std::isnan(std::bit_cast<float>(expected[j])) && std::isnan(std::bit_cast<float>(got)))
        continue;
      ++failures;
      ADD_FAILURE() << "result " << j << " of x=" << std::hex << x << " y=" << y << ": " << got << ", expected "
                    << expected[j];
    }
  }
}

TEST_F(ShaderNarrowTypesTest, StorageUnderEveryLayout) {
  constexpr uint32_t n = 64;
  // std430 Mixed {u8 a; i16 b; f16vec3 c; i8vec2 d; uint e}: offsets 0, 2,
  // 8, 14, 16, stride 24; then uint16_t shorts[64] at 1536, uint8_t bytes[64] at 1664.
  HostBuffer std430 = StorageBuffer(1664 + 64);
  // scalar Mixed: offsets 0, 2, 4, 10, 12, stride 16.
  HostBuffer scalar = StorageBuffer(n * 16 + 16);
  // std140 {f16vec4 h; i16vec4 s; u8vec4 b; float16_t arr[4] (stride 16)}.
  HostBuffer ubo = StorageBuffer(96);
  HostBuffer out = StorageBuffer(n * 8 * 4);
  HostBuffer halves[2] = {StorageBuffer(n * 2), StorageBuffer(n * 2)};
  uint8_t* s = std430.data;
  std::memset(s, 0xCD, 1664 + 64);
  std::memset(scalar.data, 0xEE, n * 16 + 16);
  auto put16 = [](uint8_t* at, uint32_t v) { std::memcpy(at, &v, 2); };
  auto half = [](float f) { return BitsOf(Half(f)); };
  for (uint32_t i = 0; i < n; ++i) {
    uint8_t* m = s + i * 24;
    m[0] = uint8_t(i * 3 + 250);
    put16(m + 2, uint16_t(int16_t(int32_t(i) * 517 - 16000)));
    for (uint32_t c = 0; c < 3; ++c) put16(m + 8 + 2 * c, half(float(i) * 0.5f - float(c) * 7.25f));
    m[14] = uint8_t(int8_t(int32_t(i) - 40));
    m[15] = uint8_t(i * 9);
    const uint32_t e = 0xA5000000u + i * 0x10101u;
    std::memcpy(m + 16, &e, 4);
    put16(halves[0].data + 2 * i, 0x1000 + i);
    put16(halves[1].data + 2 * i, 0x2000 + i);
  }
  const float h[4] = {1.5f, -0.125f, 65504.0f, 6.1035156e-05f};
  const int16_t sv[4] = {-32768, -1, 12345, 32767};
  const uint8_t bv[4] = {0, 1, 128, 255};
  for (uint32_t k = 0; k < 4; ++k) {
    put16(ubo.data + 2 * k, half(h[k]));
    put16(ubo.data + 8 + 2 * k, uint16_t(sv[k]));
    ubo.data[16 + k] = bv[k];
    put16(ubo.data + 32 + 16 * k, half(h[3 - k]));
  }
  struct {
    uint16_t p16;
    int8_t p8;
    uint8_t pad;
    uint16_t ph[2];
  } push{60000, -77, 0, {uint16_t(half(3.0f)), uint16_t(half(-0.75f))}};
  Kernel kernel = MakeKernelWithBindings(kNarrowStorageComp,
                                         {{std430.buffer},
                                          {scalar.buffer},
                                          {ubo.buffer, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER},
                                          {out.buffer},
                                          {.buffer = halves[0].buffer, .more_elements = {halves[1].buffer}}},
                                         sizeof push);
  Run(kernel, 1, 1, 1, &push, sizeof push);
  auto get16 = [](const uint8_t* at) {
    uint16_t v;
    std::memcpy(&v, at, 2);
    return v;
  };
  const uint32_t* o = out.as<uint32_t>();
  for (uint32_t i = 0; i < n; ++i) {
    SCOPED_TRACE(testing::Message() << "invocation " << i);
    const uint8_t* m = s + i * 24;
    const uint8_t* q = scalar.data + i * 16;
    EXPECT_EQ(q[0], uint8_t(m[0] + 1));
    EXPECT_EQ(int16_t(get16(q + 2)), int16_t(int16_t(get16(m + 2)) * -2));
    for (uint32_t c = 0; c < 3; ++c)
      EXPECT_EQ(get16(q + 4 + 2 * c), BitsOf(Half(HalfOf(get16(m + 8 + 2 * c)) * Half(2.0f)))) << c;
    EXPECT_EQ(q[10], m[15]);
    EXPECT_EQ(q[11], m[14]);
    uint32_t e = 0, f = 0;
    std::memcpy(&e, m + 16, 4);
    std::memcpy(&f, q + 12, 4);
    EXPECT_EQ(f, e ^ i);
    EXPECT_EQ(get16(s + 1536 + 2 * i), uint16_t(i * 1000));
    EXPECT_EQ(s[1664 + i], uint8_t(i * 7));
    // Narrow stores leave their neighbours alone (the padding keeps 0xCD / 0xEE).
    EXPECT_EQ(m[1], 0xCD);
    EXPECT_EQ(q[1], 0xEE);
    EXPECT_EQ(get16(halves[i & 1].data + 2 * i), uint16_t(get16(m + 2) ^ 0x5A5A));
    const uint32_t k = i & 3;
    EXPECT_EQ(int32_t(o[i * 8 + 0]), sv[k]);
    EXPECT_EQ(std::bit_cast<float>(o[i * 8 + 1]), float(Half(h[k])));
    EXPECT_EQ(o[i * 8 + 2], bv[k]);
    EXPECT_EQ(std::bit_cast<float>(o[i * 8 + 3]), float(Half(h[3 - k])));
    EXPECT_EQ(o[i * 8 + 4], 60000u + i);
    EXPECT_EQ(int32_t(o[i * 8 + 5]), -77);
    EXPECT_EQ(std::bit_cast<float>(o[i * 8 + 6]), -0.75f);
    EXPECT_EQ(o[i * 8 + 7], ((i + 1) & 1 ? 0x2000u : 0x1000u) + i);
  }
  EXPECT_EQ(scalar.data[n * 16], 0xEE);  // nothing written past the array
}

TEST_F(ShaderNarrowTypesTest, SubgroupOperations) {
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
  vkGetPhysicalDeviceProperties2(phys_, &props);
  const uint32_t size = subgroup.subgroupSize;
  ASSERT_LE(size, 64u);
  constexpr uint32_t kInvocations = 128;
  HostBuffer out = StorageBuffer(kInvocations * 8 * 4);
  Kernel kernel = MakeKernel(kSubgroupNarrowComp, {out.buffer}, 0);
  Run(kernel, 1);
  const uint32_t* o = out.as<uint32_t>();
  auto s = [](uint32_t i) { return int16_t(int32_t(i) * 300 - 9000); };
  auto b = [](uint32_t i) { return int8_t(int32_t(i) * 5 - 100); };
  auto u = [](uint32_t i) { return uint16_t(i * 2000); };
  for (uint32_t i = 0; i < kInvocations; ++i) {
    const uint32_t first = i - i % size;
    int16_t minimum = INT16_MAX;
    int8_t maximum = INT8_MIN;
    int16_t exclusive_min = INT16_MAX;
    int8_t exclusive_max = INT8_MIN;
    uint16_t prefix = 0, sum = 0;
    float half_prefix = 0.0f;
    for (uint32_t l = first; l < first + size; ++l) {
      minimum = std::min(minimum, s(l));
      maximum = std::max(maximum, b(l));
      sum = uint16_t(sum + u(l));
      if (l < i) {
        exclusive_min = std::min(exclusive_min, s(l));
        exclusive_max = std::max(exclusive_max, b(l));
      }
      if (l <= i) {
        prefix = uint16_t(prefix + uint16_t(s(l)));
        half_prefix += float(l & 63) * 0.25f;
      }
    }
    SCOPED_TRACE(testing::Message() << "invocation " << i);
    EXPECT_EQ(int32_t(o[i * 8 + 0]), minimum);
    EXPECT_EQ(int32_t(o[i * 8 + 1]), int16_t(prefix));
    EXPECT_EQ(int32_t(o[i * 8 + 2]), maximum);
    EXPECT_EQ(o[i * 8 + 3], sum);
    EXPECT_EQ(std::bit_cast<float>(o[i * 8 + 4]), half_prefix);
    EXPECT_EQ(int32_t(o[i * 8 + 5]), b(i ^ 1));
    EXPECT_EQ(int32_t(o[i * 8 + 6]), exclusive_min);
    EXPECT_EQ(int32_t(o[i * 8 + 7]), exclusive_max);
  }
}

// Debian's SPIRV-Tools folds a bitcast of constant narrow vectors to a
// wider type into a malformed constant that keeps only the first
// component (narrow_vector_bitcast.h); the loaded operands are not folded.
TEST_F(ShaderNarrowTypesTest, NarrowVectorsPackedIntoWiderWords) {
  HostBuffer in = StorageBuffer(4);
  const uint32_t x = 5;
  std::memcpy(in.data, &x, 4);
  HostBuffer out = StorageBuffer(10 * 4);
  Kernel kernel = MakeKernel(kNarrowPackingComp, {in.buffer, out.buffer}, 0);
  Run(kernel, 1);
  const uint32_t* r = out.as<uint32_t>();
  const uint32_t expected[10] = {0x42004000, 0xBC004001, 0xABCD1234, 0x0005FFFE, 0x04830201,
                                 0x00020001, 0xFFFF0003, 0x02FF3412, 0x46004500, 0x08070605};
  for (uint32_t i = 0; i < 10; ++i) EXPECT_EQ(r[i], expected[i]) << "r[" << i << "]";
}

TEST_F(ShaderNarrowTypesTest, IntegerDotProductsSaturateAtTheResultWidth) {
  const uint32_t edges[] = {0, 0x7F7F7F7F, 0x80808080, 0xFFFFFFFF, 0x01020304, 0x807F0180, 0x7FFF8000, 0x00FF00FF};
  std::vector<uint32_t> pairs;
  for (uint32_t a : edges)
    for (uint32_t b : edges) pairs.insert(pairs.end(), {a, b});
  Random random(8);
  while (pairs.size() / 2 % 64 != 0 || pairs.size() < 512) pairs.insert(pairs.end(), {random.Next(), random.Next()});
  const uint32_t invocations = uint32_t(pairs.size() / 2);
  HostBuffer in = StorageBuffer(pairs.size() * 4);
  std::memcpy(in.data, pairs.data(), pairs.size() * 4);
  HostBuffer out = StorageBuffer(size_t(invocations) * 5 * 4);
  Kernel kernel = MakeKernel(kNarrowIntegerDotSpvasm, {in.buffer, out.buffer}, 0);
  Run(kernel, invocations / 64);
  const int32_t* r = out.as<int32_t>();
  auto s8 = [](uint32_t v, int k) { return int64_t(int8_t(v >> (8 * k))); };
  auto u8 = [](uint32_t v, int k) { return int64_t(uint8_t(v >> (8 * k))); };
  auto s16 = [](uint32_t v, int k) { return int64_t(int16_t(v >> (16 * k))); };
  // The accumulation saturates; a dot product that overflows the result
  // type before it is undefined, so those are not checked.
  auto check = [&](uint32_t i, int k, int64_t dot, int64_t accumulator, int64_t lo, int64_t hi) {
    if (dot < lo || dot > hi) return;
    EXPECT_EQ(r[i * 5 + k], int32_t(std::clamp(dot + accumulator, lo, hi)))
        << "result " << k << " of x=" << std::hex << pairs[2 * i] << " y=" << pairs[2 * i + 1];
  };
  for (uint32_t i = 0; i < invocations; ++i) {
    const uint32_t x = pairs[2 * i], y = pairs[2 * i + 1];
    int64_t ss = 0, su = 0, uu = 0;
    for (int k = 0; k < 4; ++k) {
      ss += s8(x, k) * s8(y, k);
      su += s8(x, k) * u8(y, k);
      uu += u8(x, k) * u8(y, k);
    }
    EXPECT_EQ(r[i * 5], int32_t(ss));
    check(i, 1, su, int16_t(x), INT16_MIN, INT16_MAX);
    check(i, 2, uu, uint8_t(y), 0, UINT8_MAX);
    check(i, 3, s16(x, 0) * s16(y, 0) + s16(x, 1) * s16(y, 1), int32_t(x), INT32_MIN, INT32_MAX);
    check(i, 4, ss, int16_t(y >> 16), INT16_MIN, INT16_MAX);
  }
}

TEST_F(ShaderNarrowTypesTest, SpecializationConstantsAndDegrees) {
  struct {
    int16_t s;
    float f;
    int8_t b;
    double d;
  } values{-7, 1.22334445f, -128, 1.0000000001};
  const VkSpecializationMapEntry entries[] = {{0, offsetof(decltype(values), s), 2},
                                              {1, offsetof(decltype(values), f), 4},
                                              {2, offsetof(decltype(values), b), 1},
                                              {3, offsetof(decltype(values), d), 8}};
  const VkSpecializationInfo specialization{4, entries, sizeof values, &values};
  HostBuffer in = StorageBuffer(4);
  const uint32_t x = 0x03F0;  // a denormal half (what the CTS's float controls use)
  std::memcpy(in.data, &x, 4);
  HostBuffer out = StorageBuffer(10 * 4);
  Kernel kernel = MakeKernelWithBindings(kNarrowSpecConstantsComp, {{in.buffer}, {out.buffer}}, 0, &specialization);
  Run(kernel, 1);
  const uint32_t* r = out.as<uint32_t>();
  EXPECT_EQ(int32_t(r[0]), -7);
  EXPECT_EQ(int32_t(r[1]), -3);
  EXPECT_EQ(r[2], 1u);
  EXPECT_EQ(int32_t(r[3]), -4);
  EXPECT_EQ(r[4], FloatBits(float(Half(1.22334445f))));
  EXPECT_EQ(int32_t(r[5]), -128);
  // x * C with C a half: the float product of two halves is exact, so it rounds once.
  const Half h = HalfOf(uint16_t(x));
  EXPECT_EQ(r[6], BitsOf(Half(float(h) * float(Half(57.295779513f)))));
  EXPECT_EQ(r[6], 0x1B0Cu);
  EXPECT_EQ(r[7], BitsOf(Half(float(h) * float(Half(0.017453292520f)))));
  EXPECT_EQ(r[8], FloatBits(float(values.d)));  // (OpSpecConstantOp FConvert from a double)
  EXPECT_EQ(r[9], BitsOf(Half(values.d)));
}

}  // namespace
}  // namespace duet_test
