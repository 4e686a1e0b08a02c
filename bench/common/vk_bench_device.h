// One Vulkan instance, device and queue on whichever ICD the loader was
// pointed at, with the few helpers the workloads need. Every failure
// throws BenchFailure; every object is destroyed with the device.
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace duet_bench {

// A workload that cannot run (error code, unsupported format, wrong
// output): the table shows n/a and the message as a note.
class BenchFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws BenchFailure("<what> -> VK_ERROR_...") unless r is VK_SUCCESS.
void Check(VkResult r, const char* what);

struct MappedBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  std::byte* data = nullptr;  // host pointer to the whole buffer (coherent memory)
  VkDeviceSize size = 0;
};

// Optional features a benchmark asks for; each is enabled only if the
// device reports it (a workload that needs a missing one fails with n/a).
struct DeviceFeatureRequest {
  bool dynamic_rendering = false;
};

class BenchDevice {
 public:
  // `app_name` goes into VkApplicationInfo.
  explicit BenchDevice(const char* app_name, const DeviceFeatureRequest& features = {});
  ~BenchDevice();
  BenchDevice(const BenchDevice&) = delete;
  BenchDevice& operator=(const BenchDevice&) = delete;

  std::string DeviceName() const { return properties_.deviceName; }
  VkDevice device() const { return device_; }
  VkPhysicalDevice physical_device() const { return physical_; }
  VkQueueFlags queue_flags() const { return queue_flags_; }
  bool dynamic_rendering_enabled() const { return dynamic_rendering_; }
  bool shader_int64_enabled() const { return shader_int64_; }
  bool shader_float16_enabled() const { return shader_float16_; }  // with storageBuffer16BitAccess
  bool shader_float64_enabled() const { return shader_float64_; }

  // Runs `destroy(device)` when the device is torn down (before the
  // buffers, images and memory below go, last registered first).
  void Defer(std::function<void(VkDevice)> destroy);
  // True if optimal tiling of `format` has all of `features`.
  bool SupportsOptimal(VkFormat format, VkFormatFeatureFlags features) const;
  // A shader module from SPIR-V words; destroyed with the device.
  VkShaderModule CreateShaderModule(std::span<const uint32_t> code);
  // A 2D view of the whole of `image`; destroyed with the device.
  VkImageView CreateImageView(VkImage image, VkFormat format, VkImageAspectFlags aspect);

  // A buffer in host-visible coherent memory, mapped.
  MappedBuffer CreateBuffer(VkDeviceSize size, VkBufferUsageFlags usage);
  // Such a buffer holding `size` bytes from `data` (vertices, uniforms).
  MappedBuffer Upload(const void* data, VkDeviceSize size, VkBufferUsageFlags usage);
  // A 2D optimal-tiling image with one mip and layer, bound to memory.
  VkImage CreateImage(VkFormat format, VkExtent2D extent, VkImageUsageFlags usage);

  // A primary command buffer recorded by `record`, ready to submit.
  VkCommandBuffer Record(const std::function<void(VkCommandBuffer)>& record);
  // Submits, waits on a fence; returns the wall time of submit + wait in
  // seconds.
  double SubmitAndWait(VkCommandBuffer cb);
  // Gives a recorded command buffer back (one recorded per use, not reused).
  void Free(VkCommandBuffer cb);

 private:
  uint32_t MemoryTypeFor(uint32_t type_bits, VkMemoryPropertyFlags required) const;
  VkDeviceMemory Allocate(const VkMemoryRequirements& req, VkMemoryPropertyFlags required);

  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties_{};
  VkPhysicalDeviceMemoryProperties memory_properties_{};
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkQueueFlags queue_flags_ = 0;
  bool dynamic_rendering_ = false;
  bool shader_int64_ = false;
  bool shader_float16_ = false;
  bool shader_float64_ = false;
  std::vector<std::function<void(VkDevice)>> deferred_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  std::vector<VkBuffer> buffers_;
  std::vector<VkImage> images_;
  std::vector<VkDeviceMemory> memories_;
};

}  // namespace duet_bench
