// What every sample but `triangle` (which spells it all out) shares: an
// instance and device on Vulkan 1.3, memory for buffers and images, one-off
// command buffers, barriers and command-line options. Errors end the
// program with the failing call's name and VkResult: a sample has nothing
// better to do.
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace sample {

[[noreturn]] void Die(const char* what, VkResult result);
inline void Check(VkResult result, const char* what) {
  if (result != VK_SUCCESS) Die(what, result);
}

struct ContextOptions {
  std::vector<const char*> instance_extensions;
  std::vector<const char*> device_extensions;
  VkPhysicalDeviceFeatures features{};  // 1.0 features wanted: those the device has are enabled
  // Queue family: graphics and compute; and, when set, able to present to it.
  VkSurfaceKHR (*create_surface)(VkInstance instance, void* user) = nullptr;
  void* surface_user = nullptr;
};

struct Context {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties{};
  VkPhysicalDeviceFeatures features{};  // the ones enabled
  VkSurfaceKHR surface = VK_NULL_HANDLE;  // when ContextOptions::create_surface was set
  VkDevice device = VK_NULL_HANDLE;
  uint32_t queue_family = 0;
  VkQueue queue = VK_NULL_HANDLE;
  VkCommandPool pool = VK_NULL_HANDLE;
};

// The first physical device with a graphics+compute queue, with dynamic
// rendering, synchronization2 and maintenance4 (Vulkan 1.3) turned on.
// Prints its name.
Context CreateContext(const char* application, const ContextOptions& options);
void DestroyContext(Context& context);

struct Buffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  void* mapped = nullptr;  // host-visible, coherent, mapped for the buffer's life
  VkDeviceSize size = 0;
};
Buffer CreateHostBuffer(const Context& context, VkDeviceSize size, VkBufferUsageFlags usage);
void Destroy(const Context& context, Buffer& buffer);

struct Image {
  VkImage image = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;  // of every level and layer
};
// A device-local image and a view of it (2D, or 2D array with layers).
Image CreateImage(const Context& context, const VkImageCreateInfo& info, VkImageAspectFlags aspect);
void Destroy(const Context& context, Image& image);

// One descriptor set whose binding i holds one descriptor of types[i],
// seen by `stages`, with its layout and a pool of its own.
struct DescriptorSet {
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkDescriptorSet set = VK_NULL_HANDLE;
};
DescriptorSet CreateDescriptorSet(const Context& context, const std::vector<VkDescriptorType>& types,
                                  VkShaderStageFlags stages);
void Destroy(const Context& context, DescriptorSet& set);

VkShaderModule CreateShader(const Context& context, const uint32_t* code, size_t bytes);
template <size_t N>
VkShaderModule CreateShader(const Context& context, const uint32_t (&code)[N]) {
  return CreateShader(context, code, sizeof code);
}

VkCommandBuffer BeginCommands(const Context& context);
void SubmitAndWait(const Context& context, VkCommandBuffer commands);  // and frees the command buffer

// A layout transition of levels [level, level + levels) of every layer.
struct Transition {
  VkImageLayout from, to;
  VkPipelineStageFlags2 after;   // the stages whose accesses come before
  VkAccessFlags2 written;        // the writes they made
  VkPipelineStageFlags2 before;  // the stages that wait
  VkAccessFlags2 accesses;       // their accesses
};
void Barrier(VkCommandBuffer commands, VkImage image, const Transition& t, VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT,
             uint32_t level = 0, uint32_t levels = VK_REMAINING_MIP_LEVELS);

// Copies level 0 of a 2D colour image in `layout` into `buffer` (tightly packed).
void CopyImageToBuffer(VkCommandBuffer commands, VkImage image, VkImageLayout layout, VkExtent2D extent, VkBuffer buffer);

// A graphics pipeline drawing into one colour attachment (and a depth one
// when depth_format is set) with dynamic rendering, viewport and scissor.
struct PipelineDesc {
  VkShaderModule vertex = VK_NULL_HANDLE, fragment = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkFormat color_format = VK_FORMAT_R8G8B8A8_UNORM;
  VkFormat depth_format = VK_FORMAT_UNDEFINED;  // depth test LESS and write when set
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkCullModeFlags cull = VK_CULL_MODE_NONE;
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  std::vector<VkVertexInputBindingDescription> bindings;
  std::vector<VkVertexInputAttributeDescription> attributes;
};
VkPipeline CreateGraphicsPipeline(const Context& context, const PipelineDesc& desc);
VkPipelineLayout CreatePipelineLayout(const Context& context, const std::vector<VkDescriptorSetLayout>& sets,
                                      uint32_t push_constant_bytes, VkShaderStageFlags push_stages);
void SetViewport(VkCommandBuffer commands, VkExtent2D extent);

// `--name value` from the command line, else `fallback`.
std::string Option(int argc, char** argv, const char* name, const char* fallback);

}  // namespace sample
