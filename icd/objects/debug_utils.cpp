// VK_EXT_debug_utils: messengers receive the driver's own log messages.
#include "objects/debug_utils.h"

#include <algorithm>

#include "dispatch/entrypoints.h"
#include "objects/instance.h"
#include "util/host_alloc.h"

namespace duet {
namespace {

VkDebugUtilsMessageSeverityFlagBitsEXT SeverityOf(LogLevel level) {
  switch (level) {
    case LogLevel::kError: return VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    case LogLevel::kWarn: return VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
    case LogLevel::kInfo: return VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT;
    case LogLevel::kDebug: return VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT;
  }
  return VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
}

void DeliverLogMessage(void* context, LogLevel level, const char* message) {
  VkDebugUtilsMessengerCallbackDataEXT data{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT};
  data.pMessageIdName = "duet";
  data.pMessage = message;
  static_cast<DebugUtilsMessenger*>(context)->Deliver(SeverityOf(level), VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT,
                                                      data);
}

}  // namespace

void DebugUtilsMessenger::Deliver(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                  VkDebugUtilsMessageTypeFlagsEXT type,
                                  const VkDebugUtilsMessengerCallbackDataEXT& data) const {
  if ((severities & severity) == 0 || (types & type) == 0 || callback == nullptr) return;
  callback(severity, type, &data, user_data);
}

VkResult CreateMessenger(Instance* instance, const VkDebugUtilsMessengerCreateInfoEXT& info,
                         const VkAllocationCallbacks* allocator, DebugUtilsMessenger** out) {
  auto* messenger = HostNew<DebugUtilsMessenger>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, instance, info);
  if (messenger == nullptr) return VK_ERROR_OUT_OF_HOST_MEMORY;
  try {
    std::lock_guard lock(instance->messengers_mutex);
    instance->messengers.push_back(messenger);
  } catch (const std::bad_alloc&) {
    HostDelete(allocator, messenger);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  try {
    AddLogSink(messenger, DeliverLogMessage);
  } catch (const std::bad_alloc&) {
    DestroyMessenger(messenger, allocator);  // (RemoveLogSink of a sink never added does nothing)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  *out = messenger;
  return VK_SUCCESS;
}

void DestroyMessenger(DebugUtilsMessenger* messenger, const VkAllocationCallbacks* allocator) {
  if (messenger == nullptr) return;
  RemoveLogSink(messenger);
  Instance* instance = messenger->instance;
  {
    std::lock_guard lock(instance->messengers_mutex);
    std::erase(instance->messengers, messenger);
  }
  HostDelete(allocator, messenger);
}

}  // namespace duet

namespace duet::api {

VKAPI_ATTR VkResult VKAPI_CALL CreateDebugUtilsMessengerEXT(VkInstance _instance,
                                                            const VkDebugUtilsMessengerCreateInfoEXT* pCreateInfo,
                                                            const VkAllocationCallbacks* pAllocator,
                                                            VkDebugUtilsMessengerEXT* pMessenger) {
  Instance* instance = FromHandle<Instance>(_instance);
  DebugUtilsMessenger* messenger = nullptr;
  VkResult result =
      CreateMessenger(instance, *pCreateInfo, ChooseAllocator(pAllocator, instance->Allocator()), &messenger);
  if (result == VK_SUCCESS) *pMessenger = ToHandle(messenger);
  return result;
}

VKAPI_ATTR void VKAPI_CALL DestroyDebugUtilsMessengerEXT(VkInstance _instance, VkDebugUtilsMessengerEXT _messenger,
                                                         const VkAllocationCallbacks* pAllocator) {
  Instance* instance = FromHandle<Instance>(_instance);
  DestroyMessenger(FromHandle<DebugUtilsMessenger>(_messenger), ChooseAllocator(pAllocator, instance->Allocator()));
}

VKAPI_ATTR void VKAPI_CALL SubmitDebugUtilsMessageEXT(VkInstance _instance,
                                                      VkDebugUtilsMessageSeverityFlagBitsEXT messageSeverity,
                                                      VkDebugUtilsMessageTypeFlagsEXT messageTypes,
                                                      const VkDebugUtilsMessengerCallbackDataEXT* pCallbackData) {
  Instance* instance = FromHandle<Instance>(_instance);
  std::lock_guard lock(instance->messengers_mutex);
  for (const DebugUtilsMessenger* messenger : instance->messengers)
    messenger->Deliver(messageSeverity, messageTypes, *pCallbackData);
}

// Object names and tags are accepted; the driver's logs do not use them yet.
VKAPI_ATTR VkResult VKAPI_CALL SetDebugUtilsObjectNameEXT(VkDevice, const VkDebugUtilsObjectNameInfoEXT*) {
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL SetDebugUtilsObjectTagEXT(VkDevice, const VkDebugUtilsObjectTagInfoEXT*) {
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL QueueBeginDebugUtilsLabelEXT(VkQueue, const VkDebugUtilsLabelEXT*) {}
VKAPI_ATTR void VKAPI_CALL QueueEndDebugUtilsLabelEXT(VkQueue) {}
VKAPI_ATTR void VKAPI_CALL QueueInsertDebugUtilsLabelEXT(VkQueue, const VkDebugUtilsLabelEXT*) {}

}  // namespace duet::api
