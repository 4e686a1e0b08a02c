// VkRenderPass: attachments, subpasses and dependencies, from
// vkCreateRenderPass and vkCreateRenderPass2 alike. The 1.0 create info is
// read into the *2 shape (multiview masks from VkRenderPassMultiviewCreateInfo,
// input aspects from VkRenderPassInputAttachmentAspectCreateInfo), so
// graphics pipelines and replay see one form.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <memory_resource>
#include <vector>

#include "util/host_alloc.h"
#include "util/object.h"

namespace duet {

struct AttachmentReference {
  uint32_t attachment = VK_ATTACHMENT_UNUSED;  // index into RenderPass::attachments
  VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;
  VkImageAspectFlags aspect_mask = 0;  // input attachments: the aspects read; 0 = every aspect of the format

  bool used() const { return attachment != VK_ATTACHMENT_UNUSED; }
};

struct SubpassDescription {
  // The arrays live in the render pass's host memory.
  explicit SubpassDescription(std::pmr::memory_resource* memory)
      : inputs(memory), colors(memory), color_resolves(memory), preserves(memory) {}

  VkSubpassDescriptionFlags flags = 0;
  VkPipelineBindPoint bind_point = VK_PIPELINE_BIND_POINT_GRAPHICS;
  uint32_t view_mask = 0;  // multiview: the views (framebuffer layers) rendered; 0 = no multiview
  std::pmr::vector<AttachmentReference> inputs;  // by input attachment index
  std::pmr::vector<AttachmentReference> colors;  // by fragment output location
  std::pmr::vector<AttachmentReference> color_resolves;  // empty, or one per colour attachment
  AttachmentReference depth_stencil;
  // VkSubpassDescriptionDepthStencilResolve (render pass 2 only).
  AttachmentReference depth_stencil_resolve;
  VkResolveModeFlagBits depth_resolve_mode = VK_RESOLVE_MODE_NONE;
  VkResolveModeFlagBits stencil_resolve_mode = VK_RESOLVE_MODE_NONE;
  std::pmr::vector<uint32_t> preserves;
  // VK_EXT_multisampled_render_to_single_sampled: single-sampled
  // attachments are rendered with this many samples (1: off).
  VkSampleCountFlagBits render_samples = VK_SAMPLE_COUNT_1_BIT;

  // Every attachment this subpass reads or writes (not preserves), each once.
  std::vector<uint32_t> UsedAttachments() const;
};

struct RenderPass : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkRenderPass, VK_OBJECT_TYPE_RENDER_PASS);

  explicit RenderPass(const VkAllocationCallbacks* allocator)
      : NonDispatchableObject(kObjectType), memory(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT) {}

  HostMemoryResource memory;  // the arrays below
  VkRenderPassCreateFlags flags = 0;
  std::pmr::vector<VkAttachmentDescription2> attachments{&memory};  // pNext dropped (stencil layouts do not matter)
  std::pmr::vector<SubpassDescription> subpasses{&memory};
  std::pmr::vector<VkSubpassDependency2> dependencies{&memory};  // pNext dropped; viewOffset filled for 1.0 too
  std::pmr::vector<uint32_t> correlated_view_masks{&memory};

  // Multiview is all or nothing: either every subpass has a view mask or none.
  bool multiview() const { return !subpasses.empty() && subpasses[0].view_mask != 0; }
};

}  // namespace duet
