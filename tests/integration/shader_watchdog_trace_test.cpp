// The shader watchdog (DUET_WATCHDOG_MS) and the invocation trace
// (DUET_TRACE_INVOCATION). Both read the environment in a fresh process,
// and a broken watchdog would hang, so each runs its shader in a child
// process of this binary with a time limit.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstring>

#include "child_test_process.h"
#include "compute_fixture.h"
#include "shaders/runaway_loop.comp.h"
#include "shaders/trace_target.comp.h"

namespace duet_test {
namespace {

constexpr char kWatchdogChild[] = "ShaderWatchdogChild.RunawayLoop";
constexpr char kTraceChild[] = "ShaderTraceChild.TinyShader";

// The child half: runs only under RunTestInChild (skipped otherwise). The
// device is lost by design, so the usual wait-idle at TearDown is not
// expected to succeed.
class ShaderWatchdogChild : public ComputeFixture {
 protected:
  void TearDown() override { DeviceTest::TearDown(); }
};

TEST_F(ShaderWatchdogChild, RunawayLoop) {
  if (!IsChildFor(kWatchdogChild)) GTEST_SKIP() << "runs in a child of ShaderWatchdogTest";
  HostBuffer data = StorageBuffer(4 * 1024);
  std::memset(data.data, 0, 4 * 1024);
  Kernel k = MakeKernel(kRunawayLoopComp, {data.buffer}, 0);
  VkCommandBuffer cb = BeginCommands();
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k.pipeline);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k.layout, 0, 1, &k.set, 0, nullptr);
  vkCmdDispatch(cb, 4, 1, 1);
  ASSERT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
  VkFence fence = MakeFence();
  Submit(cb, fence);
  const auto start = std::chrono::steady_clock::now();
  const VkResult waited = vkWaitForFences(device_, 1, &fence, VK_TRUE, kWaitNs);
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(waited, VK_ERROR_DEVICE_LOST);
  EXPECT_GE(ms, 400) << "lost before the 500 ms limit";
  EXPECT_EQ(vkDeviceWaitIdle(device_), VK_ERROR_DEVICE_LOST);
  VkFence later = MakeFence();
  EXPECT_EQ(vkQueueSubmit(queue_, 0, nullptr, later), VK_ERROR_DEVICE_LOST);
  std::printf("watchdog child: device lost after %lld ms\n", static_cast<long long>(ms));
  EXPECT_GT(data.as<uint32_t>()[1], 0u) << "the loop never ran";
}

TEST(ShaderWatchdogTest, RunawayShaderLosesTheDevice) {
  const auto start = std::chrono::steady_clock::now();
  const ChildResult child = RunTestInChild(kWatchdogChild, {{"DUET_WATCHDOG_MS", "500"}}, std::chrono::seconds(60));
  const auto seconds =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start).count();
  ASSERT_FALSE(child.timed_out) << "the runaway shader was not stopped:\n" << child.output;
  EXPECT_EQ(child.exit_code, 0) << child.output;
  EXPECT_NE(child.output.find("watchdog child: device lost after"), std::string::npos) << child.output;
  EXPECT_LT(seconds, 30) << child.output;
}

class ShaderTraceChild : public ComputeFixture {};

TEST_F(ShaderTraceChild, TinyShader) {
  if (!IsChildFor(kTraceChild)) GTEST_SKIP() << "runs in a child of ShaderTraceTest";
  HostBuffer data = StorageBuffer(16 * 4);
  Kernel k = MakeKernel(kTraceTargetComp, {data.buffer}, 0);
  Run(k, 2);
  for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(data.as<uint32_t>()[i], i * 7 + 3);
  std::fflush(stderr);
}

TEST(ShaderTraceTest, PrintsTheInvocationsInstructions) {
  const ChildResult child = RunTestInChild(kTraceChild, {{"DUET_TRACE_INVOCATION", "5,0,0"}}, std::chrono::seconds(60));
  ASSERT_FALSE(child.timed_out) << child.output;
  EXPECT_EQ(child.exit_code, 0) << child.output;
  const std::string& out = child.output;
  // Invocation 5 computes 5 * 7 = 35, then 35 + 3 = 38, and stores it.
  EXPECT_NE(out.find("duet-trace (5,0,0)"), std::string::npos) << out;
  EXPECT_NE(out.find("IMul r"), std::string::npos) << out;
  EXPECT_NE(out.find(" = 35 (0x00000023"), std::string::npos) << out;
  EXPECT_NE(out.find(" = 38 (0x00000026"), std::string::npos) << out;
  EXPECT_NE(out.find("Store root"), std::string::npos) << out;
  // Only that invocation is traced.
  EXPECT_EQ(out.find("duet-trace (4,0,0)"), std::string::npos) << out;
  EXPECT_EQ(out.find(" = 31 (0x0000001f"), std::string::npos) << "another lane's value in the trace:\n" << out;
}

}  // namespace
}  // namespace duet_test
