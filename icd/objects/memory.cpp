// vkAllocateMemory and mapping. Large allocations are anonymous mappings,
// so untouched pages cost nothing and come back zeroed. Exportable and
// imported memory (opaque fds) is a shared mapping of a memfd; imported
// host memory (VK_EXT_external_memory_host) is the application's own pages.
#include "objects/memory.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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

// Whole pages: the length of every mapping and memfd.
size_t PageRounded(VkDeviceSize size) {
  return static_cast<size_t>((size + kMemoryAlignment - 1) / kMemoryAlignment * kMemoryAlignment);
}

std::byte* MapHostMemory(VkDeviceSize size, size_t* length) {
  *length = PageRounded(size);
  void* p = mmap(nullptr, *length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? nullptr : static_cast<std::byte*>(p);
}

// Host pointers imported as memory (VK_EXT_external_memory_host).
bool IsHostPointerHandle(VkExternalMemoryHandleTypeFlagBits type) {
  return type == VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT ||
         type == VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_MAPPED_FOREIGN_MEMORY_BIT_EXT;
}

// A shared mapping of memfd `fd` (exported or imported opaque fd memory).
std::byte* MapSharedMemory(int fd, VkDeviceSize size, size_t* length) {
  *length = PageRounded(size);
  void* p = mmap(nullptr, *length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  return p == MAP_FAILED ? nullptr : static_cast<std::byte*>(p);
}

// Where an allocation's bytes come from, from its pNext chain.
struct MemorySource {
  bool exportable = false;      // VkExportMemoryAllocateInfo with opaque fds
  int import_fd = -1;           // VkImportMemoryFdInfoKHR
  void* host_pointer = nullptr;  // VkImportMemoryHostPointerInfoEXT
};

VkResult ReadMemorySource(const VkMemoryAllocateInfo& info, MemorySource* source) {
  for (auto* s = static_cast<const VkBaseInStructure*>(info.pNext); s != nullptr; s = s->pNext) {
    switch (s->sType) {
      case VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO: {
        const auto* e = reinterpret_cast<const VkExportMemoryAllocateInfo*>(s);
        if ((e->handleTypes & ~VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT) != 0) return VK_ERROR_INVALID_EXTERNAL_HANDLE;
        source->exportable = e->handleTypes != 0;
        break;
      }
      case VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR: {
        const auto* i = reinterpret_cast<const VkImportMemoryFdInfoKHR*>(s);
        if (i->handleType == 0) break;
        if (i->handleType != VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT || i->fd < 0)
          return VK_ERROR_INVALID_EXTERNAL_HANDLE;
        source->import_fd = i->fd;
        break;
      }
      case VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT: {
        const auto* h = reinterpret_cast<const VkImportMemoryHostPointerInfoEXT*>(s);
        if (h->handleType == 0) break;
        if (!IsHostPointerHandle(h->handleType) || h->pHostPointer == nullptr || reinterpret_cast<uintptr_t>(h->pHostPointer) % kMemoryAlignment != 0 ||
            info.allocationSize % kMemoryAlignment != 0)
          return VK_ERROR_INVALID_EXTERNAL_HANDLE;
        source->host_pointer = h->pHostPointer;
        break;
      }
      default: break;
    }
  }
  return VK_SUCCESS;
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

namespace {

// The bytes behind `memory` as `source` says: a memfd shared mapping
// (exportable, or an imported fd whose ownership the driver takes), the
// application's pages, or an anonymous mapping.
VkResult BackMemory(const MemorySource& source, DeviceMemory* memory) {
  const VkDeviceSize size = memory->size;
  if (source.host_pointer != nullptr) {
    memory->data = static_cast<std::byte*>(source.host_pointer);
    memory->mapped_length = 0;
    return VK_SUCCESS;
  }
  int fd = source.import_fd;
  if (fd >= 0) {
    struct stat st {};
    if (fstat(fd, &st) != 0 || VkDeviceSize(st.st_size) < size) return VK_ERROR_INVALID_EXTERNAL_HANDLE;
  } else if (source.exportable) {
    fd = memfd_create("duet-device-memory", MFD_CLOEXEC);
    if (fd < 0) return VK_ERROR_OUT_OF_DEVICE_MEMORY;
    if (ftruncate(fd, off_t(PageRounded(size))) != 0) {
      close(fd);
      return VK_ERROR_OUT_OF_DEVICE_MEMORY;
    }
  }
  memory->data = fd >= 0 ? MapSharedMemory(fd, size, &memory->mapped_length) : MapHostMemory(size, &memory->mapped_length);
  if (memory->data == nullptr) {
    if (fd >= 0 && fd != source.import_fd) close(fd);  // a failed import leaves the fd the application's
    return fd == source.import_fd && fd >= 0 ? VK_ERROR_INVALID_EXTERNAL_HANDLE : VK_ERROR_OUT_OF_DEVICE_MEMORY;
  }
  memory->fd = fd;
  return VK_SUCCESS;
}

void ReleaseMemory(DeviceMemory& memory) {
  if (memory.mapped_length != 0) munmap(memory.data, memory.mapped_length);
  if (memory.fd >= 0) close(memory.fd);
  memory.fd = -1;
}

}  // namespace

VkExternalMemoryProperties ExternalMemoryPropertiesOf(VkExternalMemoryHandleTypeFlagBits type) {
  switch (type) {
    case VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT:
      return {VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT,
              VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT, VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
    case VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT:
    case VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_MAPPED_FOREIGN_MEMORY_BIT_EXT:
      return {VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT, 0, VkExternalMemoryHandleTypeFlags(type)};
    default:
      return {};
  }
}

}  // namespace duet

namespace duet::api {

// Opaque fds of exportable memory: a new descriptor of its memfd each time.
VKAPI_ATTR VkResult VKAPI_CALL GetMemoryFdKHR(VkDevice, const VkMemoryGetFdInfoKHR* pGetFdInfo, int* pFd) {
  const DeviceMemory* memory = FromHandle<DeviceMemory>(pGetFdInfo->memory);
  if (pGetFdInfo->handleType != VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT || memory == nullptr || memory->fd < 0)
    return VK_ERROR_INVALID_EXTERNAL_HANDLE;
  const int fd = fcntl(memory->fd, F_DUPFD_CLOEXEC, 0);
  if (fd < 0) return VK_ERROR_TOO_MANY_OBJECTS;
  *pFd = fd;
  return VK_SUCCESS;
}

// Only for handle types other than opaque fds (the spec's rule), of which there are none here.
VKAPI_ATTR VkResult VKAPI_CALL GetMemoryFdPropertiesKHR(VkDevice, VkExternalMemoryHandleTypeFlagBits, int,
                                                        VkMemoryFdPropertiesKHR*) {
  return VK_ERROR_INVALID_EXTERNAL_HANDLE;
}

// Any host pointer can back any memory type: all memory is host memory.
VKAPI_ATTR VkResult VKAPI_CALL GetMemoryHostPointerPropertiesEXT(VkDevice _device,
                                                                 VkExternalMemoryHandleTypeFlagBits handleType,
                                                                 const void* pHostPointer,
                                                                 VkMemoryHostPointerPropertiesEXT* pProperties) {
  if (!IsHostPointerHandle(handleType) || reinterpret_cast<uintptr_t>(pHostPointer) % kMemoryAlignment != 0)
    return VK_ERROR_INVALID_EXTERNAL_HANDLE;
  const Device* device = FromHandle<Device>(_device);
  pProperties->memoryTypeBits = (1u << device->physical_device->memory_properties.memoryTypeCount) - 1;
  return VK_SUCCESS;
}


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
  MemorySource source;
  VkResult result = ReadMemorySource(*pAllocateInfo, &source);
  if (result == VK_SUCCESS) result = BackMemory(source, memory);
  if (result != VK_SUCCESS) {
    HostDelete(ChooseAllocator(pAllocator, device->Allocator()), memory);
    device->memory_allocation_count.fetch_sub(1);
    return result;
  }
  try {
    RegisterAllocation(*memory);
  } catch (const std::bad_alloc&) {
    ReleaseMemory(*memory);
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
  if (device->intel_transfers != nullptr) device->intel_transfers->Forget(memory->data);
  UnregisterAllocation(*memory);
  ReleaseMemory(*memory);
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
