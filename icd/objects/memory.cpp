// vkAllocateMemory and mapping. Large allocations are anonymous mappings,
// so untouched pages cost nothing and come back zeroed.
#include "objects/memory.h"

#include <sys/mman.h>

#include <atomic>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <shared_mutex>

#include "dispatch/entrypoints.h"
#include "objects/device.h"
#include "objects/device_limits.h"
#include "objects/physical_device.h"
#include "util/host_alloc.h"
#include "util/log.h"

namespace duet {
namespace {

// Every allocation is at least this aligned, more than any alignment the
// driver reports in memory requirements.
constexpr size_t kMemoryAlignment = 4096;

std::byte* MapHostMemory(VkDeviceSize size, size_t* length) {
  *length = static_cast<size_t>((size + kMemoryAlignment - 1) / kMemoryAlignment * kMemoryAlignment);
  void* p = mmap(nullptr, *length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? nullptr : static_cast<std::byte*>(p);
}

// Every live allocation's bytes, for DeviceMemoryLookup: begin -> end.
// `generation` changes whenever an allocation goes away, which is what
// tells a thread that the allocation it remembers may be gone.
struct AllocationRegistry {
  std::shared_mutex mutex;
  std::map<uint64_t, uint64_t> ranges;
  std::atomic<uint64_t> generation{1};
};

AllocationRegistry& Registry() {
  static AllocationRegistry registry;
  return registry;
}

void RegisterAllocation(const DeviceMemory& memory) {
  AllocationRegistry& r = Registry();
  const auto begin = reinterpret_cast<uint64_t>(memory.data);
  std::unique_lock lock(r.mutex);
  r.ranges[begin] = begin + memory.size;
}

void UnregisterAllocation(const DeviceMemory& memory) {
  AllocationRegistry& r = Registry();
  std::unique_lock lock(r.mutex);
  r.ranges.erase(reinterpret_cast<uint64_t>(memory.data));
  r.generation.fetch_add(1, std::memory_order_release);
}

// The allocation a thread found last, valid while the generation holds.
struct FoundAllocation {
  uint64_t begin = 0, end = 0, generation = 0;
};

}  // namespace

std::byte* DeviceMemoryLookup::Find(uint64_t address, uint64_t size) {
  if (address + size < address) return nullptr;
  thread_local FoundAllocation last;
  AllocationRegistry& r = Registry();
  const uint64_t generation = r.generation.load(std::memory_order_acquire);
  if (last.generation != generation || address < last.begin || address + size > last.end) {
    std::shared_lock lock(r.mutex);
    auto it = r.ranges.upper_bound(address);
    if (it == r.ranges.begin()) return nullptr;
    --it;
    if (address + size > it->second) return nullptr;
    last = {it->first, it->second, generation};
  }
  begin_ = last.begin;
  end_ = last.end;
  return reinterpret_cast<std::byte*>(static_cast<uintptr_t>(address));
}

}  // namespace duet

namespace duet::api {

VKAPI_ATTR VkResult VKAPI_CALL AllocateMemory(VkDevice _device, const VkMemoryAllocateInfo* pAllocateInfo,
                                              const VkAllocationCallbacks* pAllocator, VkDeviceMemory* pMemory) {
  Device* device = FromHandle<Device>(_device);
  const VkPhysicalDeviceMemoryProperties& props = device->physical_device->memory_properties;
  if (pAllocateInfo->memoryTypeIndex >= props.memoryTypeCount) return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  const VkDeviceSize heap_size = props.memoryHeaps[props.memoryTypes[pAllocateInfo->memoryTypeIndex].heapIndex].size;
  const VkDeviceSize size = pAllocateInfo->allocationSize;
  if (size == 0 || size > heap_size || size > limits::kMaxResourceSize * 16) {
    DUET_INFO("vkAllocateMemory: %llu bytes do not fit the heap", static_cast<unsigned long long>(size));
    return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  }
  if (device->memory_allocation_count.fetch_add(1) >= limits::kMaxMemoryAllocationCount) {
    device->memory_allocation_count.fetch_sub(1);
    return VK_ERROR_TOO_MANY_OBJECTS;
  }

  DeviceMemory* memory = HostNew<DeviceMemory>(ChooseAllocator(pAllocator, device->Allocator()),
                                               VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (memory == nullptr) {
    device->memory_allocation_count.fetch_sub(1);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  memory->size = size;
  memory->type_index = pAllocateInfo->memoryTypeIndex;
  memory->data = MapHostMemory(size, &memory->mapped_length);
  if (memory->data == nullptr) {
    HostDelete(ChooseAllocator(pAllocator, device->Allocator()), memory);
    device->memory_allocation_count.fetch_sub(1);
    return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  }
  try {
    RegisterAllocation(*memory);
  } catch (const std::bad_alloc&) {
    munmap(memory->data, memory->mapped_length);
    HostDelete(ChooseAllocator(pAllocator, device->Allocator()), memory);
    device->memory_allocation_count.fetch_sub(1);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  device->memory_allocated_bytes += size;
  device->physical_device->allocated_bytes += size;
  *pMemory = ToHandle(memory);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL FreeMemory(VkDevice _device, VkDeviceMemory _memory, const VkAllocationCallbacks* pAllocator) {
  Device* device = FromHandle<Device>(_device);
  DeviceMemory* memory = FromHandle<DeviceMemory>(_memory);
  if (memory == nullptr) return;
  UnregisterAllocation(*memory);
  munmap(memory->data, memory->mapped_length);
  device->memory_allocated_bytes -= memory->size;
  device->physical_device->allocated_bytes -= memory->size;
  device->memory_allocation_count.fetch_sub(1);
  HostDelete(ChooseAllocator(pAllocator, device->Allocator()), memory);
}

VKAPI_ATTR VkResult VKAPI_CALL MapMemory(VkDevice, VkDeviceMemory _memory, VkDeviceSize offset, VkDeviceSize,
                                         VkMemoryMapFlags, void** ppData) {
  DeviceMemory* memory = FromHandle<DeviceMemory>(_memory);
  if (memory->mapped || offset >= memory->size) {
    *ppData = nullptr;
    return VK_ERROR_MEMORY_MAP_FAILED;
  }
  memory->mapped = true;
  memory->ever_mapped = true;
  *ppData = memory->data + offset;
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL UnmapMemory(VkDevice, VkDeviceMemory _memory) {
  FromHandle<DeviceMemory>(_memory)->mapped = false;
}

// The one memory type is coherent: flush and invalidate have nothing to do.
VKAPI_ATTR VkResult VKAPI_CALL FlushMappedMemoryRanges(VkDevice, uint32_t, const VkMappedMemoryRange*) {
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL InvalidateMappedMemoryRanges(VkDevice, uint32_t, const VkMappedMemoryRange*) {
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL GetDeviceMemoryCommitment(VkDevice, VkDeviceMemory _memory,
                                                     VkDeviceSize* pCommittedMemoryInBytes) {
  *pCommittedMemoryInBytes = FromHandle<DeviceMemory>(_memory)->size;
}

VKAPI_ATTR uint64_t VKAPI_CALL GetDeviceMemoryOpaqueCaptureAddress(VkDevice,
                                                                   const VkDeviceMemoryOpaqueCaptureAddressInfo*) {
  return 0;  // bufferDeviceAddressCaptureReplay is not supported
}

}  // namespace duet::api
