// Physical-device queries: enumeration, properties and features (1.0 and
// the *2 chains), queue families, memory properties, format and image
// format properties, tool properties.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "core_commands.h"
#include "vk_fixture.h"

namespace duet_test {
namespace {

// True when the suite runs against this project's driver (not a reference
// driver named by DUET_TEST_ICD_FILENAMES); Duet-specific expectations such
// as the device name only apply then.
bool TestingDuet() {
  const char* o = std::getenv("DUET_TEST_ICD_FILENAMES");
  return o == nullptr || o[0] == '\0';
}

constexpr VkBool32 kSentinel = 0x5A5A5A5A;

// Pre-fills every member (and any tail padding) with garbage.
template <typename T>
void FillSentinel(T& s) {
  char* first = reinterpret_cast<char*>(&s) + offsetof(T, pNext) + sizeof(void*);
  const size_t n = (sizeof(T) - (offsetof(T, pNext) + sizeof(void*))) / sizeof(VkBool32);
  for (size_t i = 0; i < n; ++i) reinterpret_cast<VkBool32*>(first)[i] = kSentinel;
}

// Every member up to `last` written with VK_TRUE or VK_FALSE.
template <typename T>
void ExpectAllBoolsWritten(T& s, VkBool32 T::*last, const char* what) {
  std::span<VkBool32> b = FeatureBools(s, last);
  for (size_t i = 0; i < b.size(); ++i) {
    EXPECT_TRUE(b[i] == VK_TRUE || b[i] == VK_FALSE)
        << what << " member #" << i << " = 0x" << std::hex << b[i] << " (not written by the driver?)";
  }
}

bool IsPowerOfTwo(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

class PhysicalDevice : public InstanceTest {};

// --- enumeration --------------------------------------------------------------

TEST_F(PhysicalDevice, ExactlyOneDevice) {
  uint32_t count = 0;
  VK_ASSERT_OK(vkEnumeratePhysicalDevices(instance_, &count, nullptr));
  EXPECT_EQ(count, 1u);
  std::vector<VkPhysicalDevice> pds(count + 1, VK_NULL_HANDLE);
  VK_ASSERT_OK(vkEnumeratePhysicalDevices(instance_, &count, pds.data()));
  EXPECT_EQ(pds[0], phys_) << "enumeration order/handles are not stable";
  // Asking for zero entries with an array is VK_INCOMPLETE.
  uint32_t zero = 0;
  VK_EXPECT_RESULT(VK_INCOMPLETE, vkEnumeratePhysicalDevices(instance_, &zero, pds.data()));
  EXPECT_EQ(zero, 0u);
}

TEST_F(PhysicalDevice, Groups) {
  uint32_t count = 0;
  VK_ASSERT_OK(vkEnumeratePhysicalDeviceGroups(instance_, &count, nullptr));
  ASSERT_EQ(count, 1u);
  VkPhysicalDeviceGroupProperties group{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GROUP_PROPERTIES};
  VK_ASSERT_OK(vkEnumeratePhysicalDeviceGroups(instance_, &count, &group));
  EXPECT_EQ(group.physicalDeviceCount, 1u);
  EXPECT_EQ(group.physicalDevices[0], phys_);
}

// --- properties -----------------------------------------------------------------

TEST_F(PhysicalDevice, Properties) {
  EXPECT_EQ(props_.deviceType, VK_PHYSICAL_DEVICE_TYPE_CPU);
  EXPECT_GE(props_.apiVersion, VK_API_VERSION_1_3)
      << "apiVersion " << VK_API_VERSION_MAJOR(props_.apiVersion) << "." << VK_API_VERSION_MINOR(props_.apiVersion);
  EXPECT_EQ(VK_API_VERSION_VARIANT(props_.apiVersion), 0u);
  const size_t name_len = strnlen(props_.deviceName, VK_MAX_PHYSICAL_DEVICE_NAME_SIZE);
  ASSERT_LT(name_len, size_t(VK_MAX_PHYSICAL_DEVICE_NAME_SIZE)) << "deviceName not NUL-terminated";
  EXPECT_GT(name_len, 0u);
  if (TestingDuet()) {
    EXPECT_NE(std::string(props_.deviceName).find("Duet"), std::string::npos) << props_.deviceName;
  }
}

TEST_F(PhysicalDevice, Properties2MatchesProperties) {
  VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  std::memset(&p2.properties, 0xA5, sizeof(p2.properties));
  vkGetPhysicalDeviceProperties2(phys_, &p2);
  EXPECT_EQ(std::memcmp(&p2.properties, &props_, sizeof(props_)), 0)
      << "vkGetPhysicalDeviceProperties2 and vkGetPhysicalDeviceProperties disagree";
}

TEST_F(PhysicalDevice, Properties2ChainVulkan11To13AndDriver) {
  VkPhysicalDeviceVulkan11Properties v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES};
  VkPhysicalDeviceVulkan12Properties v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
  VkPhysicalDeviceVulkan13Properties v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES};
  VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  p2.pNext = &v11;
  v11.pNext = &v12;
  v12.pNext = &v13;
  vkGetPhysicalDeviceProperties2(phys_, &p2);
  // The chain itself is left intact.
  EXPECT_EQ(p2.pNext, &v11);
  EXPECT_EQ(v11.pNext, &v12);
  EXPECT_EQ(v12.pNext, &v13);
  EXPECT_EQ(v13.pNext, nullptr);
  EXPECT_EQ(v11.sType, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES);

  // The individual (promoted) structures must report the same values.
  VkPhysicalDeviceIDProperties id{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceMultiviewProperties multiview{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_PROPERTIES};
  VkPhysicalDeviceMaintenance3Properties maint3{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
  VkPhysicalDevicePointClippingProperties clipping{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_POINT_CLIPPING_PROPERTIES};
  VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  VkPhysicalDeviceTimelineSemaphoreProperties timeline{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_PROPERTIES};
  VkPhysicalDeviceDepthStencilResolveProperties dsr{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_STENCIL_RESOLVE_PROPERTIES};
  VkPhysicalDeviceSubgroupSizeControlProperties ssc{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
  VkPhysicalDeviceInlineUniformBlockProperties iub{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INLINE_UNIFORM_BLOCK_PROPERTIES};
  VkPhysicalDeviceMaintenance4Properties maint4{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES};
  VkPhysicalDeviceProperties2 q{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  q.pNext = &id;
  id.pNext = &subgroup;
  subgroup.pNext = &multiview;
  multiview.pNext = &maint3;
  maint3.pNext = &clipping;
  clipping.pNext = &driver;
  driver.pNext = &timeline;
  timeline.pNext = &dsr;
  dsr.pNext = &ssc;
  ssc.pNext = &iub;
  iub.pNext = &maint4;
  vkGetPhysicalDeviceProperties2(phys_, &q);

  EXPECT_EQ(std::memcmp(v11.deviceUUID, id.deviceUUID, VK_UUID_SIZE), 0);
  EXPECT_EQ(std::memcmp(v11.driverUUID, id.driverUUID, VK_UUID_SIZE), 0);
  EXPECT_EQ(v11.deviceLUIDValid, id.deviceLUIDValid);
  EXPECT_EQ(v11.subgroupSize, subgroup.subgroupSize);
  EXPECT_EQ(v11.subgroupSupportedStages, subgroup.supportedStages);
  EXPECT_EQ(v11.subgroupSupportedOperations, subgroup.supportedOperations);
  EXPECT_EQ(v11.subgroupQuadOperationsInAllStages, subgroup.quadOperationsInAllStages);
  EXPECT_EQ(v11.maxMultiviewViewCount, multiview.maxMultiviewViewCount);
  EXPECT_EQ(v11.maxMultiviewInstanceIndex, multiview.maxMultiviewInstanceIndex);
  EXPECT_EQ(v11.maxPerSetDescriptors, maint3.maxPerSetDescriptors);
  EXPECT_EQ(v11.maxMemoryAllocationSize, maint3.maxMemoryAllocationSize);
  EXPECT_EQ(v11.pointClippingBehavior, clipping.pointClippingBehavior);

  EXPECT_EQ(v12.driverID, driver.driverID);
  EXPECT_STREQ(v12.driverName, driver.driverName);
  EXPECT_STREQ(v12.driverInfo, driver.driverInfo);
  EXPECT_EQ(std::memcmp(&v12.conformanceVersion, &driver.conformanceVersion, sizeof(VkConformanceVersion)), 0);
  EXPECT_EQ(v12.maxTimelineSemaphoreValueDifference, timeline.maxTimelineSemaphoreValueDifference);
  EXPECT_EQ(v12.supportedDepthResolveModes, dsr.supportedDepthResolveModes);
  EXPECT_EQ(v12.supportedStencilResolveModes, dsr.supportedStencilResolveModes);

  EXPECT_EQ(v13.minSubgroupSize, ssc.minSubgroupSize);
  EXPECT_EQ(v13.maxSubgroupSize, ssc.maxSubgroupSize);
  EXPECT_EQ(v13.maxComputeWorkgroupSubgroups, ssc.maxComputeWorkgroupSubgroups);
  EXPECT_EQ(v13.requiredSubgroupSizeStages, ssc.requiredSubgroupSizeStages);
  EXPECT_EQ(v13.maxInlineUniformBlockSize, iub.maxInlineUniformBlockSize);
  EXPECT_EQ(v13.maxDescriptorSetInlineUniformBlocks, iub.maxDescriptorSetInlineUniformBlocks);
  EXPECT_EQ(v13.maxBufferSize, maint4.maxBufferSize);

  // Driver identification.
  const size_t name_len = strnlen(driver.driverName, VK_MAX_DRIVER_NAME_SIZE);
  EXPECT_GT(name_len, 0u) << "driverName is empty";
  EXPECT_LT(name_len, size_t(VK_MAX_DRIVER_NAME_SIZE)) << "driverName not NUL-terminated";
  EXPECT_LT(strnlen(driver.driverInfo, VK_MAX_DRIVER_INFO_SIZE), size_t(VK_MAX_DRIVER_INFO_SIZE))
      << "driverInfo not NUL-terminated";

  // Subgroup sizes are powers of two, min <= size <= max.
  EXPECT_TRUE(IsPowerOfTwo(v11.subgroupSize)) << v11.subgroupSize;
  EXPECT_TRUE(IsPowerOfTwo(v13.minSubgroupSize)) << v13.minSubgroupSize;
  EXPECT_TRUE(IsPowerOfTwo(v13.maxSubgroupSize)) << v13.maxSubgroupSize;
  EXPECT_LE(v13.minSubgroupSize, v11.subgroupSize);
  EXPECT_LE(v11.subgroupSize, v13.maxSubgroupSize);
  EXPECT_NE(v11.subgroupSupportedStages & VK_SHADER_STAGE_COMPUTE_BIT, 0u);
  EXPECT_NE(v11.subgroupSupportedOperations & VK_SUBGROUP_FEATURE_BASIC_BIT, 0u);
}

TEST_F(PhysicalDevice, Vulkan11To13PropertyMinimums) {
  // Required limits (Vulkan spec, "Required Limits") for properties added
  // in 1.1 - 1.3 that do not depend on optional features.
  VkPhysicalDeviceVulkan11Properties v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES};
  VkPhysicalDeviceVulkan12Properties v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
  VkPhysicalDeviceVulkan13Properties v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES};
  VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  p2.pNext = &v11;
  v11.pNext = &v12;
  v12.pNext = &v13;
  vkGetPhysicalDeviceProperties2(phys_, &p2);
  EXPECT_GE(v11.maxMultiviewViewCount, 6u);
  EXPECT_GE(v11.maxMultiviewInstanceIndex, (1u << 27) - 1);
  EXPECT_GE(v11.maxPerSetDescriptors, 1024u);
  EXPECT_GE(v11.maxMemoryAllocationSize, VkDeviceSize(1) << 30);
  EXPECT_GE(v12.maxTimelineSemaphoreValueDifference, (uint64_t(1) << 31) - 1);
  EXPECT_NE(v12.supportedDepthResolveModes & VK_RESOLVE_MODE_SAMPLE_ZERO_BIT, 0u);
  EXPECT_NE(v12.supportedStencilResolveModes & VK_RESOLVE_MODE_SAMPLE_ZERO_BIT, 0u);
  EXPECT_GE(v13.maxInlineUniformBlockSize, 256u);
  EXPECT_GE(v13.maxPerStageDescriptorInlineUniformBlocks, 4u);
  EXPECT_GE(v13.maxDescriptorSetInlineUniformBlocks, 4u);
  EXPECT_GE(v13.maxInlineUniformTotalSize, 256u);
  EXPECT_GE(v13.maxBufferSize, VkDeviceSize(1) << 30);
  EXPECT_TRUE(IsPowerOfTwo(v13.storageTexelBufferOffsetAlignmentBytes));
  EXPECT_TRUE(IsPowerOfTwo(v13.uniformTexelBufferOffsetAlignmentBytes));
  EXPECT_LE(v13.storageTexelBufferOffsetAlignmentBytes, props_.limits.minTexelBufferOffsetAlignment);
  EXPECT_LE(v13.uniformTexelBufferOffsetAlignmentBytes, props_.limits.minTexelBufferOffsetAlignment);
}

TEST_F(PhysicalDevice, Vulkan10RequiredLimits) {
  // "Required Limits" table of the Vulkan spec: minimums (or maximums) every
  // implementation meets, independent of optional features.
  const VkPhysicalDeviceLimits& l = props_.limits;
  EXPECT_GE(l.maxImageDimension1D, 4096u);
  EXPECT_GE(l.maxImageDimension2D, 4096u);
  EXPECT_GE(l.maxImageDimension3D, 256u);
  EXPECT_GE(l.maxImageDimensionCube, 4096u);
  EXPECT_GE(l.maxImageArrayLayers, 256u);
  EXPECT_GE(l.maxTexelBufferElements, 65536u);
  EXPECT_GE(l.maxUniformBufferRange, 16384u);
  EXPECT_GE(l.maxStorageBufferRange, 1u << 27);
  EXPECT_GE(l.maxPushConstantsSize, 128u);
  EXPECT_GE(l.maxMemoryAllocationCount, 4096u);
  EXPECT_GE(l.maxSamplerAllocationCount, 4000u);
  EXPECT_LE(l.bufferImageGranularity, 131072u);
  EXPECT_GE(l.maxBoundDescriptorSets, 4u);
  EXPECT_GE(l.maxPerStageDescriptorSamplers, 16u);
  EXPECT_GE(l.maxPerStageDescriptorUniformBuffers, 12u);
  EXPECT_GE(l.maxPerStageDescriptorStorageBuffers, 4u);
  EXPECT_GE(l.maxPerStageDescriptorSampledImages, 16u);
  EXPECT_GE(l.maxPerStageDescriptorStorageImages, 4u);
  EXPECT_GE(l.maxPerStageDescriptorInputAttachments, 4u);
  EXPECT_GE(l.maxPerStageResources, 128u);
  EXPECT_GE(l.maxDescriptorSetSamplers, 96u);
  EXPECT_GE(l.maxDescriptorSetUniformBuffers, 72u);
  EXPECT_GE(l.maxDescriptorSetUniformBuffersDynamic, 8u);
  EXPECT_GE(l.maxDescriptorSetStorageBuffers, 24u);
  EXPECT_GE(l.maxDescriptorSetStorageBuffersDynamic, 4u);
  EXPECT_GE(l.maxDescriptorSetSampledImages, 96u);
  EXPECT_GE(l.maxDescriptorSetStorageImages, 24u);
  EXPECT_GE(l.maxDescriptorSetInputAttachments, 4u);
  EXPECT_GE(l.maxVertexInputAttributes, 16u);
  EXPECT_GE(l.maxVertexInputBindings, 16u);
  EXPECT_GE(l.maxVertexInputAttributeOffset, 2047u);
  EXPECT_GE(l.maxVertexInputBindingStride, 2048u);
  EXPECT_GE(l.maxVertexOutputComponents, 64u);
  EXPECT_GE(l.maxFragmentInputComponents, 64u);
  EXPECT_GE(l.maxFragmentOutputAttachments, 4u);
  EXPECT_GE(l.maxFragmentCombinedOutputResources, 4u);
  EXPECT_GE(l.maxComputeSharedMemorySize, 16384u);
  EXPECT_GE(l.maxComputeWorkGroupCount[0], 65535u);
  EXPECT_GE(l.maxComputeWorkGroupCount[1], 65535u);
  EXPECT_GE(l.maxComputeWorkGroupCount[2], 65535u);
  EXPECT_GE(l.maxComputeWorkGroupInvocations, 128u);
  EXPECT_GE(l.maxComputeWorkGroupSize[0], 128u);
  EXPECT_GE(l.maxComputeWorkGroupSize[1], 128u);
  EXPECT_GE(l.maxComputeWorkGroupSize[2], 64u);
  EXPECT_GE(l.subPixelPrecisionBits, 4u);
  EXPECT_GE(l.subTexelPrecisionBits, 4u);
  EXPECT_GE(l.mipmapPrecisionBits, 4u);
  EXPECT_GE(l.maxDrawIndexedIndexValue, (1u << 24) - 1);
  EXPECT_GE(l.maxDrawIndirectCount, 1u);
  EXPECT_GE(l.maxSamplerLodBias, 2.0f);
  EXPECT_GE(l.maxSamplerAnisotropy, 1.0f);
  EXPECT_GE(l.maxViewports, 1u);
  EXPECT_GE(l.maxViewportDimensions[0], 4096u);
  EXPECT_GE(l.maxViewportDimensions[1], 4096u);
  EXPECT_GE(l.maxViewportDimensions[0], l.maxFramebufferWidth);
  EXPECT_GE(l.maxViewportDimensions[1], l.maxFramebufferHeight);
  EXPECT_LE(l.viewportBoundsRange[0], -2.0f * float(l.maxViewportDimensions[0]));
  EXPECT_GE(l.viewportBoundsRange[1], 2.0f * float(l.maxViewportDimensions[0]) - 1.0f);
  EXPECT_GE(l.minMemoryMapAlignment, 64u);
  EXPECT_TRUE(IsPowerOfTwo(l.minMemoryMapAlignment));
  EXPECT_LE(l.minTexelBufferOffsetAlignment, 256u);
  EXPECT_TRUE(IsPowerOfTwo(l.minTexelBufferOffsetAlignment));
  EXPECT_LE(l.minUniformBufferOffsetAlignment, 256u);
  EXPECT_TRUE(IsPowerOfTwo(l.minUniformBufferOffsetAlignment));
  EXPECT_LE(l.minStorageBufferOffsetAlignment, 256u);
  EXPECT_TRUE(IsPowerOfTwo(l.minStorageBufferOffsetAlignment));
  EXPECT_LE(l.minTexelOffset, -8);
  EXPECT_GE(l.maxTexelOffset, 7u);
  EXPECT_GE(l.maxFramebufferWidth, 4096u);
  EXPECT_GE(l.maxFramebufferHeight, 4096u);
  EXPECT_GE(l.maxFramebufferLayers, 256u);
  const VkSampleCountFlags one_and_four = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
  EXPECT_EQ(l.framebufferColorSampleCounts & one_and_four, one_and_four);
  EXPECT_EQ(l.framebufferDepthSampleCounts & one_and_four, one_and_four);
  EXPECT_EQ(l.framebufferStencilSampleCounts & one_and_four, one_and_four);
  EXPECT_EQ(l.framebufferNoAttachmentsSampleCounts & one_and_four, one_and_four);
  EXPECT_EQ(l.sampledImageColorSampleCounts & one_and_four, one_and_four);
  EXPECT_EQ(l.sampledImageIntegerSampleCounts & VK_SAMPLE_COUNT_1_BIT, VkSampleCountFlags(VK_SAMPLE_COUNT_1_BIT));
  EXPECT_EQ(l.sampledImageDepthSampleCounts & one_and_four, one_and_four);
  EXPECT_EQ(l.sampledImageStencilSampleCounts & one_and_four, one_and_four);
  EXPECT_EQ(l.storageImageSampleCounts & VK_SAMPLE_COUNT_1_BIT, VkSampleCountFlags(VK_SAMPLE_COUNT_1_BIT));
  EXPECT_GE(l.maxSampleMaskWords, 1u);
  EXPECT_GE(l.maxColorAttachments, 4u);
  EXPECT_GE(l.maxClipDistances, features_.shaderClipDistance ? 8u : 0u);
  EXPECT_GE(l.maxCullDistances, features_.shaderCullDistance ? 8u : 0u);
  EXPECT_GE(l.discreteQueuePriorities, 2u);
  EXPECT_GE(l.pointSizeRange[1], 1.0f);
  EXPECT_GE(l.lineWidthRange[1], 1.0f);
  EXPECT_LE(l.pointSizeRange[0], 1.0f);
  EXPECT_LE(l.lineWidthRange[0], 1.0f);
  EXPECT_TRUE(IsPowerOfTwo(l.optimalBufferCopyOffsetAlignment));
  EXPECT_TRUE(IsPowerOfTwo(l.optimalBufferCopyRowPitchAlignment));
  EXPECT_TRUE(IsPowerOfTwo(l.nonCoherentAtomSize));
  EXPECT_LE(l.nonCoherentAtomSize, 256u);
  EXPECT_GT(l.timestampPeriod, 0.0f);
}

// --- features -------------------------------------------------------------------

TEST_F(PhysicalDevice, Features2MatchesFeatures) {
  VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  std::memset(&f2.features, 0x5A, sizeof(f2.features));
  vkGetPhysicalDeviceFeatures2(phys_, &f2);
  EXPECT_EQ(std::memcmp(&f2.features, &features_, sizeof(features_)), 0);
  const VkBool32* b = reinterpret_cast<const VkBool32*>(&features_);
  for (size_t i = 0; i < sizeof(features_) / sizeof(VkBool32); ++i)
    EXPECT_TRUE(b[i] == VK_TRUE || b[i] == VK_FALSE) << "VkPhysicalDeviceFeatures member #" << i;
}

TEST_F(PhysicalDevice, FeatureChainRoundTrip) {
  // Vulkan 1.1/1.2/1.3 structures, every member pre-filled with garbage: the
  // driver writes each one with VK_TRUE/VK_FALSE.
  Features13 f;
  FillSentinel(f.v11);
  FillSentinel(f.v12);
  FillSentinel(f.v13);
  f.Link();
  vkGetPhysicalDeviceFeatures2(phys_, &f.f2);
  EXPECT_EQ(f.f2.pNext, &f.v11);
  EXPECT_EQ(f.v11.pNext, &f.v12);
  EXPECT_EQ(f.v12.pNext, &f.v13);
  EXPECT_EQ(f.v13.pNext, nullptr);
  ExpectAllBoolsWritten(f.v11, &VkPhysicalDeviceVulkan11Features::shaderDrawParameters, "VkPhysicalDeviceVulkan11Features");
  ExpectAllBoolsWritten(f.v12, &VkPhysicalDeviceVulkan12Features::subgroupBroadcastDynamicId, "VkPhysicalDeviceVulkan12Features");
  ExpectAllBoolsWritten(f.v13, &VkPhysicalDeviceVulkan13Features::maintenance4, "VkPhysicalDeviceVulkan13Features");
  EXPECT_EQ(std::memcmp(&f.f2.features, &features_, sizeof(features_)), 0);

  // The promoted per-feature structures, queried in one chain of their own,
  // agree with the VulkanNNFeatures values.
  VkPhysicalDevice16BitStorageFeatures s16{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
  VkPhysicalDeviceMultiviewFeatures mv{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES};
  VkPhysicalDeviceVariablePointersFeatures vp{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_POINTERS_FEATURES};
  VkPhysicalDeviceProtectedMemoryFeatures pm{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROTECTED_MEMORY_FEATURES};
  VkPhysicalDeviceSamplerYcbcrConversionFeatures ycbcr{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLER_YCBCR_CONVERSION_FEATURES};
  VkPhysicalDeviceShaderDrawParametersFeatures sdp{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DRAW_PARAMETERS_FEATURES};
  VkPhysicalDevice8BitStorageFeatures s8{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES};
  VkPhysicalDeviceShaderAtomicInt64Features ai64{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES};
  VkPhysicalDeviceShaderFloat16Int8Features f16i8{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES};
  VkPhysicalDeviceDescriptorIndexingFeatures di{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES};
  VkPhysicalDeviceScalarBlockLayoutFeatures sbl{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SCALAR_BLOCK_LAYOUT_FEATURES};
  VkPhysicalDeviceImagelessFramebufferFeatures ifb{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGELESS_FRAMEBUFFER_FEATURES};
  VkPhysicalDeviceUniformBufferStandardLayoutFeatures ubsl{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_UNIFORM_BUFFER_STANDARD_LAYOUT_FEATURES};
  VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures sset{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES};
  VkPhysicalDeviceSeparateDepthStencilLayoutsFeatures sdsl{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SEPARATE_DEPTH_STENCIL_LAYOUTS_FEATURES};
  VkPhysicalDeviceHostQueryResetFeatures hqr{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES};
  VkPhysicalDeviceTimelineSemaphoreFeatures ts{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES};
  VkPhysicalDeviceBufferDeviceAddressFeatures bda{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES};
  VkPhysicalDeviceVulkanMemoryModelFeatures vmm{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES};
  VkPhysicalDeviceImageRobustnessFeatures ir{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_ROBUSTNESS_FEATURES};
  VkPhysicalDeviceInlineUniformBlockFeatures iub{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INLINE_UNIFORM_BLOCK_FEATURES};
  VkPhysicalDevicePipelineCreationCacheControlFeatures pccc{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_CREATION_CACHE_CONTROL_FEATURES};
  VkPhysicalDevicePrivateDataFeatures pd{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIVATE_DATA_FEATURES};
  VkPhysicalDeviceShaderDemoteToHelperInvocationFeatures demote{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DEMOTE_TO_HELPER_INVOCATION_FEATURES};
  VkPhysicalDeviceShaderTerminateInvocationFeatures term{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_TERMINATE_INVOCATION_FEATURES};
  VkPhysicalDeviceSubgroupSizeControlFeatures ssc{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES};
  VkPhysicalDeviceSynchronization2Features sync2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES};
  VkPhysicalDeviceTextureCompressionASTCHDRFeatures astc{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXTURE_COMPRESSION_ASTC_HDR_FEATURES};
  VkPhysicalDeviceZeroInitializeWorkgroupMemoryFeatures ziwm{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ZERO_INITIALIZE_WORKGROUP_MEMORY_FEATURES};
  VkPhysicalDeviceDynamicRenderingFeatures dr{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES};
  VkPhysicalDeviceShaderIntegerDotProductFeatures idp{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_FEATURES};
  VkPhysicalDeviceMaintenance4Features m4{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES};

  void* chain[] = {&s16, &mv,  &vp,  &pm,   &ycbcr, &sdp, &s8,    &ai64, &f16i8, &di,   &sbl, &ifb,
                   &ubsl, &sset, &sdsl, &hqr, &ts,   &bda,   &vmm, &ir,    &iub,  &pccc,  &pd,  &demote,
                   &term, &ssc, &sync2, &astc, &ziwm, &dr,  &idp,   &m4};
  FillSentinel(s16), FillSentinel(mv), FillSentinel(vp), FillSentinel(pm), FillSentinel(ycbcr);
  FillSentinel(sdp), FillSentinel(s8), FillSentinel(ai64), FillSentinel(f16i8), FillSentinel(di);
  FillSentinel(sbl), FillSentinel(ifb), FillSentinel(ubsl), FillSentinel(sset), FillSentinel(sdsl);
  FillSentinel(hqr), FillSentinel(ts), FillSentinel(bda), FillSentinel(vmm), FillSentinel(ir);
  FillSentinel(iub), FillSentinel(pccc), FillSentinel(pd), FillSentinel(demote), FillSentinel(term);
  FillSentinel(ssc), FillSentinel(sync2), FillSentinel(astc), FillSentinel(ziwm), FillSentinel(dr);
  FillSentinel(idp), FillSentinel(m4);
  // Every struct starts with VkBaseOutStructure's layout.
  for (size_t i = 0; i + 1 < std::size(chain); ++i)
    static_cast<VkBaseOutStructure*>(chain[i])->pNext = static_cast<VkBaseOutStructure*>(chain[i + 1]);
  static_cast<VkBaseOutStructure*>(chain[std::size(chain) - 1])->pNext = nullptr;
  VkPhysicalDeviceFeatures2 q{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  q.pNext = chain[0];
  vkGetPhysicalDeviceFeatures2(phys_, &q);

#define SAME(ind, vk, member) EXPECT_EQ(ind.member, f.vk.member) << #member
  SAME(s16, v11, storageBuffer16BitAccess);
  SAME(s16, v11, uniformAndStorageBuffer16BitAccess);
  SAME(s16, v11, storagePushConstant16);
  SAME(s16, v11, storageInputOutput16);
  SAME(mv, v11, multiview);
  SAME(mv, v11, multiviewGeometryShader);
  SAME(mv, v11, multiviewTessellationShader);
  SAME(vp, v11, variablePointersStorageBuffer);
  SAME(vp, v11, variablePointers);
  SAME(pm, v11, protectedMemory);
  SAME(ycbcr, v11, samplerYcbcrConversion);
  SAME(sdp, v11, shaderDrawParameters);
  SAME(s8, v12, storageBuffer8BitAccess);
  SAME(s8, v12, uniformAndStorageBuffer8BitAccess);
  SAME(s8, v12, storagePushConstant8);
  SAME(ai64, v12, shaderBufferInt64Atomics);
  SAME(ai64, v12, shaderSharedInt64Atomics);
  SAME(f16i8, v12, shaderFloat16);
  SAME(f16i8, v12, shaderInt8);
  SAME(di, v12, shaderInputAttachmentArrayDynamicIndexing);
  SAME(di, v12, shaderUniformTexelBufferArrayDynamicIndexing);
  SAME(di, v12, shaderStorageTexelBufferArrayDynamicIndexing);
  SAME(di, v12, shaderUniformBufferArrayNonUniformIndexing);
  SAME(di, v12, shaderSampledImageArrayNonUniformIndexing);
  SAME(di, v12, shaderStorageBufferArrayNonUniformIndexing);
  SAME(di, v12, shaderStorageImageArrayNonUniformIndexing);
  SAME(di, v12, shaderInputAttachmentArrayNonUniformIndexing);
  SAME(di, v12, shaderUniformTexelBufferArrayNonUniformIndexing);
  SAME(di, v12, shaderStorageTexelBufferArrayNonUniformIndexing);
  SAME(di, v12, descriptorBindingUniformBufferUpdateAfterBind);
  SAME(di, v12, descriptorBindingSampledImageUpdateAfterBind);
  SAME(di, v12, descriptorBindingStorageImageUpdateAfterBind);
  SAME(di, v12, descriptorBindingStorageBufferUpdateAfterBind);
  SAME(di, v12, descriptorBindingUniformTexelBufferUpdateAfterBind);
  SAME(di, v12, descriptorBindingStorageTexelBufferUpdateAfterBind);
  SAME(di, v12, descriptorBindingUpdateUnusedWhilePending);
  SAME(di, v12, descriptorBindingPartiallyBound);
  SAME(di, v12, descriptorBindingVariableDescriptorCount);
  SAME(di, v12, runtimeDescriptorArray);
  SAME(sbl, v12, scalarBlockLayout);
  SAME(ifb, v12, imagelessFramebuffer);
  SAME(ubsl, v12, uniformBufferStandardLayout);
  SAME(sset, v12, shaderSubgroupExtendedTypes);
  SAME(sdsl, v12, separateDepthStencilLayouts);
  SAME(hqr, v12, hostQueryReset);
  SAME(ts, v12, timelineSemaphore);
  SAME(bda, v12, bufferDeviceAddress);
  SAME(bda, v12, bufferDeviceAddressCaptureReplay);
  SAME(bda, v12, bufferDeviceAddressMultiDevice);
  SAME(vmm, v12, vulkanMemoryModel);
  SAME(vmm, v12, vulkanMemoryModelDeviceScope);
  SAME(vmm, v12, vulkanMemoryModelAvailabilityVisibilityChains);
  SAME(ir, v13, robustImageAccess);
  SAME(iub, v13, inlineUniformBlock);
  SAME(iub, v13, descriptorBindingInlineUniformBlockUpdateAfterBind);
  SAME(pccc, v13, pipelineCreationCacheControl);
  SAME(pd, v13, privateData);
  SAME(demote, v13, shaderDemoteToHelperInvocation);
  SAME(term, v13, shaderTerminateInvocation);
  SAME(ssc, v13, subgroupSizeControl);
  SAME(ssc, v13, computeFullSubgroups);
  SAME(sync2, v13, synchronization2);
  SAME(astc, v13, textureCompressionASTC_HDR);
  SAME(ziwm, v13, shaderZeroInitializeWorkgroupMemory);
  SAME(dr, v13, dynamicRendering);
  SAME(idp, v13, shaderIntegerDotProduct);
  SAME(m4, v13, maintenance4);
#undef SAME
  // Nothing in the individual structs left unwritten either.
  ExpectAllBoolsWritten(di, &VkPhysicalDeviceDescriptorIndexingFeatures::runtimeDescriptorArray, "VkPhysicalDeviceDescriptorIndexingFeatures");
  ExpectAllBoolsWritten(vmm, &VkPhysicalDeviceVulkanMemoryModelFeatures::vulkanMemoryModelAvailabilityVisibilityChains, "VkPhysicalDeviceVulkanMemoryModelFeatures");
  ExpectAllBoolsWritten(bda, &VkPhysicalDeviceBufferDeviceAddressFeatures::bufferDeviceAddressMultiDevice, "VkPhysicalDeviceBufferDeviceAddressFeatures");

  // Features whose support implies another's (Vulkan spec "Features").
  if (f.v11.variablePointers) {
    EXPECT_TRUE(f.v11.variablePointersStorageBuffer);
  }
  if (f.v11.multiviewGeometryShader || f.v11.multiviewTessellationShader) {
    EXPECT_TRUE(f.v11.multiview);
  }
  if (f.v12.vulkanMemoryModelDeviceScope) {
    EXPECT_TRUE(f.v12.vulkanMemoryModel);
  }
  if (f.v12.bufferDeviceAddressCaptureReplay) {
    EXPECT_TRUE(f.v12.bufferDeviceAddress);
  }
}

TEST_F(PhysicalDevice, UnknownStructureInFeatureChainIsSkipped) {
  // A structure of an extension the device does not offer must be passed
  // over without being written (only sType/pNext may be read).
  if (HasExtension(DeviceExtensions(phys_), VK_KHR_RAY_TRACING_PIPELINE_EXTENSION_NAME))
    GTEST_SKIP() << "device offers VK_KHR_ray_tracing_pipeline";
  VkPhysicalDeviceRayTracingPipelineFeaturesKHR rt{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_FEATURES_KHR};
  FillSentinel(rt);
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  FillSentinel(v12);
  VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  f2.pNext = &rt;
  rt.pNext = &v12;  // a known structure after the unknown one is still filled
  vkGetPhysicalDeviceFeatures2(phys_, &f2);
  EXPECT_EQ(rt.pNext, &v12);
  EXPECT_EQ(rt.rayTracingPipeline, kSentinel);
  EXPECT_EQ(rt.rayTraversalPrimitiveCulling, kSentinel);
  ExpectAllBoolsWritten(v12, &VkPhysicalDeviceVulkan12Features::subgroupBroadcastDynamicId, "VkPhysicalDeviceVulkan12Features after an unknown struct");
}

TEST_F(PhysicalDevice, Vulkan13RequiredFeatures) {
  // Vulkan spec, "Feature Requirements": a Vulkan 1.3 implementation
  // supports these features.
  Features13 f = QueryFeatures13();
  EXPECT_TRUE(f.f2.features.robustBufferAccess);
  EXPECT_TRUE(f.v11.multiview);
  EXPECT_TRUE(f.v12.uniformBufferStandardLayout);
  EXPECT_TRUE(f.v12.subgroupBroadcastDynamicId);
  EXPECT_TRUE(f.v12.imagelessFramebuffer);
  EXPECT_TRUE(f.v12.separateDepthStencilLayouts);
  EXPECT_TRUE(f.v12.hostQueryReset);
  EXPECT_TRUE(f.v12.timelineSemaphore);
  EXPECT_TRUE(f.v12.shaderSubgroupExtendedTypes);
  EXPECT_TRUE(f.v12.vulkanMemoryModel);
  EXPECT_TRUE(f.v12.vulkanMemoryModelDeviceScope);
  EXPECT_TRUE(f.v12.bufferDeviceAddress);
  EXPECT_TRUE(f.v13.robustImageAccess);
  EXPECT_TRUE(f.v13.inlineUniformBlock);
  EXPECT_TRUE(f.v13.pipelineCreationCacheControl);
  EXPECT_TRUE(f.v13.privateData);
  EXPECT_TRUE(f.v13.shaderDemoteToHelperInvocation);
  EXPECT_TRUE(f.v13.shaderTerminateInvocation);
  EXPECT_TRUE(f.v13.subgroupSizeControl);
  EXPECT_TRUE(f.v13.computeFullSubgroups);
  EXPECT_TRUE(f.v13.synchronization2);
  EXPECT_TRUE(f.v13.shaderZeroInitializeWorkgroupMemory);
  EXPECT_TRUE(f.v13.dynamicRendering);
  EXPECT_TRUE(f.v13.shaderIntegerDotProduct);
  EXPECT_TRUE(f.v13.maintenance4);
  if (f.v12.descriptorIndexing) {
    EXPECT_TRUE(f.v13.descriptorBindingInlineUniformBlockUpdateAfterBind);
  }
}

// --- extensions -------------------------------------------------------------------

TEST_F(PhysicalDevice, DeviceExtensionsAreKnownAndUnique) {
  uint32_t count = 0;
  VK_ASSERT_OK(vkEnumerateDeviceExtensionProperties(phys_, nullptr, &count, nullptr));
  std::vector<VkExtensionProperties> exts(count);
  VK_ASSERT_OK(vkEnumerateDeviceExtensionProperties(phys_, nullptr, &count, exts.data()));
  std::set<std::string> seen;
  for (const auto& e : exts) {
    const std::string name(e.extensionName, strnlen(e.extensionName, VK_MAX_EXTENSION_NAME_SIZE));
    EXPECT_TRUE(seen.insert(name).second) << "listed twice: " << name;
    EXPECT_GE(e.specVersion, 1u) << name;
    bool known = false;
    for (const char* k : kKnownDeviceExtensions) known = known || name == k;
    EXPECT_TRUE(known) << name << " is not a device extension of the installed registry";
  }
  if (count > 0) {
    uint32_t zero = 0;
    VK_EXPECT_RESULT(VK_INCOMPLETE, vkEnumerateDeviceExtensionProperties(phys_, nullptr, &zero, exts.data()));
  }
}

// --- queue families ----------------------------------------------------------------

TEST_F(PhysicalDevice, QueueFamilies) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(phys_, &count, nullptr);
  ASSERT_EQ(count, 1u) << "one graphics+compute+transfer family expected";
  VkQueueFamilyProperties q{};
  vkGetPhysicalDeviceQueueFamilyProperties(phys_, &count, &q);
  const VkQueueFlags gct = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT;
  EXPECT_EQ(q.queueFlags & gct, gct);
  EXPECT_GE(q.queueCount, 1u);
  EXPECT_TRUE(q.timestampValidBits == 0 || (q.timestampValidBits >= 36 && q.timestampValidBits <= 64))
      << "timestampValidBits " << q.timestampValidBits;
  // Graphics/compute queues have a (1,1,1) image transfer granularity.
  EXPECT_EQ(q.minImageTransferGranularity.width, 1u);
  EXPECT_EQ(q.minImageTransferGranularity.height, 1u);
  EXPECT_EQ(q.minImageTransferGranularity.depth, 1u);

  VkQueueFamilyProperties2 q2{VK_STRUCTURE_TYPE_QUEUE_FAMILY_PROPERTIES_2};
  uint32_t count2 = 0;
  vkGetPhysicalDeviceQueueFamilyProperties2(phys_, &count2, nullptr);
  ASSERT_EQ(count2, 1u);
  vkGetPhysicalDeviceQueueFamilyProperties2(phys_, &count2, &q2);
  EXPECT_EQ(std::memcmp(&q2.queueFamilyProperties, &q, sizeof(q)), 0);
}

// --- memory properties ------------------------------------------------------------

TEST_F(PhysicalDevice, MemoryProperties) {
  const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                     VK_MEMORY_PROPERTY_HOST_COHERENT_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
  ASSERT_EQ(mem_props_.memoryTypeCount, 1u);
  EXPECT_EQ(mem_props_.memoryTypes[0].propertyFlags, want);
  ASSERT_GE(mem_props_.memoryHeapCount, 1u);
  ASSERT_LE(mem_props_.memoryHeapCount, uint32_t(VK_MAX_MEMORY_HEAPS));
  const uint32_t heap = mem_props_.memoryTypes[0].heapIndex;
  ASSERT_LT(heap, mem_props_.memoryHeapCount);
  EXPECT_GT(mem_props_.memoryHeaps[heap].size, 0u);
  const uint64_t ram = PhysicalRamBytes();
  ASSERT_GT(ram, 0u);
  EXPECT_LE(mem_props_.memoryHeaps[heap].size, ram) << "heap larger than physical RAM";
  EXPECT_NE(mem_props_.memoryHeaps[heap].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT, 0u);

  VkPhysicalDeviceMemoryProperties2 m2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2};
  vkGetPhysicalDeviceMemoryProperties2(phys_, &m2);
  EXPECT_EQ(m2.memoryProperties.memoryTypeCount, mem_props_.memoryTypeCount);
  EXPECT_EQ(m2.memoryProperties.memoryHeapCount, mem_props_.memoryHeapCount);
  EXPECT_EQ(m2.memoryProperties.memoryTypes[0].propertyFlags, mem_props_.memoryTypes[0].propertyFlags);
  EXPECT_EQ(m2.memoryProperties.memoryHeaps[heap].size, mem_props_.memoryHeaps[heap].size);
}

// --- format properties -------------------------------------------------------------

VkFormatProperties3 QueryFormat(VkPhysicalDevice pd, VkFormat format, VkFormatProperties* out_v1) {
  VkFormatProperties3 p3{VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3};
  VkFormatProperties2 p2{VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2};
  p2.pNext = &p3;
  vkGetPhysicalDeviceFormatProperties2(pd, format, &p2);
  *out_v1 = p2.formatProperties;
  return p3;
}

TEST_F(PhysicalDevice, FormatR8G8B8A8Unorm) {
  VkFormatProperties v1{};
  vkGetPhysicalDeviceFormatProperties(phys_, VK_FORMAT_R8G8B8A8_UNORM, &v1);
  const VkFormatFeatureFlags need = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT |
                                    VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
  EXPECT_EQ(v1.optimalTilingFeatures & need, need) << std::hex << v1.optimalTilingFeatures;

  VkFormatProperties via2{};
  VkFormatProperties3 p3 = QueryFormat(phys_, VK_FORMAT_R8G8B8A8_UNORM, &via2);
  EXPECT_EQ(via2.optimalTilingFeatures, v1.optimalTilingFeatures);
  EXPECT_EQ(via2.linearTilingFeatures, v1.linearTilingFeatures);
  EXPECT_EQ(via2.bufferFeatures, v1.bufferFeatures);
  // VkFormatFeatureFlags2 bits 0-30 are the VkFormatFeatureFlags bits;
  // bit 31 and up exist only in the 64-bit flags.
  constexpr VkFormatFeatureFlags2 kLegacyBits = 0x7FFFFFFFull;
  EXPECT_EQ(p3.optimalTilingFeatures & kLegacyBits, v1.optimalTilingFeatures);
  EXPECT_EQ(p3.linearTilingFeatures & kLegacyBits, v1.linearTilingFeatures);
  EXPECT_EQ(p3.bufferFeatures & kLegacyBits, v1.bufferFeatures);
}

TEST_F(PhysicalDevice, FormatFeatureConsistency) {
  // Across every core format (Vulkan spec, "Format Properties"): dependent
  // features come with the feature they refine (filter-linear with sampled,
  // blend with color attachment, atomics with storage), and each bit appears
  // only in the field that may carry it (image vs buffer features).
  for (int f = VK_FORMAT_R4G4_UNORM_PACK8; f <= VK_FORMAT_ASTC_12x12_SRGB_BLOCK; ++f) {
    VkFormatProperties p{};
    vkGetPhysicalDeviceFormatProperties(phys_, VkFormat(f), &p);
    for (VkFormatFeatureFlags tiling : {p.optimalTilingFeatures, p.linearTilingFeatures}) {
      if (tiling & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT) {
        EXPECT_TRUE(tiling & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT) << "format " << f;
      }
      if (tiling & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT) {
        EXPECT_TRUE(tiling & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT) << "format " << f;
      }
      if (tiling & VK_FORMAT_FEATURE_STORAGE_IMAGE_ATOMIC_BIT) {
        EXPECT_TRUE(tiling & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT) << "format " << f;
      }
    }
    if (p.bufferFeatures & VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_ATOMIC_BIT) {
      EXPECT_TRUE(p.bufferFeatures & VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT) << "format " << f;
    }
    // Image-only features never appear in bufferFeatures and vice versa.
    const VkFormatFeatureFlags buffer_only = VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT |
                                             VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT |
                                             VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_ATOMIC_BIT |
                                             VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT;
    EXPECT_EQ(p.optimalTilingFeatures & buffer_only, 0u) << "format " << f;
    EXPECT_EQ(p.linearTilingFeatures & buffer_only, 0u) << "format " << f;
    EXPECT_EQ(p.bufferFeatures & ~buffer_only, 0u) << "format " << f;
  }
  // VK_FORMAT_UNDEFINED has no features.
  VkFormatProperties undef{};
  vkGetPhysicalDeviceFormatProperties(phys_, VK_FORMAT_UNDEFINED, &undef);
  EXPECT_EQ(undef.optimalTilingFeatures | undef.linearTilingFeatures | undef.bufferFeatures, 0u);
}

TEST_F(PhysicalDevice, CompressedFormatsMatchCompressionFeatures) {
  VkFormatProperties bc{};
  VkFormatProperties3 bc3 = QueryFormat(phys_, VK_FORMAT_BC1_RGBA_UNORM_BLOCK, &bc);
  if (!features_.textureCompressionBC) {
    EXPECT_EQ(bc.optimalTilingFeatures | bc.linearTilingFeatures | bc.bufferFeatures, 0u)
        << "BC1 has features but textureCompressionBC is VK_FALSE";
    EXPECT_EQ(bc3.optimalTilingFeatures | bc3.linearTilingFeatures | bc3.bufferFeatures, 0u);
  } else {
    EXPECT_TRUE(bc.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT);
  }
  VkFormatProperties astc{};
  QueryFormat(phys_, VK_FORMAT_ASTC_4x4_UNORM_BLOCK, &astc);
  if (!features_.textureCompressionASTC_LDR) {
    EXPECT_EQ(astc.optimalTilingFeatures | astc.linearTilingFeatures | astc.bufferFeatures, 0u);
  }
  VkFormatProperties etc{};
  QueryFormat(phys_, VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, &etc);
  if (!features_.textureCompressionETC2) {
    EXPECT_EQ(etc.optimalTilingFeatures | etc.linearTilingFeatures | etc.bufferFeatures, 0u);
  }
}

TEST_F(PhysicalDevice, ExtensionFormatWithoutExtensionHasNoFeatures) {
  // A format from an extension the device does not offer (PVRTC, from
  // VK_IMG_format_pvrtc) reports no features.
  if (HasExtension(DeviceExtensions(phys_), VK_IMG_FORMAT_PVRTC_EXTENSION_NAME))
    GTEST_SKIP() << "device offers VK_IMG_format_pvrtc";
  VkFormatProperties p{};
  VkFormatProperties3 p3 = QueryFormat(phys_, VK_FORMAT_PVRTC1_2BPP_UNORM_BLOCK_IMG, &p);
  EXPECT_EQ(p.optimalTilingFeatures | p.linearTilingFeatures | p.bufferFeatures, 0u);
  EXPECT_EQ(p3.optimalTilingFeatures | p3.linearTilingFeatures | p3.bufferFeatures, 0u);
}

TEST_F(PhysicalDevice, DepthFormatRequirements) {
  // Vulkan spec, "Required Format Support": D16_UNORM and at least one of
  // X8_D24_UNORM_PACK32 / D32_SFLOAT are depth attachments, and one of
  // D24_UNORM_S8_UINT / D32_SFLOAT_S8_UINT is a depth/stencil attachment.
  auto ds = [&](VkFormat f) {
    VkFormatProperties p{};
    vkGetPhysicalDeviceFormatProperties(phys_, f, &p);
    return (p.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT) != 0;
  };
  EXPECT_TRUE(ds(VK_FORMAT_D16_UNORM));
  EXPECT_TRUE(ds(VK_FORMAT_X8_D24_UNORM_PACK32) || ds(VK_FORMAT_D32_SFLOAT));
  EXPECT_TRUE(ds(VK_FORMAT_D24_UNORM_S8_UINT) || ds(VK_FORMAT_D32_SFLOAT_S8_UINT));
}

// --- image format properties -------------------------------------------------------

uint32_t FullMipCount(VkExtent3D e) {
  const uint32_t m = std::max({e.width, e.height, e.depth});
  uint32_t levels = 1;
  for (uint32_t v = m; v > 1; v >>= 1) ++levels;
  return levels;
}

TEST_F(PhysicalDevice, ImageFormatPropertiesSupported) {
  VkImageFormatProperties p{};
  VK_ASSERT_OK(vkGetPhysicalDeviceImageFormatProperties(
      phys_, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
      VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, 0, &p));
  EXPECT_GE(p.maxExtent.width, 4096u);
  EXPECT_GE(p.maxExtent.height, 4096u);
  EXPECT_EQ(p.maxExtent.depth, 1u);
  EXPECT_LE(p.maxExtent.width, props_.limits.maxImageDimension2D);
  EXPECT_EQ(p.maxMipLevels, FullMipCount(p.maxExtent)) << "optimal tiling: full mip chain of maxExtent";
  EXPECT_GE(p.maxArrayLayers, 256u);
  EXPECT_NE(p.sampleCounts & VK_SAMPLE_COUNT_1_BIT, 0u);
  EXPECT_GE(p.maxResourceSize, VkDeviceSize(1) << 31) << "maxResourceSize must be at least 2^31";
  EXPECT_LE(p.maxArrayLayers, props_.limits.maxImageArrayLayers);

  VkPhysicalDeviceImageFormatInfo2 info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2};
  info.format = VK_FORMAT_R8G8B8A8_UNORM;
  info.type = VK_IMAGE_TYPE_2D;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  VkImageFormatProperties2 p2{VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2};
  VK_ASSERT_OK(vkGetPhysicalDeviceImageFormatProperties2(phys_, &info, &p2));
  EXPECT_EQ(std::memcmp(&p2.imageFormatProperties, &p, sizeof(p)), 0);

  // 3D and color-attachment with 4 samples (framebufferColorSampleCounts
  // includes 4, so a 2D optimal color attachment image offers it).
  VkImageFormatProperties p3d{};
  VK_ASSERT_OK(vkGetPhysicalDeviceImageFormatProperties(phys_, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_3D,
                                                         VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_SAMPLED_BIT, 0,
                                                         &p3d));
  EXPECT_GE(p3d.maxExtent.depth, 256u);
  EXPECT_EQ(p3d.maxArrayLayers, 1u) << "3D images have one layer";
  VkImageFormatProperties pms{};
  VK_ASSERT_OK(vkGetPhysicalDeviceImageFormatProperties(
      phys_, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
      VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT, 0, &pms));
  EXPECT_NE(pms.sampleCounts & VK_SAMPLE_COUNT_4_BIT, 0u);
  // Cube-compatible.
  VkImageFormatProperties pcube{};
  VK_ASSERT_OK(vkGetPhysicalDeviceImageFormatProperties(phys_, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D,
                                                         VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_SAMPLED_BIT,
                                                         VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT, &pcube));
  EXPECT_GE(pcube.maxArrayLayers, 6u);
  EXPECT_EQ(pcube.maxExtent.width, pcube.maxExtent.height);
}

TEST_F(PhysicalDevice, ImageFormatPropertiesUnsupported) {
  VkImageFormatProperties p{};
  // A color format used as a depth/stencil attachment; on failure every
  // member of the output is zero.
  std::memset(&p, 0xA5, sizeof(p));
  VK_EXPECT_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED,
                   vkGetPhysicalDeviceImageFormatProperties(phys_, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D,
                                                            VK_IMAGE_TILING_OPTIMAL,
                                                            VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, 0, &p));
  const VkImageFormatProperties zero{};
  EXPECT_EQ(std::memcmp(&p, &zero, sizeof(p)), 0) << "VkImageFormatProperties not zeroed on failure";
  // A depth format used as a color attachment.
  VK_EXPECT_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED,
                   vkGetPhysicalDeviceImageFormatProperties(phys_, VK_FORMAT_D16_UNORM, VK_IMAGE_TYPE_2D,
                                                            VK_IMAGE_TILING_OPTIMAL,
                                                            VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, 0, &p));
  // A compressed format the device does not support.
  if (!features_.textureCompressionBC) {
    VK_EXPECT_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED,
                     vkGetPhysicalDeviceImageFormatProperties(phys_, VK_FORMAT_BC1_RGBA_UNORM_BLOCK, VK_IMAGE_TYPE_2D,
                                                              VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_SAMPLED_BIT,
                                                              0, &p));
  }
  // Sparse images on a device without sparse binding.
  if (!features_.sparseBinding) {
    VK_EXPECT_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED,
                     vkGetPhysicalDeviceImageFormatProperties(phys_, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D,
                                                              VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_SAMPLED_BIT,
                                                              VK_IMAGE_CREATE_SPARSE_BINDING_BIT, &p));
  }
  // Same through the *2 query.
  VkPhysicalDeviceImageFormatInfo2 info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2};
  info.format = VK_FORMAT_R8G8B8A8_UNORM;
  info.type = VK_IMAGE_TYPE_2D;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
  VkImageFormatProperties2 p2{VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2};
  VK_EXPECT_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED, vkGetPhysicalDeviceImageFormatProperties2(phys_, &info, &p2));
}

TEST_F(PhysicalDevice, ImageFormatPropertiesAgreeWithFormatFeatures) {
  // For every core 1.0 format and one usage at a time: a usage whose format
  // feature the tiling lacks is VK_ERROR_FORMAT_NOT_SUPPORTED (vkCreateImage
  // could not accept it), and a usage the format supports is accepted for
  // the plain case (2D, no flags) -- optimal tiling for every usage, linear
  // tiling for transfers of color formats (Vulkan spec, "Image Creation
  // Limits").
  struct UsageFeature {
    VkImageUsageFlags usage;
    VkFormatFeatureFlags feature;
  } pairs[] = {
      {VK_IMAGE_USAGE_SAMPLED_BIT, VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT},
      {VK_IMAGE_USAGE_STORAGE_BIT, VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT},
      {VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT},
      {VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT},
      {VK_IMAGE_USAGE_TRANSFER_SRC_BIT, VK_FORMAT_FEATURE_TRANSFER_SRC_BIT},
      {VK_IMAGE_USAGE_TRANSFER_DST_BIT, VK_FORMAT_FEATURE_TRANSFER_DST_BIT},
  };
  int mismatches = 0;
  for (int f = VK_FORMAT_R4G4_UNORM_PACK8; f <= VK_FORMAT_ASTC_12x12_SRGB_BLOCK && mismatches < 20; ++f) {
    const VkFormat format = VkFormat(f);
    VkFormatProperties fp{};
    vkGetPhysicalDeviceFormatProperties(phys_, format, &fp);
    const bool depth_stencil = f >= VK_FORMAT_D16_UNORM && f <= VK_FORMAT_D32_SFLOAT_S8_UINT;
    for (VkImageTiling tiling : {VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_TILING_LINEAR}) {
      const VkFormatFeatureFlags have =
          tiling == VK_IMAGE_TILING_OPTIMAL ? fp.optimalTilingFeatures : fp.linearTilingFeatures;
      for (const UsageFeature& uf : pairs) {
        VkImageFormatProperties ifp{};
        const VkResult r = vkGetPhysicalDeviceImageFormatProperties(phys_, format, VK_IMAGE_TYPE_2D, tiling,
                                                                    uf.usage, 0, &ifp);
        const char* tiling_name = tiling == VK_IMAGE_TILING_OPTIMAL ? "optimal" : "linear";
        if (!(have & uf.feature)) {
          if (r != VK_ERROR_FORMAT_NOT_SUPPORTED) {
            ++mismatches;
            ADD_FAILURE() << "format " << f << " " << tiling_name << ", usage 0x" << std::hex << uf.usage
                          << ": format lacks feature 0x" << uf.feature << " but the query returned " << R{r};
          }
          continue;
        }
        const bool guaranteed =
            tiling == VK_IMAGE_TILING_OPTIMAL ||
            (!depth_stencil && (uf.usage & (VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT)));
        if (guaranteed && r != VK_SUCCESS) {
          ++mismatches;
          ADD_FAILURE() << "format " << f << " " << tiling_name << ", usage 0x" << std::hex << uf.usage
                        << ": format has feature 0x" << uf.feature << " but the query returned " << R{r};
        }
        if (r == VK_SUCCESS) {
          EXPECT_GE(ifp.maxMipLevels, 1u) << "format " << f;
          EXPECT_GE(ifp.maxArrayLayers, 1u) << "format " << f;
          EXPECT_NE(ifp.sampleCounts & VK_SAMPLE_COUNT_1_BIT, 0u) << "format " << f;
          EXPECT_GE(ifp.maxExtent.width, 1u) << "format " << f;
          EXPECT_EQ(ifp.maxExtent.depth, 1u) << "format " << f << ": 2D images have depth 1";
        }
      }
    }
  }
}

TEST_F(PhysicalDevice, SparseImageFormatPropertiesEmptyWithoutSparse) {
  if (features_.sparseResidencyImage2D) GTEST_SKIP() << "device supports sparse residency";
  uint32_t count = 123;
  vkGetPhysicalDeviceSparseImageFormatProperties(phys_, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D,
                                                 VK_SAMPLE_COUNT_1_BIT, VK_IMAGE_USAGE_SAMPLED_BIT,
                                                 VK_IMAGE_TILING_OPTIMAL, &count, nullptr);
  EXPECT_EQ(count, 0u);
  VkPhysicalDeviceSparseImageFormatInfo2 info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SPARSE_IMAGE_FORMAT_INFO_2};
  info.format = VK_FORMAT_R8G8B8A8_UNORM;
  info.type = VK_IMAGE_TYPE_2D;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.usage = VK_IMAGE_USAGE_SAMPLED_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  uint32_t count2 = 123;
  vkGetPhysicalDeviceSparseImageFormatProperties2(phys_, &info, &count2, nullptr);
  EXPECT_EQ(count2, 0u);
}

// --- tools ---------------------------------------------------------------------------

TEST_F(PhysicalDevice, ToolProperties) {
  uint32_t count = 0;
  VK_ASSERT_OK(vkGetPhysicalDeviceToolProperties(phys_, &count, nullptr));
  std::vector<VkPhysicalDeviceToolProperties> tools(count, {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TOOL_PROPERTIES});
  VK_ASSERT_OK(vkGetPhysicalDeviceToolProperties(phys_, &count, tools.data()));
  for (const auto& t : tools) {
    EXPECT_LT(strnlen(t.name, VK_MAX_EXTENSION_NAME_SIZE), size_t(VK_MAX_EXTENSION_NAME_SIZE));
    EXPECT_NE(t.purposes, 0u) << t.name;
  }
}

}  // namespace
}  // namespace duet_test
