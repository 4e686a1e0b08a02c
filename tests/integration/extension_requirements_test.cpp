// Every advertised extension against what the spec asks of it: the
// extensions it depends on (vk.xml) are advertised too, the features the
// spec's "Feature Requirements" list for it are supported, a device with
// all of them enabled can be created, and each one's commands resolve
// through vkGetDeviceProcAddr (or vkGetInstanceProcAddr) once enabled.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core_commands.h"
#include "vk_fixture.h"

namespace duet_test {
namespace {

std::vector<std::string> Split(const std::string& text, char separator) {
  std::vector<std::string> out;
  std::stringstream stream(text);
  for (std::string item; std::getline(stream, item, separator);)
    if (!item.empty()) out.push_back(item);
  return out;
}

const KnownExtension* Known(const std::string& name) {
  for (const KnownExtension& e : kKnownExtensions)
    if (name == e.name) return &e;
  return nullptr;
}

// Every feature the tests below read, from one vkGetPhysicalDeviceFeatures2.
struct AllFeatures {
  VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkPhysicalDeviceExtendedDynamicStateFeaturesEXT eds{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_FEATURES_EXT};
  VkPhysicalDeviceExtendedDynamicState2FeaturesEXT eds2{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT};
  VkPhysicalDeviceTexelBufferAlignmentFeaturesEXT texel_buffer_alignment{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXEL_BUFFER_ALIGNMENT_FEATURES_EXT};
  VkPhysicalDeviceSwapchainMaintenance1FeaturesEXT swapchain_maintenance1{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SWAPCHAIN_MAINTENANCE_1_FEATURES_EXT};
  VkPhysicalDeviceConditionalRenderingFeaturesEXT conditional_rendering{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONDITIONAL_RENDERING_FEATURES_EXT};
  VkPhysicalDeviceRobustness2FeaturesEXT robustness2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT};
  VkPhysicalDevice4444FormatsFeaturesEXT formats_4444{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_4444_FORMATS_FEATURES_EXT};
  VkPhysicalDeviceDepthClipControlFeaturesEXT depth_clip_control{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_CONTROL_FEATURES_EXT};
  VkPhysicalDeviceDepthClipEnableFeaturesEXT depth_clip_enable{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_ENABLE_FEATURES_EXT};
  VkPhysicalDeviceAttachmentFeedbackLoopLayoutFeaturesEXT feedback_loop{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ATTACHMENT_FEEDBACK_LOOP_LAYOUT_FEATURES_EXT};
  VkPhysicalDeviceColorWriteEnableFeaturesEXT color_write_enable{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COLOR_WRITE_ENABLE_FEATURES_EXT};
  VkPhysicalDeviceCustomBorderColorFeaturesEXT custom_border_color{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_FEATURES_EXT};
  VkPhysicalDeviceBorderColorSwizzleFeaturesEXT border_color_swizzle{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BORDER_COLOR_SWIZZLE_FEATURES_EXT};
  VkPhysicalDeviceIndexTypeUint8FeaturesEXT index_type_uint8{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INDEX_TYPE_UINT8_FEATURES_EXT};
  VkPhysicalDevicePrimitiveTopologyListRestartFeaturesEXT list_restart{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVE_TOPOLOGY_LIST_RESTART_FEATURES_EXT};
  VkPhysicalDeviceProvokingVertexFeaturesEXT provoking_vertex{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_FEATURES_EXT};
  VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT divisor{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT};
  VkPhysicalDeviceVertexInputDynamicStateFeaturesEXT vertex_input{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_INPUT_DYNAMIC_STATE_FEATURES_EXT};
  VkPhysicalDeviceMultiDrawFeaturesEXT multi_draw{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT};
  VkPhysicalDeviceNonSeamlessCubeMapFeaturesEXT non_seamless_cube{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_NON_SEAMLESS_CUBE_MAP_FEATURES_EXT};
  VkPhysicalDeviceShaderClockFeaturesKHR clock{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR};
  VkPhysicalDevicePipelineRobustnessFeaturesEXT pipeline_robustness{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_FEATURES_EXT};
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic_float{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
  VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT atomic_float2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT};

  explicit AllFeatures(VkPhysicalDevice phys, const std::set<std::string>& extensions) {
    f2.pNext = &v11;
    v11.pNext = &v12;
    v12.pNext = &v13;
    void** tail = &v13.pNext;
    // Extension structs only when their extension is advertised (others
    // may not be chained: the driver would not know them).
    auto chain = [&](const char* extension, auto& s) {
      if (extensions.count(extension) == 0) return;
      *tail = &s;
      tail = &s.pNext;
    };
    chain("VK_EXT_extended_dynamic_state", eds);
    chain("VK_EXT_extended_dynamic_state2", eds2);
    chain("VK_EXT_texel_buffer_alignment", texel_buffer_alignment);
    chain("VK_EXT_swapchain_maintenance1", swapchain_maintenance1);
    chain("VK_EXT_conditional_rendering", conditional_rendering);
    chain("VK_EXT_robustness2", robustness2);
    chain("VK_EXT_4444_formats", formats_4444);
    chain("VK_EXT_depth_clip_control", depth_clip_control);
    chain("VK_EXT_depth_clip_enable", depth_clip_enable);
    chain("VK_EXT_attachment_feedback_loop_layout", feedback_loop);
    chain("VK_EXT_color_write_enable", color_write_enable);
    chain("VK_EXT_custom_border_color", custom_border_color);
    chain("VK_EXT_border_color_swizzle", border_color_swizzle);
    chain("VK_EXT_index_type_uint8", index_type_uint8);
    chain("VK_EXT_primitive_topology_list_restart", list_restart);
    chain("VK_EXT_provoking_vertex", provoking_vertex);
    chain("VK_EXT_vertex_attribute_divisor", divisor);
    chain("VK_EXT_vertex_input_dynamic_state", vertex_input);
    chain("VK_EXT_multi_draw", multi_draw);
    chain("VK_EXT_non_seamless_cube_map", non_seamless_cube);
    chain("VK_KHR_shader_clock", clock);
    chain("VK_EXT_pipeline_robustness", pipeline_robustness);
    chain("VK_EXT_shader_atomic_float", atomic_float);
    chain("VK_EXT_shader_atomic_float2", atomic_float2);
    vkGetPhysicalDeviceFeatures2(phys, &f2);
  }
};

// The spec's "Feature Requirements": a feature (or, where it says so, one
// of several) that must be supported when the extension is.
using FeatureCheck = std::function<bool(const AllFeatures&)>;
const std::map<std::string, FeatureCheck>& FeatureRequirements() {
  static const std::map<std::string, FeatureCheck> table = {
      {"VK_KHR_16bit_storage", [](const AllFeatures& f) { return f.v11.storageBuffer16BitAccess; }},
      {"VK_KHR_8bit_storage", [](const AllFeatures& f) { return f.v12.storageBuffer8BitAccess; }},
      {"VK_KHR_buffer_device_address", [](const AllFeatures& f) { return f.v12.bufferDeviceAddress; }},
      {"VK_KHR_dynamic_rendering", [](const AllFeatures& f) { return f.v13.dynamicRendering; }},
      {"VK_KHR_imageless_framebuffer", [](const AllFeatures& f) { return f.v12.imagelessFramebuffer; }},
      {"VK_KHR_maintenance4", [](const AllFeatures& f) { return f.v13.maintenance4; }},
      {"VK_KHR_multiview", [](const AllFeatures& f) { return f.v11.multiview; }},
      {"VK_KHR_sampler_mirror_clamp_to_edge", [](const AllFeatures& f) { return f.v12.samplerMirrorClampToEdge; }},
      {"VK_KHR_sampler_ycbcr_conversion", [](const AllFeatures& f) { return f.v11.samplerYcbcrConversion; }},
      {"VK_KHR_separate_depth_stencil_layouts",
       [](const AllFeatures& f) { return f.v12.separateDepthStencilLayouts; }},
      {"VK_KHR_shader_atomic_int64", [](const AllFeatures& f) { return f.v12.shaderBufferInt64Atomics; }},
      {"VK_KHR_shader_draw_parameters", [](const AllFeatures& f) { return f.v11.shaderDrawParameters; }},
      {"VK_KHR_shader_float16_int8", [](const AllFeatures& f) { return f.v12.shaderFloat16 || f.v12.shaderInt8; }},
      {"VK_KHR_shader_integer_dot_product", [](const AllFeatures& f) { return f.v13.shaderIntegerDotProduct; }},
      {"VK_KHR_shader_subgroup_extended_types",
       [](const AllFeatures& f) { return f.v12.shaderSubgroupExtendedTypes; }},
      {"VK_KHR_shader_terminate_invocation", [](const AllFeatures& f) { return f.v13.shaderTerminateInvocation; }},
      {"VK_KHR_synchronization2", [](const AllFeatures& f) { return f.v13.synchronization2; }},
      {"VK_KHR_timeline_semaphore", [](const AllFeatures& f) { return f.v12.timelineSemaphore; }},
      {"VK_KHR_uniform_buffer_standard_layout",
       [](const AllFeatures& f) { return f.v12.uniformBufferStandardLayout; }},
      {"VK_KHR_variable_pointers", [](const AllFeatures& f) { return f.v11.variablePointersStorageBuffer; }},
      {"VK_KHR_vulkan_memory_model", [](const AllFeatures& f) { return f.v12.vulkanMemoryModel; }},
      {"VK_KHR_zero_initialize_workgroup_memory",
       [](const AllFeatures& f) { return f.v13.shaderZeroInitializeWorkgroupMemory; }},
      {"VK_EXT_descriptor_indexing",
       [](const AllFeatures& f) {
         const VkPhysicalDeviceVulkan12Features& v = f.v12;
         return f.f2.features.shaderSampledImageArrayDynamicIndexing &&
                f.f2.features.shaderStorageBufferArrayDynamicIndexing && v.shaderUniformTexelBufferArrayDynamicIndexing &&
                v.shaderStorageTexelBufferArrayDynamicIndexing && v.shaderSampledImageArrayNonUniformIndexing &&
                v.shaderStorageBufferArrayNonUniformIndexing && v.shaderUniformTexelBufferArrayNonUniformIndexing &&
                v.descriptorBindingSampledImageUpdateAfterBind && v.descriptorBindingStorageImageUpdateAfterBind &&
                v.descriptorBindingStorageBufferUpdateAfterBind &&
                v.descriptorBindingUniformTexelBufferUpdateAfterBind &&
                v.descriptorBindingStorageTexelBufferUpdateAfterBind && v.descriptorBindingUpdateUnusedWhilePending &&
                v.descriptorBindingPartiallyBound && v.runtimeDescriptorArray &&
                v.descriptorIndexing;  // the 1.2 struct's summary of them (the CTS checks they agree)
       }},
      {"VK_EXT_extended_dynamic_state", [](const AllFeatures& f) { return f.eds.extendedDynamicState; }},
      {"VK_EXT_extended_dynamic_state2", [](const AllFeatures& f) { return f.eds2.extendedDynamicState2; }},
      {"VK_EXT_host_query_reset", [](const AllFeatures& f) { return f.v12.hostQueryReset; }},
      {"VK_EXT_image_robustness", [](const AllFeatures& f) { return f.v13.robustImageAccess; }},
      {"VK_EXT_inline_uniform_block", [](const AllFeatures& f) { return f.v13.inlineUniformBlock; }},
      {"VK_EXT_pipeline_creation_cache_control",
       [](const AllFeatures& f) { return f.v13.pipelineCreationCacheControl; }},
      {"VK_EXT_private_data", [](const AllFeatures& f) { return f.v13.privateData; }},
      {"VK_EXT_sampler_filter_minmax", [](const AllFeatures& f) { return f.v12.samplerFilterMinmax; }},
      {"VK_EXT_scalar_block_layout", [](const AllFeatures& f) { return f.v12.scalarBlockLayout; }},
      {"VK_EXT_shader_demote_to_helper_invocation",
       [](const AllFeatures& f) { return f.v13.shaderDemoteToHelperInvocation; }},
      {"VK_EXT_shader_viewport_index_layer",
       [](const AllFeatures& f) { return f.v12.shaderOutputViewportIndex && f.v12.shaderOutputLayer; }},
      {"VK_EXT_subgroup_size_control",
       [](const AllFeatures& f) { return f.v13.subgroupSizeControl && f.v13.computeFullSubgroups; }},
      {"VK_EXT_swapchain_maintenance1", [](const AllFeatures& f) { return f.swapchain_maintenance1.swapchainMaintenance1; }},
      {"VK_EXT_texel_buffer_alignment", [](const AllFeatures& f) { return f.texel_buffer_alignment.texelBufferAlignment; }},
      {"VK_EXT_conditional_rendering", [](const AllFeatures& f) { return f.conditional_rendering.conditionalRendering; }},
      {"VK_EXT_robustness2",  // one of the three
       [](const AllFeatures& f) {
         return f.robustness2.robustBufferAccess2 || f.robustness2.robustImageAccess2 || f.robustness2.nullDescriptor;
       }},
      {"VK_EXT_4444_formats", [](const AllFeatures& f) { return f.formats_4444.formatA4R4G4B4; }},
      {"VK_KHR_shader_clock", [](const AllFeatures& f) { return f.clock.shaderSubgroupClock; }},
      {"VK_EXT_pipeline_robustness", [](const AllFeatures& f) { return f.pipeline_robustness.pipelineRobustness; }},
      {"VK_EXT_shader_atomic_float",  // one of them
       [](const AllFeatures& f) {
         return f.atomic_float.shaderBufferFloat32Atomics || f.atomic_float.shaderSharedFloat32Atomics ||
                f.atomic_float.shaderImageFloat32Atomics;
       }},
      {"VK_EXT_shader_atomic_float2",  // one of the 32-bit ones
       [](const AllFeatures& f) {
         return f.atomic_float2.shaderBufferFloat32AtomicMinMax || f.atomic_float2.shaderSharedFloat32AtomicMinMax ||
                f.atomic_float2.shaderImageFloat32AtomicMinMax;
       }},
      {"VK_EXT_depth_clip_control", [](const AllFeatures& f) { return f.depth_clip_control.depthClipControl; }},
      {"VK_EXT_depth_clip_enable", [](const AllFeatures& f) { return f.depth_clip_enable.depthClipEnable; }},
      {"VK_EXT_attachment_feedback_loop_layout", [](const AllFeatures& f) { return f.feedback_loop.attachmentFeedbackLoopLayout; }},
      {"VK_EXT_color_write_enable", [](const AllFeatures& f) { return f.color_write_enable.colorWriteEnable; }},
      {"VK_EXT_custom_border_color", [](const AllFeatures& f) { return f.custom_border_color.customBorderColors; }},
      {"VK_EXT_border_color_swizzle", [](const AllFeatures& f) { return f.border_color_swizzle.borderColorSwizzle; }},
      {"VK_EXT_index_type_uint8", [](const AllFeatures& f) { return f.index_type_uint8.indexTypeUint8; }},
      {"VK_EXT_primitive_topology_list_restart", [](const AllFeatures& f) { return f.list_restart.primitiveTopologyListRestart; }},
      {"VK_EXT_provoking_vertex", [](const AllFeatures& f) { return f.provoking_vertex.provokingVertexLast; }},
      {"VK_EXT_vertex_attribute_divisor", [](const AllFeatures& f) { return f.divisor.vertexAttributeInstanceRateDivisor; }},
      {"VK_EXT_vertex_input_dynamic_state", [](const AllFeatures& f) { return f.vertex_input.vertexInputDynamicState; }},
      {"VK_EXT_multi_draw", [](const AllFeatures& f) { return f.multi_draw.multiDraw; }},
      {"VK_EXT_non_seamless_cube_map", [](const AllFeatures& f) { return f.non_seamless_cube.nonSeamlessCubeMap; }},
  };
  return table;
}

class ExtensionRequirementsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    uint32_t count = 0;
    ASSERT_EQ(vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr), VK_SUCCESS);
    std::vector<VkExtensionProperties> props(count);
    ASSERT_EQ(vkEnumerateInstanceExtensionProperties(nullptr, &count, props.data()), VK_SUCCESS);
    for (const VkExtensionProperties& p : props) {
      const KnownExtension* known = Known(p.extensionName);
      // The loader adds extensions of its own (debug_report, portability_enumeration).
      if (known != nullptr && !known->device) instance_extensions_.insert(p.extensionName);
    }
    std::vector<const char*> names;
    for (const std::string& n : instance_extensions_) names.push_back(n.c_str());
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_3;
    VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ci.pApplicationInfo = &app;
    ci.enabledExtensionCount = uint32_t(names.size());
    ci.ppEnabledExtensionNames = names.data();
    ASSERT_EQ(vkCreateInstance(&ci, nullptr, &instance_), VK_SUCCESS);
    uint32_t devices = 1;
    ASSERT_GE(vkEnumeratePhysicalDevices(instance_, &devices, &phys_), VK_SUCCESS);
    ASSERT_NE(phys_, VK_NULL_HANDLE);
    count = 0;
    ASSERT_EQ(vkEnumerateDeviceExtensionProperties(phys_, nullptr, &count, nullptr), VK_SUCCESS);
    std::vector<VkExtensionProperties> device_props(count);
    ASSERT_EQ(vkEnumerateDeviceExtensionProperties(phys_, nullptr, &count, device_props.data()), VK_SUCCESS);
    for (const VkExtensionProperties& p : device_props) device_extensions_.insert(p.extensionName);
  }
  void TearDown() override {
    if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
  }

  bool Advertised(const std::string& name) const {
    return instance_extensions_.count(name) != 0 || device_extensions_.count(name) != 0;
  }

  std::set<std::string> instance_extensions_, device_extensions_;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice phys_ = VK_NULL_HANDLE;
};

TEST_F(ExtensionRequirementsTest, EveryAdvertisedExtensionIsARealOneOfItsKind) {
  for (const std::string& name : device_extensions_) {
    const KnownExtension* known = Known(name);
    ASSERT_NE(known, nullptr) << name << " is not in the registry";
    EXPECT_TRUE(known->device) << name << " is an instance extension, advertised as a device one";
  }
}

TEST_F(ExtensionRequirementsTest, ExtensionsTheyDependOnAreAdvertised) {
  std::set<std::string> all = instance_extensions_;
  all.insert(device_extensions_.begin(), device_extensions_.end());
  for (const std::string& name : all) {
    const KnownExtension* known = Known(name);
    ASSERT_NE(known, nullptr) << name;
    for (const std::string& dependency : Split(known->dependencies, ',')) {
      if (dependency.rfind("VK_VERSION_", 0) == 0) continue;  // the device is Vulkan 1.3
      EXPECT_TRUE(Advertised(dependency)) << name << " requires " << dependency << ", which is not advertised";
    }
  }
}

TEST_F(ExtensionRequirementsTest, FeaturesTheSpecRequiresAreSupported) {
  const AllFeatures features(phys_, device_extensions_);
  for (const std::string& name : device_extensions_) {
    auto it = FeatureRequirements().find(name);
    if (it == FeatureRequirements().end()) continue;
    EXPECT_TRUE(it->second(features)) << name << " is advertised without the feature the spec requires of it";
  }
}

// A device with every advertised device extension: its commands (and the
// physical-device commands of the device extensions) resolve.
TEST_F(ExtensionRequirementsTest, AllAtOnceAndTheirCommandsResolve) {
  std::vector<const char*> names;
  for (const std::string& n : device_extensions_) names.push_back(n.c_str());
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  VkDeviceCreateInfo ci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  ci.queueCreateInfoCount = 1;
  ci.pQueueCreateInfos = &queue;
  ci.enabledExtensionCount = uint32_t(names.size());
  ci.ppEnabledExtensionNames = names.data();
  VkDevice device = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateDevice(phys_, &ci, nullptr, &device), VK_SUCCESS);
  for (const std::string& name : device_extensions_) {
    for (const std::string& entry : Split(Known(name)->commands, ' ')) {
      const size_t at = entry.find('@');
      const std::string command = entry.substr(0, at);
      if (at != std::string::npos && !Advertised(entry.substr(at + 1))) continue;
      const bool device_level = vkGetDeviceProcAddr(device, command.c_str()) != nullptr;
      const bool instance_level = vkGetInstanceProcAddr(instance_, command.c_str()) != nullptr;
      EXPECT_TRUE(device_level || instance_level) << command << " of " << name << " does not resolve";
    }
  }
  for (const std::string& name : instance_extensions_) {
    for (const std::string& entry : Split(Known(name)->commands, ' ')) {
      const size_t at = entry.find('@');
      if (at != std::string::npos && !Advertised(entry.substr(at + 1))) continue;
      const std::string command = entry.substr(0, at);
      EXPECT_NE(vkGetInstanceProcAddr(instance_, command.c_str()), nullptr)
          << command << " of " << name << " does not resolve";
    }
  }
  vkDestroyDevice(device, nullptr);
}

// Not advertised: device creation fails with VK_ERROR_EXTENSION_NOT_PRESENT.
TEST_F(ExtensionRequirementsTest, AnExtensionNotAdvertisedFailsDeviceCreation) {
  const char* missing = nullptr;
  for (const char* name : kKnownDeviceExtensions)
    if (device_extensions_.count(name) == 0) {
      missing = name;
      break;
    }
  ASSERT_NE(missing, nullptr);
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  VkDeviceCreateInfo ci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  ci.queueCreateInfoCount = 1;
  ci.pQueueCreateInfos = &queue;
  ci.enabledExtensionCount = 1;
  ci.ppEnabledExtensionNames = &missing;
  VkDevice device = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateDevice(phys_, &ci, nullptr, &device), VK_ERROR_EXTENSION_NOT_PRESENT) << missing;
  if (device != VK_NULL_HANDLE) vkDestroyDevice(device, nullptr);
}

}  // namespace
}  // namespace duet_test
