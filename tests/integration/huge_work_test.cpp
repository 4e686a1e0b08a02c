// Large but legal work through the loader: one command buffer submitted a
// thousand times without waiting in between (every run counted), device
// memory at and past the advertised limits (maxMemoryAllocationSize, the
// heap), which must either work or answer with an out-of-memory code,
// dispatches of the advertised maximum workgroup count on each axis, and a
// process under a tight RLIMIT_AS, which gets error codes, not a crash.
#include <cstdio>
#include <cstring>
#include <string>

#include "child_test_process.h"
#include "compute_fixture.h"
#include "shaders/histogram.comp.h"
#include "shaders/workgroup_count.comp.h"

namespace duet_test {
namespace {

class HugeWorkTest : public ComputeFixture {};

TEST_F(HugeWorkTest, OneCommandBufferSubmittedAThousandTimes) {
  constexpr uint32_t kSubmits = 1000, kInvocations = 128;
  HostBuffer values = StorageBuffer(kInvocations * 4), bins = StorageBuffer(16 * 4);
  std::memset(values.data, 0, kInvocations * 4);  // every value in bin 0
  std::memset(bins.data, 0, 16 * 4);
  Kernel k = MakeKernel(kHistogramComp, std::vector<VkBuffer>{values.buffer, bins.buffer}, 0);
  VkCommandBuffer cb = BeginCommands(VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k.pipeline);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k.layout, 0, 1, &k.set, 0, nullptr);
  vkCmdDispatch(cb, 1, 1, 1);
  // Each run's atomics finish before the next run's start.
  const VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT,
                                VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier,
                       0, nullptr, 0, nullptr);
  ASSERT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
  const VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO, nullptr, 0, nullptr, nullptr, 1, &cb};
  for (uint32_t i = 0; i < kSubmits; ++i) ASSERT_EQ(vkQueueSubmit(queue_, 1, &submit, VK_NULL_HANDLE), VK_SUCCESS);
  ASSERT_EQ(vkQueueWaitIdle(queue_), VK_SUCCESS);
  EXPECT_EQ(bins.as<uint32_t>()[0], kSubmits * kInvocations);
}

TEST_F(HugeWorkTest, AllocationsAtAndPastTheLimits) {
  VkPhysicalDeviceMaintenance3Properties maintenance3{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
  VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &maintenance3};
  vkGetPhysicalDeviceProperties2(phys_, &properties);
  VkPhysicalDeviceMemoryProperties memory;
  vkGetPhysicalDeviceMemoryProperties(phys_, &memory);
  const VkDeviceSize heap = memory.memoryHeaps[memory.memoryTypes[0].heapIndex].size;
  auto allocate = [&](VkDeviceSize size, VkDeviceMemory* out) {
    const VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, size, 0};
    *out = VK_NULL_HANDLE;
    return vkAllocateMemory(device_, &info, nullptr, out);
  };
  auto out_of_memory = [](VkResult r) {
    return r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY;
  };
  // The largest allocation the device allows: made (then touched at both
  // ends) or refused for memory, never a crash.
  VkDeviceMemory largest;
  const VkResult made = allocate(maintenance3.maxMemoryAllocationSize, &largest);
  EXPECT_TRUE(made == VK_SUCCESS || out_of_memory(made)) << made;
  if (made == VK_SUCCESS) {
    void* mapped = nullptr;
    if ((memory.memoryTypes[0].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) != 0 &&
        vkMapMemory(device_, largest, 0, VK_WHOLE_SIZE, 0, &mapped) == VK_SUCCESS) {
      static_cast<uint8_t*>(mapped)[0] = 1;
      static_cast<uint8_t*>(mapped)[maintenance3.maxMemoryAllocationSize - 1] = 2;
      vkUnmapMemory(device_, largest);
    }
    vkFreeMemory(device_, largest, nullptr);
  }
  // Past the heap (invalid, and the validation layer says so): refused for memory.
  expected_validation_ids_.push_back("VUID-vkAllocateMemory-pAllocateInfo-01713");
  VkDeviceMemory too_big;
  EXPECT_TRUE(out_of_memory(allocate(heap + 1, &too_big)));
  EXPECT_TRUE(out_of_memory(allocate(VkDeviceSize{1} << 62, &too_big)));
  // And the device still works.
  VkDeviceMemory small;
  ASSERT_EQ(allocate(4096, &small), VK_SUCCESS);
  vkFreeMemory(device_, small, nullptr);
}

TEST_F(HugeWorkTest, DispatchesOfTheMaximumWorkgroupCount) {
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(phys_, &properties);
  const uint32_t* max = properties.limits.maxComputeWorkGroupCount;
  HostBuffer counts = StorageBuffer(16);
  Kernel k = MakeKernel(kWorkgroupCountComp, std::vector<VkBuffer>{counts.buffer}, 0);
  for (int axis = 0; axis < 3; ++axis) {
    SCOPED_TRACE(testing::Message() << "axis " << axis);
    std::memset(counts.data, 0, 16);
    uint32_t size[3] = {1, 1, 1};
    size[axis] = max[axis];
    ASSERT_NO_FATAL_FAILURE(Run(k, size[0], size[1], size[2]));
    const uint32_t* c = counts.as<uint32_t>();
    EXPECT_EQ(c[0], max[axis]);
    for (int other = 0; other < 3; ++other) EXPECT_EQ(c[1 + other], other == axis ? max[axis] - 1 : 0u);
  }
}

// The largest 2D image (RGBA8, 1 GiB at 16384x16384) and the largest 3D
// ("Heavy": not under valgrind, where clearing a GiB takes minutes)
// one: made, bound and cleared, or refused for memory, never a crash.
TEST_F(HugeWorkTest, HeavyMaximumSizeImages) {
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(phys_, &properties);
  const VkExtent3D extents[] = {{properties.limits.maxImageDimension2D, properties.limits.maxImageDimension2D, 1},
                                {properties.limits.maxImageDimension3D, properties.limits.maxImageDimension3D, 8}};
  for (const VkExtent3D& extent : extents) {
    SCOPED_TRACE(testing::Message() << extent.width << "x" << extent.height << "x" << extent.depth);
    VkImageCreateInfo info = ImageInfo(extent.depth > 1 ? VK_IMAGE_TYPE_3D : VK_IMAGE_TYPE_2D,
                                       VK_FORMAT_R8G8B8A8_UNORM, extent);
    info.usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    VkImage image = VK_NULL_HANDLE;
    VK_ASSERT_OK(vkCreateImage(device_, &info, nullptr, &image));
    ScopeExit destroy_image([&] { vkDestroyImage(device_, image, nullptr); });
    VkMemoryRequirements requirements;
    vkGetImageMemoryRequirements(device_, image, &requirements);
    EXPECT_GE(requirements.size, uint64_t{extent.width} * extent.height * extent.depth * 4);
    const VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, requirements.size, 0};
    VkDeviceMemory memory = VK_NULL_HANDLE;
    const VkResult r = vkAllocateMemory(device_, &allocate, nullptr, &memory);
    if (r != VK_SUCCESS) {
      EXPECT_TRUE(r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY) << R{r};
      continue;
    }
    ScopeExit free_memory([&] { vkFreeMemory(device_, memory, nullptr); });
    VK_ASSERT_OK(vkBindImageMemory(device_, image, memory, 0));
    // Cleared whole, then its last texel read back.
    HostBuffer texel = MakeHostBuffer(4);
    VkCommandBuffer cb = BeginCommands();
    ToGeneral(cb, image, VK_IMAGE_ASPECT_COLOR_BIT);
    const VkClearColorValue color{{0.0f, 1.0f, 0.0f, 1.0f}};
    const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(cb, image, VK_IMAGE_LAYOUT_GENERAL, &color, 1, &range);
    TransferBarrier(cb);
    VkBufferImageCopy copy{};
    copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    copy.imageOffset = {int32_t(extent.width - 1), int32_t(extent.height - 1), int32_t(extent.depth - 1)};
    copy.imageExtent = {1, 1, 1};
    vkCmdCopyImageToBuffer(cb, image, VK_IMAGE_LAYOUT_GENERAL, texel.buffer, 1, &copy);
    HostReadBarrier(cb);
    ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
    EXPECT_EQ(texel.as<uint32_t>()[0], 0xff00ff00u);
  }
}

// --- a tight address space ----------------------------------------------------

constexpr char kTightChild[] = "HugeWorkChild.TightAddressSpace";

class HugeWorkChild : public HugeWorkTest {};

// Under RLIMIT_AS = what the process uses now + 1 GiB: device memory past
// that, and a recording past it, answer with out-of-memory codes; the
// device keeps working afterwards.
TEST_F(HugeWorkChild, TightAddressSpace) {
  if (!IsChildFor(kTightChild)) GTEST_SKIP() << "runs in a child of HugeWorkLimits.TightAddressSpaceGivesErrorCodes";
  HostBuffer counts = StorageBuffer(16);
  std::memset(counts.data, 0, 16);
  Kernel k = MakeKernel(kWorkgroupCountComp, std::vector<VkBuffer>{counts.buffer}, 0);
  HostBuffer target = StorageBuffer(65536);
  std::vector<uint8_t> block(65536, 7);

  ASSERT_TRUE(LimitAddressSpace(1ull << 30));
  auto out_of_memory = [](VkResult r) {
    return r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY;
  };
  auto allocate = [&](VkDeviceSize size, VkDeviceMemory* out) {
    const VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, size, 0};
    *out = VK_NULL_HANDLE;
    return vkAllocateMemory(device_, &info, nullptr, out);
  };

  // One allocation past the limit, then 128 MiB ones until the space runs out.
  VkDeviceMemory memory = VK_NULL_HANDLE;
  const VkResult big = allocate(2ull << 30, &memory);
  EXPECT_TRUE(out_of_memory(big)) << R{big};
  if (big == VK_SUCCESS) vkFreeMemory(device_, memory, nullptr);
  std::vector<VkDeviceMemory> made;
  VkResult last = VK_SUCCESS;
  while (made.size() < 16 && (last = allocate(128ull << 20, &memory)) == VK_SUCCESS) made.push_back(memory);
  EXPECT_TRUE(out_of_memory(last)) << R{last} << " after " << made.size() << " allocations of 128 MiB";
  for (VkDeviceMemory m : made) vkFreeMemory(device_, m, nullptr);

  // 1.5 GiB of recorded update data: the tape runs out, vkEndCommandBuffer says so.
  VkCommandBuffer cb = BeginCommands();
  for (int i = 0; i < 24 * 1024; ++i) vkCmdUpdateBuffer(cb, target.buffer, 0, block.size(), block.data());
  EXPECT_EQ(vkEndCommandBuffer(cb), VK_ERROR_OUT_OF_HOST_MEMORY);
  VK_ASSERT_OK(vkResetCommandBuffer(cb, VK_COMMAND_BUFFER_RESET_RELEASE_RESOURCES_BIT));

  // The device still works.
  ASSERT_NO_FATAL_FAILURE(Run(k, 4));
  EXPECT_EQ(counts.as<uint32_t>()[0], 4u);
  std::printf("tight address space: error codes, then a working device\n");
}

TEST(HugeWorkLimits, TightAddressSpaceGivesErrorCodes) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "sanitizer runtimes reserve more address space than any RLIMIT_AS this test can set";
#else
  // Without the validation layer: its own bookkeeping is not built to run out of memory.
  const ChildResult child = RunTestInChild(kTightChild, {{"DUET_TEST_VALIDATION", "0"}}, std::chrono::seconds(120));
  EXPECT_FALSE(child.timed_out) << child.output;
  EXPECT_EQ(child.exit_code, 0) << child.output;
  EXPECT_NE(child.output.find("tight address space: error codes, then a working device"), std::string::npos)
      << child.output;
#endif
}

}  // namespace
}  // namespace duet_test
