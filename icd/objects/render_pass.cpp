// Render passes: both create paths fill the same RenderPass. The 1.0 path
// converts each struct to its *2 counterpart first, taking what 1.0 keeps
// in pNext structs (view masks, view offsets, input attachment aspects).
#include "objects/render_pass.h"

#include <algorithm>
#include <new>

#include "dispatch/entrypoints.h"
#include "objects/device.h"
#include "util/host_alloc.h"
#include "util/vk_util.h"

namespace duet {

std::vector<uint32_t> SubpassDescription::UsedAttachments() const {
  std::vector<uint32_t> used;
  auto add = [&](const AttachmentReference& ref) {
    if (ref.used() && std::find(used.begin(), used.end(), ref.attachment) == used.end()) used.push_back(ref.attachment);
  };
  for (const AttachmentReference& ref : inputs) add(ref);
  for (const AttachmentReference& ref : colors) add(ref);
  for (const AttachmentReference& ref : color_resolves) add(ref);
  add(depth_stencil);
  add(depth_stencil_resolve);
  return used;
}

namespace {

AttachmentReference Reference(const VkAttachmentReference2* ref) {
  if (ref == nullptr) return {};
  return {ref->attachment, ref->layout, ref->aspectMask};
}

void References(const VkAttachmentReference2* refs, uint32_t count, std::pmr::vector<AttachmentReference>* out) {
  if (refs == nullptr) return;
  out->reserve(count);
  for (uint32_t i = 0; i < count; ++i) out->push_back(Reference(&refs[i]));
}

void Subpass(const VkSubpassDescription2& in, SubpassDescription* out) {
  out->flags = in.flags;
  out->bind_point = in.pipelineBindPoint;
  out->view_mask = in.viewMask;
  References(in.pInputAttachments, in.inputAttachmentCount, &out->inputs);
  References(in.pColorAttachments, in.colorAttachmentCount, &out->colors);
  References(in.pResolveAttachments, in.colorAttachmentCount, &out->color_resolves);
  out->depth_stencil = Reference(in.pDepthStencilAttachment);
  if (const auto* resolve = FindInChain<VkSubpassDescriptionDepthStencilResolve>(
          in.pNext, VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_DEPTH_STENCIL_RESOLVE)) {
    out->depth_stencil_resolve = Reference(resolve->pDepthStencilResolveAttachment);
    // (Also the modes of multisampled rendering to single-sampled attachments.)
    out->depth_resolve_mode = resolve->depthResolveMode;
    out->stencil_resolve_mode = resolve->stencilResolveMode;
  }
  if (const auto* single = FindInChain<VkMultisampledRenderToSingleSampledInfoEXT>(
          in.pNext, VK_STRUCTURE_TYPE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_INFO_EXT);
      single != nullptr && single->multisampledRenderToSingleSampledEnable)
    out->render_samples = single->rasterizationSamples;
  if (in.pPreserveAttachments != nullptr)
    out->preserves.assign(in.pPreserveAttachments, in.pPreserveAttachments + in.preserveAttachmentCount);
}

// Fills `pass` from a *2 create info. May throw std::bad_alloc.
void BuildRenderPass(const VkRenderPassCreateInfo2& info, RenderPass* pass) {
  pass->flags = info.flags;
  pass->attachments.assign(info.pAttachments, info.pAttachments + info.attachmentCount);
  for (VkAttachmentDescription2& a : pass->attachments) a.pNext = nullptr;
  pass->subpasses.reserve(info.subpassCount);
  for (uint32_t i = 0; i < info.subpassCount; ++i)
    Subpass(info.pSubpasses[i], &pass->subpasses.emplace_back(&pass->memory));
  if (info.dependencyCount > 0)
    pass->dependencies.assign(info.pDependencies, info.pDependencies + info.dependencyCount);
  // A VkMemoryBarrier2 in a dependency's chain only refines the barrier; replay
  // runs in order and needs none, so the chain is not kept.
  for (VkSubpassDependency2& d : pass->dependencies) d.pNext = nullptr;
  if (info.correlatedViewMaskCount > 0)
    pass->correlated_view_masks.assign(info.pCorrelatedViewMasks,
                                       info.pCorrelatedViewMasks + info.correlatedViewMaskCount);
}

VkAttachmentReference2 Reference2(const VkAttachmentReference& ref) {
  return {VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, nullptr, ref.attachment, ref.layout, 0};
}

// A 1.0 create info in *2 form. The converted structs live in the vectors
// of this object, so it must outlive the VkRenderPassCreateInfo2 it makes;
// their memory is the command's, from the application's callbacks.
class RenderPassInfo2 {
 public:
  RenderPassInfo2(const VkRenderPassCreateInfo& info, const VkAllocationCallbacks* allocator)
      : memory_(allocator, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND) {
    const auto* multiview =
        FindInChain<VkRenderPassMultiviewCreateInfo>(info.pNext, VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO);
    const auto* aspects = FindInChain<VkRenderPassInputAttachmentAspectCreateInfo>(
        info.pNext, VK_STRUCTURE_TYPE_RENDER_PASS_INPUT_ATTACHMENT_ASPECT_CREATE_INFO);

    for (uint32_t i = 0; i < info.attachmentCount; ++i) {
      const VkAttachmentDescription& a = info.pAttachments[i];
      attachments_.push_back({VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2, nullptr, a.flags, a.format, a.samples,
                              a.loadOp, a.storeOp, a.stencilLoadOp, a.stencilStoreOp, a.initialLayout,
                              a.finalLayout});
    }

    // All references first, so the pointers into refs_ stay valid.
    size_t ref_count = 0;
    for (uint32_t s = 0; s < info.subpassCount; ++s) {
      const VkSubpassDescription& d = info.pSubpasses[s];
      ref_count += d.inputAttachmentCount + 2 * size_t{d.colorAttachmentCount} + 1;
    }
    refs_.reserve(ref_count);
    for (uint32_t s = 0; s < info.subpassCount; ++s) {
      const VkSubpassDescription& d = info.pSubpasses[s];
      VkSubpassDescription2 out{VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2};
      out.flags = d.flags;
      out.pipelineBindPoint = d.pipelineBindPoint;
      if (multiview != nullptr && s < multiview->subpassCount) out.viewMask = multiview->pViewMasks[s];
      out.inputAttachmentCount = d.inputAttachmentCount;
      const size_t first_input = refs_.size();
      out.pInputAttachments = Append(d.pInputAttachments, d.inputAttachmentCount);
      for (size_t i = first_input; i < refs_.size(); ++i)
        refs_[i].aspectMask = InputAspect(aspects, s, uint32_t(i - first_input));
      out.colorAttachmentCount = d.colorAttachmentCount;
      out.pColorAttachments = Append(d.pColorAttachments, d.colorAttachmentCount);
      out.pResolveAttachments = Append(d.pResolveAttachments, d.colorAttachmentCount);
      out.pDepthStencilAttachment = Append(d.pDepthStencilAttachment, 1);
      out.preserveAttachmentCount = d.preserveAttachmentCount;
      out.pPreserveAttachments = d.pPreserveAttachments;
      subpasses_.push_back(out);
    }

    for (uint32_t i = 0; i < info.dependencyCount; ++i) {
      const VkSubpassDependency& d = info.pDependencies[i];
      const int32_t view_offset =
          multiview != nullptr && i < multiview->dependencyCount ? multiview->pViewOffsets[i] : 0;
      dependencies_.push_back({VK_STRUCTURE_TYPE_SUBPASS_DEPENDENCY_2, nullptr, d.srcSubpass, d.dstSubpass,
                               d.srcStageMask, d.dstStageMask, d.srcAccessMask, d.dstAccessMask, d.dependencyFlags,
                               view_offset});
    }

    info2_.flags = info.flags;
    info2_.attachmentCount = info.attachmentCount;
    info2_.pAttachments = attachments_.data();
    info2_.subpassCount = info.subpassCount;
    info2_.pSubpasses = subpasses_.data();
    info2_.dependencyCount = info.dependencyCount;
    info2_.pDependencies = dependencies_.data();
    if (multiview != nullptr) {
      info2_.correlatedViewMaskCount = multiview->correlationMaskCount;
      info2_.pCorrelatedViewMasks = multiview->pCorrelationMasks;
    }
  }

  const VkRenderPassCreateInfo2& info2() const { return info2_; }

 private:
  // Without VkRenderPassInputAttachmentAspectCreateInfo an input attachment
  // reads every aspect of its format (0 here).
  static VkImageAspectFlags InputAspect(const VkRenderPassInputAttachmentAspectCreateInfo* aspects, uint32_t subpass,
                                        uint32_t input_index) {
    if (aspects == nullptr) return 0;
    for (uint32_t i = 0; i < aspects->aspectReferenceCount; ++i) {
      const VkInputAttachmentAspectReference& r = aspects->pAspectReferences[i];
      if (r.subpass == subpass && r.inputAttachmentIndex == input_index) return r.aspectMask;
    }
    return 0;
  }

  const VkAttachmentReference2* Append(const VkAttachmentReference* refs, uint32_t count) {
    if (refs == nullptr || count == 0) return nullptr;
    const VkAttachmentReference2* first = refs_.data() + refs_.size();
    for (uint32_t i = 0; i < count; ++i) refs_.push_back(Reference2(refs[i]));
    return first;
  }

  HostMemoryResource memory_;
  std::pmr::vector<VkAttachmentDescription2> attachments_{&memory_};
  std::pmr::vector<VkAttachmentReference2> refs_{&memory_};
  std::pmr::vector<VkSubpassDescription2> subpasses_{&memory_};
  std::pmr::vector<VkSubpassDependency2> dependencies_{&memory_};
  VkRenderPassCreateInfo2 info2_{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2};
};

VkResult CreateRenderPassFrom(Device* device, const VkRenderPassCreateInfo2& info,
                              const VkAllocationCallbacks* pAllocator, VkRenderPass* pRenderPass) {
  const VkAllocationCallbacks* allocator = ChooseAllocator(pAllocator, device->Allocator());
  RenderPass* pass = HostNew<RenderPass>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, allocator);
  if (pass == nullptr) return VK_ERROR_OUT_OF_HOST_MEMORY;
  try {
    BuildRenderPass(info, pass);
  } catch (const std::bad_alloc&) {
    HostDelete(allocator, pass);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  *pRenderPass = ToHandle(pass);
  return VK_SUCCESS;
}

}  // namespace
}  // namespace duet

namespace duet::api {

VKAPI_ATTR VkResult VKAPI_CALL CreateRenderPass2(VkDevice _device, const VkRenderPassCreateInfo2* pCreateInfo,
                                                 const VkAllocationCallbacks* pAllocator, VkRenderPass* pRenderPass) {
  return CreateRenderPassFrom(FromHandle<Device>(_device), *pCreateInfo, pAllocator, pRenderPass);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateRenderPass(VkDevice _device, const VkRenderPassCreateInfo* pCreateInfo,
                                                const VkAllocationCallbacks* pAllocator, VkRenderPass* pRenderPass) {
  try {
    Device* device = FromHandle<Device>(_device);
    const RenderPassInfo2 converted(*pCreateInfo, ChooseAllocator(pAllocator, device->Allocator()));
    return CreateRenderPassFrom(device, converted.info2(), pAllocator, pRenderPass);
  } catch (const std::bad_alloc&) {
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
}

VKAPI_ATTR void VKAPI_CALL DestroyRenderPass(VkDevice _device, VkRenderPass renderPass,
                                             const VkAllocationCallbacks* pAllocator) {
  Device* device = FromHandle<Device>(_device);
  HostDelete(ChooseAllocator(pAllocator, device->Allocator()), FromHandle<RenderPass>(renderPass));
}

// Render areas need no alignment: every pixel is written by the CPU alike.
VKAPI_ATTR void VKAPI_CALL GetRenderAreaGranularity(VkDevice, VkRenderPass, VkExtent2D* pGranularity) {
  *pGranularity = {1, 1};
}

}  // namespace duet::api
