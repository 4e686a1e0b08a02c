#include "sample_context.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace sample {

void Die(const char* what, VkResult result) {
  std::fprintf(stderr, "%s failed: VkResult %d\n", what, int(result));
  std::exit(1);
}

Context CreateContext(const char* application, const ContextOptions& options) {
  Context c;
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = application;
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo instance_info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instance_info.pApplicationInfo = &app;
  instance_info.enabledExtensionCount = uint32_t(options.instance_extensions.size());
  instance_info.ppEnabledExtensionNames = options.instance_extensions.data();
  Check(vkCreateInstance(&instance_info, nullptr, &c.instance), "vkCreateInstance");
  if (options.create_surface != nullptr) c.surface = options.create_surface(c.instance, options.surface_user);

  uint32_t count = 0;
  vkEnumeratePhysicalDevices(c.instance, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  vkEnumeratePhysicalDevices(c.instance, &count, devices.data());
  for (VkPhysicalDevice device : devices) {
    uint32_t families = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(device, &families, nullptr);
    std::vector<VkQueueFamilyProperties> family(families);
    vkGetPhysicalDeviceQueueFamilyProperties(device, &families, family.data());
    for (uint32_t f = 0; f < families && c.physical == VK_NULL_HANDLE; ++f) {
      const VkQueueFlags needed = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
      VkBool32 presents = VK_TRUE;
      if (c.surface != VK_NULL_HANDLE) vkGetPhysicalDeviceSurfaceSupportKHR(device, f, c.surface, &presents);
      if ((family[f].queueFlags & needed) == needed && presents) {
        c.physical = device;
        c.queue_family = f;
      }
    }
    if (c.physical != VK_NULL_HANDLE) break;
  }
  if (c.physical == VK_NULL_HANDLE) Die("finding a device with a graphics and compute queue", VK_ERROR_INITIALIZATION_FAILED);
  vkGetPhysicalDeviceProperties(c.physical, &c.properties);
  std::printf("device: %s\n", c.properties.deviceName);
  VkPhysicalDeviceFeatures supported;
  vkGetPhysicalDeviceFeatures(c.physical, &supported);
  const auto* wanted = reinterpret_cast<const VkBool32*>(&options.features);
  const auto* have = reinterpret_cast<const VkBool32*>(&supported);
  auto* enabled = reinterpret_cast<VkBool32*>(&c.features);
  for (size_t i = 0; i < sizeof(VkPhysicalDeviceFeatures) / sizeof(VkBool32); ++i) enabled[i] = wanted[i] && have[i];

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = c.queue_family;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.dynamicRendering = VK_TRUE;
  v13.synchronization2 = VK_TRUE;
  v13.maintenance4 = VK_TRUE;  // glslang's Vulkan 1.3 SPIR-V gives workgroup sizes as LocalSizeId, which needs it
  VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &v13};
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  device_info.enabledExtensionCount = uint32_t(options.device_extensions.size());
  device_info.ppEnabledExtensionNames = options.device_extensions.data();
  device_info.pEnabledFeatures = &c.features;
  Check(vkCreateDevice(c.physical, &device_info, nullptr, &c.device), "vkCreateDevice");
  vkGetDeviceQueue(c.device, c.queue_family, 0, &c.queue);

  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = c.queue_family;
  Check(vkCreateCommandPool(c.device, &pool_info, nullptr, &c.pool), "vkCreateCommandPool");
  return c;
}

void DestroyContext(Context& c) {
  vkDestroyCommandPool(c.device, c.pool, nullptr);
  vkDestroyDevice(c.device, nullptr);
  if (c.surface != VK_NULL_HANDLE) vkDestroySurfaceKHR(c.instance, c.surface, nullptr);
  vkDestroyInstance(c.instance, nullptr);
  c = Context{};
}

namespace {

VkDeviceMemory Allocate(const Context& c, const VkMemoryRequirements& needs, VkMemoryPropertyFlags flags) {
  VkPhysicalDeviceMemoryProperties memory;
  vkGetPhysicalDeviceMemoryProperties(c.physical, &memory);
  for (uint32_t t = 0; t < memory.memoryTypeCount; ++t) {
    if (!((needs.memoryTypeBits >> t) & 1) || (memory.memoryTypes[t].propertyFlags & flags) != flags) continue;
    VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    info.allocationSize = needs.size;
    info.memoryTypeIndex = t;
    VkDeviceMemory result = VK_NULL_HANDLE;
    Check(vkAllocateMemory(c.device, &info, nullptr, &result), "vkAllocateMemory");
    return result;
  }
  Die("finding a memory type", VK_ERROR_OUT_OF_DEVICE_MEMORY);
}

}  // namespace

Buffer CreateHostBuffer(const Context& c, VkDeviceSize size, VkBufferUsageFlags usage) {
  Buffer b;
  b.size = size;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = size;
  info.usage = usage;
  Check(vkCreateBuffer(c.device, &info, nullptr, &b.buffer), "vkCreateBuffer");
  VkMemoryRequirements needs;
  vkGetBufferMemoryRequirements(c.device, b.buffer, &needs);
  b.memory = Allocate(c, needs, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  Check(vkBindBufferMemory(c.device, b.buffer, b.memory, 0), "vkBindBufferMemory");
  Check(vkMapMemory(c.device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped), "vkMapMemory");
  return b;
}

void Destroy(const Context& c, Buffer& b) {
  vkDestroyBuffer(c.device, b.buffer, nullptr);
  vkFreeMemory(c.device, b.memory, nullptr);
  b = Buffer{};
}

Image CreateImage(const Context& c, const VkImageCreateInfo& info, VkImageAspectFlags aspect) {
  Image i;
  Check(vkCreateImage(c.device, &info, nullptr, &i.image), "vkCreateImage");
  VkMemoryRequirements needs;
  vkGetImageMemoryRequirements(c.device, i.image, &needs);
  i.memory = Allocate(c, needs, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  Check(vkBindImageMemory(c.device, i.image, i.memory, 0), "vkBindImageMemory");
  VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  view.image = i.image;
  view.viewType = info.arrayLayers > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D;
  view.format = info.format;
  view.subresourceRange = {aspect, 0, VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS};
  Check(vkCreateImageView(c.device, &view, nullptr, &i.view), "vkCreateImageView");
  return i;
}

void Destroy(const Context& c, Image& i) {
  vkDestroyImageView(c.device, i.view, nullptr);
  vkDestroyImage(c.device, i.image, nullptr);
  vkFreeMemory(c.device, i.memory, nullptr);
  i = Image{};
}

DescriptorSet CreateDescriptorSet(const Context& c, const std::vector<VkDescriptorType>& types,
                                  VkShaderStageFlags stages) {
  DescriptorSet d;
  std::vector<VkDescriptorSetLayoutBinding> bindings;
  std::vector<VkDescriptorPoolSize> sizes;
  for (uint32_t b = 0; b < types.size(); ++b) {
    bindings.push_back({b, types[b], 1, stages, nullptr});
    sizes.push_back({types[b], 1});
  }
  VkDescriptorSetLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  layout_info.bindingCount = uint32_t(bindings.size());
  layout_info.pBindings = bindings.data();
  Check(vkCreateDescriptorSetLayout(c.device, &layout_info, nullptr, &d.layout), "vkCreateDescriptorSetLayout");
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.maxSets = 1;
  pool_info.poolSizeCount = uint32_t(sizes.size());
  pool_info.pPoolSizes = sizes.data();
  Check(vkCreateDescriptorPool(c.device, &pool_info, nullptr, &d.pool), "vkCreateDescriptorPool");
  VkDescriptorSetAllocateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  set_info.descriptorPool = d.pool;
  set_info.descriptorSetCount = 1;
  set_info.pSetLayouts = &d.layout;
  Check(vkAllocateDescriptorSets(c.device, &set_info, &d.set), "vkAllocateDescriptorSets");
  return d;
}

void Destroy(const Context& c, DescriptorSet& d) {
  vkDestroyDescriptorPool(c.device, d.pool, nullptr);  // frees the set
  vkDestroyDescriptorSetLayout(c.device, d.layout, nullptr);
  d = DescriptorSet{};
}

VkShaderModule CreateShader(const Context& c, const uint32_t* code, size_t bytes) {
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = bytes;
  info.pCode = code;
  VkShaderModule module = VK_NULL_HANDLE;
  Check(vkCreateShaderModule(c.device, &info, nullptr, &module), "vkCreateShaderModule");
  return module;
}

VkCommandBuffer BeginCommands(const Context& c) {
  VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  info.commandPool = c.pool;
  info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  info.commandBufferCount = 1;
  VkCommandBuffer commands = VK_NULL_HANDLE;
  Check(vkAllocateCommandBuffers(c.device, &info, &commands), "vkAllocateCommandBuffers");
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  Check(vkBeginCommandBuffer(commands, &begin), "vkBeginCommandBuffer");
  return commands;
}

void SubmitAndWait(const Context& c, VkCommandBuffer commands) {
  Check(vkEndCommandBuffer(commands), "vkEndCommandBuffer");
  VkCommandBufferSubmitInfo buffer{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
  buffer.commandBuffer = commands;
  VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
  submit.commandBufferInfoCount = 1;
  submit.pCommandBufferInfos = &buffer;
  Check(vkQueueSubmit2(c.queue, 1, &submit, VK_NULL_HANDLE), "vkQueueSubmit2");
  Check(vkQueueWaitIdle(c.queue), "vkQueueWaitIdle");
  vkFreeCommandBuffers(c.device, c.pool, 1, &commands);
}

void Barrier(VkCommandBuffer commands, VkImage image, const Transition& t, VkImageAspectFlags aspect, uint32_t level,
             uint32_t levels) {
  VkImageMemoryBarrier2 barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
  barrier.srcStageMask = t.after;
  barrier.srcAccessMask = t.written;
  barrier.dstStageMask = t.before;
  barrier.dstAccessMask = t.accesses;
  barrier.oldLayout = t.from;
  barrier.newLayout = t.to;
  barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = image;
  barrier.subresourceRange = {aspect, level, levels, 0, VK_REMAINING_ARRAY_LAYERS};
  VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dependency.imageMemoryBarrierCount = 1;
  dependency.pImageMemoryBarriers = &barrier;
  vkCmdPipelineBarrier2(commands, &dependency);
}

void CopyImageToBuffer(VkCommandBuffer commands, VkImage image, VkImageLayout layout, VkExtent2D extent,
                       VkBuffer buffer) {
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {extent.width, extent.height, 1};
  vkCmdCopyImageToBuffer(commands, image, layout, buffer, 1, &region);
}

VkPipeline CreateGraphicsPipeline(const Context& c, const PipelineDesc& d) {
  VkPipelineShaderStageCreateInfo stages[2] = {{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO},
                                               {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO}};
  stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
  stages[0].module = d.vertex;
  stages[0].pName = "main";
  stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  stages[1].module = d.fragment;
  stages[1].pName = "main";
  VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  vertex_input.vertexBindingDescriptionCount = uint32_t(d.bindings.size());
  vertex_input.pVertexBindingDescriptions = d.bindings.data();
  vertex_input.vertexAttributeDescriptionCount = uint32_t(d.attributes.size());
  vertex_input.pVertexAttributeDescriptions = d.attributes.data();
  VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  assembly.topology = d.topology;
  VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  viewport.viewportCount = 1;
  viewport.scissorCount = 1;
  VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = d.cull;
  raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  raster.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  multisample.rasterizationSamples = d.samples;
  VkPipelineDepthStencilStateCreateInfo depth{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  depth.depthTestEnable = depth.depthWriteEnable = d.depth_format != VK_FORMAT_UNDEFINED;
  depth.depthCompareOp = VK_COMPARE_OP_LESS;
  VkPipelineColorBlendAttachmentState attachment{};
  attachment.colorWriteMask =
      VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
  VkPipelineColorBlendStateCreateInfo blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  blend.attachmentCount = 1;
  blend.pAttachments = &attachment;
  const VkDynamicState dynamic_states[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  dynamic.dynamicStateCount = 2;
  dynamic.pDynamicStates = dynamic_states;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  rendering.colorAttachmentCount = 1;
  rendering.pColorAttachmentFormats = &d.color_format;
  rendering.depthAttachmentFormat = d.depth_format;
  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
  info.stageCount = 2;
  info.pStages = stages;
  info.pVertexInputState = &vertex_input;
  info.pInputAssemblyState = &assembly;
  info.pViewportState = &viewport;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pDepthStencilState = &depth;
  info.pColorBlendState = &blend;
  info.pDynamicState = &dynamic;
  info.layout = d.layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  Check(vkCreateGraphicsPipelines(c.device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline), "vkCreateGraphicsPipelines");
  return pipeline;
}

VkPipelineLayout CreatePipelineLayout(const Context& c, const std::vector<VkDescriptorSetLayout>& sets,
                                      uint32_t push_constant_bytes, VkShaderStageFlags push_stages) {
  const VkPushConstantRange range{push_stages, 0, push_constant_bytes};
  VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  info.setLayoutCount = uint32_t(sets.size());
  info.pSetLayouts = sets.data();
  info.pushConstantRangeCount = push_constant_bytes > 0 ? 1 : 0;
  info.pPushConstantRanges = &range;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  Check(vkCreatePipelineLayout(c.device, &info, nullptr, &layout), "vkCreatePipelineLayout");
  return layout;
}

void SetViewport(VkCommandBuffer commands, VkExtent2D extent) {
  const VkViewport viewport{0, 0, float(extent.width), float(extent.height), 0, 1};
  const VkRect2D scissor{{0, 0}, extent};
  vkCmdSetViewport(commands, 0, 1, &viewport);
  vkCmdSetScissor(commands, 0, 1, &scissor);
}

std::string Option(int argc, char** argv, const char* name, const char* fallback) {
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], name) == 0) return argv[i + 1];
  return fallback;
}

}  // namespace sample
