// debugPrintfEXT (GL_EXT_debug_printf, NonSemantic.DebugPrintf with
// VK_KHR_shader_non_semantic_info): each invocation that reaches the call
// logs its formatted message through the driver's logger, which a
// VK_EXT_debug_utils messenger receives as an info message.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "compute_fixture.h"
#include "shaders/debug_printf.comp.h"

namespace duet_test {
namespace {

class DebugPrintfTest : public ComputeFixture {
 protected:
  DebugPrintfTest() { device_options_.extensions = {VK_KHR_SHADER_NON_SEMANTIC_INFO_EXTENSION_NAME}; }
};

TEST_F(DebugPrintfTest, EveryInvocationThatCallsItLogsItsValues) {
  ASSERT_TRUE(debug_utils_) << "no VK_EXT_debug_utils to receive the messages";
  HostBuffer values = StorageBuffer(4 * 4);
  const float v[4] = {0.5f, 1.25f, 3.0f, 4.0f};
  std::copy(v, v + 4, values.as<float>());
  Kernel k = MakeKernel(kDebugPrintfComp, {values.buffer}, 0);
  log_.Clear();
  Run(k, 1);
  std::vector<std::string> printed;
  for (const DebugMessage& m : log_.Snapshot())
    if (m.text.rfind("lane ", 0) == 0) printed.push_back(m.text);
  std::sort(printed.begin(), printed.end());
  const std::vector<std::string> expected = {
      "lane 0: x=1.00 hex=0 signed=0 big=0 vec=1.000000, 1.500000",
      "lane 1: x=2.50 hex=ff signed=-1 big=1099511627776 vec=2.500000, 1.500000",
      "lane 3: x=8.00 hex=2fd signed=-3 big=3298534883328 vec=8.000000, 1.500000",
  };
  EXPECT_EQ(printed, expected) << "invocation 2 does not call it";
  EXPECT_EQ(values.as<float>()[3], 8.0f) << "the shader ran on";
}

}  // namespace
}  // namespace duet_test
