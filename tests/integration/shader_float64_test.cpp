// 64-bit floats (shaderFloat64): float64_arithmetic.comp on edge and
// random pairs against C++ doubles. Additions, multiplications, divisions,
// fma, square roots and conversions are correctly rounded, so they are
// compared bit for bit; so are the GLSL.std.450 functions, vector and
// matrix forms, which the C++ below evaluates in the driver's order.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "compute_fixture.h"
#include "graphics_fixture.h"  // Random
#include "shaders/float64_arithmetic.comp.h"

namespace duet_test {
namespace {

constexpr uint32_t kResults = 40;

std::vector<double> Expected(uint32_t i, double x, double y) {
  std::vector<double> r(kResults);
  r[0] = x + y;
  r[1] = x - y;
  r[2] = x * y;
  r[3] = x / y;
  r[4] = std::fma(x, y, x);
  r[5] = std::sqrt(std::fabs(x));
  r[6] = std::floor(x);
  r[7] = std::ceil(x);
  r[8] = std::trunc(x);
  r[9] = std::nearbyint(x);
  r[10] = x - std::floor(x);
  r[11] = x - y * std::floor(x / y);
  r[12] = std::fmin(x, y);
  r[13] = std::fmax(x, y);
  r[14] = std::fmin(std::fmax(x, -1.0), 1.0);
  r[15] = x * 0.75 + y * 0.25;
  r[16] = y < x ? 0.0 : 1.0;
  r[17] = x > 0 ? 1.0 : x < 0 ? -1.0 : x;
  r[18] = double(float(x));
  r[19] = double(int32_t(std::fmin(std::fmax(x, -1e9), 1e9)));
  r[20] = std::ldexp(x, 3);
  int e = 0;
  r[21] = std::frexp(x, &e);
  r[22] = std::isfinite(x) ? double(e) : std::numeric_limits<double>::quiet_NaN();  // (undefined: skipped)
  double whole = 0;
  r[23] = std::modf(x, &whole);
  r[24] = whole;
  r[25] = 1.0 / std::sqrt(std::fabs(x) + 1.0);
  r[26] = x < y ? 1.0 : 0.0;
  r[27] = x != y ? 1.0 : 0.0;
  r[28] = std::isnan(x * y) ? 1.0 : 0.0;
  r[29] = double(int64_t(std::fmin(std::fmax(x, -1e18), 1e18)));
  r[30] = double(_Float16(x));
  r[31] = (x * y + y * x) + 1.0 * 2.0;
  r[32] = std::sqrt(x * x + y * y);
  r[33] = y * y - 1.0 * x;
  const double det = x * 2.0 - 1.0 * y;
  r[34] = det;
  r[35] = 2.0 * (1.0 / det);
  r[36] = x * x + 1.0 * y;
  r[37] = -x;
  double sum = 0;  // subgroupAdd over a wave of 64 in lane order (exact: halves of small integers)
  for (uint32_t l = i & ~63u; l < (i & ~63u) + 64; ++l) sum += double(l & 63u) * 0.5;
  r[38] = sum;
  r[39] = double(uint32_t(std::fmin(std::fabs(x), 4e9))) + double(uint64_t(std::fmin(std::fabs(y), 1e19)));
  return r;
}

class ShaderFloat64Test : public ComputeFixture {};

TEST_F(ShaderFloat64Test, ArithmeticConversionsAndGlslOnEdgeAndRandomValues) {
  VkPhysicalDeviceFeatures features{};
  vkGetPhysicalDeviceFeatures(phys_, &features);
  ASSERT_EQ(features.shaderFloat64, VK_TRUE);
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
  vkGetPhysicalDeviceProperties2(phys_, &props);
  ASSERT_EQ(subgroup.subgroupSize, 64u);  // (the reference sums waves of 64)

  const double inf = std::numeric_limits<double>::infinity();
  const double edges[] = {0.0,   -0.0,     1.0,     -1.5,   2.5,    3.141592653589793, 1e300, -1e-310,
                          1e-5,  -2.75e9,  inf,     -inf,   0.1,    65519.0,           7.0,   -123456.789};
  std::vector<double> pairs;
  for (double a : edges)
    for (double b : edges) pairs.insert(pairs.end(), {a, b});
  Random random(64);
  while (pairs.size() / 2 % 64 != 0 || pairs.size() < 1024) {
    auto value = [&] {
      const double mantissa = double(random.Next()) / 4294967296.0 + double(random.Next() >> 12) / 4503599627370496.0;
      return std::ldexp(random.Next() & 1 ? -mantissa : mantissa, int(random.Below(80)) - 40);
    };
    pairs.insert(pairs.end(), {value(), value()});
  }
  const uint32_t invocations = uint32_t(pairs.size() / 2);
  HostBuffer in = StorageBuffer(pairs.size() * 8);
  std::memcpy(in.data, pairs.data(), pairs.size() * 8);
  HostBuffer out = StorageBuffer(size_t(invocations) * kResults * 8);
  Kernel kernel = MakeKernel(kFloat64ArithmeticComp, {in.buffer, out.buffer}, 0);
  Run(kernel, invocations / 64);
  const double* r = out.as<double>();
  int failures = 0;
  for (uint32_t i = 0; i < invocations && failures < 30; ++i) {
    const double x = pairs[2 * i], y = pairs[2 * i + 1];
    const std::vector<double> expected = Expected(i, x, y);
    for (uint32_t k = 0; k < kResults; ++k) {
      const double got = r[i * kResults + k], want = expected[k];
      if (std::bit_cast<uint64_t>(got) == std::bit_cast<uint64_t>(want)) continue;
      if (std::isnan(want) && (std::isnan(got) || k == 22)) continue;  // any NaN; frexp's exponent of Inf
      if (k >= 12 && k <= 14 && got == want) continue;  // min/max of +0 and -0: either zero
      ++failures;
      ADD_FAILURE() << "result " << k << " of x=" << x << " y=" << y << ": " << got << ", expected " << want;
    }
  }
}

}  // namespace
}  // namespace duet_test
