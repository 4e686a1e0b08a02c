// The three symbols the ICD exports (exports.map keeps everything else
// hidden): interface negotiation and the two proc-address entry points.
#include <vulkan/vk_icd.h>

#include <cstring>

#include "dispatch/entrypoints.h"
#include "entry/proc_addr.h"
#include "util/log.h"

namespace {

// Version 5 is the oldest loader interface whose rules the driver follows
// (it may report any apiVersion); newer loaders get up to what vk_icd.h knows.
constexpr uint32_t kOldestSupportedInterface = 5;

}  // namespace

extern "C" {

__attribute__((visibility("default"))) VKAPI_ATTR VkResult VKAPI_CALL
vk_icdNegotiateLoaderICDInterfaceVersion(uint32_t* pSupportedVersion) {
  if (*pSupportedVersion < kOldestSupportedInterface) {
    DUET_ERROR("loader interface version %u is too old (need %u)", *pSupportedVersion, kOldestSupportedInterface);
    return VK_ERROR_INCOMPATIBLE_DRIVER;
  }
  if (*pSupportedVersion > CURRENT_LOADER_ICD_INTERFACE_VERSION)
    *pSupportedVersion = CURRENT_LOADER_ICD_INTERFACE_VERSION;
  duet::NoteLoaderInterfaceVersion(*pSupportedVersion);
  return VK_SUCCESS;
}

__attribute__((visibility("default"))) VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
vk_icdGetPhysicalDeviceProcAddr(VkInstance instance, const char* pName) {
  return duet::GetPhysicalDeviceProcAddr(instance, pName);
}

__attribute__((visibility("default"))) VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
vk_icdGetInstanceProcAddr(VkInstance instance, const char* pName) {
  // Interface version 7: the other loader-interface functions are also
  // reachable by name, for loaders that do not look at exports.
  if (std::strcmp(pName, "vk_icdNegotiateLoaderICDInterfaceVersion") == 0)
    return reinterpret_cast<PFN_vkVoidFunction>(&vk_icdNegotiateLoaderICDInterfaceVersion);
  if (std::strcmp(pName, "vk_icdGetPhysicalDeviceProcAddr") == 0)
    return reinterpret_cast<PFN_vkVoidFunction>(&vk_icdGetPhysicalDeviceProcAddr);
  return duet::api::GetInstanceProcAddr(instance, pName);
}

}  // extern "C"
