#include "vk_fixture.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

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
  const char* exts[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
  VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ci.pApplicationInfo = &app;
  if (debug_utils_) {
    ci.pNext = &chained;
    ci.enabledExtensionCount = 1;
    ci.ppEnabledExtensionNames = exts;
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
  enable13.privateData = supported.v13.privateData;
  private_data_enabled_ = supported.v13.privateData == VK_TRUE;

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  qci.queueFamilyIndex = queue_family_;
  qci.queueCount = 1;
  qci.pQueuePriorities = &priority;
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.pNext = private_data_enabled_ ? &enable13 : nullptr;
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  VK_ASSERT_OK(vkCreateDevice(phys_, &dci, nullptr, &device_));
  vkGetDeviceQueue(device_, queue_family_, 0, &queue_);
  ASSERT_NE(queue_, VK_NULL_HANDLE);
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

}  // namespace duet_test
