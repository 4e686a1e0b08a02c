// Large but legal work through the loader: one command buffer submitted a
// thousand times without waiting in between (every run counted), and device
// memory at and past the advertised limits (maxMemoryAllocationSize, the
// heap), which must either work or answer with an out-of-memory code.
#include <cstring>

#include "compute_fixture.h"
#include "shaders/histogram.comp.h"

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

}  // namespace
}  // namespace duet_test
