// The shader watchdog (DUET_WATCHDOG_MS) and the invocation trace
// (DUET_TRACE_INVOCATION). Both read the environment in a fresh process,
// and a broken watchdog would hang, so each runs its shader in a child
// process of this binary with a time limit. The watchdog stops compute
// dispatches and draws alike: runaway compute, vertex and fragment shaders;
// after the loss every call answers at once.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstring>

#include "child_test_process.h"
#include "compute_fixture.h"
#include "graphics_fixture.h"
#include "shaders/fullscreen.vert.h"
#include "shaders/runaway_loop.comp.h"
#include "shaders/runaway_loop.frag.h"
#include "shaders/runaway_loop.vert.h"
#include "shaders/trace_target.comp.h"

namespace duet_test {
namespace {

constexpr char kWatchdogChild[] = "ShaderWatchdogChild.RunawayLoop";
constexpr char kAfterLossChild[] = "ShaderWatchdogChild.EveryCallAfterTheLoss";
constexpr char kVertexWatchdogChild[] = "GraphicsWatchdogChild.RunawayVertexShader";
constexpr char kFragmentWatchdogChild[] = "GraphicsWatchdogChild.RunawayFragmentShader";
constexpr char kTraceChild[] = "ShaderTraceChild.TinyShader";
constexpr char kLostLine[] = "watchdog child: device lost after";

// In a child: waits for `fence`, whose submission runs a shader that never
// ends, and expects the device lost after the 500 ms limit (and so
// vkDeviceWaitIdle too); prints kLostLine for the parent.
void ExpectLossAfterTheLimit(VkDevice device, VkFence fence, uint64_t timeout_ns) {
  const auto start = std::chrono::steady_clock::now();
  const VkResult waited = vkWaitForFences(device, 1, &fence, VK_TRUE, timeout_ns);
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(waited, VK_ERROR_DEVICE_LOST);
  EXPECT_GE(ms, 400) << "lost before the 500 ms limit";
  EXPECT_EQ(vkDeviceWaitIdle(device), VK_ERROR_DEVICE_LOST);
  std::printf("%s %lld ms\n", kLostLine, static_cast<long long>(ms));
}

// In the parent: runs `child` with a 500 ms limit; it must end in time and pass.
void ExpectChildLosesTheDevice(const char* child_test) {
  const auto start = std::chrono::steady_clock::now();
  const ChildResult child = RunTestInChild(child_test, {{"DUET_WATCHDOG_MS", "500"}}, std::chrono::seconds(60));
  const auto seconds =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start).count();
  ASSERT_FALSE(child.timed_out) << "the runaway shader was not stopped:\n" << child.output;
  EXPECT_EQ(child.exit_code, 0) << child.output;
  EXPECT_NE(child.output.find(kLostLine), std::string::npos) << child.output;
  EXPECT_LT(seconds, 30) << child.output;
}

// The child half: runs only under RunTestInChild (skipped otherwise). The
// device is lost by design, so the usual wait-idle at TearDown is not
// expected to succeed.
class ShaderWatchdogChild : public ComputeFixture {
 protected:
  void TearDown() override { DeviceTest::TearDown(); }

  // Submits `groups` workgroups of the endless loop over `data` and waits
  // for the loss (ExpectLossAfterTheLimit).
  void LoseTheDevice(const HostBuffer& data, uint32_t groups) {
    Kernel k = MakeKernel(kRunawayLoopComp, {data.buffer}, 0);
    VkCommandBuffer cb = BeginCommands();
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k.pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k.layout, 0, 1, &k.set, 0, nullptr);
    vkCmdDispatch(cb, groups, 1, 1);
    ASSERT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
    VkFence fence = MakeFence();
    Submit(cb, fence);
    ExpectLossAfterTheLimit(device_, fence, kWaitNs);
  }
};

TEST_F(ShaderWatchdogChild, RunawayLoop) {
  if (!IsChildFor(kWatchdogChild)) GTEST_SKIP() << "runs in a child of ShaderWatchdogTest";
  HostBuffer data = StorageBuffer(4 * 1024);
  std::memset(data.data, 0, 4 * 1024);
  ASSERT_NO_FATAL_FAILURE(LoseTheDevice(data, 4));
  VkFence later = MakeFence();
  EXPECT_EQ(vkQueueSubmit(queue_, 0, nullptr, later), VK_ERROR_DEVICE_LOST);
  EXPECT_GT(data.as<uint32_t>()[1], 0u) << "the loop never ran";
}

TEST(ShaderWatchdogTest, RunawayShaderLosesTheDevice) { ExpectChildLosesTheDevice(kWatchdogChild); }

// After the loss: the spec's result from every call that reports one, at
// once (no wait blocks on work that will never finish), objects and command
// buffers still made, and vkDestroyDevice (at the child's TearDown) returns.
TEST_F(ShaderWatchdogChild, EveryCallAfterTheLoss) {
  if (!IsChildFor(kAfterLossChild)) GTEST_SKIP() << "runs in a child of ShaderWatchdogTest";
  HostBuffer data = StorageBuffer(4 * 1024);
  ASSERT_NO_FATAL_FAILURE(LoseTheDevice(data, 1));

  const auto start = std::chrono::steady_clock::now();
  VkFence never = MakeFence();
  EXPECT_EQ(vkGetFenceStatus(device_, never), VK_ERROR_DEVICE_LOST);
  EXPECT_EQ(vkWaitForFences(device_, 1, &never, VK_TRUE, UINT64_MAX), VK_ERROR_DEVICE_LOST);
  EXPECT_EQ(vkQueueWaitIdle(queue_), VK_ERROR_DEVICE_LOST);
  VkSemaphore timeline = MakeTimelineSemaphore(0);
  const uint64_t value = 1;
  const VkSemaphoreWaitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, nullptr, 0, 1, &timeline, &value};
  EXPECT_EQ(vkWaitSemaphores(device_, &wait, UINT64_MAX), VK_ERROR_DEVICE_LOST);
  uint64_t counter = 7;
  const VkResult counted = vkGetSemaphoreCounterValue(device_, timeline, &counter);
  EXPECT_TRUE(counted == VK_SUCCESS || counted == VK_ERROR_DEVICE_LOST) << counted;
  VkQueryPool pool = MakeQueryPool(VK_QUERY_TYPE_TIMESTAMP, 1);
  uint64_t stamp = 0;
  EXPECT_EQ(vkGetQueryPoolResults(device_, pool, 0, 1, sizeof stamp, &stamp, sizeof stamp,
                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
            VK_ERROR_DEVICE_LOST);
  VkEvent event = MakeEvent();
  const VkResult status = vkGetEventStatus(device_, event);
  EXPECT_TRUE(status == VK_EVENT_RESET || status == VK_ERROR_DEVICE_LOST) << status;
  // Making objects and recording still work; submitting does not.
  HostBuffer more = StorageBuffer(256);
  EXPECT_NE(more.data, nullptr);
  VkCommandBuffer again = BeginCommands();
  vkCmdDispatch(again, 1, 1, 1);
  EXPECT_EQ(vkEndCommandBuffer(again), VK_SUCCESS);
  const VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO, nullptr, 0, nullptr, nullptr, 1, &again};
  EXPECT_EQ(vkQueueSubmit(queue_, 1, &submit, VK_NULL_HANDLE), VK_ERROR_DEVICE_LOST);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5)) << "a wait blocked";
}

TEST(ShaderWatchdogTest, EveryCallAnswersAfterTheLoss) { ExpectChildLosesTheDevice(kAfterLossChild); }

// Draws: the vertex waves (on the queue's thread) and the fragment waves
// (on the pool's threads) ask the device's watchdog too.
class GraphicsWatchdogChild : public GraphicsTest {
 protected:
  void TearDown() override { DeviceTest::TearDown(); }

  // One full-screen triangle with `vertex` and `fragment` (params.stop odd:
  // the runaway shaders never end).
  void DrawForever(VkShaderModule vertex, VkShaderModule fragment) {
    Target color = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, {64, 64});
    PipelineDesc desc;
    desc.vertex = vertex;
    desc.fragment = fragment;
    desc.layout = MakePipelineLayout({}, 4);
    desc.extent = color.extent;
    VkPipeline pipeline = MakePipeline(desc);
    ASSERT_NE(pipeline, VK_NULL_HANDLE);
    VkCommandBuffer cb = BeginCommands();
    BeginRendering(cb, {{&color, VK_ATTACHMENT_LOAD_OP_CLEAR}});
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    const uint32_t stop = 1;
    vkCmdPushConstants(cb, desc.layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4, &stop);
    vkCmdDraw(cb, 3, 1, 0, 0);
    vkCmdDraw(cb, 3, 1, 0, 0);  // the device is lost by then: never runs
    vkCmdEndRendering(cb);
    ASSERT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
    VkFence fence = MakeFence();
    Submit(cb, fence);
    ExpectLossAfterTheLimit(device_, fence, kWaitNs);
  }
};

TEST_F(GraphicsWatchdogChild, RunawayVertexShader) {
  if (!IsChildFor(kVertexWatchdogChild)) GTEST_SKIP() << "runs in a child of ShaderWatchdogTest";
  DrawForever(Module(kRunawayLoopVert), VK_NULL_HANDLE);
}

TEST_F(GraphicsWatchdogChild, RunawayFragmentShader) {
  if (!IsChildFor(kFragmentWatchdogChild)) GTEST_SKIP() << "runs in a child of ShaderWatchdogTest";
  DrawForever(Module(kFullscreenVert), Module(kRunawayLoopFrag));
}

TEST(ShaderWatchdogTest, RunawayVertexShaderLosesTheDevice) { ExpectChildLosesTheDevice(kVertexWatchdogChild); }

TEST(ShaderWatchdogTest, RunawayFragmentShaderLosesTheDevice) { ExpectChildLosesTheDevice(kFragmentWatchdogChild); }

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
  // Invocation 5 computes 5 * 7 + 3 = 38 (one IMulAdd), and stores it at
  // byte 5 * 4 = 20.
  EXPECT_NE(out.find("duet-trace (5,0,0)"), std::string::npos) << out;
  EXPECT_NE(out.find("IMulAdd r"), std::string::npos) << out;
  EXPECT_NE(out.find(" = 38 (0x00000026"), std::string::npos) << out;
  EXPECT_NE(out.find(" = 20 (0x00000014"), std::string::npos) << out;
  EXPECT_NE(out.find("Store root"), std::string::npos) << out;
  // Only that invocation is traced.
  EXPECT_EQ(out.find("duet-trace (4,0,0)"), std::string::npos) << out;
  EXPECT_EQ(out.find(" = 31 (0x0000001f"), std::string::npos) << "another lane's value in the trace:\n" << out;
}

}  // namespace
}  // namespace duet_test
