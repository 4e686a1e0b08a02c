// Float controls (SPV_KHR_float_controls, Vulkan 1.2): DenormFlushToZero
// and RoundingModeRTZ for 16-, 32- and 64-bit floats, each width with its
// own modes (denormBehaviorIndependence and roundingModeIndependence ALL).
// The same operations (float_controls_body.glsl) run under four sets of
// execution modes; each result is the bits the modes of its width give:
// a denormal flushed or kept by arithmetic (never by a copy), an inexact
// result rounded to nearest even or toward zero.
#include <gtest/gtest.h>

#include <cstring>
#include <span>
#include <vector>

#include "compute_fixture.h"
#include "shaders/float_controls_default.comp.h"
#include "shaders/float_controls_flush32_rtz64.comp.h"
#include "shaders/float_controls_half.comp.h"
#include "shaders/float_controls_rtz32_flush64.comp.h"

namespace duet_test {
namespace {

struct Inputs {  // std430: floats, doubles, halves
  uint32_t f[5];
  uint32_t pad;
  uint64_t d[5];
  uint16_t h[5];
};
struct Outputs {
  uint32_t f[8];
  uint64_t d[8];
  uint32_t h[8];
};

// What one width's eight results are under its modes. Inputs per width: a
// denormal, 1, 3/4 of 1's ulp, 3, 10.
template <typename Bits>
struct Expected {
  Bits denormal, one_plus, quotient_nearest, quotient_toward_zero, minus_one_minus;
  std::vector<Bits> Under(bool flush, bool toward_zero) const {
    const Bits kept = flush ? 0 : denormal;
    return {kept,
            kept,
            kept,
            Bits(flush ? 1 : 0),
            denormal,
            toward_zero ? Bits(one_plus - 1) : one_plus,
            toward_zero ? quotient_toward_zero : quotient_nearest,
            toward_zero ? Bits(minus_one_minus - 1) : minus_one_minus};
  }
};

// 1 + 3/4 ulp: the next value up to nearest, 1 toward zero (and the same negated).
const Expected<uint32_t> kFloat{0x00000400u, 0x3F800001u, 0x3EAAAAABu, 0x3EAAAAAAu, 0xBF800001u};  // 1/3
const Expected<uint64_t> kDouble{0x400u, 0x3FF0000000000001u, 0x400AAAAAAAAAAAABu, 0x400AAAAAAAAAAAAAu,
                                  0xBFF0000000000001u};  // 10/3
const Expected<uint32_t> kHalf{0x0001u, 0x3C01u, 0x42ABu, 0x42AAu, 0xBC01u};  // 10/3

class FloatControlsTest : public ComputeFixture {
 protected:
  Outputs Run(std::span<const uint32_t> code) {
    HostBuffer in = StorageBuffer(sizeof(Inputs));
    Inputs* i = in.as<Inputs>();
    std::memset(i, 0, sizeof *i);
    const uint32_t f[5] = {0x00000400u, 0x3F800000u, 0x33C00000u, 0x40400000u, 0x41200000u};
    const uint64_t d[5] = {0x400u, 0x3FF0000000000000u, 0x3CA8000000000000u, 0x4008000000000000u,
                           0x4024000000000000u};
    const uint16_t h[5] = {0x0001u, 0x3C00u, 0x1200u, 0x4200u, 0x4900u};
    std::memcpy(i->f, f, sizeof f);
    std::memcpy(i->d, d, sizeof d);
    std::memcpy(i->h, h, sizeof h);
    HostBuffer out = StorageBuffer(sizeof(Outputs));
    std::memset(out.data, 0xEE, sizeof(Outputs));
    Kernel k = MakeKernel(code, {in.buffer, out.buffer}, 0);
    ComputeFixture::Run(k, 1);
    Outputs o;
    std::memcpy(&o, out.data, sizeof o);
    return o;
  }

  void Check(const Outputs& o, bool flush16, bool rtz16, bool flush32, bool rtz32, bool flush64, bool rtz64) {
    const std::vector<uint32_t> f = kFloat.Under(flush32, rtz32), h = kHalf.Under(flush16, rtz16);
    const std::vector<uint64_t> d = kDouble.Under(flush64, rtz64);
    for (int k = 0; k < 8; ++k) {
      EXPECT_EQ(o.f[k], f[k]) << "32-bit result " << k;
      EXPECT_EQ(o.d[k], d[k]) << "64-bit result " << k;
      EXPECT_EQ(o.h[k], h[k]) << "16-bit result " << k;
    }
  }

  void RequireModes() {
    VkPhysicalDeviceVulkan12Properties v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
    VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &v12};
    vkGetPhysicalDeviceProperties2(phys_, &props);
    ASSERT_TRUE(v12.shaderDenormFlushToZeroFloat16 && v12.shaderDenormFlushToZeroFloat32 &&
                v12.shaderDenormFlushToZeroFloat64 && v12.shaderRoundingModeRTZFloat16 &&
                v12.shaderRoundingModeRTZFloat32 && v12.shaderRoundingModeRTZFloat64 &&
                v12.shaderDenormPreserveFloat32 && v12.shaderDenormPreserveFloat64)
        << "float controls not advertised";
    ASSERT_EQ(v12.denormBehaviorIndependence, VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_ALL);
    ASSERT_EQ(v12.roundingModeIndependence, VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_ALL);
    ASSERT_EQ(features_.shaderFloat64, VK_TRUE);
  }
};

TEST_F(FloatControlsTest, WithoutModesDenormalsStayAndResultsRoundToNearestEven) {
  ASSERT_EQ(features_.shaderFloat64, VK_TRUE);
  Check(Run(kFloatControlsDefaultComp), false, false, false, false, false, false);
}

TEST_F(FloatControlsTest, FlushFloatsRoundDoublesTowardZero) {
  RequireModes();
  Check(Run(kFloatControlsFlush32Rtz64Comp), false, false, true, false, false, true);
}

TEST_F(FloatControlsTest, RoundFloatsTowardZeroFlushDoubles) {
  RequireModes();
  Check(Run(kFloatControlsRtz32Flush64Comp), false, false, false, true, true, false);
}

TEST_F(FloatControlsTest, FlushHalvesAndRoundThemTowardZero) {
  RequireModes();
  Check(Run(kFloatControlsHalfComp), true, true, false, false, false, false);
}

}  // namespace
}  // namespace duet_test
