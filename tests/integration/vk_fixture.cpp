#include "vk_fixture.h"

#include <dlfcn.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#ifndef DUET_ICD_MANIFEST
#error "DUET_ICD_MANIFEST must name the build tree's duet_icd.json"
#endif

namespace duet_test {

std::string IcdManifestPath() {
  const char* override_path = std::getenv("DUET_TEST_ICD_FILENAMES");
  if (override_path != nullptr && override_path[0] != '\0') return override_path;
  return DUET_ICD_MANIFEST;
}

namespace {

// The "library_path" string of an ICD manifest (no JSON library needed for
// one well-known key; escapes are not expected in a path we generate).
std::string ManifestLibraryPath(const std::string& manifest) {
  std::ifstream in(manifest);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  const size_t key = text.find("\"library_path\"");
  if (key == std::string::npos) return {};
  const size_t open = text.find('"', text.find(':', key) + 1);
  if (open == std::string::npos) return {};
  const size_t close = text.find('"', open + 1);
  if (close == std::string::npos) return {};
  return text.substr(open + 1, close - open - 1);
}

}  // namespace

void SetUpLoaderEnvironment() {
  const std::string manifest = IcdManifestPath();
  setenv("VK_ICD_FILENAMES", manifest.c_str(), 1);
  // Newer loaders prefer VK_DRIVER_FILES over VK_ICD_FILENAMES, and
  // VK_ADD_DRIVER_FILES would add drivers: the tests want exactly one.
  unsetenv("VK_DRIVER_FILES");
  unsetenv("VK_ADD_DRIVER_FILES");

  const char* pin = std::getenv("DUET_TEST_PIN_ICD");
  if (pin != nullptr && std::strcmp(pin, "1") == 0) {
    const std::string lib = ManifestLibraryPath(manifest);
    if (lib.empty() || dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) == nullptr) {
      std::fprintf(stderr, "duet tests: DUET_TEST_PIN_ICD: cannot dlopen '%s': %s\n", lib.c_str(), dlerror());
    }
  }
}

const char* ResultName(VkResult r) {
  switch (r) {
#define CASE(x) \
  case x:       \
    return #x;
    CASE(VK_SUCCESS)
    CASE(VK_NOT_READY)
    CASE(VK_TIMEOUT)
    CASE(VK_EVENT_SET)
    CASE(VK_EVENT_RESET)
    CASE(VK_INCOMPLETE)
    CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    CASE(VK_ERROR_INITIALIZATION_FAILED)
    CASE(VK_ERROR_DEVICE_LOST)
    CASE(VK_ERROR_MEMORY_MAP_FAILED)
    CASE(VK_ERROR_LAYER_NOT_PRESENT)
    CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    CASE(VK_ERROR_TOO_MANY_OBJECTS)
    CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    CASE(VK_ERROR_FRAGMENTED_POOL)
    CASE(VK_ERROR_UNKNOWN)
    CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    CASE(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    CASE(VK_ERROR_FRAGMENTATION)
    CASE(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    CASE(VK_PIPELINE_COMPILE_REQUIRED)
    CASE(VK_ERROR_SURFACE_LOST_KHR)
    CASE(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR)
    CASE(VK_SUBOPTIMAL_KHR)
    CASE(VK_ERROR_OUT_OF_DATE_KHR)
    CASE(VK_ERROR_VALIDATION_FAILED_EXT)
#undef CASE
    default:
      return "VkResult(?)";
  }
}

// ---------------------------------------------------------------------------
// MessageLog

VKAPI_ATTR VkBool32 VKAPI_CALL MessageLog::Callback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                    VkDebugUtilsMessageTypeFlagsEXT types,
                                                    const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  auto* log = static_cast<MessageLog*>(user);
  DebugMessage m;
  m.severity = severity;
  m.types = types;
  if (data != nullptr) {
    m.id_name = data->pMessageIdName != nullptr ? data->pMessageIdName : "";
    m.id_number = data->messageIdNumber;
    m.text = data->pMessage != nullptr ? data->pMessage : "(null pMessage)";
  }
  if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
    std::fprintf(stderr, "[debug-utils %s] %s\n",
                 severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? "error" : "warning", m.text.c_str());
  }
  if (log != nullptr) {
    std::lock_guard<std::mutex> lock(log->mu_);
    log->messages_.push_back(std::move(m));
  }
  return VK_FALSE;  // the spec requires applications to return VK_FALSE
}

std::vector<DebugMessage> MessageLog::Snapshot() const {
  std::lock_guard<std::mutex> lock(mu_);
  return messages_;
}

size_t MessageLog::Count(const std::string& needle) const {
  std::lock_guard<std::mutex> lock(mu_);
  size_t n = 0;
  for (const auto& m : messages_)
    if (m.text.find(needle) != std::string::npos) ++n;
  return n;
}

void MessageLog::Clear() {
  std::lock_guard<std::mutex> lock(mu_);
  messages_.clear();
}

VkDebugUtilsMessengerCreateInfoEXT MessageLog::CreateInfo(const void* next) {
  VkDebugUtilsMessengerCreateInfoEXT ci{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  ci.pNext = next;
  ci.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  ci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                   VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  ci.pfnUserCallback = &MessageLog::Callback;
  ci.pUserData = this;
  return ci;
}

// ---------------------------------------------------------------------------
// Free helpers

bool HasExtension(const std::vector<VkExtensionProperties>& exts, const char* name) {
  for (const auto& e : exts)
    if (std::strcmp(e.extensionName, name) == 0) return true;
  return false;
}

std::vector<VkExtensionProperties> InstanceExtensions(const char* layer) {
  uint32_t count = 0;
  if (vkEnumerateInstanceExtensionProperties(layer, &count, nullptr) != VK_SUCCESS) return {};
  std::vector<VkExtensionProperties> exts(count);
  if (vkEnumerateInstanceExtensionProperties(layer, &count, exts.data()) != VK_SUCCESS) return {};
  exts.resize(count);
  return exts;
}

std::vector<VkExtensionProperties> DeviceExtensions(VkPhysicalDevice pd) {
  uint32_t count = 0;
  if (vkEnumerateDeviceExtensionProperties(pd, nullptr, &count, nullptr) != VK_SUCCESS) return {};
  std::vector<VkExtensionProperties> exts(count);
  if (vkEnumerateDeviceExtensionProperties(pd, nullptr, &count, exts.data()) != VK_SUCCESS) return {};
  exts.resize(count);
  return exts;
}

uint64_t PhysicalRamBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return uint64_t(pages) * uint64_t(page_size);
}

VkImageCreateInfo ImageInfo(VkImageType type, VkFormat format, VkExtent3D extent, uint32_t mips, uint32_t layers,
                            VkImageUsageFlags usage, VkImageTiling tiling) {
  VkImageCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ci.imageType = type;
  ci.format = format;
  ci.extent = extent;
  ci.mipLevels = mips;
  ci.arrayLayers = layers;
  ci.samples = VK_SAMPLE_COUNT_1_BIT;
  ci.tiling = tiling;
  ci.usage = usage;
  ci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  ci.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  return ci;
}

// ---------------------------------------------------------------------------
// InstanceTest

void InstanceTest::SetUp() {
  debug_utils_ = HasExtension(InstanceExtensions(), VK_EXT_DEBUG_UTILS_EXTENSION_NAME);

  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "duet_integration_tests";
  app.applicationVersion = 1;
  app.pEngineName = "duet_test";
  app.engineVersion = 1;
  app.apiVersion = VK_API_VERSION_1_3;

  // A messenger chained into the create info sees messages emitted while the
  // instance is created and destroyed.
  VkDebugUtilsMessengerCreateInfoEXT chained = log_.CreateInfo();
  std::vector<const char*> exts = instance_extensions_;
  VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ci.pApplicationInfo = &app;
  if (debug_utils_) {
    ci.pNext = &chained;
    exts.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  }
  ci.enabledExtensionCount = static_cast<uint32_t>(exts.size());
  ci.ppEnabledExtensionNames = exts.data();
  // DUET_TEST_VALIDATION=1 runs the tests under the Khronos validation layer
  // (checks the tests' own API usage; QueueTest fails on any error it reports).
  const char* layers[] = {"VK_LAYER_KHRONOS_validation"};
  const char* validation = std::getenv("DUET_TEST_VALIDATION");
  if (validation != nullptr && std::strcmp(validation, "1") == 0) {
    ci.enabledLayerCount = 1;
    ci.ppEnabledLayerNames = layers;
    validation_layer_ = true;
  }
  VK_ASSERT_OK(vkCreateInstance(&ci, nullptr, &instance_));

  if (debug_utils_) {
    auto create = InstanceProc<PFN_vkCreateDebugUtilsMessengerEXT>("vkCreateDebugUtilsMessengerEXT");
    ASSERT_NE(create, nullptr);
    VkDebugUtilsMessengerCreateInfoEXT mci = log_.CreateInfo();
    VK_ASSERT_OK(create(instance_, &mci, nullptr, &messenger_));
  }

  uint32_t count = 0;
  VK_ASSERT_OK(vkEnumeratePhysicalDevices(instance_, &count, nullptr));
  ASSERT_GE(count, 1u) << "no physical device through " << IcdManifestPath();
  std::vector<VkPhysicalDevice> pds(count);
  VK_ASSERT_OK(vkEnumeratePhysicalDevices(instance_, &count, pds.data()));
  phys_ = pds[0];
  ASSERT_NE(phys_, VK_NULL_HANDLE);

  vkGetPhysicalDeviceProperties(phys_, &props_);
  vkGetPhysicalDeviceFeatures(phys_, &features_);
  vkGetPhysicalDeviceMemoryProperties(phys_, &mem_props_);

  uint32_t qcount = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(phys_, &qcount, nullptr);
  std::vector<VkQueueFamilyProperties> qprops(qcount);
  vkGetPhysicalDeviceQueueFamilyProperties(phys_, &qcount, qprops.data());
  const VkQueueFlags want = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT;
  for (uint32_t i = 0; i < qcount; ++i) {
    if ((qprops[i].queueFlags & want) == want && qprops[i].queueCount >= 1) {
      queue_family_ = i;
      break;
    }
  }
}

void InstanceTest::RunInstanceCleanups() {
  while (!instance_cleanups_.empty()) {
    auto fn = std::move(instance_cleanups_.back());
    instance_cleanups_.pop_back();
    fn();
  }
}

void InstanceTest::TearDown() {
  RunInstanceCleanups();
  if (instance_ != VK_NULL_HANDLE) {
    if (messenger_ != VK_NULL_HANDLE) {
      auto destroy = InstanceProc<PFN_vkDestroyDebugUtilsMessengerEXT>("vkDestroyDebugUtilsMessengerEXT");
      if (destroy != nullptr) destroy(instance_, messenger_, nullptr);
      messenger_ = VK_NULL_HANDLE;
    }
    vkDestroyInstance(instance_, nullptr);
    instance_ = VK_NULL_HANDLE;
  }
}

InstanceTest::Features13 InstanceTest::QueryFeatures13() {
  Features13 f;
  f.Link();
  vkGetPhysicalDeviceFeatures2(phys_, &f.f2);
  f.Link();
  return f;
}

// ---------------------------------------------------------------------------
// DeviceTest

void DeviceTest::SetUp() {
  InstanceTest::SetUp();
  if (HasFatalFailure()) return;
  ASSERT_NE(queue_family_, UINT32_MAX) << "no GRAPHICS|COMPUTE|TRANSFER queue family";

  Features13 supported = QueryFeatures13();
  VkPhysicalDeviceVulkan13Features enable13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkPhysicalDeviceVulkan12Features enable12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  enable13.privateData = supported.v13.privateData;
  // Required by Vulkan 1.3: tests may ask for subgroup sizes.
  enable13.subgroupSizeControl = supported.v13.subgroupSizeControl;
  enable13.computeFullSubgroups = supported.v13.computeFullSubgroups;
  // ... and pipeline create flags that ask about the pipeline cache.
  enable13.pipelineCreationCacheControl = supported.v13.pipelineCreationCacheControl;
  private_data_enabled_ = supported.v13.privateData == VK_TRUE;
  const void* chain = private_data_enabled_ ? &enable13 : nullptr;
  if (device_options_.sync_features) {
    // All three are required by Vulkan 1.3; a device without them fails here.
    ASSERT_EQ(supported.v12.timelineSemaphore, VK_TRUE);
    ASSERT_EQ(supported.v12.hostQueryReset, VK_TRUE);
    ASSERT_EQ(supported.v13.synchronization2, VK_TRUE);
    enable12.timelineSemaphore = VK_TRUE;
    enable12.hostQueryReset = VK_TRUE;
    enable13.synchronization2 = VK_TRUE;
    enable12.pNext = &enable13;
    chain = &enable12;
    sync_features_enabled_ = true;
  }
  VkPhysicalDeviceVulkan11Features enable11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  if (device_options_.render_pass_features) {
    // All three are required by Vulkan 1.3.
    ASSERT_EQ(supported.v11.multiview, VK_TRUE);
    ASSERT_EQ(supported.v12.imagelessFramebuffer, VK_TRUE);
    ASSERT_EQ(supported.v13.dynamicRendering, VK_TRUE);
    enable11.multiview = VK_TRUE;
    enable11.multiviewGeometryShader = supported.v11.multiviewGeometryShader && device_options_.graphics_features;
    enable11.multiviewTessellationShader =
        supported.v11.multiviewTessellationShader && device_options_.graphics_features;
    enable12.imagelessFramebuffer = VK_TRUE;
    enable13.dynamicRendering = VK_TRUE;
    enable11.pNext = &enable12;
    enable12.pNext = &enable13;
    chain = &enable11;
  }
  VkPhysicalDeviceFeatures enable_core{};
  if (device_options_.graphics_features) {
    enable_core.independentBlend = features_.independentBlend;
    enable_core.dualSrcBlend = features_.dualSrcBlend;
    enable_core.logicOp = features_.logicOp;
    enable_core.depthClamp = features_.depthClamp;
    enable_core.depthBounds = features_.depthBounds;
    enable_core.depthBiasClamp = features_.depthBiasClamp;
    enable_core.multiDrawIndirect = features_.multiDrawIndirect;
    enable_core.drawIndirectFirstInstance = features_.drawIndirectFirstInstance;
    enable_core.sampleRateShading = features_.sampleRateShading;
    enable_core.fillModeNonSolid = features_.fillModeNonSolid;
    enable_core.fragmentStoresAndAtomics = features_.fragmentStoresAndAtomics;
    enable_core.imageCubeArray = features_.imageCubeArray;
    enable_core.fullDrawIndexUint32 = features_.fullDrawIndexUint32;
    enable_core.alphaToOne = features_.alphaToOne;
    enable_core.pipelineStatisticsQuery = features_.pipelineStatisticsQuery;
    enable_core.shaderClipDistance = features_.shaderClipDistance;
    enable_core.geometryShader = features_.geometryShader;
    enable_core.tessellationShader = features_.tessellationShader;
    enable_core.shaderTessellationAndGeometryPointSize = features_.shaderTessellationAndGeometryPointSize;
    enable_core.wideLines = features_.wideLines;
    enable_core.samplerAnisotropy = features_.samplerAnisotropy;
    enable_core.shaderCullDistance = features_.shaderCullDistance;
    enable_core.occlusionQueryPrecise = features_.occlusionQueryPrecise;
    enable_core.inheritedQueries = features_.inheritedQueries;
    enable_core.vertexPipelineStoresAndAtomics = features_.vertexPipelineStoresAndAtomics;
    enable12.drawIndirectCount = supported.v12.drawIndirectCount;
    enable_core.multiViewport = features_.multiViewport;
    enable12.shaderOutputViewportIndex = supported.v12.shaderOutputViewportIndex;
    enable12.shaderOutputLayer = supported.v12.shaderOutputLayer;
    if (chain != &enable11 && chain != &enable12) {  // enable12 must be in the chain
      enable12.pNext = const_cast<void*>(chain);
      chain = &enable12;
    }
    enable11.shaderDrawParameters = supported.v11.shaderDrawParameters;
    if (chain != &enable11) {  // and enable11
      enable11.pNext = const_cast<void*>(chain);
      chain = &enable11;
    }
  }
  if (device_options_.shader_features) {
    ASSERT_EQ(supported.v12.bufferDeviceAddress, VK_TRUE);  // required by Vulkan 1.3
    enable12.bufferDeviceAddress = VK_TRUE;
    enable12.uniformBufferStandardLayout = supported.v12.uniformBufferStandardLayout;  // mandatory in 1.3
    enable12.samplerMirrorClampToEdge = supported.v12.samplerMirrorClampToEdge;
    enable12.scalarBlockLayout = supported.v12.scalarBlockLayout;
    enable12.samplerFilterMinmax = supported.v12.samplerFilterMinmax;
    enable12.vulkanMemoryModel = supported.v12.vulkanMemoryModel;
    enable12.vulkanMemoryModelDeviceScope = supported.v12.vulkanMemoryModelDeviceScope;
    enable12.vulkanMemoryModelAvailabilityVisibilityChains = supported.v12.vulkanMemoryModelAvailabilityVisibilityChains;
    enable_core.samplerAnisotropy = features_.samplerAnisotropy;
    enable13.maintenance4 = supported.v13.maintenance4;  // glslang's compute shaders use LocalSizeId
    enable13.shaderIntegerDotProduct = supported.v13.shaderIntegerDotProduct;
    enable13.inlineUniformBlock = supported.v13.inlineUniformBlock;
    enable13.descriptorBindingInlineUniformBlockUpdateAfterBind =
        supported.v13.descriptorBindingInlineUniformBlockUpdateAfterBind;
    enable_core.shaderUniformBufferArrayDynamicIndexing = features_.shaderUniformBufferArrayDynamicIndexing;
    enable_core.shaderSampledImageArrayDynamicIndexing = features_.shaderSampledImageArrayDynamicIndexing;
    enable_core.shaderStorageBufferArrayDynamicIndexing = features_.shaderStorageBufferArrayDynamicIndexing;
    enable_core.shaderStorageImageArrayDynamicIndexing = features_.shaderStorageImageArrayDynamicIndexing;
    enable_core.shaderStorageImageExtendedFormats = features_.shaderStorageImageExtendedFormats;
    enable_core.shaderStorageImageMultisample = features_.shaderStorageImageMultisample;
    enable_core.shaderStorageImageReadWithoutFormat = features_.shaderStorageImageReadWithoutFormat;
    enable_core.shaderStorageImageWriteWithoutFormat = features_.shaderStorageImageWriteWithoutFormat;
    enable_core.shaderImageGatherExtended = features_.shaderImageGatherExtended;
    enable_core.shaderInt64 = features_.shaderInt64;
    enable_core.shaderFloat64 = features_.shaderFloat64;
    enable12.shaderBufferInt64Atomics = supported.v12.shaderBufferInt64Atomics;
    enable12.shaderSharedInt64Atomics = supported.v12.shaderSharedInt64Atomics;
    enable12.shaderSubgroupExtendedTypes = supported.v12.shaderSubgroupExtendedTypes;
    enable_core.shaderInt16 = features_.shaderInt16;
    enable12.shaderInt8 = supported.v12.shaderInt8;
    enable12.shaderFloat16 = supported.v12.shaderFloat16;
    enable12.storageBuffer8BitAccess = supported.v12.storageBuffer8BitAccess;
    enable12.uniformAndStorageBuffer8BitAccess = supported.v12.uniformAndStorageBuffer8BitAccess;
    enable12.storagePushConstant8 = supported.v12.storagePushConstant8;
    enable11.storageBuffer16BitAccess = supported.v11.storageBuffer16BitAccess;
    enable11.uniformAndStorageBuffer16BitAccess = supported.v11.uniformAndStorageBuffer16BitAccess;
    enable11.storagePushConstant16 = supported.v11.storagePushConstant16;
    enable11.storageInputOutput16 = supported.v11.storageInputOutput16;
    enable11.variablePointersStorageBuffer = supported.v11.variablePointersStorageBuffer;
    enable11.variablePointers = supported.v11.variablePointers;
    // The descriptor indexing members of the 1.2 struct, from
    // shaderInputAttachmentArrayDynamicIndexing to runtimeDescriptorArray.
    const VkBool32* have = &supported.v12.shaderInputAttachmentArrayDynamicIndexing;
    VkBool32* enable = &enable12.shaderInputAttachmentArrayDynamicIndexing;
    const size_t count = &supported.v12.runtimeDescriptorArray - have + 1;
    for (size_t i = 0; i < count; ++i) enable[i] = have[i];
    if (chain != &enable11 && chain != &enable12) {  // enable12 must be in the chain
      enable12.pNext = const_cast<void*>(chain);
      chain = &enable12;
    }
    if (chain != &enable11) {  // and enable11
      enable11.pNext = const_cast<void*>(chain);
      chain = &enable11;
    }
  }

  uint32_t qcount = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(phys_, &qcount, nullptr);
  std::vector<VkQueueFamilyProperties> qprops(qcount);
  vkGetPhysicalDeviceQueueFamilyProperties(phys_, &qcount, qprops.data());
  const uint32_t queue_count = std::max(1u, std::min(device_options_.queue_count, qprops[queue_family_].queueCount));

  const std::vector<float> priorities(queue_count, 1.0f);
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  qci.queueFamilyIndex = queue_family_;
  qci.queueCount = queue_count;
  qci.pQueuePriorities = priorities.data();
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  for (VkBaseOutStructure* extension : device_options_.extension_features) {
    extension->pNext = static_cast<VkBaseOutStructure*>(const_cast<void*>(chain));
    chain = extension;
  }
  dci.pNext = chain;
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  dci.pEnabledFeatures =
      device_options_.graphics_features || device_options_.shader_features ? &enable_core : nullptr;
  dci.enabledExtensionCount = static_cast<uint32_t>(device_options_.extensions.size());
  dci.ppEnabledExtensionNames = device_options_.extensions.data();
  VK_ASSERT_OK(vkCreateDevice(phys_, &dci, nullptr, &device_));
  for (uint32_t i = 0; i < queue_count; ++i) {
    VkQueue q = VK_NULL_HANDLE;
    vkGetDeviceQueue(device_, queue_family_, i, &q);
    ASSERT_NE(q, VK_NULL_HANDLE) << "queue " << i;
    queues_.push_back(q);
  }
  queue_ = queues_[0];
}

void DeviceTest::TearDown() {
  while (!device_cleanups_.empty()) {
    auto fn = std::move(device_cleanups_.back());
    device_cleanups_.pop_back();
    fn();
  }
  if (device_ != VK_NULL_HANDLE) {
    vkDestroyDevice(device_, nullptr);
    device_ = VK_NULL_HANDLE;
  }
  InstanceTest::TearDown();
}

uint32_t DeviceTest::FindMemoryType(uint32_t type_bits, VkMemoryPropertyFlags flags) const {
  for (uint32_t i = 0; i < mem_props_.memoryTypeCount; ++i) {
    if ((type_bits & (1u << i)) && (mem_props_.memoryTypes[i].propertyFlags & flags) == flags) return i;
  }
  return UINT32_MAX;
}

VkBuffer DeviceTest::MakeBuffer(VkDeviceSize size, VkBufferUsageFlags usage) {
  VkBufferCreateInfo ci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  ci.size = size;
  ci.usage = usage;
  ci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkResult r = vkCreateBuffer(device_, &ci, nullptr, &buffer);
  EXPECT_EQ(r, VK_SUCCESS) << "vkCreateBuffer(size " << size << ") -> " << R{r};
  if (r != VK_SUCCESS) return VK_NULL_HANDLE;
  EXPECT_NE(buffer, VK_NULL_HANDLE);
  Defer([this, buffer] { vkDestroyBuffer(device_, buffer, nullptr); });
  return buffer;
}

VkDeviceMemory DeviceTest::MakeMemory(VkDeviceSize size, uint32_t type_index, const void* next) {
  VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  ai.pNext = next;
  ai.allocationSize = size;
  ai.memoryTypeIndex = type_index;
  VkDeviceMemory mem = VK_NULL_HANDLE;
  VkResult r = vkAllocateMemory(device_, &ai, nullptr, &mem);
  EXPECT_EQ(r, VK_SUCCESS) << "vkAllocateMemory(" << size << ", type " << type_index << ") -> " << R{r};
  if (r != VK_SUCCESS) return VK_NULL_HANDLE;
  EXPECT_NE(mem, VK_NULL_HANDLE);
  Defer([this, mem] { vkFreeMemory(device_, mem, nullptr); });
  return mem;
}

VkImage DeviceTest::MakeImage(const VkImageCreateInfo& ci) {
  VkImage image = VK_NULL_HANDLE;
  VkResult r = vkCreateImage(device_, &ci, nullptr, &image);
  EXPECT_EQ(r, VK_SUCCESS) << "vkCreateImage(type " << ci.imageType << ", format " << ci.format << ", "
                           << ci.extent.width << "x" << ci.extent.height << "x" << ci.extent.depth << ", mips "
                           << ci.mipLevels << ", layers " << ci.arrayLayers << ", samples " << ci.samples
                           << ") -> " << R{r};
  if (r != VK_SUCCESS) return VK_NULL_HANDLE;
  EXPECT_NE(image, VK_NULL_HANDLE);
  Defer([this, image] { vkDestroyImage(device_, image, nullptr); });
  return image;
}

VkDeviceMemory DeviceTest::BindNewMemory(VkBuffer buffer) {
  VkMemoryRequirements req{};
  vkGetBufferMemoryRequirements(device_, buffer, &req);
  const uint32_t type = FindMemoryType(req.memoryTypeBits);
  EXPECT_NE(type, UINT32_MAX) << "memoryTypeBits " << req.memoryTypeBits << " names no memory type";
  if (type == UINT32_MAX) return VK_NULL_HANDLE;
  VkDeviceMemory mem = MakeMemory(req.size, type);
  if (mem == VK_NULL_HANDLE) return VK_NULL_HANDLE;
  VK_EXPECT_OK(vkBindBufferMemory(device_, buffer, mem, 0));
  return mem;
}

VkDeviceMemory DeviceTest::BindNewMemory(VkImage image) {
  VkMemoryRequirements req{};
  vkGetImageMemoryRequirements(device_, image, &req);
  const uint32_t type = FindMemoryType(req.memoryTypeBits);
  EXPECT_NE(type, UINT32_MAX) << "memoryTypeBits " << req.memoryTypeBits << " names no memory type";
  if (type == UINT32_MAX) return VK_NULL_HANDLE;
  VkDeviceMemory mem = MakeMemory(req.size, type);
  if (mem == VK_NULL_HANDLE) return VK_NULL_HANDLE;
  VK_EXPECT_OK(vkBindImageMemory(device_, image, mem, 0));
  return mem;
}

// ---------------------------------------------------------------------------
// QueueTest

uint64_t MonotonicNs() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

void SleepMs(uint32_t ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

uint64_t Mix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

void FillPattern(std::span<uint8_t> bytes, uint64_t seed) {
  const uint64_t base = Mix64(seed);
  size_t i = 0;
  for (; i + 8 <= bytes.size(); i += 8) {
    const uint64_t v = Mix64(base + i);
    std::memcpy(bytes.data() + i, &v, 8);
  }
  const uint64_t tail = Mix64(base + i);
  for (size_t k = 0; i < bytes.size(); ++i, ++k) bytes[i] = uint8_t(tail >> (8 * k));
}

size_t FirstDifference(std::span<const uint8_t> a, std::span<const uint8_t> b) {
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return i;
  return a.size() == b.size() ? SIZE_MAX : n;
}

void QueueTest::SetUp() {
  DeviceTest::SetUp();
  if (HasFatalFailure()) return;
  queue2_ = queues_.size() > 1 ? queues_[1] : VK_NULL_HANDLE;
  ASSERT_NO_FATAL_FAILURE(pool_ = MakeCommandPool(VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT));
}

void QueueTest::TearDown() {
  // Nothing may still run when the objects go away.
  if (device_ != VK_NULL_HANDLE) EXPECT_EQ(vkDeviceWaitIdle(device_), VK_SUCCESS);
  if (validation_layer_) {
    for (const DebugMessage& m : log_.Snapshot()) {
      const bool expected = std::find(expected_validation_ids_.begin(), expected_validation_ids_.end(),
                                      m.id_name) != expected_validation_ids_.end();
      if ((m.types & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT) &&
          m.severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT && !expected)
        ADD_FAILURE() << "validation error: " << m.text;
    }
  }
  DeviceTest::TearDown();
}

VkCommandPool QueueTest::MakeCommandPool(VkCommandPoolCreateFlags flags, uint32_t family) {
  VkCommandPoolCreateInfo ci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  ci.flags = flags;
  ci.queueFamilyIndex = family == UINT32_MAX ? queue_family_ : family;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkResult r = vkCreateCommandPool(device_, &ci, nullptr, &pool);
  EXPECT_EQ(r, VK_SUCCESS) << "vkCreateCommandPool -> " << R{r};
  if (r != VK_SUCCESS) return VK_NULL_HANDLE;
  Defer([this, pool] { vkDestroyCommandPool(device_, pool, nullptr); });
  return pool;
}

VkCommandBuffer QueueTest::AllocateCommandBuffer(VkCommandPool pool, VkCommandBufferLevel level) {
  VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  ai.commandPool = pool != VK_NULL_HANDLE ? pool : pool_;
  ai.level = level;
  ai.commandBufferCount = 1;
  VkCommandBuffer cb = VK_NULL_HANDLE;
  VkResult r = vkAllocateCommandBuffers(device_, &ai, &cb);
  EXPECT_EQ(r, VK_SUCCESS) << "vkAllocateCommandBuffers -> " << R{r};
  return r == VK_SUCCESS ? cb : VK_NULL_HANDLE;
}

VkCommandBuffer QueueTest::BeginCommands(VkCommandBufferUsageFlags flags) {
  VkCommandBuffer cb = AllocateCommandBuffer();
  if (cb == VK_NULL_HANDLE) return VK_NULL_HANDLE;
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  bi.flags = flags;
  VkResult r = vkBeginCommandBuffer(cb, &bi);
  EXPECT_EQ(r, VK_SUCCESS) << "vkBeginCommandBuffer -> " << R{r};
  return r == VK_SUCCESS ? cb : VK_NULL_HANDLE;
}

void QueueTest::Submit(VkCommandBuffer cb, VkFence fence, VkQueue queue) {
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cb;
  VK_ASSERT_OK(vkQueueSubmit(queue != VK_NULL_HANDLE ? queue : queue_, 1, &si, fence));
}

void QueueTest::WaitFence(VkFence fence) { VK_ASSERT_OK(vkWaitForFences(device_, 1, &fence, VK_TRUE, kWaitNs)); }

void QueueTest::EndSubmitWait(VkCommandBuffer cb, VkQueue queue) {
  ASSERT_NE(cb, VK_NULL_HANDLE);
  HostReadBarrier(cb);
  VK_ASSERT_OK(vkEndCommandBuffer(cb));
  VkFence fence = MakeFence();
  ASSERT_NE(fence, VK_NULL_HANDLE);
  ASSERT_NO_FATAL_FAILURE(Submit(cb, fence, queue));
  ASSERT_NO_FATAL_FAILURE(WaitFence(fence));
}

namespace {
void GlobalBarrier(VkCommandBuffer cb, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                   VkPipelineStageFlags dst_stage, VkAccessFlags dst_access) {
  VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  mb.srcAccessMask = src_access;
  mb.dstAccessMask = dst_access;
  vkCmdPipelineBarrier(cb, src_stage, dst_stage, 0, 1, &mb, 0, nullptr, 0, nullptr);
}
}  // namespace

void QueueTest::TransferBarrier(VkCommandBuffer cb) {
  GlobalBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
}

void QueueTest::FullBarrier(VkCommandBuffer cb) {
  GlobalBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT);
}

void QueueTest::HostReadBarrier(VkCommandBuffer cb) {
  GlobalBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                VK_ACCESS_HOST_READ_BIT);
}

void QueueTest::ToGeneral(VkCommandBuffer cb, VkImage image, VkImageAspectFlags aspects) {
  VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  b.srcAccessMask = 0;
  b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  b.newLayout = VK_IMAGE_LAYOUT_GENERAL;
  b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image;
  b.subresourceRange = {aspects, 0, VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS};
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &b);
}

VkFence QueueTest::MakeFence(bool signaled) {
  VkFenceCreateInfo ci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  ci.flags = signaled ? VK_FENCE_CREATE_SIGNALED_BIT : 0;
  VkFence fence = VK_NULL_HANDLE;
  VkResult r = vkCreateFence(device_, &ci, nullptr, &fence);
  EXPECT_EQ(r, VK_SUCCESS) << "vkCreateFence -> " << R{r};
  if (r != VK_SUCCESS) return VK_NULL_HANDLE;
  Defer([this, fence] { vkDestroyFence(device_, fence, nullptr); });
  return fence;
}

VkSemaphore QueueTest::MakeBinarySemaphore() {
  VkSemaphoreCreateInfo ci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  VkSemaphore s = VK_NULL_HANDLE;
  VkResult r = vkCreateSemaphore(device_, &ci, nullptr, &s);
  EXPECT_EQ(r, VK_SUCCESS) << "vkCreateSemaphore -> " << R{r};
  if (r != VK_SUCCESS) return VK_NULL_HANDLE;
  Defer([this, s] { vkDestroySemaphore(device_, s, nullptr); });
  return s;
}

VkSemaphore QueueTest::MakeTimelineSemaphore(uint64_t initial) {
  VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  type.initialValue = initial;
  VkSemaphoreCreateInfo ci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  ci.pNext = &type;
  VkSemaphore s = VK_NULL_HANDLE;
  VkResult r = vkCreateSemaphore(device_, &ci, nullptr, &s);
  EXPECT_EQ(r, VK_SUCCESS) << "vkCreateSemaphore(timeline) -> " << R{r};
  if (r != VK_SUCCESS) return VK_NULL_HANDLE;
  Defer([this, s] { vkDestroySemaphore(device_, s, nullptr); });
  return s;
}

VkEvent QueueTest::MakeEvent() {
  VkEventCreateInfo ci{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
  VkEvent e = VK_NULL_HANDLE;
  VkResult r = vkCreateEvent(device_, &ci, nullptr, &e);
  EXPECT_EQ(r, VK_SUCCESS) << "vkCreateEvent -> " << R{r};
  if (r != VK_SUCCESS) return VK_NULL_HANDLE;
  Defer([this, e] { vkDestroyEvent(device_, e, nullptr); });
  return e;
}

VkQueryPool QueueTest::MakeQueryPool(VkQueryType type, uint32_t count) {
  VkQueryPoolCreateInfo ci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  ci.queryType = type;
  ci.queryCount = count;
  VkQueryPool pool = VK_NULL_HANDLE;
  VkResult r = vkCreateQueryPool(device_, &ci, nullptr, &pool);
  EXPECT_EQ(r, VK_SUCCESS) << "vkCreateQueryPool -> " << R{r};
  if (r != VK_SUCCESS) return VK_NULL_HANDLE;
  Defer([this, pool] { vkDestroyQueryPool(device_, pool, nullptr); });
  return pool;
}

QueueTest::HostBuffer QueueTest::MakeHostBuffer(VkDeviceSize size, VkBufferUsageFlags usage) {
  HostBuffer hb;
  hb.size = size;
  hb.buffer = MakeBuffer(size, usage);
  if (hb.buffer == VK_NULL_HANDLE) return hb;
  VkMemoryRequirements req{};
  vkGetBufferMemoryRequirements(device_, hb.buffer, &req);
  const uint32_t type = FindMemoryType(
      req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  EXPECT_NE(type, UINT32_MAX) << "no host-visible coherent memory type for a buffer";
  if (type == UINT32_MAX) return hb;
  hb.memory = MakeMemory(req.size, type);
  if (hb.memory == VK_NULL_HANDLE) return hb;
  VkResult r = vkBindBufferMemory(device_, hb.buffer, hb.memory, 0);
  EXPECT_EQ(r, VK_SUCCESS) << "vkBindBufferMemory -> " << R{r};
  void* map = nullptr;
  r = vkMapMemory(device_, hb.memory, 0, VK_WHOLE_SIZE, 0, &map);
  EXPECT_EQ(r, VK_SUCCESS) << "vkMapMemory -> " << R{r};
  hb.data = static_cast<uint8_t*>(map);
  return hb;
}

VkRenderPass QueueTest::MakeRenderPass(const std::vector<VkAttachmentDescription>& attachments,
                                       const std::vector<VkSubpassDescription>& subpasses, const void* next) {
  VkRenderPassCreateInfo ci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO, next};
  ci.attachmentCount = uint32_t(attachments.size());
  ci.pAttachments = attachments.data();
  ci.subpassCount = uint32_t(subpasses.size());
  ci.pSubpasses = subpasses.data();
  VkRenderPass pass = VK_NULL_HANDLE;
  VkResult r = vkCreateRenderPass(device_, &ci, nullptr, &pass);
  EXPECT_EQ(r, VK_SUCCESS) << "vkCreateRenderPass -> " << R{r};
  if (r != VK_SUCCESS) return VK_NULL_HANDLE;
  Defer([this, pass] { vkDestroyRenderPass(device_, pass, nullptr); });
  return pass;
}

VkFramebuffer QueueTest::MakeFramebuffer(VkRenderPass pass, const std::vector<VkImageView>& views, VkExtent2D extent,
                                         uint32_t layers) {
  VkFramebufferCreateInfo ci{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
  ci.renderPass = pass;
  ci.attachmentCount = uint32_t(views.size());
  ci.pAttachments = views.data();
  ci.width = extent.width;
  ci.height = extent.height;
  ci.layers = layers;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  VkResult r = vkCreateFramebuffer(device_, &ci, nullptr, &framebuffer);
  EXPECT_EQ(r, VK_SUCCESS) << "vkCreateFramebuffer -> " << R{r};
  if (r != VK_SUCCESS) return VK_NULL_HANDLE;
  Defer([this, framebuffer] { vkDestroyFramebuffer(device_, framebuffer, nullptr); });
  return framebuffer;
}

VkImage QueueTest::MakeGeneralImage(const VkImageCreateInfo& ci, VkImageAspectFlags aspects) {
  VkImage image = MakeImage(ci);
  if (image == VK_NULL_HANDLE) return VK_NULL_HANDLE;
  VkMemoryRequirements req{};
  vkGetImageMemoryRequirements(device_, image, &req);
  const uint32_t type = FindMemoryType(req.memoryTypeBits);
  EXPECT_NE(type, UINT32_MAX);
  if (type == UINT32_MAX) return VK_NULL_HANDLE;
  VkDeviceMemory mem = MakeMemory(req.size, type);
  if (mem == VK_NULL_HANDLE) return VK_NULL_HANDLE;
  VkResult r = vkBindImageMemory(device_, image, mem, 0);
  EXPECT_EQ(r, VK_SUCCESS) << "vkBindImageMemory -> " << R{r};
  if (r != VK_SUCCESS) return VK_NULL_HANDLE;
  image_memory_.emplace_back(image, mem);
  VkCommandBuffer cb = BeginCommands();
  if (cb == VK_NULL_HANDLE) return VK_NULL_HANDLE;
  ToGeneral(cb, image, aspects);
  EndSubmitWait(cb);
  return image;
}

VkDeviceMemory QueueTest::ImageMemory(VkImage image) const {
  for (const auto& [i, m] : image_memory_)
    if (i == image) return m;
  return VK_NULL_HANDLE;
}

std::vector<uint8_t> QueueTest::ReadImage(VkImage image, VkImageSubresourceLayers sub, VkOffset3D offset,
                                          VkExtent3D extent, uint32_t texel_size) {
  const VkDeviceSize size = VkDeviceSize(extent.width) * extent.height * extent.depth * sub.layerCount * texel_size;
  HostBuffer hb = MakeHostBuffer(size);
  if (hb.data == nullptr) return {};
  std::memset(hb.data, 0xCD, size_t(size));
  VkCommandBuffer cb = BeginCommands();
  if (cb == VK_NULL_HANDLE) return {};
  FullBarrier(cb);
  VkBufferImageCopy region{};
  region.imageSubresource = sub;
  region.imageOffset = offset;
  region.imageExtent = extent;
  vkCmdCopyImageToBuffer(cb, image, VK_IMAGE_LAYOUT_GENERAL, hb.buffer, 1, &region);
  EndSubmitWait(cb);
  return {hb.data, hb.data + size};
}

void QueueTest::WriteImage(VkImage image, VkImageSubresourceLayers sub, VkOffset3D offset, VkExtent3D extent,
                           uint32_t texel_size, std::span<const uint8_t> bytes) {
  const VkDeviceSize size = VkDeviceSize(extent.width) * extent.height * extent.depth * sub.layerCount * texel_size;
  ASSERT_EQ(bytes.size(), size);
  HostBuffer hb = MakeHostBuffer(size);
  ASSERT_NE(hb.data, nullptr);
  std::memcpy(hb.data, bytes.data(), bytes.size());
  VkCommandBuffer cb = BeginCommands();
  ASSERT_NE(cb, VK_NULL_HANDLE);
  FullBarrier(cb);
  VkBufferImageCopy region{};
  region.imageSubresource = sub;
  region.imageOffset = offset;
  region.imageExtent = extent;
  vkCmdCopyBufferToImage(cb, hb.buffer, image, VK_IMAGE_LAYOUT_GENERAL, 1, &region);
  EndSubmitWait(cb);
}

bool QueueTest::FormatHas(VkFormat format, VkImageTiling tiling, VkFormatFeatureFlags features) const {
  VkFormatProperties fp{};
  vkGetPhysicalDeviceFormatProperties(phys_, format, &fp);
  const VkFormatFeatureFlags have =
      tiling == VK_IMAGE_TILING_LINEAR ? fp.linearTilingFeatures : fp.optimalTilingFeatures;
  return (have & features) == features;
}

}  // namespace duet_test
