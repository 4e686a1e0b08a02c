#pragma once

#include <vulkan/vulkan_core.h>

#include <atomic>
#include <memory>
#include <mutex>

#include "util/object.h"

namespace duet {

struct Instance;
namespace wsi {
struct Displays;
void DestroyDisplays(Displays* displays);
}  // namespace wsi

struct PhysicalDevice : DispatchableObject {
  DUET_OBJECT_TYPE(VkPhysicalDevice, VK_OBJECT_TYPE_PHYSICAL_DEVICE);

  explicit PhysicalDevice(Instance* owner) : DispatchableObject(kObjectType), instance(owner) {}

  Instance* instance;
  VkPhysicalDeviceMemoryProperties memory_properties{};
  // Bytes of device memory allocated by all devices of this physical device
  // (VK_EXT_memory_budget's heap usage).
  std::atomic<uint64_t> allocated_bytes{0};
  // VK_KHR_display: the displays found on the first query (wsi/display.cpp).
  std::once_flag displays_found;
  std::unique_ptr<wsi::Displays, void (*)(wsi::Displays*)> displays{nullptr, &wsi::DestroyDisplays};
};

// The one queue family: graphics, compute and transfer.
inline constexpr uint32_t kQueueFamilyCount = 1;
inline constexpr uint32_t kQueuesPerFamily = 4;

// One heap sized from system memory, one host-visible coherent cached type.
VkPhysicalDeviceMemoryProperties MakeMemoryProperties();

}  // namespace duet
