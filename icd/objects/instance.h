#pragma once

#include <vulkan/vulkan_core.h>

#include <memory_resource>
#include <mutex>
#include <vector>

#include "dispatch/extensions.h"
#include "util/host_alloc.h"
#include "util/object.h"

namespace duet {

struct PhysicalDevice;
struct DebugUtilsMessenger;

struct Instance : DispatchableObject {
  DUET_OBJECT_TYPE(VkInstance, VK_OBJECT_TYPE_INSTANCE);

  explicit Instance(const VkAllocationCallbacks* allocator)
      : DispatchableObject(kObjectType), memory(allocator, VK_SYSTEM_ALLOCATION_SCOPE_INSTANCE) {}

  // The instance's callbacks: its children's default and its arrays' memory.
  HostMemoryResource memory;
  uint32_t api_version = VK_API_VERSION_1_0;  // what the application asked for
  dispatch::ExtensionSet enabled_extensions;
  PhysicalDevice* physical_device = nullptr;

  std::mutex messengers_mutex;
  std::pmr::vector<DebugUtilsMessenger*> messengers{&memory};
  // Messengers chained into VkInstanceCreateInfo: the spec limits them to
  // vkCreateInstance and vkDestroyInstance, so they are live only then.
  std::pmr::vector<VkDebugUtilsMessengerCreateInfoEXT> create_info_messengers{&memory};

  const VkAllocationCallbacks* Allocator() const { return memory.Callbacks(); }
  bool IsEnabled(dispatch::Extension e) const { return enabled_extensions[static_cast<size_t>(e)]; }
};

}  // namespace duet
