// One Vulkan instance, device and queue on whichever ICD the loader was
// pointed at, with the few helpers the workloads need. Every failure
// throws BenchFailure; every object is destroyed with the device.
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <functional>
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

class BenchDevice {
 public:
  BenchDevice();
  ~BenchDevice();
  BenchDevice(const BenchDevice&) = delete;
  BenchDevice& operator=(const BenchDevice&) = delete;

  std::string DeviceName() const { return properties_.deviceName; }

  // A buffer in host-visible coherent memory, mapped.
  MappedBuffer CreateBuffer(VkDeviceSize size, VkBufferUsageFlags usage);
  // A 2D optimal-tiling image with one mip and layer, bound to memory.
  VkImage CreateImage(VkFormat format, VkExtent2D extent, VkImageUsageFlags usage);

  // A primary command buffer recorded by `record`, ready to submit.
  VkCommandBuffer Record(const std::function<void(VkCommandBuffer)>& record);
  // Submits, waits on a fence; returns the wall time of submit + wait in
  // seconds.
  double SubmitAndWait(VkCommandBuffer cb);

 private:
  uint32_t MemoryTypeFor(uint32_t type_bits, VkMemoryPropertyFlags required) const;
  VkDeviceMemory Allocate(const VkMemoryRequirements& req, VkMemoryPropertyFlags required);

  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties_{};
  VkPhysicalDeviceMemoryProperties memory_properties_{};
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  std::vector<VkBuffer> buffers_;
  std::vector<VkImage> images_;
  std::vector<VkDeviceMemory> memories_;
};

}  // namespace duet_bench
