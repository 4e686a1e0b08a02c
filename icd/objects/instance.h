#pragma once

#include <vulkan/vulkan_core.h>

#include <mutex>
#include <vector>

#include "dispatch/extensions.h"
#include "util/object.h"

namespace duet {

struct PhysicalDevice;
struct DebugUtilsMessenger;

struct Instance : DispatchableObject {
  DUET_OBJECT_TYPE(VkInstance, VK_OBJECT_TYPE_INSTANCE);

  Instance() : DispatchableObject(kObjectType) {}

  uint32_t api_version = VK_API_VERSION_1_0;  // what the application asked for
  dispatch::ExtensionSet enabled_extensions;
  VkAllocationCallbacks allocator{};
  bool has_allocator = false;
  PhysicalDevice* physical_device = nullptr;

  std::mutex messengers_mutex;
  std::vector<DebugUtilsMessenger*> messengers;
  // Messengers chained into VkInstanceCreateInfo: the spec limits them to
  // vkCreateInstance and vkDestroyInstance, so they are live only then.
  std::vector<VkDebugUtilsMessengerCreateInfoEXT> create_info_messengers;

  const VkAllocationCallbacks* Allocator() const { return has_allocator ? &allocator : nullptr; }
  bool IsEnabled(dispatch::Extension e) const { return enabled_extensions[static_cast<size_t>(e)]; }
};

}  // namespace duet
