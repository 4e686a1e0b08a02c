// Device memory: allocate, map, write, read back, flush/invalidate,
// commitment, impossible sizes, allocation count limit.
#include <cstring>
#include <vector>

#include "vk_fixture.h"

namespace duet_test {
namespace {

class Memory : public DeviceTest {
 protected:
  uint32_t HostVisibleType() const { return FindMemoryType(~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT); }
};

TEST_F(Memory, AllocateMapWriteReadBack) {
  const uint32_t type = HostVisibleType();
  ASSERT_NE(type, UINT32_MAX);
  constexpr VkDeviceSize kSize = 64 * 1024;
  VkDeviceMemory mem = MakeMemory(kSize, type);
  ASSERT_NE(mem, VK_NULL_HANDLE);

  void* p = nullptr;
  VK_ASSERT_OK(vkMapMemory(device_, mem, 0, VK_WHOLE_SIZE, 0, &p));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % props_.limits.minMemoryMapAlignment, 0u)
      << "mapping not aligned to minMemoryMapAlignment";
  auto* bytes = static_cast<uint8_t*>(p);
  for (VkDeviceSize i = 0; i < kSize; ++i) bytes[i] = uint8_t((i * 131u) ^ (i >> 8));

  VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
  range.memory = mem;
  range.offset = 0;
  range.size = VK_WHOLE_SIZE;
  VK_EXPECT_OK(vkFlushMappedMemoryRanges(device_, 1, &range));
  VK_EXPECT_OK(vkInvalidateMappedMemoryRanges(device_, 1, &range));
  vkUnmapMemory(device_, mem);

  // Map again: same contents.
  void* q = nullptr;
  VK_ASSERT_OK(vkMapMemory(device_, mem, 0, kSize, 0, &q));
  ASSERT_NE(q, nullptr);
  const auto* again = static_cast<const uint8_t*>(q);
  size_t mismatches = 0;
  for (VkDeviceSize i = 0; i < kSize; ++i)
    if (again[i] != uint8_t((i * 131u) ^ (i >> 8))) ++mismatches;
  EXPECT_EQ(mismatches, 0u) << "bytes changed between two mappings";
  vkUnmapMemory(device_, mem);

  // Map at an offset: the pointer addresses that byte of the allocation.
  const VkDeviceSize offset = 4096;
  void* r = nullptr;
  VK_ASSERT_OK(vkMapMemory(device_, mem, offset, 1024, 0, &r));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ((reinterpret_cast<uintptr_t>(r) - offset) % props_.limits.minMemoryMapAlignment, 0u)
      << "ppData - offset must be aligned to minMemoryMapAlignment";
  const auto* at = static_cast<const uint8_t*>(r);
  for (VkDeviceSize i = 0; i < 1024; ++i) {
    const VkDeviceSize j = offset + i;
    if (at[i] != uint8_t((j * 131u) ^ (j >> 8))) {
      ADD_FAILURE() << "mapping at offset " << offset << " does not point at that offset (byte " << i << ")";
      break;
    }
  }
  // Ranges with a non-zero offset and explicit size (multiples of
  // nonCoherentAtomSize) flush and invalidate too.
  VkMappedMemoryRange ranges[2] = {{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE}, {VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE}};
  ranges[0].memory = mem;
  ranges[0].offset = offset;
  ranges[0].size = props_.limits.nonCoherentAtomSize;
  ranges[1].memory = mem;
  ranges[1].offset = offset;
  ranges[1].size = VK_WHOLE_SIZE;
  VK_EXPECT_OK(vkFlushMappedMemoryRanges(device_, 2, ranges));
  VK_EXPECT_OK(vkInvalidateMappedMemoryRanges(device_, 2, ranges));
  vkUnmapMemory(device_, mem);
}

TEST_F(Memory, ManyMappingsAtOnce) {
  // Sixteen allocations mapped at the same time: each mapping is distinct
  // and keeps its own contents.
  const uint32_t type = HostVisibleType();
  ASSERT_NE(type, UINT32_MAX);
  std::vector<VkDeviceMemory> mems;
  std::vector<uint32_t*> ptrs;
  for (int i = 0; i < 16; ++i) {
    VkDeviceMemory m = MakeMemory(4096, type);
    ASSERT_NE(m, VK_NULL_HANDLE);
    void* p = nullptr;
    VK_ASSERT_OK(vkMapMemory(device_, m, 0, VK_WHOLE_SIZE, 0, &p));
    mems.push_back(m);
    ptrs.push_back(static_cast<uint32_t*>(p));
    ptrs.back()[0] = 0xC0DE0000u + uint32_t(i);
    ptrs.back()[1023] = 0xF00D0000u + uint32_t(i);
  }
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(ptrs[i][0], 0xC0DE0000u + uint32_t(i));
    EXPECT_EQ(ptrs[i][1023], 0xF00D0000u + uint32_t(i));
    vkUnmapMemory(device_, mems[i]);
  }
}

TEST_F(Memory, Commitment) {
  // Only meaningful for lazily-allocated memory, which this device does not
  // offer; calling it must not crash, and the commitment is never larger
  // than the allocation.
  const uint32_t type = HostVisibleType();
  ASSERT_NE(type, UINT32_MAX);
  VkDeviceMemory mem = MakeMemory(8192, type);
  ASSERT_NE(mem, VK_NULL_HANDLE);
  VkDeviceSize committed = ~VkDeviceSize(0);
  vkGetDeviceMemoryCommitment(device_, mem, &committed);
  EXPECT_LE(committed, VkDeviceSize(8192));
}

TEST_F(Memory, ImpossibleSizesFailCleanly) {
  const uint32_t type = 0;
  ASSERT_GE(mem_props_.memoryTypeCount, 1u);
  const VkDeviceSize heap = mem_props_.memoryHeaps[mem_props_.memoryTypes[type].heapIndex].size;
  // Strictly, sizes above the heap are outside valid usage
  // (VUID-vkAllocateMemory-pAllocateInfo-01713); the driver must still fail
  // them cleanly with VK_ERROR_OUT_OF_DEVICE_MEMORY rather than overflow,
  // crash or overcommit.
  for (VkDeviceSize size : {heap + 1, VkDeviceSize(UINT64_MAX / 2), VkDeviceSize(UINT64_MAX - 4095)}) {
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = size;
    ai.memoryTypeIndex = type;
    VkDeviceMemory mem = VK_NULL_HANDLE;
    VkResult r = vkAllocateMemory(device_, &ai, nullptr, &mem);
    EXPECT_EQ(r, VK_ERROR_OUT_OF_DEVICE_MEMORY) << "allocationSize " << size << " -> " << R{r};
    if (r == VK_SUCCESS) vkFreeMemory(device_, mem, nullptr);
  }
  // The device still works afterwards.
  VkDeviceMemory ok = MakeMemory(4096, type);
  EXPECT_NE(ok, VK_NULL_HANDLE);
}

TEST_F(Memory, FreeNullIsNoOp) {
  vkFreeMemory(device_, VK_NULL_HANDLE, nullptr);
  SUCCEED();
}

TEST_F(Memory, DedicatedAllocationForBuffer) {
  VkBuffer buffer = MakeBuffer(16384, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  ASSERT_NE(buffer, VK_NULL_HANDLE);
  VkMemoryRequirements req{};
  vkGetBufferMemoryRequirements(device_, buffer, &req);
  VkMemoryDedicatedAllocateInfo dedicated{VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO};
  dedicated.buffer = buffer;
  VkDeviceMemory mem = MakeMemory(req.size, FindMemoryType(req.memoryTypeBits), &dedicated);
  ASSERT_NE(mem, VK_NULL_HANDLE);
  VK_EXPECT_OK(vkBindBufferMemory(device_, buffer, mem, 0));
}

// Outside the leak check run (see tests/CMakeLists.txt): allocates up to
// maxMemoryAllocationCount objects.
TEST_F(Memory, HeavyMaxMemoryAllocationCountIsHonoured) {
  const uint32_t limit = props_.limits.maxMemoryAllocationCount;
  if (limit > (1u << 20)) GTEST_SKIP() << "limit " << limit << " too large to exhaust in a test";
  const uint32_t type = HostVisibleType();
  ASSERT_NE(type, UINT32_MAX);
  std::vector<VkDeviceMemory> mems;
  mems.reserve(limit);
  VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  ai.allocationSize = 64;
  ai.memoryTypeIndex = type;
  VkResult r = VK_SUCCESS;
  uint32_t failed_at = UINT32_MAX;
  for (uint32_t i = 0; i < limit; ++i) {
    VkDeviceMemory m = VK_NULL_HANDLE;
    r = vkAllocateMemory(device_, &ai, nullptr, &m);
    if (r != VK_SUCCESS) {
      failed_at = i;
      break;
    }
    mems.push_back(m);
  }
  EXPECT_EQ(failed_at, UINT32_MAX) << "allocation #" << failed_at << " of " << limit << " failed: " << R{r};
  if (failed_at == UINT32_MAX) {
    // One past the limit is refused (the limit is enforced, not just
    // advertised). Going past it is invalid usage, so the spec names no
    // error code: accept VK_ERROR_TOO_MANY_OBJECTS (what the spec once
    // named) or VK_ERROR_OUT_OF_DEVICE_MEMORY.
    VkDeviceMemory extra = VK_NULL_HANDLE;
    VkResult over = vkAllocateMemory(device_, &ai, nullptr, &extra);
    EXPECT_TRUE(over == VK_ERROR_TOO_MANY_OBJECTS || over == VK_ERROR_OUT_OF_DEVICE_MEMORY) << R{over};
    if (over == VK_SUCCESS) vkFreeMemory(device_, extra, nullptr);
    // Freeing one makes room for one more.
    vkFreeMemory(device_, mems.back(), nullptr);
    mems.pop_back();
    VkDeviceMemory again = VK_NULL_HANDLE;
    VK_EXPECT_OK(vkAllocateMemory(device_, &ai, nullptr, &again));
    if (again != VK_NULL_HANDLE) mems.push_back(again);
  }
  for (VkDeviceMemory m : mems) vkFreeMemory(device_, m, nullptr);
}

}  // namespace
}  // namespace duet_test

namespace duet_test {
namespace {

// VK_EXT_memory_budget: the heap's usage follows this process's
// allocations, the budget covers what is in use and stays within the heap,
// and the entries past the heap count are zero.
class MemoryBudget : public Memory {
 protected:
  MemoryBudget() { device_options_.extensions = {VK_EXT_MEMORY_BUDGET_EXTENSION_NAME}; }

  VkPhysicalDeviceMemoryBudgetPropertiesEXT Budget() {
    VkPhysicalDeviceMemoryBudgetPropertiesEXT budget{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT};
    std::memset(budget.heapBudget, 0xAB, sizeof budget.heapBudget);
    std::memset(budget.heapUsage, 0xAB, sizeof budget.heapUsage);
    VkPhysicalDeviceMemoryProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2, &budget};
    vkGetPhysicalDeviceMemoryProperties2(phys_, &properties);
    heap_count_ = properties.memoryProperties.memoryHeapCount;
    heap_size_ = properties.memoryProperties.memoryHeaps[0].size;
    return budget;
  }
  uint32_t heap_count_ = 0;
  VkDeviceSize heap_size_ = 0;
};

TEST_F(MemoryBudget, UsageFollowsAllocations) {
  const VkPhysicalDeviceMemoryBudgetPropertiesEXT before = Budget();
  ASSERT_EQ(heap_count_, 1u);
  for (uint32_t i = heap_count_; i < VK_MAX_MEMORY_HEAPS; ++i) {
    EXPECT_EQ(before.heapBudget[i], 0u) << "heap " << i;
    EXPECT_EQ(before.heapUsage[i], 0u) << "heap " << i;
  }
  EXPECT_LE(before.heapBudget[0], heap_size_);
  EXPECT_GE(before.heapBudget[0], before.heapUsage[0]);

  constexpr VkDeviceSize kSize = 8 << 20;
  VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, kSize, HostVisibleType()};
  VkDeviceMemory memory = VK_NULL_HANDLE;
  ASSERT_EQ(vkAllocateMemory(device_, &info, nullptr, &memory), VK_SUCCESS);
  const VkPhysicalDeviceMemoryBudgetPropertiesEXT during = Budget();
  EXPECT_EQ(during.heapUsage[0], before.heapUsage[0] + kSize);
  EXPECT_GE(during.heapBudget[0], during.heapUsage[0]);
  vkFreeMemory(device_, memory, nullptr);
  EXPECT_EQ(Budget().heapUsage[0], before.heapUsage[0]);
}

}  // namespace
}  // namespace duet_test
