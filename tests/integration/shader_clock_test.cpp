// VK_KHR_shader_clock: the subgroup and device clocks run forward across
// work, every invocation reads them, and the device clock agrees across
// invocations of one dispatch to within the dispatch's duration.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>

#include "compute_fixture.h"
#include "shaders/shader_clock.comp.h"

namespace duet_test {
namespace {

class ShaderClockTest : public ComputeFixture {
 protected:
  ShaderClockTest() {
    device_options_.extensions = {VK_KHR_SHADER_CLOCK_EXTENSION_NAME};
    device_options_.extension_features = {reinterpret_cast<VkBaseOutStructure*>(&clock_)};
    clock_.shaderSubgroupClock = clock_.shaderDeviceClock = VK_TRUE;
  }
  VkPhysicalDeviceShaderClockFeaturesKHR clock_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR};
};

TEST_F(ShaderClockTest, ClocksRunForwardInEveryInvocation) {
  constexpr uint32_t kInvocations = 256;
  HostBuffer out = StorageBuffer(kInvocations * 9 * 4);
  Kernel k = MakeKernel(kShaderClockComp, {out.buffer}, 0);
  const auto start = std::chrono::steady_clock::now();
  Run(k, kInvocations / 64);
  const uint64_t wall = uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                     std::chrono::steady_clock::now() - start)
                                     .count());
  const uint32_t* r = out.as<uint32_t>();
  auto at = [&](uint32_t i, uint32_t word) { return uint64_t(r[9 * i + word]) | uint64_t(r[9 * i + word + 1]) << 32; };
  uint64_t first = UINT64_MAX, last = 0;
  for (uint32_t i = 0; i < kInvocations; ++i) {
    EXPECT_NE(at(i, 0), 0u) << i;
    EXPECT_GE(at(i, 2), at(i, 0)) << "subgroup clock, invocation " << i;
    EXPECT_GE(at(i, 6), at(i, 4)) << "device clock, invocation " << i;
    first = std::min(first, at(i, 4));
    last = std::max(last, at(i, 6));
  }
  // Duet's clock counts nanoseconds: its readings within one dispatch lie within the dispatch's wall time.
  if (std::string(props_.deviceName).find("Duet") != std::string::npos) EXPECT_LE(last - first, wall);
  EXPECT_GT(last, first) << "2000 iterations per invocation take time";
}

}  // namespace
}  // namespace duet_test
