#include "vk_bench_device.h"

#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

namespace duet_bench {
namespace {

// A hung driver must not hang the benchmark: the child gives up on a fence
// after this long (and the parent kills a child that takes longer still).
constexpr uint64_t kFenceTimeoutNs = 60ull * 1000 * 1000 * 1000;

const char* ResultName(VkResult r) {
  switch (r) {
#define DUET_BENCH_CASE(x) \
  case x:                  \
    return #x;
    DUET_BENCH_CASE(VK_SUCCESS)
    DUET_BENCH_CASE(VK_NOT_READY)
    DUET_BENCH_CASE(VK_TIMEOUT)
    DUET_BENCH_CASE(VK_INCOMPLETE)
    DUET_BENCH_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    DUET_BENCH_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    DUET_BENCH_CASE(VK_ERROR_INITIALIZATION_FAILED)
    DUET_BENCH_CASE(VK_ERROR_DEVICE_LOST)
    DUET_BENCH_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    DUET_BENCH_CASE(VK_ERROR_LAYER_NOT_PRESENT)
    DUET_BENCH_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    DUET_BENCH_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    DUET_BENCH_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    DUET_BENCH_CASE(VK_ERROR_TOO_MANY_OBJECTS)
    DUET_BENCH_CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    DUET_BENCH_CASE(VK_ERROR_FRAGMENTED_POOL)
    DUET_BENCH_CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    DUET_BENCH_CASE(VK_PIPELINE_COMPILE_REQUIRED)
    DUET_BENCH_CASE(VK_ERROR_UNKNOWN)
#undef DUET_BENCH_CASE
    default:
      return "VkResult(?)";
  }
}

}  // namespace

void Check(VkResult r, const char* what) {
  if (r != VK_SUCCESS)
    throw BenchFailure(std::string(what) + " -> " + ResultName(r) + " (" + std::to_string(int(r)) + ")");
}

BenchDevice::BenchDevice(const char* app_name, const DeviceFeatureRequest& features) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = app_name;
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo instance_info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instance_info.pApplicationInfo = &app;
  Check(vkCreateInstance(&instance_info, nullptr, &instance_), "vkCreateInstance");

  uint32_t count = 1;
  const VkResult enumerated = vkEnumeratePhysicalDevices(instance_, &count, &physical_);
  if (enumerated != VK_INCOMPLETE) Check(enumerated, "vkEnumeratePhysicalDevices");
  if (count == 0 || physical_ == VK_NULL_HANDLE) throw BenchFailure("the ICD reports no physical device");
  vkGetPhysicalDeviceProperties(physical_, &properties_);
  vkGetPhysicalDeviceMemoryProperties(physical_, &memory_properties_);

  uint32_t family_count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical_, &family_count, nullptr);
  std::vector<VkQueueFamilyProperties> families(family_count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical_, &family_count, families.data());
  // A family that does graphics and compute if there is one (the compute
  // and graphics benchmarks need it), else any that can transfer.
  constexpr VkQueueFlags kTransferCapable = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT;
  constexpr VkQueueFlags kGraphicsCompute = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
  uint32_t family = UINT32_MAX;
  for (uint32_t i = 0; i < family_count && family == UINT32_MAX; ++i)
    if ((families[i].queueFlags & kGraphicsCompute) == kGraphicsCompute && families[i].queueCount > 0) family = i;
  for (uint32_t i = 0; i < family_count && family == UINT32_MAX; ++i)
    if ((families[i].queueFlags & kTransferCapable) != 0 && families[i].queueCount > 0) family = i;
  if (family == UINT32_MAX) throw BenchFailure("no queue family supports transfers");
  queue_flags_ = families[family].queueFlags;

  VkPhysicalDeviceVulkan11Features supported11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  VkPhysicalDeviceVulkan12Features supported12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &supported11};
  VkPhysicalDeviceVulkan13Features supported13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &supported12};
  if (properties_.apiVersion >= VK_API_VERSION_1_3) {
    VkPhysicalDeviceFeatures2 supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    supported.pNext = &supported13;
    vkGetPhysicalDeviceFeatures2(physical_, &supported);
  }
  // 64-bit integers and floats whenever the device has them (the int64 and
  // fp64 workloads need them; enabling costs nothing).
  VkPhysicalDeviceFeatures supported_core{};
  vkGetPhysicalDeviceFeatures(physical_, &supported_core);
  VkPhysicalDeviceFeatures enabled_core{};
  enabled_core.shaderInt64 = supported_core.shaderInt64;
  shader_int64_ = supported_core.shaderInt64 == VK_TRUE;
  enabled_core.shaderFloat64 = supported_core.shaderFloat64;
  enabled_core.geometryShader = supported_core.geometryShader;
  enabled_core.tessellationShader = supported_core.tessellationShader;
  shader_float64_ = supported_core.shaderFloat64 == VK_TRUE;
  // 16-bit floats in buffers likewise (the fp16 workload).
  VkPhysicalDeviceVulkan11Features enabled11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  VkPhysicalDeviceVulkan12Features enabled12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &enabled11};
  shader_float16_ = supported12.shaderFloat16 == VK_TRUE && supported11.storageBuffer16BitAccess == VK_TRUE;
  enabled12.shaderFloat16 = shader_float16_ ? VK_TRUE : VK_FALSE;
  enabled11.storageBuffer16BitAccess = shader_float16_ ? VK_TRUE : VK_FALSE;
  VkPhysicalDeviceVulkan13Features enabled13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  dynamic_rendering_ = features.dynamic_rendering && supported13.dynamicRendering == VK_TRUE;
  enabled13.dynamicRendering = dynamic_rendering_ ? VK_TRUE : VK_FALSE;

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = family;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  device_info.pEnabledFeatures = &enabled_core;
  const void* chain = shader_float16_ ? &enabled12 : nullptr;
  if (dynamic_rendering_) {
    enabled13.pNext = const_cast<void*>(chain);
    chain = &enabled13;
  }
  device_info.pNext = chain;
  Check(vkCreateDevice(physical_, &device_info, nullptr, &device_), "vkCreateDevice");
  vkGetDeviceQueue(device_, family, 0, &queue_);

  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.queueFamilyIndex = family;
  Check(vkCreateCommandPool(device_, &pool_info, nullptr, &pool_), "vkCreateCommandPool");
  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  Check(vkCreateFence(device_, &fence_info, nullptr, &fence_), "vkCreateFence");
}

BenchDevice::~BenchDevice() {
  if (device_ != VK_NULL_HANDLE) {
    vkDeviceWaitIdle(device_);
    for (auto it = deferred_.rbegin(); it != deferred_.rend(); ++it) (*it)(device_);
    for (VkImage image : images_) vkDestroyImage(device_, image, nullptr);
    for (VkBuffer buffer : buffers_) vkDestroyBuffer(device_, buffer, nullptr);
    for (VkDeviceMemory memory : memories_) vkFreeMemory(device_, memory, nullptr);
    vkDestroyFence(device_, fence_, nullptr);
    vkDestroyCommandPool(device_, pool_, nullptr);
    vkDestroyDevice(device_, nullptr);
  }
  if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
}

uint32_t BenchDevice::MemoryTypeFor(uint32_t type_bits, VkMemoryPropertyFlags required) const {
  // Device-local first (what an application would pick), then any match.
  for (VkMemoryPropertyFlags preferred : {required | VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, required}) {
    for (uint32_t i = 0; i < memory_properties_.memoryTypeCount; ++i) {
      const VkMemoryPropertyFlags flags = memory_properties_.memoryTypes[i].propertyFlags;
      if ((type_bits & (1u << i)) != 0 && (flags & preferred) == preferred) return i;
    }
  }
  throw BenchFailure("no memory type with the properties the benchmark needs");
}

VkDeviceMemory BenchDevice::Allocate(const VkMemoryRequirements& req, VkMemoryPropertyFlags required) {
  VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  info.allocationSize = req.size;
  info.memoryTypeIndex = MemoryTypeFor(req.memoryTypeBits, required);
  VkDeviceMemory memory = VK_NULL_HANDLE;
  Check(vkAllocateMemory(device_, &info, nullptr, &memory), "vkAllocateMemory");
  memories_.push_back(memory);
  return memory;
}

MappedBuffer BenchDevice::Upload(const void* data, VkDeviceSize size, VkBufferUsageFlags usage) {
  MappedBuffer buffer = CreateBuffer(size, usage);
  std::memcpy(buffer.data, data, size_t(size));
  return buffer;
}

MappedBuffer BenchDevice::CreateBuffer(VkDeviceSize size, VkBufferUsageFlags usage) {
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = size;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  MappedBuffer b;
  b.size = size;
  Check(vkCreateBuffer(device_, &info, nullptr, &b.buffer), "vkCreateBuffer");
  buffers_.push_back(b.buffer);
  VkMemoryRequirements req{};
  vkGetBufferMemoryRequirements(device_, b.buffer, &req);
  VkDeviceMemory memory =
      Allocate(req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  Check(vkBindBufferMemory(device_, b.buffer, memory, 0), "vkBindBufferMemory");
  void* mapped = nullptr;
  Check(vkMapMemory(device_, memory, 0, VK_WHOLE_SIZE, 0, &mapped), "vkMapMemory");
  b.data = static_cast<std::byte*>(mapped);
  return b;
}

VkImage BenchDevice::CreateImage(VkFormat format, VkExtent2D extent, VkImageUsageFlags usage) {
  VkImageFormatProperties format_properties{};
  const VkResult supported = vkGetPhysicalDeviceImageFormatProperties(
      physical_, format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL, usage, 0, &format_properties);
  Check(supported, "vkGetPhysicalDeviceImageFormatProperties");
  if (format_properties.maxExtent.width < extent.width || format_properties.maxExtent.height < extent.height)
    throw BenchFailure("image extent not supported");

  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = format;
  info.extent = {extent.width, extent.height, 1};
  info.mipLevels = 1;
  info.arrayLayers = 1;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  VkImage image = VK_NULL_HANDLE;
  Check(vkCreateImage(device_, &info, nullptr, &image), "vkCreateImage");
  images_.push_back(image);
  VkMemoryRequirements req{};
  vkGetImageMemoryRequirements(device_, image, &req);
  Check(vkBindImageMemory(device_, image, Allocate(req, 0), 0), "vkBindImageMemory");
  return image;
}

void BenchDevice::Defer(std::function<void(VkDevice)> destroy) { deferred_.push_back(std::move(destroy)); }

bool BenchDevice::SupportsOptimal(VkFormat format, VkFormatFeatureFlags features) const {
  VkFormatProperties properties{};
  vkGetPhysicalDeviceFormatProperties(physical_, format, &properties);
  return (properties.optimalTilingFeatures & features) == features;
}

VkShaderModule BenchDevice::CreateShaderModule(std::span<const uint32_t> code) {
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = code.size_bytes();
  info.pCode = code.data();
  VkShaderModule module = VK_NULL_HANDLE;
  Check(vkCreateShaderModule(device_, &info, nullptr, &module), "vkCreateShaderModule");
  Defer([module](VkDevice d) { vkDestroyShaderModule(d, module, nullptr); });
  return module;
}

VkImageView BenchDevice::CreateImageView(VkImage image, VkFormat format, VkImageAspectFlags aspect) {
  VkImageViewCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  info.image = image;
  info.viewType = VK_IMAGE_VIEW_TYPE_2D;
  info.format = format;
  info.subresourceRange = {aspect, 0, 1, 0, 1};
  VkImageView view = VK_NULL_HANDLE;
  Check(vkCreateImageView(device_, &info, nullptr, &view), "vkCreateImageView");
  Defer([view](VkDevice d) { vkDestroyImageView(d, view, nullptr); });
  return view;
}

VkCommandBuffer BenchDevice::Record(const std::function<void(VkCommandBuffer)>& record) {
  VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  info.commandPool = pool_;
  info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  info.commandBufferCount = 1;
  VkCommandBuffer cb = VK_NULL_HANDLE;
  Check(vkAllocateCommandBuffers(device_, &info, &cb), "vkAllocateCommandBuffers");
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  Check(vkBeginCommandBuffer(cb, &begin), "vkBeginCommandBuffer");
  record(cb);
  Check(vkEndCommandBuffer(cb), "vkEndCommandBuffer");
  return cb;
}

void BenchDevice::Free(VkCommandBuffer cb) { vkFreeCommandBuffers(device_, pool_, 1, &cb); }

double BenchDevice::SubmitAndWait(VkCommandBuffer cb) {
  Check(vkResetFences(device_, 1, &fence_), "vkResetFences");
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cb;
  const auto start = std::chrono::steady_clock::now();
  Check(vkQueueSubmit(queue_, 1, &submit, fence_), "vkQueueSubmit");
  Check(vkWaitForFences(device_, 1, &fence_, VK_TRUE, kFenceTimeoutNs), "vkWaitForFences");
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace duet_bench
