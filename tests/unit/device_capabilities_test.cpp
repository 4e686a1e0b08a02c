// Features and properties: the generated struct mapping and the policy.
#include <gtest/gtest.h>

#include "objects/device_capabilities.h"

namespace duet {
namespace {

TEST(DeviceFeatures, PromotedStructsMirrorTheVulkan1xStructs) {
  VkPhysicalDeviceTimelineSemaphoreFeatures timeline{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES};
  ASSERT_TRUE(FillFeaturesStruct(SupportedFeatures(), reinterpret_cast<VkBaseOutStructure*>(&timeline)));
  EXPECT_EQ(timeline.timelineSemaphore, SupportedFeatures().vulkan12.timelineSemaphore);

  VkPhysicalDeviceDynamicRenderingFeatures dynamic{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES};
  ASSERT_TRUE(FillFeaturesStruct(SupportedFeatures(), reinterpret_cast<VkBaseOutStructure*>(&dynamic)));
  EXPECT_EQ(dynamic.dynamicRendering, SupportedFeatures().vulkan13.dynamicRendering);
}

TEST(DeviceFeatures, UnknownStructsAreLeftAlone) {
  VkPhysicalDeviceMeshShaderFeaturesEXT mesh{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT};
  mesh.meshShader = 7;
  EXPECT_FALSE(FillFeaturesStruct(SupportedFeatures(), reinterpret_cast<VkBaseOutStructure*>(&mesh)));
  EXPECT_EQ(mesh.meshShader, 7u);
}

TEST(DeviceFeatures, RequestsBeyondSupportAreNamed) {
  VkPhysicalDeviceFeatures core{};
  EXPECT_EQ(FindUnsupportedCoreFeature(SupportedFeatures().core, core), nullptr);
  core.robustBufferAccess = VK_TRUE;
  EXPECT_EQ(FindUnsupportedCoreFeature(SupportedFeatures().core, core), nullptr);
  core.sparseBinding = VK_TRUE;
  EXPECT_STREQ(FindUnsupportedCoreFeature(SupportedFeatures().core, core), "sparseBinding");

  VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  v11.protectedMemory = VK_TRUE;
  EXPECT_NE(FindUnsupportedFeature(SupportedFeatures(), reinterpret_cast<const VkBaseInStructure*>(&v11)), nullptr);

  VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  f2.features.sparseBinding = VK_TRUE;
  EXPECT_NE(FindUnsupportedFeature(SupportedFeatures(), reinterpret_cast<const VkBaseInStructure*>(&f2)), nullptr);
}

TEST(DeviceFeatures, ExtensionOnlyFeaturesHaveStorageOfTheirOwn) {
  // No Vulkan 1.x struct holds swapchainMaintenance1: it lives in
  // DeviceFeatures::extension, generated from vk.xml.
  VkPhysicalDeviceSwapchainMaintenance1FeaturesEXT sm1{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SWAPCHAIN_MAINTENANCE_1_FEATURES_EXT};
  ASSERT_TRUE(FillFeaturesStruct(SupportedFeatures(), reinterpret_cast<VkBaseOutStructure*>(&sm1)));
  EXPECT_EQ(sm1.swapchainMaintenance1, VK_TRUE);
  EXPECT_EQ(FindUnsupportedFeature(SupportedFeatures(), reinterpret_cast<const VkBaseInStructure*>(&sm1)), nullptr);

  DeviceFeatures none{};
  EXPECT_STREQ(FindUnsupportedFeature(none, reinterpret_cast<const VkBaseInStructure*>(&sm1)),
               "VkPhysicalDeviceSwapchainMaintenance1FeaturesEXT::swapchainMaintenance1");

  DeviceFeatures enabled{};
  EXPECT_TRUE(RecordEnabledFeatures(reinterpret_cast<const VkBaseInStructure*>(&sm1), &enabled));
  EXPECT_EQ(enabled.extension.swapchainMaintenance1, VK_TRUE);
}

TEST(DeviceFeatures, EnabledFeaturesAreRecordedFromEveryStruct) {
  DeviceFeatures enabled{};
  VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  f2.features.logicOp = VK_TRUE;
  VkPhysicalDeviceTimelineSemaphoreFeatures timeline{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES};
  timeline.timelineSemaphore = VK_TRUE;
  EXPECT_TRUE(RecordEnabledFeatures(reinterpret_cast<const VkBaseInStructure*>(&f2), &enabled));
  EXPECT_TRUE(RecordEnabledFeatures(reinterpret_cast<const VkBaseInStructure*>(&timeline), &enabled));
  EXPECT_EQ(enabled.core.logicOp, VK_TRUE);
  EXPECT_EQ(enabled.core.depthClamp, VK_FALSE);
  EXPECT_EQ(enabled.vulkan12.timelineSemaphore, VK_TRUE);
  EXPECT_EQ(enabled.vulkan12.hostQueryReset, VK_FALSE);
  VkDeviceQueueCreateInfo not_features{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  EXPECT_FALSE(RecordEnabledFeatures(reinterpret_cast<const VkBaseInStructure*>(&not_features), &enabled));
}

TEST(DeviceFeatures, EverythingVulkan13MandatesIsSupported) {
  const DeviceFeatures& f = SupportedFeatures();
  EXPECT_TRUE(f.core.robustBufferAccess);
  EXPECT_TRUE(f.vulkan11.multiview);
  EXPECT_TRUE(f.vulkan12.timelineSemaphore);
  EXPECT_TRUE(f.vulkan12.bufferDeviceAddress);
  EXPECT_TRUE(f.vulkan12.vulkanMemoryModel);
  EXPECT_TRUE(f.vulkan13.synchronization2);
  EXPECT_TRUE(f.vulkan13.dynamicRendering);
  EXPECT_TRUE(f.vulkan13.maintenance4);
}

TEST(DeviceProperties, RenamedSubgroupMembersMapToVulkan11) {
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  ASSERT_TRUE(FillPropertiesStruct(SupportedProperties(), reinterpret_cast<VkBaseOutStructure*>(&subgroup)));
  EXPECT_EQ(subgroup.subgroupSize, SupportedProperties().vulkan11.subgroupSize);
  EXPECT_EQ(subgroup.supportedStages, SupportedProperties().vulkan11.subgroupSupportedStages);
  EXPECT_EQ(subgroup.supportedOperations, SupportedProperties().vulkan11.subgroupSupportedOperations);
}

TEST(DeviceProperties, DriverPropertiesCopyStrings) {
  VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  ASSERT_TRUE(FillPropertiesStruct(SupportedProperties(), reinterpret_cast<VkBaseOutStructure*>(&driver)));
  EXPECT_STREQ(driver.driverName, "duet");
}

TEST(DeviceProperties, LimitsMeetTheSpecMinimums) {
  const VkPhysicalDeviceLimits& l = SupportedProperties().core.limits;
  EXPECT_GE(l.maxImageDimension2D, 4096u);
  EXPECT_GE(l.maxImageDimensionCube, 4096u);
  EXPECT_GE(l.maxImageArrayLayers, 256u);
  EXPECT_GE(l.maxUniformBufferRange, 16384u);
  EXPECT_GE(l.maxStorageBufferRange, 1u << 27);
  EXPECT_GE(l.maxPushConstantsSize, 128u);
  EXPECT_GE(l.maxMemoryAllocationCount, 4096u);
  EXPECT_GE(l.maxBoundDescriptorSets, 4u);
  EXPECT_GE(l.maxComputeSharedMemorySize, 16384u);
  EXPECT_GE(l.maxComputeWorkGroupInvocations, 128u);
  EXPECT_GE(l.maxColorAttachments, 4u);
  EXPECT_GE(l.subPixelPrecisionBits, 4u);
  EXPECT_LE(l.minUniformBufferOffsetAlignment, 256u);
  EXPECT_LE(l.nonCoherentAtomSize, 256u);
  EXPECT_GE(SupportedProperties().vulkan13.maxInlineUniformBlockSize, 256u);
  EXPECT_GE(SupportedProperties().vulkan11.maxMemoryAllocationSize, VkDeviceSize{1} << 30);
}

}  // namespace
}  // namespace duet
