// The render-target side of a command buffer's replay: which attachments
// draws go to (RenderTargets), and the attachment operations that happen
// without draws: load-op clears at an attachment's first use, resolves at the
// end of a subpass or of dynamic rendering, and vkCmdClearAttachments.
//
// Render pass objects: each attachment's load op runs in the first subpass
// that uses it (as input, colour, resolve or depth/stencil attachment); with
// multiview, per view, in the first subpass whose view mask holds the view.
// Load and resolve operations cover the render area of the framebuffer's
// layers (of the view mask's layers with multiview). LOAD, DONT_CARE and
// NONE leave memory as it is, and so do all store ops: attachments live in
// image memory, so there is nothing to write back.
//
// Multisampled rendering to single-sampled attachments
// (VK_EXT_multisampled_render_to_single_sampled): each such attachment is
// drawn into an implicit multisampled image of the driver's, loaded from
// the attachment (every sample its texel) unless cleared, and resolved
// into it at the end of the subpass or rendering.
#pragma once

#include <vulkan/vulkan_core.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "raster/deferred_clear.h"
#include "raster/render_targets.h"

namespace duet {

struct RenderPass;

namespace raster {

class RenderPassState {
 public:
  // `image_writes`: the device's Device::image_writes, for what is known of
  // cleared images (raster/known_clear.h).
  explicit RenderPassState(const std::atomic<uint64_t>* image_writes = nullptr);
  ~RenderPassState();

  // vkCmdBeginRenderPass(2): framebuffer views (or, imageless, the views of
  // VkRenderPassAttachmentBeginInfo), then subpass 0 begins.
  void BeginRenderPass(const VkRenderPassBeginInfo& begin);
  // Resolves the finished subpass's resolve attachments, then begins the next.
  void NextSubpass();
  // Resolves the last subpass; no targets afterwards.
  void EndRenderPass();

  // vkCmdBeginRendering: CLEAR load ops clear unless the instance resumes a
  // suspended one (VK_RENDERING_RESUMING_BIT).
  void BeginRendering(const VkRenderingInfo& info);
  // Resolves, unless the instance is suspended (VK_RENDERING_SUSPENDING_BIT):
  // the resuming instance's end resolves.
  void EndRendering();

  // vkCmdClearAttachments: colour attachment indices and depth/stencil refer
  // to Targets(); layers are counted from each view's base layer, or are the
  // view mask's layers with multiview.
  void ClearAttachments(uint32_t count, const VkClearAttachment* attachments, uint32_t rect_count,
                        const VkClearRect* rects);

  const RenderTargets& Targets() const { return targets_; }
  // The render pass object and subpass being replayed (nullptr outside one
  // and with dynamic rendering): graphics pipelines are made for one subpass.
  const RenderPass* CurrentRenderPass() const { return pass_; }
  uint32_t CurrentSubpass() const { return subpass_; }

 private:
  void BeginSubpass();
  void RunLoadOps();
  void ResolveTargets() const;
  // Multisampled rendering to single-sampled attachments: the implicit
  // image view for `view` (made once per subpass or rendering), and the
  // target drawn into it instead, loaded from `view` (unless `cleared`)
  // and resolved into it (depth and stencil by `depth_stencil_mode`).
  struct ImplicitImage;
  const ImageView* ImplicitView(const ImageView& view, VkSampleCountFlagBits samples);
  void RenderToSingleSampled(AttachmentTarget* target, VkImageAspectFlagBits aspect, VkSampleCountFlagBits samples,
                             VkResolveModeFlagBits depth_stencil_mode, bool cleared);
  // The view draws use for attachment view `view` (its implicit one, if any).
  const ImageView* DrawnView(const ImageView* view) const;

  RenderTargets targets_;
  DeferredClears deferred_;  // the load-op clears (targets_.deferred)

  // Render pass objects.
  const RenderPass* pass_ = nullptr;
  uint32_t subpass_ = 0;
  uint32_t framebuffer_layers_ = 1;
  std::vector<const ImageView*> attachments_;  // by attachment index
  std::vector<VkClearValue> clear_values_;     // by attachment index
  std::vector<uint32_t> loaded_views_;         // by attachment index: views whose load op ran (bit 0 without multiview)

  // Dynamic rendering.
  bool suspending_ = false;

  std::vector<std::unique_ptr<ImplicitImage>> implicit_;  // this subpass's or rendering's
};

}  // namespace raster
}  // namespace duet
