#include "raster/render_pass_state.h"

#include <algorithm>
#include <memory>

#include "objects/framebuffer.h"
#include "objects/image.h"
#include "objects/render_pass.h"
#include "raster/attachment_ops.h"
#include "raster/known_clear.h"
#include "texel/texel_codec.h"
#include "util/vk_util.h"

namespace duet::raster {
namespace {

// Render pass objects resolve colour by the format: integer formats take
// sample 0, everything else averages.
VkResolveModeFlagBits ColorResolveMode(VkFormat format) {
  const texel::TexelCodec* codec = texel::GetTexelCodec(format);
  return codec != nullptr && codec->value_class != texel::ValueClass::kFloat ? VK_RESOLVE_MODE_SAMPLE_ZERO_BIT
                                                                            : VK_RESOLVE_MODE_AVERAGE_BIT;
}

AttachmentTarget TargetOf(const ImageView* view) {
  AttachmentTarget target;
  if (view == nullptr) return target;
  target.view = view;
  target.format = view->format;
  target.samples = view->image->samples;
  return target;
}

// The layers a render pass instance renders: the view mask's with
// multiview, else every layer of the framebuffer / rendering info.
LayerSet RenderedLayers(const RenderTargets& targets) { return {targets.view_mask, 0, targets.layer_count}; }

void ResolveTarget(const AttachmentTarget& target, VkImageAspectFlagBits aspect, const RenderTargets& targets) {
  if (target.view == nullptr || target.resolve_view == nullptr) return;
  // (After its own load-op clear, if it had one, was remembered.)
  ForgetKnownClear(*target.resolve_view->image);
  ResolveViewRect(*target.view, *target.resolve_view, aspect, target.resolve_mode, targets.render_area,
                  RenderedLayers(targets));
}

// Whether values written under this store op must reach memory: DONT_CARE
// leaves them undefined. (NONE is kept: whether a load-op clear counts as
// a write that makes it DONT_CARE is not worth the doubt.)
bool Stored(VkAttachmentStoreOp op) { return op != VK_ATTACHMENT_STORE_OP_DONT_CARE; }

// Whether one of the targets resolves from `view`.
bool Resolves(const RenderTargets& targets, const ImageView* view) {
  auto resolves = [&](const AttachmentTarget& t) { return t.view == view && t.resolve_view != nullptr; };
  for (const AttachmentTarget& color : targets.colors)
    if (resolves(color)) return true;
  return resolves(targets.depth) || resolves(targets.stencil);
}

// The views of a render pass instance: the framebuffer's, or those given at
// begin for an imageless framebuffer.
std::vector<const ImageView*> InstanceViews(const Framebuffer& framebuffer, const VkRenderPassBeginInfo& begin) {
  std::vector<const ImageView*> views(framebuffer.attachment_count, nullptr);
  if (!framebuffer.imageless()) {
    for (uint32_t i = 0; i < framebuffer.attachment_count; ++i) views[i] = framebuffer.attachments[i];
    return views;
  }
  if (const auto* given = FindInChain<VkRenderPassAttachmentBeginInfo>(
          begin.pNext, VK_STRUCTURE_TYPE_RENDER_PASS_ATTACHMENT_BEGIN_INFO)) {
    for (uint32_t i = 0; i < given->attachmentCount && i < views.size(); ++i)
      views[i] = FromHandle<ImageView>(given->pAttachments[i]);
  }
  return views;
}

// The instance writes its attachments: what is known of them no longer
// holds, but for the clears that took it (DeferredClears::Follow).
void ForgetKnownClears(const std::vector<const ImageView*>& views) {
  for (const ImageView* view : views)
    if (view != nullptr) ForgetKnownClear(*view->image);
}

}  // namespace

struct RenderPassState::ImplicitImage {
  const ImageView* of = nullptr;  // the single-sampled attachment view
  Image image;
  DeviceMemory memory;
  std::unique_ptr<std::byte[]> bytes;
  ImageView view;
};

RenderPassState::RenderPassState(const std::atomic<uint64_t>* image_writes) : deferred_(image_writes) {}
RenderPassState::~RenderPassState() = default;

const ImageView* RenderPassState::ImplicitView(const ImageView& view, VkSampleCountFlagBits samples) {
  for (const std::unique_ptr<ImplicitImage>& implicit : implicit_)
    if (implicit->of == &view) return &implicit->view;
  const Image& single = *view.image;
  auto implicit = std::make_unique<ImplicitImage>();
  implicit->of = &view;
  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = single.format;
  info.extent = {std::max(single.extent.width >> view.range.baseMipLevel, 1u),
                 std::max(single.extent.height >> view.range.baseMipLevel, 1u), 1};
  info.mipLevels = 1;
  info.arrayLayers = std::max(view.range.layerCount, 1u);
  info.samples = samples;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = single.usage;
  Image& image = implicit->image;
  if (!texel::ComputeImageLayout(info, &image.layout)) return nullptr;
  image.type = info.imageType;
  image.format = info.format;
  image.extent = info.extent;
  image.array_layers = info.arrayLayers;
  image.samples = samples;
  image.usage = info.usage;
  implicit->bytes = std::make_unique<std::byte[]>(size_t(image.layout.size));
  implicit->memory.size = image.layout.size;
  implicit->memory.data = implicit->bytes.get();
  image.memory = &implicit->memory;
  ImageView& v = implicit->view;
  v.image = &image;
  v.view_type = info.arrayLayers > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D;
  v.format = view.format;
  v.components = view.components;
  v.range = {view.range.aspectMask, 0, 1, 0, info.arrayLayers};
  v.usage = view.usage;
  implicit_.push_back(std::move(implicit));
  return &implicit_.back()->view;
}

void RenderPassState::RenderToSingleSampled(AttachmentTarget* target, VkImageAspectFlagBits aspect,
                                            VkSampleCountFlagBits samples, VkResolveModeFlagBits depth_stencil_mode,
                                            bool cleared) {
  if (target->view == nullptr || samples <= VK_SAMPLE_COUNT_1_BIT || target->samples != VK_SAMPLE_COUNT_1_BIT) return;
  const ImageView* single = target->view;
  const ImageView* implicit = ImplicitView(*single, samples);
  if (implicit == nullptr) return;
  if (!cleared) ExpandViewRect(*single, *implicit, aspect, targets_.render_area, RenderedLayers(targets_));
  target->view = implicit;
  target->samples = samples;
  target->resolve_view = single;
  target->resolve_mode = aspect == VK_IMAGE_ASPECT_COLOR_BIT ? ColorResolveMode(single->format)
                         : depth_stencil_mode != VK_RESOLVE_MODE_NONE ? depth_stencil_mode
                                                                      : VK_RESOLVE_MODE_SAMPLE_ZERO_BIT;
}

const ImageView* RenderPassState::DrawnView(const ImageView* view) const {
  for (const std::unique_ptr<ImplicitImage>& implicit : implicit_)
    if (implicit->of == view) return &implicit->view;
  return view;
}

void RenderPassState::BeginRenderPass(const VkRenderPassBeginInfo& begin) {
  pass_ = FromHandle<RenderPass>(begin.renderPass);
  const Framebuffer& framebuffer = *FromHandle<Framebuffer>(begin.framebuffer);
  framebuffer_layers_ = framebuffer.layers;
  attachments_ = InstanceViews(framebuffer, begin);
  attachments_.resize(pass_->attachments.size(), nullptr);
  clear_values_.assign(pass_->attachments.size(), VkClearValue{});
  for (uint32_t i = 0; i < begin.clearValueCount && i < clear_values_.size(); ++i)
    clear_values_[i] = begin.pClearValues[i];
  loaded_views_.assign(pass_->attachments.size(), 0);
  subpass_ = 0;
  targets_ = {};
  targets_.render_area = begin.renderArea;
  BeginSubpass();
  ForgetKnownClears(attachments_);
}

void RenderPassState::NextSubpass() {
  if (pass_ == nullptr) return;
  deferred_.Flush();
  ResolveTargets();
  if (subpass_ + 1 >= pass_->subpasses.size()) return;
  ++subpass_;
  BeginSubpass();
}

void RenderPassState::EndRenderPass() {
  if (pass_ == nullptr) return;
  deferred_.End();
  ResolveTargets();
  pass_ = nullptr;
  subpass_ = 0;
  attachments_.clear();
  clear_values_.clear();
  loaded_views_.clear();
  targets_ = {};
}

// Points the targets at the subpass's attachments, then runs the load ops
// of attachments (views) used here for the first time.
void RenderPassState::BeginSubpass() {
  const SubpassDescription& subpass = pass_->subpasses[subpass_];
  const VkRect2D render_area = targets_.render_area;
  targets_ = {};
  targets_.active = true;
  targets_.deferred = &deferred_;
  targets_.render_area = render_area;
  targets_.layer_count = framebuffer_layers_;
  targets_.view_mask = subpass.view_mask;

  auto view_of = [&](const AttachmentReference& ref) { return ref.used() ? attachments_[ref.attachment] : nullptr; };
  for (size_t i = 0; i < subpass.colors.size(); ++i) {
    AttachmentTarget target = TargetOf(view_of(subpass.colors[i]));
    if (target.view != nullptr && i < subpass.color_resolves.size()) {
      target.resolve_view = view_of(subpass.color_resolves[i]);
      if (target.resolve_view != nullptr) target.resolve_mode = ColorResolveMode(target.format);
    }
    targets_.colors.push_back(target);
  }
  if (const ImageView* view = view_of(subpass.depth_stencil)) {
    const VkImageAspectFlags aspects = FormatAspects(view->format);
    const ImageView* resolve = view_of(subpass.depth_stencil_resolve);
    if ((aspects & VK_IMAGE_ASPECT_DEPTH_BIT) != 0) {
      targets_.depth = TargetOf(view);
      if (subpass.depth_resolve_mode != VK_RESOLVE_MODE_NONE) {
        targets_.depth.resolve_view = resolve;
        targets_.depth.resolve_mode = subpass.depth_resolve_mode;
      }
    }
    if ((aspects & VK_IMAGE_ASPECT_STENCIL_BIT) != 0) {
      targets_.stencil = TargetOf(view);
      if (subpass.stencil_resolve_mode != VK_RESOLVE_MODE_NONE) {
        targets_.stencil.resolve_view = resolve;
        targets_.stencil.resolve_mode = subpass.stencil_resolve_mode;
      }
    }
  }
  if (subpass.render_samples > VK_SAMPLE_COUNT_1_BIT) {
    // Attachments cleared in this subpass (their first use) need no load.
    const uint32_t subpass_views = subpass.view_mask != 0 ? subpass.view_mask : 1u;
    auto cleared = [&](const AttachmentReference& ref, bool stencil) {
      if (!ref.used() || (loaded_views_[ref.attachment] & subpass_views) == subpass_views) return false;
      const VkAttachmentDescription2& d = pass_->attachments[ref.attachment];
      return (stencil ? d.stencilLoadOp : d.loadOp) == VK_ATTACHMENT_LOAD_OP_CLEAR;
    };
    implicit_.clear();
    for (size_t i = 0; i < targets_.colors.size(); ++i)
      RenderToSingleSampled(&targets_.colors[i], VK_IMAGE_ASPECT_COLOR_BIT, subpass.render_samples,
                            VK_RESOLVE_MODE_NONE, cleared(subpass.colors[i], false));
    RenderToSingleSampled(&targets_.depth, VK_IMAGE_ASPECT_DEPTH_BIT, subpass.render_samples,
                          subpass.depth_resolve_mode, cleared(subpass.depth_stencil, false));
    RenderToSingleSampled(&targets_.stencil, VK_IMAGE_ASPECT_STENCIL_BIT, subpass.render_samples,
                          subpass.stencil_resolve_mode, cleared(subpass.depth_stencil, true));
  }
  for (const AttachmentReference& ref : subpass.inputs) targets_.inputs.push_back(DrawnView(view_of(ref)));
  RunLoadOps();
}

void RenderPassState::RunLoadOps() {
  const SubpassDescription& subpass = pass_->subpasses[subpass_];
  // Without multiview, bit 0 stands for all the framebuffer's layers.
  const uint32_t subpass_views = subpass.view_mask != 0 ? subpass.view_mask : 1u;
  for (uint32_t index : subpass.UsedAttachments()) {
    const uint32_t first_views = subpass_views & ~loaded_views_[index];
    loaded_views_[index] |= subpass_views;
    const ImageView* view = attachments_[index];
    if (first_views == 0 || view == nullptr) continue;
    const VkAttachmentDescription2& description = pass_->attachments[index];
    const VkImageAspectFlags aspects = FormatAspects(view->format);
    VkImageAspectFlags cleared = 0;
    if ((aspects & VK_IMAGE_ASPECT_COLOR_BIT) != 0 && description.loadOp == VK_ATTACHMENT_LOAD_OP_CLEAR)
      cleared |= VK_IMAGE_ASPECT_COLOR_BIT;
    if ((aspects & VK_IMAGE_ASPECT_DEPTH_BIT) != 0 && description.loadOp == VK_ATTACHMENT_LOAD_OP_CLEAR)
      cleared |= VK_IMAGE_ASPECT_DEPTH_BIT;
    if ((aspects & VK_IMAGE_ASPECT_STENCIL_BIT) != 0 && description.stencilLoadOp == VK_ATTACHMENT_LOAD_OP_CLEAR)
      cleared |= VK_IMAGE_ASPECT_STENCIL_BIT;
    if (cleared == 0) continue;
    const LayerSet layers = subpass.view_mask != 0 ? LayerSet{first_views, 0, 0} : LayerSet{0, 0, framebuffer_layers_};
    // (Multisampled rendering to single-sampled attachments clears the
    // implicit image, which resolves into the attachment.)
    view = DrawnView(view);
    // Clears still pending when the pass ends were added in its last
    // subpass, so its resolves are the ones that read them.
    const bool resolved = Resolves(targets_, view);
    const VkImageAspectFlags stencil = cleared & VK_IMAGE_ASPECT_STENCIL_BIT;
    if (cleared != stencil)
      deferred_.Add(*view, cleared & ~stencil, clear_values_[index], targets_.render_area, layers,
                    resolved || Stored(description.storeOp));
    if (stencil != 0)
      deferred_.Add(*view, stencil, clear_values_[index], targets_.render_area, layers,
                    resolved || Stored(description.stencilStoreOp));
  }
}

void RenderPassState::ResolveTargets() const {
  for (const AttachmentTarget& color : targets_.colors) ResolveTarget(color, VK_IMAGE_ASPECT_COLOR_BIT, targets_);
  ResolveTarget(targets_.depth, VK_IMAGE_ASPECT_DEPTH_BIT, targets_);
  ResolveTarget(targets_.stencil, VK_IMAGE_ASPECT_STENCIL_BIT, targets_);
}

void RenderPassState::BeginRendering(const VkRenderingInfo& info) {
  pass_ = nullptr;
  subpass_ = 0;
  suspending_ = (info.flags & VK_RENDERING_SUSPENDING_BIT) != 0;
  const bool resuming = (info.flags & VK_RENDERING_RESUMING_BIT) != 0;
  targets_ = {};
  targets_.active = true;
  targets_.deferred = &deferred_;
  targets_.render_area = info.renderArea;
  targets_.layer_count = info.layerCount;
  targets_.view_mask = info.viewMask;
  VkSampleCountFlagBits render_samples = VK_SAMPLE_COUNT_1_BIT;
  if (const auto* single = FindInChain<VkMultisampledRenderToSingleSampledInfoEXT>(
          info.pNext, VK_STRUCTURE_TYPE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_INFO_EXT);
      single != nullptr && single->multisampledRenderToSingleSampledEnable)
    render_samples = single->rasterizationSamples;
  // (A resumed instance goes on in the implicit images of the suspended one.)
  if (!resuming) implicit_.clear();

  // One attachment: its target, and its load-op clear of `aspect`.
  auto attach = [&](const VkRenderingAttachmentInfo* attachment, VkImageAspectFlagBits aspect) {
    if (attachment == nullptr) return AttachmentTarget{};
    AttachmentTarget target = TargetOf(FromHandle<ImageView>(attachment->imageView));
    if (target.view == nullptr) return target;
    if (render_samples > VK_SAMPLE_COUNT_1_BIT && target.samples == VK_SAMPLE_COUNT_1_BIT) {
      const bool load = !resuming && attachment->loadOp == VK_ATTACHMENT_LOAD_OP_LOAD;
      if (resuming) {
        target.view = DrawnView(target.view);
        target.samples = render_samples;
        target.resolve_view = FromHandle<ImageView>(attachment->imageView);
        target.resolve_mode = aspect == VK_IMAGE_ASPECT_COLOR_BIT ? ColorResolveMode(target.format)
                              : attachment->resolveMode != VK_RESOLVE_MODE_NONE ? attachment->resolveMode
                                                                                : VK_RESOLVE_MODE_SAMPLE_ZERO_BIT;
      } else {
        RenderToSingleSampled(&target, aspect, render_samples, attachment->resolveMode, !load);
      }
    } else if (attachment->resolveMode != VK_RESOLVE_MODE_NONE && attachment->resolveImageView != VK_NULL_HANDLE) {
      target.resolve_view = FromHandle<ImageView>(attachment->resolveImageView);
      target.resolve_mode = attachment->resolveMode;
    }
    if (!resuming && attachment->loadOp == VK_ATTACHMENT_LOAD_OP_CLEAR)
      deferred_.Add(*target.view, aspect, attachment->clearValue, info.renderArea, RenderedLayers(targets_),
                    target.resolve_view != nullptr || Stored(attachment->storeOp));
    return target;
  };
  for (uint32_t i = 0; i < info.colorAttachmentCount; ++i)
    targets_.colors.push_back(attach(&info.pColorAttachments[i], VK_IMAGE_ASPECT_COLOR_BIT));
  targets_.depth = attach(info.pDepthAttachment, VK_IMAGE_ASPECT_DEPTH_BIT);
  targets_.stencil = attach(info.pStencilAttachment, VK_IMAGE_ASPECT_STENCIL_BIT);
  std::vector<const ImageView*> views;
  auto add = [&](const AttachmentTarget& t) {
    views.push_back(t.view);
    views.push_back(t.resolve_view);
  };
  for (const AttachmentTarget& color : targets_.colors) add(color);
  add(targets_.depth);
  add(targets_.stencil);
  ForgetKnownClears(views);
}

void RenderPassState::EndRendering() {
  // A suspended instance may resume in another command buffer: its clears
  // are written now, and it resolves when it ends for good.
  if (suspending_) {
    deferred_.Flush();
  } else {
    deferred_.End();
    ResolveTargets();
  }
  suspending_ = false;
  targets_ = {};
}

void RenderPassState::ClearAttachments(uint32_t count, const VkClearAttachment* attachments, uint32_t rect_count,
                                       const VkClearRect* rects) {
  deferred_.Flush();
  for (uint32_t a = 0; a < count; ++a) {
    const VkClearAttachment& clear = attachments[a];
    // (target, aspect) pairs this clear writes.
    auto clear_target = [&](const AttachmentTarget& target, VkImageAspectFlags aspect) {
      if (target.view == nullptr || (clear.aspectMask & aspect) == 0) return;
      for (uint32_t r = 0; r < rect_count; ++r) {
        const LayerSet layers = targets_.view_mask != 0 ? LayerSet{targets_.view_mask, 0, 0}
                                                        : LayerSet{0, rects[r].baseArrayLayer, rects[r].layerCount};
        ClearViewRect(*target.view, aspect, clear.clearValue, rects[r].rect, layers);
      }
    };
    if ((clear.aspectMask & VK_IMAGE_ASPECT_COLOR_BIT) != 0) {
      if (clear.colorAttachment < targets_.colors.size())
        clear_target(targets_.colors[clear.colorAttachment], VK_IMAGE_ASPECT_COLOR_BIT);
      continue;
    }
    clear_target(targets_.depth, VK_IMAGE_ASPECT_DEPTH_BIT);
    clear_target(targets_.stencil, VK_IMAGE_ASPECT_STENCIL_BIT);
  }
}

}  // namespace duet::raster
