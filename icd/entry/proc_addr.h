#pragma once

#include <vulkan/vulkan_core.h>

namespace duet {

// Physical-device-level commands by name (vk_icdGetPhysicalDeviceProcAddr).
PFN_vkVoidFunction GetPhysicalDeviceProcAddr(VkInstance instance, const char* name);

void NoteLoaderInterfaceVersion(uint32_t version);
uint32_t LoaderInterfaceVersion();

}  // namespace duet
