// triangle: the smallest complete Vulkan program. It draws one triangle
// into an image, copies the image to memory the CPU can read and writes it
// to a PNG file:
//
//   triangle [--out triangle.png]
//
// Every step a Vulkan program takes is here, in order, without helpers:
// instance, physical device, logical device and queue, image and its
// memory, shaders and pipeline, command buffer, submission, read back.
// Errors end the program with the name of the call that failed.
#include <vulkan/vulkan.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "png_file.h"
#include "shaders/triangle.frag.h"  // kTriangleFrag: SPIR-V from glslangValidator at build time
#include "shaders/triangle.vert.h"  // kTriangleVert

namespace {

constexpr uint32_t kWidth = 256, kHeight = 256;
constexpr VkFormat kFormat = VK_FORMAT_R8G8B8A8_UNORM;

void Check(VkResult result, const char* what) {
  if (result == VK_SUCCESS) return;
  std::fprintf(stderr, "%s failed: VkResult %d\n", what, int(result));
  std::exit(1);
}

// The index of a memory type that `requirements` allow and that has `flags`.
uint32_t MemoryType(VkPhysicalDevice physical, const VkMemoryRequirements& requirements, VkMemoryPropertyFlags flags) {
  VkPhysicalDeviceMemoryProperties memory;
  vkGetPhysicalDeviceMemoryProperties(physical, &memory);
  for (uint32_t t = 0; t < memory.memoryTypeCount; ++t)
    if (((requirements.memoryTypeBits >> t) & 1) && (memory.memoryTypes[t].propertyFlags & flags) == flags) return t;
  std::fprintf(stderr, "no suitable memory type\n");
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  const char* out = argc == 3 && std::strcmp(argv[1], "--out") == 0 ? argv[2] : "triangle.png";

  // 1. An instance: the connection to the Vulkan loader. Asking for 1.3
  //    gives dynamic rendering (no render pass objects) and synchronization2.
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "triangle";
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo instance_info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instance_info.pApplicationInfo = &app;
  VkInstance instance;
  Check(vkCreateInstance(&instance_info, nullptr, &instance), "vkCreateInstance");

  // 2. A physical device (the driver's GPU, here perhaps a CPU) and a queue
  //    family on it that can draw.
  uint32_t count = 1;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  const VkResult enumerated = vkEnumeratePhysicalDevices(instance, &count, &physical);
  if (enumerated != VK_INCOMPLETE) Check(enumerated, "vkEnumeratePhysicalDevices");
  if (count == 0) Check(VK_ERROR_INITIALIZATION_FAILED, "finding a physical device");
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(physical, &properties);
  std::printf("device: %s\n", properties.deviceName);
  uint32_t families = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &families, nullptr);
  std::vector<VkQueueFamilyProperties> family(families);
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &families, family.data());
  uint32_t queue_family = 0;
  while (queue_family < families && !(family[queue_family].queueFlags & VK_QUEUE_GRAPHICS_BIT)) ++queue_family;
  if (queue_family == families) Check(VK_ERROR_INITIALIZATION_FAILED, "finding a graphics queue");

  // 3. A logical device with one queue, and the 1.3 features we use on.
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = queue_family;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkPhysicalDeviceVulkan13Features features13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  features13.dynamicRendering = VK_TRUE;
  features13.synchronization2 = VK_TRUE;
  VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &features13};
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  VkDevice device;
  Check(vkCreateDevice(physical, &device_info, nullptr, &device), "vkCreateDevice");
  VkQueue queue;
  vkGetDeviceQueue(device, queue_family, 0, &queue);

  // 4. The image we draw into, in device memory, and a view of it (what
  //    rendering attaches to).
  VkImageCreateInfo image_info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  image_info.imageType = VK_IMAGE_TYPE_2D;
  image_info.format = kFormat;
  image_info.extent = {kWidth, kHeight, 1};
  image_info.mipLevels = 1;
  image_info.arrayLayers = 1;
  image_info.samples = VK_SAMPLE_COUNT_1_BIT;
  image_info.tiling = VK_IMAGE_TILING_OPTIMAL;
  image_info.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  VkImage image;
  Check(vkCreateImage(device, &image_info, nullptr, &image), "vkCreateImage");
  VkMemoryRequirements image_needs;
  vkGetImageMemoryRequirements(device, image, &image_needs);
  VkMemoryAllocateInfo image_memory_info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  image_memory_info.allocationSize = image_needs.size;
  image_memory_info.memoryTypeIndex = MemoryType(physical, image_needs, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  VkDeviceMemory image_memory;
  Check(vkAllocateMemory(device, &image_memory_info, nullptr, &image_memory), "vkAllocateMemory");
  Check(vkBindImageMemory(device, image, image_memory, 0), "vkBindImageMemory");
  VkImageViewCreateInfo view_info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  view_info.image = image;
  view_info.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view_info.format = kFormat;
  view_info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView view;
  Check(vkCreateImageView(device, &view_info, nullptr, &view), "vkCreateImageView");

  // 5. A buffer the CPU can read, for the finished picture.
  VkBufferCreateInfo buffer_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  buffer_info.size = VkDeviceSize{kWidth} * kHeight * 4;
  buffer_info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  VkBuffer buffer;
  Check(vkCreateBuffer(device, &buffer_info, nullptr, &buffer), "vkCreateBuffer");
  VkMemoryRequirements buffer_needs;
  vkGetBufferMemoryRequirements(device, buffer, &buffer_needs);
  VkMemoryAllocateInfo buffer_memory_info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  buffer_memory_info.allocationSize = buffer_needs.size;
  buffer_memory_info.memoryTypeIndex =
      MemoryType(physical, buffer_needs, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  VkDeviceMemory buffer_memory;
  Check(vkAllocateMemory(device, &buffer_memory_info, nullptr, &buffer_memory), "vkAllocateMemory");
  Check(vkBindBufferMemory(device, buffer, buffer_memory, 0), "vkBindBufferMemory");

  // 6. The pipeline: shaders plus every fixed-function state of the draw.
  VkShaderModuleCreateInfo vert_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  vert_info.codeSize = sizeof kTriangleVert;
  vert_info.pCode = kTriangleVert;
  VkShaderModule vert;
  Check(vkCreateShaderModule(device, &vert_info, nullptr, &vert), "vkCreateShaderModule");
  VkShaderModuleCreateInfo frag_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  frag_info.codeSize = sizeof kTriangleFrag;
  frag_info.pCode = kTriangleFrag;
  VkShaderModule frag;
  Check(vkCreateShaderModule(device, &frag_info, nullptr, &frag), "vkCreateShaderModule");
  VkPipelineShaderStageCreateInfo stages[2] = {{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO},
                                               {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO}};
  stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
  stages[0].module = vert;
  stages[0].pName = "main";
  stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  stages[1].module = frag;
  stages[1].pName = "main";
  VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  const VkViewport viewport{0, 0, float(kWidth), float(kHeight), 0, 1};
  const VkRect2D scissor{{0, 0}, {kWidth, kHeight}};
  VkPipelineViewportStateCreateInfo viewport_state{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  viewport_state.viewportCount = 1;
  viewport_state.pViewports = &viewport;
  viewport_state.scissorCount = 1;
  viewport_state.pScissors = &scissor;
  VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = VK_CULL_MODE_NONE;
  raster.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineColorBlendAttachmentState blend_attachment{};
  blend_attachment.colorWriteMask =
      VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
  VkPipelineColorBlendStateCreateInfo blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  blend.attachmentCount = 1;
  blend.pAttachments = &blend_attachment;
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};  // no descriptors
  VkPipelineLayout layout;
  Check(vkCreatePipelineLayout(device, &layout_info, nullptr, &layout), "vkCreatePipelineLayout");
  // With dynamic rendering, the pipeline names the formats it draws into.
  VkPipelineRenderingCreateInfo rendering_info{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  rendering_info.colorAttachmentCount = 1;
  rendering_info.pColorAttachmentFormats = &kFormat;
  VkGraphicsPipelineCreateInfo pipeline_info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering_info};
  pipeline_info.stageCount = 2;
  pipeline_info.pStages = stages;
  pipeline_info.pVertexInputState = &vertex_input;
  pipeline_info.pInputAssemblyState = &assembly;
  pipeline_info.pViewportState = &viewport_state;
  pipeline_info.pRasterizationState = &raster;
  pipeline_info.pMultisampleState = &multisample;
  pipeline_info.pColorBlendState = &blend;
  pipeline_info.layout = layout;
  VkPipeline pipeline;
  Check(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &pipeline_info, nullptr, &pipeline),
        "vkCreateGraphicsPipelines");

  // 7. Commands: make the image a colour attachment, clear it and draw, then
  //    make it a copy source and copy it into the buffer.
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.queueFamilyIndex = queue_family;
  VkCommandPool pool;
  Check(vkCreateCommandPool(device, &pool_info, nullptr, &pool), "vkCreateCommandPool");
  VkCommandBufferAllocateInfo commands_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  commands_info.commandPool = pool;
  commands_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  commands_info.commandBufferCount = 1;
  VkCommandBuffer commands;
  Check(vkAllocateCommandBuffers(device, &commands_info, &commands), "vkAllocateCommandBuffers");
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  Check(vkBeginCommandBuffer(commands, &begin), "vkBeginCommandBuffer");

  VkImageMemoryBarrier2 to_attachment{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
  to_attachment.dstStageMask = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
  to_attachment.dstAccessMask = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT;
  to_attachment.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;  // we do not care what it held
  to_attachment.newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  to_attachment.image = image;
  to_attachment.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dependency.imageMemoryBarrierCount = 1;
  dependency.pImageMemoryBarriers = &to_attachment;
  vkCmdPipelineBarrier2(commands, &dependency);

  VkRenderingAttachmentInfo attachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  attachment.imageView = view;
  attachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  attachment.clearValue.color = {{0.1f, 0.1f, 0.15f, 1.0f}};
  VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
  rendering.renderArea = scissor;
  rendering.layerCount = 1;
  rendering.colorAttachmentCount = 1;
  rendering.pColorAttachments = &attachment;
  vkCmdBeginRendering(commands, &rendering);
  vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  vkCmdDraw(commands, 3, 1, 0, 0);  // three vertices: one triangle
  vkCmdEndRendering(commands);

  VkImageMemoryBarrier2 to_copy = to_attachment;
  to_copy.srcStageMask = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
  to_copy.srcAccessMask = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT;
  to_copy.dstStageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
  to_copy.dstAccessMask = VK_ACCESS_2_TRANSFER_READ_BIT;
  to_copy.oldLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  to_copy.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  dependency.pImageMemoryBarriers = &to_copy;
  vkCmdPipelineBarrier2(commands, &dependency);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {kWidth, kHeight, 1};
  vkCmdCopyImageToBuffer(commands, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, 1, &region);
  // The host reads the buffer after the copy.
  VkMemoryBarrier2 to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
  to_host.srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
  to_host.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
  to_host.dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT;
  to_host.dstAccessMask = VK_ACCESS_2_HOST_READ_BIT;
  VkDependencyInfo host_dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  host_dependency.memoryBarrierCount = 1;
  host_dependency.pMemoryBarriers = &to_host;
  vkCmdPipelineBarrier2(commands, &host_dependency);
  Check(vkEndCommandBuffer(commands), "vkEndCommandBuffer");

  // 8. Submit, wait for the queue to finish, and read the picture.
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands;
  Check(vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE), "vkQueueSubmit");
  Check(vkQueueWaitIdle(queue), "vkQueueWaitIdle");
  void* pixels;
  Check(vkMapMemory(device, buffer_memory, 0, VK_WHOLE_SIZE, 0, &pixels), "vkMapMemory");
  const bool written = sample::WritePng(out, kWidth, kHeight, static_cast<const uint8_t*>(pixels), kWidth * 4);
  if (written) std::printf("wrote %s (%ux%u)\n", out, kWidth, kHeight);

  // 9. Everything created is destroyed, children before their device.
  vkUnmapMemory(device, buffer_memory);
  vkDestroyCommandPool(device, pool, nullptr);
  vkDestroyPipeline(device, pipeline, nullptr);
  vkDestroyPipelineLayout(device, layout, nullptr);
  vkDestroyShaderModule(device, frag, nullptr);
  vkDestroyShaderModule(device, vert, nullptr);
  vkDestroyBuffer(device, buffer, nullptr);
  vkFreeMemory(device, buffer_memory, nullptr);
  vkDestroyImageView(device, view, nullptr);
  vkDestroyImage(device, image, nullptr);
  vkFreeMemory(device, image_memory, nullptr);
  vkDestroyDevice(device, nullptr);
  vkDestroyInstance(instance, nullptr);
  return written ? 0 : 1;
}
