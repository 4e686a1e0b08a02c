// What the one physical device supports: features and properties kept as
// the Vulkan 1.0-1.3 structs, plus the features and properties of
// extensions that no 1.x struct holds (ExtensionFeatures,
// ExtensionProperties, generated from vk.xml). Every other
// feature/property struct an application chains is filled from these by
// generated code that maps members by name (dispatch/gen_entrypoints.py),
// so there is one truth.
#pragma once

#include <vulkan/vulkan_core.h>

#include "dispatch/extension_features.h"

namespace duet {

struct DeviceFeatures {
  VkPhysicalDeviceFeatures core;
  VkPhysicalDeviceVulkan11Features vulkan11;
  VkPhysicalDeviceVulkan12Features vulkan12;
  VkPhysicalDeviceVulkan13Features vulkan13;
  ExtensionFeatures extension;
};

struct DeviceProperties {
  VkPhysicalDeviceProperties core;
  VkPhysicalDeviceVulkan11Properties vulkan11;
  VkPhysicalDeviceVulkan12Properties vulkan12;
  VkPhysicalDeviceVulkan13Properties vulkan13;
  ExtensionProperties extension;
};

const DeviceFeatures& SupportedFeatures();
const DeviceProperties& SupportedProperties();

// Generated (feature_structs.cpp). Fill*Struct returns false for an sType it
// does not know, which the caller leaves untouched as the spec asks.
bool FillFeaturesStruct(const DeviceFeatures& features, VkBaseOutStructure* out);
bool FillPropertiesStruct(const DeviceProperties& properties, VkBaseOutStructure* out);
// The name of the first feature requested but not supported, else nullptr.
const char* FindUnsupportedCoreFeature(const VkPhysicalDeviceFeatures& supported,
                                       const VkPhysicalDeviceFeatures& requested);
const char* FindUnsupportedFeature(const DeviceFeatures& supported, const VkBaseInStructure* requested);
// Sets in `enabled` every feature `requested` (a VkDeviceCreateInfo chain
// member) turns on; false for an sType that enables no features.
bool RecordEnabledFeatures(const VkBaseInStructure* requested, DeviceFeatures* enabled);

}  // namespace duet
