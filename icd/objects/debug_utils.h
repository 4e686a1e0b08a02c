#pragma once

#include <vulkan/vulkan_core.h>

#include "util/log.h"
#include "util/object.h"

namespace duet {

struct Instance;

struct DebugUtilsMessenger : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkDebugUtilsMessengerEXT, VK_OBJECT_TYPE_DEBUG_UTILS_MESSENGER_EXT);

  DebugUtilsMessenger(Instance* owner, const VkDebugUtilsMessengerCreateInfoEXT& info)
      : NonDispatchableObject(kObjectType),
        instance(owner),
        severities(info.messageSeverity),
        types(info.messageType),
        callback(info.pfnUserCallback),
        user_data(info.pUserData) {}

  Instance* instance;
  VkDebugUtilsMessageSeverityFlagsEXT severities;
  VkDebugUtilsMessageTypeFlagsEXT types;
  PFN_vkDebugUtilsMessengerCallbackEXT callback;
  void* user_data;

  void Deliver(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT type,
               const VkDebugUtilsMessengerCallbackDataEXT& data) const;
};

// Creates a messenger, registers it with the instance and the logger.
VkResult CreateMessenger(Instance* instance, const VkDebugUtilsMessengerCreateInfoEXT& info,
                         const VkAllocationCallbacks* allocator, DebugUtilsMessenger** out);
void DestroyMessenger(DebugUtilsMessenger* messenger, const VkAllocationCallbacks* allocator);

}  // namespace duet
