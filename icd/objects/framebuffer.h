// VkFramebuffer: the image views a render pass instance renders into, or,
// for an imageless framebuffer, only their count: the views then come with
// each vkCmdBeginRenderPass (VkRenderPassAttachmentBeginInfo).
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <memory_resource>
#include <vector>

#include "util/host_alloc.h"
#include "util/object.h"

namespace duet {

struct ImageView;

struct Framebuffer : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkFramebuffer, VK_OBJECT_TYPE_FRAMEBUFFER);

  explicit Framebuffer(const VkAllocationCallbacks* allocator)
      : NonDispatchableObject(kObjectType), memory(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT) {}

  HostMemoryResource memory;  // attachments

  VkFramebufferCreateFlags flags = 0;
  uint32_t width = 0, height = 0, layers = 1;
  uint32_t attachment_count = 0;
  std::pmr::vector<ImageView*> attachments{&memory};  // attachment_count views; empty when imageless

  bool imageless() const { return (flags & VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT) != 0; }
};

}  // namespace duet
