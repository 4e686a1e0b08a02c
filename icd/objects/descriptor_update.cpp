// Descriptor writes, copies and update templates. Every write resolves its
// handles to what shaders use (pointers into buffer memory, view and sampler
// objects) once, here, so nothing is looked up at draw or dispatch time.
// Writes and copies that run past the end of a binding continue into the
// following bindings ("consecutive binding updates" in the spec).
#include <algorithm>
#include <cstring>
#include <new>

#include "dispatch/entrypoints.h"
#include "objects/buffer.h"
#include "objects/descriptor_set.h"
#include "objects/descriptor_update.h"
#include "objects/device.h"
#include "objects/image.h"
#include "objects/sampler.h"
#include "util/host_alloc.h"
#include "util/log.h"
#include "util/vk_util.h"

namespace duet {
namespace {

// A position (binding, array element or inline byte) in a set that walks on
// into the next binding when it reaches the end of one. Bindings with no
// elements are passed over, and so are binding numbers the layout lacks.
class ElementCursor {
 public:
  ElementCursor(const DescriptorSet* set, uint32_t binding, uint32_t element) : set_(set), element_(element) {
    const DescriptorSetLayoutBinding* found = set->Find(binding);
    index_ = found != nullptr ? size_t(found - set->bindings.data()) : set->bindings.size();
  }

  // Moves past bindings the position lies beyond; false when it lies beyond
  // the last binding.
  bool Settle() {
    while (index_ < set_->bindings.size() && element_ >= set_->bindings[index_].count) {
      element_ -= set_->bindings[index_].count;
      ++index_;
    }
    return index_ < set_->bindings.size();
  }

  const DescriptorSetLayoutBinding& Binding() const { return set_->bindings[index_]; }
  uint32_t Element() const { return element_; }
  uint32_t Left() const { return Binding().count - element_; }  // after Settle(): > 0
  void Advance(uint32_t n) { element_ += n; }

 private:
  const DescriptorSet* set_;
  size_t index_;
  uint32_t element_;
};

// Where a write's infos come from: element i is at base + i * stride, as a
// VkDescriptorImageInfo, VkDescriptorBufferInfo or VkBufferView by type, or
// as byte i of an inline uniform block (stride 1). Template data need not be
// aligned for those types, so elements are read with memcpy.
struct WriteSource {
  const std::byte* base;
  size_t stride;

  template <typename T>
  T Read(uint32_t i) const {
    T value;
    std::memcpy(&value, base + size_t(i) * stride, sizeof(T));
    return value;
  }
};

bool UsesImageView(VkDescriptorType type) {
  return type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER || type == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE ||
         type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE || type == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
}

bool UsesSampler(VkDescriptorType type) {
  return type == VK_DESCRIPTOR_TYPE_SAMPLER || type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
}

// The bytes [offset, offset + range) of a buffer; WHOLE_SIZE runs to its
// end. An unbound or null buffer (or an offset past the end) gives no bytes,
// and a range past the end is cut there, so shaders' bounds checks against
// the range never let them outside the buffer whatever the application wrote.
void ResolveBufferRange(const Buffer* buffer, VkDeviceSize offset, VkDeviceSize range, Descriptor* d) {
  d->buffer = buffer;
  if (buffer == nullptr || buffer->Data() == nullptr || offset > buffer->size) return;
  d->data = buffer->Data() + offset;
  d->range = std::min(range, buffer->size - offset);  // VK_WHOLE_SIZE is the largest VkDeviceSize
}

// Element `element` of binding `b` gets info i of the source.
void WriteOne(const DescriptorSetLayoutBinding& b, uint32_t element, VkDescriptorType type, const WriteSource& source,
              uint32_t i, Descriptor* d) {
  *d = Descriptor{};
  d->type = type;
  switch (type) {
    case VK_DESCRIPTOR_TYPE_SAMPLER:
    case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
    case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT: {
      // Only the members the type uses are looked at: the others may hold anything.
      const auto info = source.Read<VkDescriptorImageInfo>(i);
      if (UsesImageView(type)) {
        d->image_view = FromHandle<ImageView>(info.imageView);
        d->image_layout = info.imageLayout;
      }
      if (UsesSampler(type))
        d->sampler = element < b.immutable_samplers.size() ? b.immutable_samplers[element]
                                                           : FromHandle<Sampler>(info.sampler);
      break;
    }
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: {
      const BufferView* view = FromHandle<BufferView>(source.Read<VkBufferView>(i));
      d->buffer_view = view;
      if (view != nullptr) ResolveBufferRange(view->buffer, view->offset, view->range, d);
      break;
    }
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC: {
      const auto info = source.Read<VkDescriptorBufferInfo>(i);
      ResolveBufferRange(FromHandle<Buffer>(info.buffer), info.offset, info.range, d);
      break;
    }
    default:
      break;  // unsupported types never reach here: WriteDescriptors checks the binding's type
  }
}

// Writes `count` elements (bytes for inline uniform blocks) from `source`,
// starting at `element` of `binding` and running on into following bindings.
void WriteDescriptors(DescriptorSet* set, uint32_t binding, uint32_t element, uint32_t count, VkDescriptorType type,
                      const WriteSource& source) {
  if (source.base == nullptr && count > 0) {
    DUET_WARN("vkUpdateDescriptorSets: a write of type %d has no infos; skipped", type);
    return;
  }
  ElementCursor at(set, binding, element);
  for (uint32_t done = 0; done < count;) {
    if (!at.Settle()) {
      DUET_WARN("vkUpdateDescriptorSets: a write from binding %u element %u runs past the set's bindings; "
                "the rest is dropped", binding, element);
      return;
    }
    const DescriptorSetLayoutBinding& b = at.Binding();
    const uint32_t n = std::min(count - done, at.Left());
    const bool accepted = b.type == VK_DESCRIPTOR_TYPE_MUTABLE_EXT ? CanBeMutable(type) : b.type == type;
    if (!accepted || DescriptorTypeSlot(type) == kNoDescriptorTypeSlot) {
      DUET_WARN("vkUpdateDescriptorSets: write of type %d to binding %u of type %d; skipped", type, b.binding,
                b.type);
    } else if (b.IsInlineBlock()) {
      std::memcpy(set->inline_data.data() + b.inline_offset + at.Element(), source.base + done, n);
    } else {
      for (uint32_t k = 0; k < n; ++k)
        WriteOne(b, at.Element() + k, type, source, done + k, &set->descriptors[b.first_descriptor + at.Element() + k]);
    }
    done += n;
    at.Advance(n);
  }
}

// The infos a VkWriteDescriptorSet carries for its type.
WriteSource SourceOf(const VkWriteDescriptorSet& write) {
  switch (write.descriptorType) {
    case VK_DESCRIPTOR_TYPE_SAMPLER:
    case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
    case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT:
      return {reinterpret_cast<const std::byte*>(write.pImageInfo), sizeof(VkDescriptorImageInfo)};
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
      return {reinterpret_cast<const std::byte*>(write.pTexelBufferView), sizeof(VkBufferView)};
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC:
      return {reinterpret_cast<const std::byte*>(write.pBufferInfo), sizeof(VkDescriptorBufferInfo)};
    case VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK: {
      const auto* block = FindInChain<VkWriteDescriptorSetInlineUniformBlock>(
          write.pNext, VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK);
      return {block != nullptr ? static_cast<const std::byte*>(block->pData) : nullptr, 1};
    }
    default:
      return {nullptr, 0};
  }
}

// Copies `count` elements (bytes between inline uniform blocks) from one
// set position to another, both running on into following bindings.
void CopyDescriptors(const VkCopyDescriptorSet& copy) {
  const DescriptorSet* src_set = FromHandle<DescriptorSet>(copy.srcSet);
  DescriptorSet* dst_set = FromHandle<DescriptorSet>(copy.dstSet);
  if (src_set == nullptr || dst_set == nullptr) return;
  ElementCursor src(src_set, copy.srcBinding, copy.srcArrayElement);
  ElementCursor dst(dst_set, copy.dstBinding, copy.dstArrayElement);
  for (uint32_t done = 0; done < copy.descriptorCount;) {
    if (!src.Settle() || !dst.Settle()) {
      DUET_WARN("vkUpdateDescriptorSets: a copy from binding %u to binding %u runs past a set's bindings; "
                "the rest is dropped", copy.srcBinding, copy.dstBinding);
      return;
    }
    const DescriptorSetLayoutBinding& from = src.Binding();
    const DescriptorSetLayoutBinding& to = dst.Binding();
    const uint32_t n = std::min({copy.descriptorCount - done, src.Left(), dst.Left()});
    // Between a mutable binding and another, the records (and their types) go across.
    const bool mutable_copy = from.type == VK_DESCRIPTOR_TYPE_MUTABLE_EXT || to.type == VK_DESCRIPTOR_TYPE_MUTABLE_EXT;
    if (from.type != to.type && !mutable_copy) {
      DUET_WARN("vkUpdateDescriptorSets: copy from binding %u of type %d to binding %u of type %d; skipped",
                from.binding, from.type, to.binding, to.type);
    } else if (to.IsInlineBlock()) {
      // memmove: source and destination may be the same set.
      std::memmove(dst_set->inline_data.data() + to.inline_offset + dst.Element(),
                   src_set->inline_data.data() + from.inline_offset + src.Element(), n);
    } else {
      const Descriptor* first = src_set->descriptors.data() + from.first_descriptor + src.Element();
      std::copy(first, first + n, dst_set->descriptors.begin() + to.first_descriptor + dst.Element());
    }
    done += n;
    src.Advance(n);
    dst.Advance(n);
  }
}

}  // namespace

void ApplyDescriptorWrite(DescriptorSet* set, const VkWriteDescriptorSet& write) {
  WriteDescriptors(set, write.dstBinding, write.dstArrayElement, write.descriptorCount, write.descriptorType,
                   SourceOf(write));
}

void ApplyDescriptorTemplate(DescriptorSet* set, const DescriptorUpdateTemplate& update_template,
                             const void* data) {
  const auto* bytes = static_cast<const std::byte*>(data);
  for (const VkDescriptorUpdateTemplateEntry& entry : update_template.entries) {
    // An inline uniform block's entry is descriptorCount bytes at offset; its stride is ignored.
    const size_t stride = entry.descriptorType == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK ? 1 : entry.stride;
    WriteDescriptors(set, entry.dstBinding, entry.dstArrayElement, entry.descriptorCount, entry.descriptorType,
                     {bytes != nullptr ? bytes + entry.offset : nullptr, stride});
  }
}

}  // namespace duet

namespace duet::api {

VKAPI_ATTR void VKAPI_CALL UpdateDescriptorSets(VkDevice, uint32_t descriptorWriteCount,
                                                const VkWriteDescriptorSet* pDescriptorWrites,
                                                uint32_t descriptorCopyCount,
                                                const VkCopyDescriptorSet* pDescriptorCopies) {
  // Writes first, then copies, as the spec orders them.
  for (uint32_t i = 0; i < descriptorWriteCount; ++i) {
    const VkWriteDescriptorSet& write = pDescriptorWrites[i];
    DescriptorSet* set = FromHandle<DescriptorSet>(write.dstSet);
    if (set == nullptr) continue;
    ApplyDescriptorWrite(set, write);
  }
  for (uint32_t i = 0; i < descriptorCopyCount; ++i) CopyDescriptors(pDescriptorCopies[i]);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDescriptorUpdateTemplate(VkDevice _device,
                                                              const VkDescriptorUpdateTemplateCreateInfo* pCreateInfo,
                                                              const VkAllocationCallbacks* pAllocator,
                                                              VkDescriptorUpdateTemplate* pDescriptorUpdateTemplate) {
  Device* device = FromHandle<Device>(_device);
  const VkAllocationCallbacks* allocator = ChooseAllocator(pAllocator, device->Allocator());
  DescriptorUpdateTemplate* update_template =
      HostNew<DescriptorUpdateTemplate>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, allocator);
  if (update_template == nullptr) return VK_ERROR_OUT_OF_HOST_MEMORY;
  update_template->type = pCreateInfo->templateType;
  update_template->bind_point = pCreateInfo->pipelineBindPoint;
  try {
    update_template->entries.assign(pCreateInfo->pDescriptorUpdateEntries,
                                    pCreateInfo->pDescriptorUpdateEntries + pCreateInfo->descriptorUpdateEntryCount);
  } catch (const std::bad_alloc&) {
    HostDelete(allocator, update_template);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  *pDescriptorUpdateTemplate = ToHandle(update_template);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyDescriptorUpdateTemplate(VkDevice _device,
                                                           VkDescriptorUpdateTemplate descriptorUpdateTemplate,
                                                           const VkAllocationCallbacks* pAllocator) {
  Device* device = FromHandle<Device>(_device);
  HostDelete(ChooseAllocator(pAllocator, device->Allocator()),
             FromHandle<DescriptorUpdateTemplate>(descriptorUpdateTemplate));
}

VKAPI_ATTR void VKAPI_CALL UpdateDescriptorSetWithTemplate(VkDevice, VkDescriptorSet descriptorSet,
                                                           VkDescriptorUpdateTemplate descriptorUpdateTemplate,
                                                           const void* pData) {
  DescriptorSet* set = FromHandle<DescriptorSet>(descriptorSet);
  const auto* update_template = FromHandle<DescriptorUpdateTemplate>(descriptorUpdateTemplate);
  if (set == nullptr || update_template == nullptr ||
      update_template->type != VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET)
    return;
  ApplyDescriptorTemplate(set, *update_template, pData);
}

}  // namespace duet::api
