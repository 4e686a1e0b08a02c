// Commands of legal size that no software driver can finish: 65535^3
// workgroups, 2^32 - 1 instances. The watchdog (DUET_WATCHDOG_MS) also
// bounds a whole command at kCommandLimitFactor (6) times its limit, so
// they lose the device instead of holding the queue for ever. And a draw
// whose replay runs out of host memory (under RLIMIT_AS) loses the device
// instead of ending the process. Each runs in a child process with a time
// limit and a 200 ms watchdog (1.2 s per command).
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "child_test_process.h"
#include "compute_fixture.h"
#include "graphics_fixture.h"
#include "shaders/fullscreen.vert.h"
#include "shaders/workgroup_count.comp.h"

namespace duet_test {
namespace {

constexpr char kDispatchChild[] = "EndlessDispatchChild.LargestDispatch";
constexpr char kInstancesChild[] = "EndlessDrawChild.LargestInstanceCount";
constexpr char kOutOfMemoryChild[] = "EndlessDrawChild.ReplayOutOfMemory";
constexpr char kLostLine[] = "endless command child: device lost after";

// In a child: `fence`'s submission cannot finish; the device must be lost
// within a few seconds (the 1.2 s command limit and room to spare).
void ExpectLoss(VkDevice device, VkFence fence) {
  const auto start = std::chrono::steady_clock::now();
  const VkResult waited = vkWaitForFences(device, 1, &fence, VK_TRUE, 60'000'000'000ull);
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(waited, VK_ERROR_DEVICE_LOST);
  EXPECT_EQ(vkDeviceWaitIdle(device), VK_ERROR_DEVICE_LOST);
  std::printf("%s %lld ms\n", kLostLine, static_cast<long long>(ms));
}

// In the parent: the child must end in time, pass, and report the loss.
void ExpectChildLosesTheDevice(const char* child_test) {
  const ChildResult child = RunTestInChild(child_test, {{"DUET_WATCHDOG_MS", "200"}, {"DUET_TEST_VALIDATION", "0"}},
                                           std::chrono::seconds(60));
  ASSERT_FALSE(child.timed_out) << "the command was not stopped:\n" << child.output;
  EXPECT_EQ(child.exit_code, 0) << child.output;
  EXPECT_NE(child.output.find(kLostLine), std::string::npos) << child.output;
}

class EndlessDispatchChild : public ComputeFixture {
 protected:
  void TearDown() override { DeviceTest::TearDown(); }  // the device is lost by design
};

TEST_F(EndlessDispatchChild, LargestDispatch) {
  if (!IsChildFor(kDispatchChild)) GTEST_SKIP() << "runs in a child of EndlessCommands";
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(phys_, &properties);
  const uint32_t* max = properties.limits.maxComputeWorkGroupCount;
  HostBuffer counts = StorageBuffer(16);
  std::memset(counts.data, 0, 16);
  Kernel k = MakeKernel(kWorkgroupCountComp, std::vector<VkBuffer>{counts.buffer}, 0);
  VkCommandBuffer cb = BeginCommands();
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k.pipeline);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k.layout, 0, 1, &k.set, 0, nullptr);
  vkCmdDispatch(cb, max[0], max[1], max[2]);
  ASSERT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
  VkFence fence = MakeFence();
  Submit(cb, fence);
  ExpectLoss(device_, fence);
  EXPECT_GT(counts.as<uint32_t>()[0], 0u) << "the dispatch never ran";
}

class EndlessDrawChild : public GraphicsTest {
 protected:
  void TearDown() override { DeviceTest::TearDown(); }

  // A full-screen triangle drawn `vertices` x `instances` times, submitted.
  void Draw(uint32_t vertices, uint32_t instances, VkFence fence) {
    Target color = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, {16, 16});
    PipelineDesc desc;
    desc.vertex = Module(kFullscreenVert);
    desc.layout = MakePipelineLayout({}, 0);
    desc.extent = color.extent;
    VkPipeline pipeline = MakePipeline(desc);
    ASSERT_NE(pipeline, VK_NULL_HANDLE);
    VkCommandBuffer cb = BeginCommands();
    BeginRendering(cb, {{&color, VK_ATTACHMENT_LOAD_OP_CLEAR}});
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdDraw(cb, vertices, instances, 0, 0);
    vkCmdEndRendering(cb);
    ASSERT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
    Submit(cb, fence);
  }
};

TEST_F(EndlessDrawChild, LargestInstanceCount) {
  if (!IsChildFor(kInstancesChild)) GTEST_SKIP() << "runs in a child of EndlessCommands";
  VkFence fence = MakeFence();
  ASSERT_NO_FATAL_FAILURE(Draw(3, UINT32_MAX, fence));
  ExpectLoss(device_, fence);
}

// 2^29 vertices: replay needs gigabytes for their indices alone, and the
// address space has 256 MiB to spare.
TEST_F(EndlessDrawChild, ReplayOutOfMemory) {
  if (!IsChildFor(kOutOfMemoryChild)) GTEST_SKIP() << "runs in a child of EndlessCommands";
  VkFence fence = MakeFence();
  ASSERT_TRUE(LimitAddressSpace(256ull << 20));
  ASSERT_NO_FATAL_FAILURE(Draw(1u << 29, 1, fence));
  ExpectLoss(device_, fence);
}

TEST(EndlessCommands, LargestDispatchLosesTheDevice) { ExpectChildLosesTheDevice(kDispatchChild); }

TEST(EndlessCommands, LargestInstanceCountLosesTheDevice) { ExpectChildLosesTheDevice(kInstancesChild); }

TEST(EndlessCommands, ReplayOutOfMemoryLosesTheDevice) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "sanitizer runtimes reserve more address space than any RLIMIT_AS this test can set";
#else
  ExpectChildLosesTheDevice(kOutOfMemoryChild);
#endif
}

}  // namespace
}  // namespace duet_test
