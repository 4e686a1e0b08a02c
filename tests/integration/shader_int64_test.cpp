// 64-bit integers (shaderInt64): the arithmetic, comparison, bit,
// conversion and GLSL.std.450 operations GLSL has for int64_t/uint64_t on
// edge values (0, +-1, INT64_MIN/MAX, around 2^32) and random ones against
// C++; and subgroup operations on them.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

#include "compute_fixture.h"
#include "graphics_fixture.h"
#include "shaders/int64_arithmetic.comp.h"
#include "shaders/int64_atomics.comp.h"
#include "shaders/subgroup_int64.comp.h"

namespace duet_test {
namespace {

constexpr uint32_t kResults = 40;

// What int64_arithmetic.comp computes for invocation i.
std::vector<uint64_t> Expected(uint32_t i, uint64_t a, uint64_t b) {
  const int64_t sa = int64_t(a), sb = int64_t(b);
  const uint64_t nonzero = b == 0 ? 3 : b;
  const int64_t snonzero = sb == 0 || sb == -1 ? 7 : sb;
  std::vector<uint64_t> r(kResults);
  r[0] = a + b;
  r[1] = a - b;
  r[2] = a * b;
  r[3] = a / nonzero;
  r[4] = a % nonzero;
  r[5] = uint64_t(sa / snonzero);
  r[6] = a << (b & 63);
  r[7] = a >> (b & 63);
  r[8] = uint64_t(sa >> (b & 63));
  r[9] = a & b;
  r[10] = a | b;
  r[11] = a ^ b;
  r[12] = ~a;
  r[13] = uint64_t(0) - a;
  r[14] = uint64_t(sa < sb) | uint64_t(a < b) << 1 | uint64_t(a == b) << 2 | uint64_t(sa >= sb) << 3 |
          uint64_t(a <= b) << 4 | uint64_t(sa > sb) << 5 | uint64_t(a > b) << 6 | uint64_t(a != b) << 7 |
          uint64_t(sa <= sb) << 8 | uint64_t(a >= b) << 9;
  r[15] = uint64_t(std::min(sa, sb));
  r[16] = std::max(a, b);
  r[17] = uint64_t(std::max(sa, sb));
  r[18] = std::min(a, b);
  r[19] = sa < 0 ? uint64_t(0) - a : a;
  r[20] = uint64_t(int64_t(sa > 0 ? 1 : sa < 0 ? -1 : 0));
  r[21] = a * 7 - b;
  r[22] = a / 10;
  r[23] = uint64_t(sa / 1000);
  r[24] = a % 1000000007;
  r[25] = std::bit_cast<uint32_t>(float(a));
  r[26] = std::bit_cast<uint32_t>(float(sa));
  r[27] = uint64_t(int64_t(float(int32_t(b & 0xFFFFF)) * -1024.5f));
  r[28] = uint64_t(float(uint32_t(b >> 40)) * 4096.0f);
  r[29] = uint64_t(std::clamp<int64_t>(sa, -5, 1000));
  r[30] = std::clamp<uint64_t>(a, 7, 0x100000000ull);
  r[31] = uint64_t(int64_t(int32_t(uint32_t(a))));
  r[32] = uint64_t(uint32_t(a >> 16));
  r[33] = (a >> 32) * (b & 0xFFFFFFFF);
  r[34] = uint64_t(sa / -3);
  r[35] = a - (b << 3);
  r[36] = (a << 32) | (b >> 32);
  const uint64_t v[3] = {a, b, a ^ 0x5555};
  const uint64_t zxy[3] = {v[2], v[0], v[1]};
  r[37] = v[i % 3] + zxy[(i + 1) % 3];
  uint64_t w[2] = {a, b};
  w[i & 1] = 42;
  r[38] = w[0] * 3 + w[1];
  r[39] = sa > sb ? a : b;
  return r;
}

class ShaderInt64Test : public ComputeFixture {
 protected:
  void SetUp() override {
    ComputeFixture::SetUp();
    if (HasFatalFailure()) return;
    ASSERT_EQ(features_.shaderInt64, VK_TRUE);
  }
};

TEST_F(ShaderInt64Test, EveryOperationOnEdgeAndRandomValues) {
  const uint64_t edges[] = {0,
                            1,
                            ~uint64_t{0},
                            uint64_t{1} << 63,
                            (uint64_t{1} << 63) - 1,
                            0xFFFFFFFFull,
                            0x100000000ull,
                            0xFFFFFFFF00000000ull,
                            0x123456789ABCDEFull,
                            uint64_t(-1000),
                            1000,
                            63,
                            64};
  std::vector<uint64_t> pairs;
  for (uint64_t a : edges)
    for (uint64_t b : edges) pairs.insert(pairs.end(), {a, b});
  Random random(64);
  while (pairs.size() / 2 % 16 != 0 || pairs.size() < 512) {
    const uint64_t a = uint64_t(random.Next()) << 32 | random.Next(), b = uint64_t(random.Next()) << (random.Next() % 40);
    pairs.insert(pairs.end(), {a, b});
  }
  const uint32_t invocations = uint32_t(pairs.size() / 2);
  HostBuffer in = StorageBuffer(pairs.size() * 8);
  std::memcpy(in.data, pairs.data(), pairs.size() * 8);
  HostBuffer out = StorageBuffer(size_t(invocations) * kResults * 8);
  Kernel k = MakeKernel(kInt64ArithmeticComp, {in.buffer, out.buffer}, 0);
  Run(k, invocations / 16);
  const uint64_t* r = out.as<uint64_t>();
  int failures = 0;
  for (uint32_t i = 0; i < invocations && failures < 20; ++i) {
    const std::vector<uint64_t> expected = Expected(i, pairs[2 * i], pairs[2 * i + 1]);
    for (uint32_t j = 0; j < kResults; ++j) {
      if (r[i * kResults + j] == expected[j]) continue;
      ++failures;
      ADD_FAILURE() << "result " << j << " of a=" << std::hex << pairs[2 * i] << " b=" << pairs[2 * i + 1] << ": "
                    << r[i * kResults + j] << ", expected " << expected[j];
    }
  }
}

TEST_F(ShaderInt64Test, AtomicsOnBuffersAndSharedMemory) {
  constexpr uint32_t kInvocations = 256;
  HostBuffer totals = StorageBuffer(9 * 8);
  std::memset(totals.data, 0, 9 * 8);
  HostBuffer results = StorageBuffer(kInvocations * 2 * 8);
  Kernel k = MakeKernel(kInt64AtomicsComp, {totals.buffer, results.buffer}, 0);
  Run(k, kInvocations / 64);
  const uint64_t* t = totals.as<uint64_t>();
  auto v = [](uint32_t i) { return uint64_t(0xFFFFFFF0ull + i); };
  uint64_t sum = 0, max = 0;
  int64_t min = 0;
  for (uint32_t i = 0; i < kInvocations; ++i) {
    sum += v(i);
    min = std::min<int64_t>(min, -int64_t(v(i)) * 3);
    max = std::max<uint64_t>(max, v(i) << 20);
  }
  EXPECT_EQ(t[0], sum);
  EXPECT_EQ(int64_t(t[1]), min);
  EXPECT_EQ(t[2], max);
  EXPECT_EQ(t[3], ~uint64_t{0});
  // Compare-exchange: one invocation swapped its value in, the others saw it.
  const uint64_t* r = results.as<uint64_t>();
  uint32_t winners = 0;
  for (uint32_t i = 0; i < kInvocations; ++i) {
    if (r[2 * i + 1] == 0) {
      ++winners;
      EXPECT_EQ(t[4], v(i));
    } else {
      EXPECT_EQ(r[2 * i + 1], t[4]) << i;
    }
  }
  EXPECT_EQ(winners, 1u);
  // Add: the old values are distinct partial sums below the total.
  std::vector<uint64_t> olds(r, r + 2 * kInvocations);
  for (uint32_t i = 0; i < kInvocations; ++i) olds[i] = r[2 * i];
  olds.resize(kInvocations);
  std::sort(olds.begin(), olds.end());
  EXPECT_EQ(olds.front(), 0u);
  EXPECT_EQ(std::adjacent_find(olds.begin(), olds.end()), olds.end());
  EXPECT_LT(olds.back(), sum);
  for (uint32_t g = 0; g < 4; ++g) {
    uint64_t group = 0;
    for (uint32_t i = g * 64; i < g * 64 + 64; ++i) group += v(i);
    EXPECT_EQ(t[5 + g], group) << "shared sum of workgroup " << g;
  }
}

TEST_F(ShaderInt64Test, SubgroupOperations) {
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
  vkGetPhysicalDeviceProperties2(phys_, &props);
  const uint32_t n = subgroup.subgroupSize;
  ASSERT_LE(n, 64u);
  constexpr uint32_t kInvocations = 128;
  HostBuffer out = StorageBuffer(kInvocations * 7 * 8);
  Kernel k = MakeKernel(kSubgroupInt64Comp, {out.buffer}, 0);
  Run(k, kInvocations / 64);
  const uint64_t* r = out.as<uint64_t>();
  auto x = [](uint32_t i) { return uint64_t((uint64_t(i) * 0x9E3779B97F4A7C15ull) >> 7); };
  for (uint32_t i = 0; i < kInvocations; ++i) {
    const uint32_t first = i - i % n;
    uint64_t sum = 0, prefix = 0, max_before = 0;
    int64_t minimum = INT64_MAX;
    for (uint32_t l = first; l < first + n; ++l) {
      sum += x(l);
      minimum = std::min<int64_t>(minimum, int64_t(x(l)) - int64_t{0x0100000000000000});
      if (l <= i) prefix += x(l);
      if (l < i) max_before = std::max<uint64_t>(max_before, x(l));
    }
    SCOPED_TRACE(testing::Message() << "invocation " << i);
    EXPECT_EQ(r[7 * i + 0], sum);
    EXPECT_EQ(int64_t(r[7 * i + 1]), minimum);
    EXPECT_EQ(r[7 * i + 2], prefix);
    EXPECT_EQ(r[7 * i + 3], max_before);
    EXPECT_EQ(r[7 * i + 4], x(first + 5));
    EXPECT_EQ(r[7 * i + 5], x(i ^ 1));
    EXPECT_EQ(r[7 * i + 6], 0u) << "the values differ, in both words";
  }
}

}  // namespace
}  // namespace duet_test
