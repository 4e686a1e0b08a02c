// The Vulkan memory model's availability and visibility chains
// (vulkanMemoryModelAvailabilityVisibilityChains): a payload released at
// workgroup scope, passed on by a device-scope release from another wave,
// and acquired at device scope by another workgroup, is seen by every
// reader that sees the flag.
#include <gtest/gtest.h>

#include <cstring>

#include "compute_fixture.h"
#include "shaders/memory_model_chain.comp.h"

namespace duet_test {
namespace {

class MemoryModelTest : public ComputeFixture {};

TEST_F(MemoryModelTest, PayloadPassedOnThroughAWorkgroupThenDeviceScopeChain) {
  const Features13 supported = QueryFeatures13();
  ASSERT_TRUE(supported.v12.vulkanMemoryModel && supported.v12.vulkanMemoryModelDeviceScope &&
              supported.v12.vulkanMemoryModelAvailabilityVisibilityChains);
  constexpr uint32_t kGroups = 256, kRounds = 4;
  HostBuffer payload = StorageBuffer(kGroups * 4), flags = StorageBuffer(kGroups * 4);
  HostBuffer seen = StorageBuffer(kGroups * 8);
  Kernel k = MakeKernel(kMemoryModelChainComp, {payload.buffer, flags.buffer, seen.buffer}, 0);
  uint32_t seen_flags = 0;
  for (uint32_t round = 0; round < kRounds; ++round) {
    std::memset(payload.data, 0, kGroups * 4);
    std::memset(flags.data, 0, kGroups * 4);
    std::memset(seen.data, 0xFF, kGroups * 8);
    Run(k, kGroups);
    const uint32_t* s = seen.as<uint32_t>();
    for (uint32_t g = 0; g < kGroups; ++g) {
      const uint32_t source = (g + kGroups / 2) % kGroups;
      SCOPED_TRACE(testing::Message() << "round " << round << ", workgroup " << g);
      ASSERT_LE(s[2 * g], 1u) << "the reader did not run";
      if (s[2 * g] == 1) {
        EXPECT_EQ(s[2 * g + 1], source * 7 + 1) << "flag seen without its payload";
        ++seen_flags;
      }
      EXPECT_EQ(payload.as<uint32_t>()[g], g * 7 + 1);
      EXPECT_EQ(flags.as<uint32_t>()[g], 1u) << "the second release did not see the first";
    }
  }
  EXPECT_GT(seen_flags, 0u) << "no reader came after its writer: nothing was checked";
}

}  // namespace
}  // namespace duet_test
