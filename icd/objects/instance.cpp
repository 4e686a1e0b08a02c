// vkCreateInstance and the global commands the loader calls before any
// instance exists.
#include "objects/instance.h"

#include <cstring>

#include "dispatch/entrypoints.h"
#include "objects/debug_utils.h"
#include "objects/physical_device.h"
#include "util/host_alloc.h"
#include "util/log.h"
#include "util/vk_util.h"

namespace duet {
namespace {

// Makes the messengers chained into VkInstanceCreateInfo live for one scope.
class CreateInfoMessengers {
 public:
  explicit CreateInfoMessengers(Instance* instance) : instance_(instance) {
    for (const VkDebugUtilsMessengerCreateInfoEXT& info : instance->create_info_messengers) {
      DebugUtilsMessenger* messenger = nullptr;
      if (CreateMessenger(instance, info, instance->Allocator(), &messenger) == VK_SUCCESS)
        live_.push_back(messenger);
    }
  }
  ~CreateInfoMessengers() {
    for (DebugUtilsMessenger* messenger : live_) DestroyMessenger(messenger, instance_->Allocator());
  }
  CreateInfoMessengers(const CreateInfoMessengers&) = delete;
  CreateInfoMessengers& operator=(const CreateInfoMessengers&) = delete;

 private:
  Instance* instance_;
  std::vector<DebugUtilsMessenger*> live_;
};

}  // namespace
}  // namespace duet

namespace duet::api {

VKAPI_ATTR VkResult VKAPI_CALL EnumerateInstanceVersion(uint32_t* pApiVersion) {
  *pApiVersion = VK_HEADER_VERSION_COMPLETE;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL EnumerateInstanceLayerProperties(uint32_t* pPropertyCount, VkLayerProperties*) {
  *pPropertyCount = 0;  // a driver has no layers
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL EnumerateInstanceExtensionProperties(const char* pLayerName, uint32_t* pPropertyCount,
                                                                    VkExtensionProperties* pProperties) {
  if (pLayerName != nullptr) return VK_ERROR_LAYER_NOT_PRESENT;
  return EnumerateExtensions(dispatch::InstanceExtensions(), pPropertyCount, pProperties);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* pCreateInfo,
                                              const VkAllocationCallbacks* pAllocator, VkInstance* pInstance) {
  if (pCreateInfo->enabledLayerCount != 0) {
    DUET_ERROR("vkCreateInstance: layer %s requested from the driver", pCreateInfo->ppEnabledLayerNames[0]);
    return VK_ERROR_LAYER_NOT_PRESENT;
  }
  dispatch::ExtensionSet enabled;
  for (uint32_t i = 0; i < pCreateInfo->enabledExtensionCount; ++i) {
    const dispatch::ExtensionInfo* ext = dispatch::FindExtension(pCreateInfo->ppEnabledExtensionNames[i]);
    if (ext == nullptr || !ext->instance) {
      DUET_WARN("vkCreateInstance: extension %s is not supported", pCreateInfo->ppEnabledExtensionNames[i]);
      return VK_ERROR_EXTENSION_NOT_PRESENT;
    }
    enabled.set(static_cast<size_t>(ext->id));
  }

  Instance* instance = HostNew<Instance>(pAllocator, VK_SYSTEM_ALLOCATION_SCOPE_INSTANCE, pAllocator);
  if (instance == nullptr) return VK_ERROR_OUT_OF_HOST_MEMORY;
  const VkApplicationInfo* app = pCreateInfo->pApplicationInfo;
  if (app != nullptr && app->apiVersion != 0) instance->api_version = app->apiVersion;
  instance->enabled_extensions = enabled;

  instance->physical_device =
      HostNew<PhysicalDevice>(instance->Allocator(), VK_SYSTEM_ALLOCATION_SCOPE_INSTANCE, instance);
  if (instance->physical_device == nullptr) {
    HostDelete(pAllocator, instance);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  instance->physical_device->memory_properties = MakeMemoryProperties();

  try {
    for (const auto* info : ChainOf<VkDebugUtilsMessengerCreateInfoEXT>(
             pCreateInfo->pNext, VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT)) {
      instance->create_info_messengers.push_back(*info);
      instance->create_info_messengers.back().pNext = nullptr;
    }
  } catch (const std::bad_alloc&) {
    HostDelete(instance->Allocator(), instance->physical_device);
    HostDelete(pAllocator, instance);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }

  CreateInfoMessengers messengers(instance);
  DUET_INFO("instance created (api %u.%u)", VK_API_VERSION_MAJOR(instance->api_version),
            VK_API_VERSION_MINOR(instance->api_version));
  *pInstance = ToHandle(instance);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyInstance(VkInstance _instance, const VkAllocationCallbacks* pAllocator) {
  Instance* instance = FromHandle<Instance>(_instance);
  if (instance == nullptr) return;
  const VkAllocationCallbacks* allocator = ChooseAllocator(pAllocator, instance->Allocator());
  {
    CreateInfoMessengers messengers(instance);
    DUET_INFO("destroying instance");
  }
  HostDelete(allocator, instance->physical_device);
  HostDelete(allocator, instance);
}

VKAPI_ATTR VkResult VKAPI_CALL EnumeratePhysicalDevices(VkInstance _instance, uint32_t* pPhysicalDeviceCount,
                                                        VkPhysicalDevice* pPhysicalDevices) {
  Instance* instance = FromHandle<Instance>(_instance);
  VkPhysicalDevice devices[] = {ToHandle(instance->physical_device)};
  return FillArray(devices, pPhysicalDeviceCount, pPhysicalDevices);
}

VKAPI_ATTR VkResult VKAPI_CALL EnumeratePhysicalDeviceGroups(
    VkInstance _instance, uint32_t* pPhysicalDeviceGroupCount,
    VkPhysicalDeviceGroupProperties* pPhysicalDeviceGroupProperties) {
  Instance* instance = FromHandle<Instance>(_instance);
  if (pPhysicalDeviceGroupProperties == nullptr) {
    *pPhysicalDeviceGroupCount = 1;
    return VK_SUCCESS;
  }
  if (*pPhysicalDeviceGroupCount == 0) return VK_INCOMPLETE;
  VkPhysicalDeviceGroupProperties& group = pPhysicalDeviceGroupProperties[0];
  group.physicalDeviceCount = 1;
  group.physicalDevices[0] = ToHandle(instance->physical_device);
  group.subsetAllocation = VK_FALSE;
  *pPhysicalDeviceGroupCount = 1;
  return VK_SUCCESS;
}

}  // namespace duet::api
