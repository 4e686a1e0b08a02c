// What draws render into: the attachments of the current subpass (render
// pass objects) or of vkCmdBeginRendering (dynamic rendering), resolved to
// image views. The rasterizer reads and writes texels through these.
#pragma once

#include <vulkan/vulkan_core.h>

#include <vector>

namespace duet {

struct ImageView;

namespace raster {

class DeferredClears;

struct AttachmentTarget {
  const ImageView* view = nullptr;          // nullptr: attachment unused (VK_ATTACHMENT_UNUSED / null view)
  VkFormat format = VK_FORMAT_UNDEFINED;    // the view's format
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  // Resolve at the end of the subpass / rendering (nullptr: none).
  const ImageView* resolve_view = nullptr;
  VkResolveModeFlagBits resolve_mode = VK_RESOLVE_MODE_NONE;
};

struct RenderTargets {
  bool active = false;                      // inside a render pass / dynamic rendering
  VkRect2D render_area{};
  uint32_t layer_count = 1;                 // layers rendered (framebuffer layers / VkRenderingInfo::layerCount)
  uint32_t view_mask = 0;                   // multiview
  // Indexed by fragment shader output location (the subpass's color
  // attachment index / VkRenderingInfo::pColorAttachments index).
  std::vector<AttachmentTarget> colors;
  AttachmentTarget depth;                   // view holds the depth aspect, if any
  AttachmentTarget stencil;                 // view holds the stencil aspect, if any
  // Subpass input attachments by input attachment index (render pass objects only).
  std::vector<const ImageView*> inputs;
  // Load-op clears not written yet (raster/deferred_clear.h).
  DeferredClears* deferred = nullptr;
};

}  // namespace raster
}  // namespace duet
