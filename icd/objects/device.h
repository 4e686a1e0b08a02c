#pragma once

#include <vulkan/vulkan_core.h>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <memory_resource>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "backends/intel_rcs/transfers.h"
#include "cmdtape/queue_worker.h"
#include "dispatch/extensions.h"
#include "objects/device_capabilities.h"
#include "pipeline_cache/disk_cache.h"
#include "spirv_exec/shader_watchdog.h"
#include "util/host_alloc.h"
#include "util/object.h"

namespace duet {

struct Instance;
struct PhysicalDevice;
struct Queue;

struct Device : DispatchableObject {
  DUET_OBJECT_TYPE(VkDevice, VK_OBJECT_TYPE_DEVICE);

  explicit Device(const VkAllocationCallbacks* allocator)
      : DispatchableObject(kObjectType), memory(allocator, VK_SYSTEM_ALLOCATION_SCOPE_DEVICE) {}

  // The device's callbacks (its own, else the instance's): its children's
  // default and its arrays' memory.
  HostMemoryResource memory;
  Instance* instance = nullptr;
  PhysicalDevice* physical_device = nullptr;
  uint32_t api_version = VK_API_VERSION_1_0;  // the instance's, capped at the device's
  dispatch::ExtensionSet enabled_extensions;
  DeviceFeatures enabled_features{};
  std::pmr::vector<Queue*> queues{&memory};  // in creation order

  // One lock and condition for every fence, semaphore and event of the
  // device: host waits on "any of several" objects stay simple, and signals
  // are rare enough that sharing costs nothing measurable.
  std::mutex sync_mutex;
  std::condition_variable sync_cv;
  std::atomic<bool> lost{false};  // set by LoseDevice; waits then fail
  // Submissions queued on any queue and not finished; changes under
  // sync_mutex with sync_cv notified, so host waits for what only queued
  // work can do (query results) can tell when nothing will.
  std::atomic<uint64_t> queued_submissions{0};
  // A shader wave running longer than this loses the device (DUET_WATCHDOG_MS, read at creation).
  int64_t shader_watchdog_ns = spirv_exec::WatchdogLimitFromEnvironment();
  // Compiled stages kept across processes (DUET_CACHE, read at creation); null when off.
  std::unique_ptr<pipeline_cache::DiskCache> disk_cache = pipeline_cache::DiskCache::FromEnvironment();
  // Fills and copies on an Intel GPU (DUET_INTEL, read at creation); null when there is none.
  std::unique_ptr<intel_rcs::IntelTransfers> intel_transfers = intel_rcs::OpenIntelTransfers();

  // Counts the replayed commands that may have written image memory other
  // than as attachments of the render pass instance they are in: copies,
  // clears, blits, dispatches, draws whose shaders store... What the driver
  // knows an image holds (Image::known_clear) lasts while it is unchanged.
  std::atomic<uint64_t> image_writes{0};

  std::atomic<uint32_t> memory_allocation_count{0};
  std::atomic<uint64_t> memory_allocated_bytes{0};

  // Private data (Vulkan 1.3 core): (slot, object type, handle) -> value.
  struct PrivateDataKey {
    uint64_t slot;
    uint64_t object;
    VkObjectType type;
    bool operator==(const PrivateDataKey&) const = default;
  };
  struct PrivateDataKeyHash {
    size_t operator()(const PrivateDataKey& k) const {
      return std::hash<uint64_t>()(k.slot * 0x9E3779B97F4A7C15ull ^ k.object ^ (uint64_t{k.type} << 48));
    }
  };
  std::mutex private_data_mutex;
  std::pmr::unordered_map<PrivateDataKey, uint64_t, PrivateDataKeyHash> private_data{&memory};

  const VkAllocationCallbacks* Allocator() const { return memory.Callbacks(); }
  bool IsEnabled(dispatch::Extension e) const { return enabled_extensions[static_cast<size_t>(e)]; }
};

struct Queue : DispatchableObject {
  DUET_OBJECT_TYPE(VkQueue, VK_OBJECT_TYPE_QUEUE);

  Queue(Device* owner, uint32_t family, uint32_t index_in_family, VkDeviceQueueCreateFlags create_flags)
      : DispatchableObject(kObjectType), device(owner), family_index(family), index(index_in_family),
        flags(create_flags), worker(owner) {}

  Device* device;
  uint32_t family_index;
  uint32_t index;
  VkDeviceQueueCreateFlags flags;
  cmdtape::QueueWorker worker;
};

// Marks the device lost (once, logging `why`) and wakes every waiter, which
// then returns VK_ERROR_DEVICE_LOST: a runaway shader, or work the host
// could not finish (out of memory during replay).
void LoseDevice(Device* device, const char* why);

}  // namespace duet
