// Descriptor set layouts, pools and sets. A set is an array of resolved
// Descriptor records (raw pointers, offsets and ranges), laid out binding
// after binding, so shaders read a binding's element with one index and no
// lookups; inline uniform blocks keep their bytes in the set.
#pragma once

#include <vulkan/vulkan_core.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory_resource>
#include <utility>
#include <vector>

#include "util/host_alloc.h"
#include "util/object.h"

namespace duet {

struct Buffer;
struct BufferView;
struct ImageView;
struct Sampler;

// One descriptor, resolved at update time. Texel buffers also get `data`,
// `range` and `buffer` from their view. An inline uniform block binding has
// exactly one record, made at allocation, whose `data`/`range` are its bytes
// in DescriptorSet::inline_data: shaders read it like a uniform buffer.
// A SAMPLER binding with immutable samplers is filled at allocation; a
// COMBINED_IMAGE_SAMPLER one gets its `sampler` then and its type when the
// image is written.
struct Descriptor {
  VkDescriptorType type = VK_DESCRIPTOR_TYPE_MAX_ENUM;  // MAX_ENUM: never written
  // Buffers (uniform/storage, dynamic or not): the bytes [data, data + range).
  // Dynamic offsets are added at bind time, not stored here.
  std::byte* data = nullptr;
  VkDeviceSize range = 0;
  const Buffer* buffer = nullptr;
  // Images and samplers.
  const ImageView* image_view = nullptr;
  VkImageLayout image_layout = VK_IMAGE_LAYOUT_UNDEFINED;
  const Sampler* sampler = nullptr;
  // Texel buffers.
  const BufferView* buffer_view = nullptr;
};

// Allocator-aware (std::pmr): a container of bindings gives its own host
// memory to each binding's immutable samplers, also when it copies them.
struct DescriptorSetLayoutBinding {
  using allocator_type = std::pmr::polymorphic_allocator<>;

  DescriptorSetLayoutBinding() = default;
  explicit DescriptorSetLayoutBinding(const allocator_type& memory) : immutable_samplers(memory) {}
  DescriptorSetLayoutBinding(const DescriptorSetLayoutBinding&) = default;
  DescriptorSetLayoutBinding(DescriptorSetLayoutBinding&&) = default;
  DescriptorSetLayoutBinding(const DescriptorSetLayoutBinding& other, const allocator_type& memory)
      : DescriptorSetLayoutBinding(memory) {
    *this = other;
  }
  DescriptorSetLayoutBinding(DescriptorSetLayoutBinding&& other, const allocator_type& memory)
      : DescriptorSetLayoutBinding(memory) {
    *this = std::move(other);
  }
  DescriptorSetLayoutBinding& operator=(const DescriptorSetLayoutBinding&) = default;
  DescriptorSetLayoutBinding& operator=(DescriptorSetLayoutBinding&&) = default;

  uint32_t binding;
  VkDescriptorType type;
  uint32_t count;                  // array size; for inline uniform blocks: the size in bytes.
                                   // A set's copy holds its variable count, if the binding has one.
  VkShaderStageFlags stages;
  VkDescriptorBindingFlags flags;
  uint32_t first_descriptor;       // index of element 0 in DescriptorSet::descriptors
                                   // (an inline uniform block takes one record)
  uint32_t inline_offset;          // inline uniform blocks: byte offset in DescriptorSet::inline_data
  std::pmr::vector<const Sampler*> immutable_samplers;  // empty, or `count` samplers
  uint32_t dynamic_index;          // dynamic buffers: index among the layout's dynamic descriptors

  bool IsInlineBlock() const { return type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK; }
  // Descriptor records the binding takes in a set.
  uint32_t RecordCount() const { return IsInlineBlock() ? 1u : count; }
};

// Pools count capacity per descriptor type: the core types 0..10, inline
// uniform blocks (in bytes) and mutable descriptors each get a slot;
// kNoDescriptorTypeSlot for types the device does not support.
inline constexpr size_t kDescriptorTypeSlots = 13;
inline constexpr size_t kNoDescriptorTypeSlot = kDescriptorTypeSlots;
inline size_t DescriptorTypeSlot(VkDescriptorType type) {
  if (type >= VK_DESCRIPTOR_TYPE_SAMPLER && type <= VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT) return size_t(type);
  if (type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) return 11;
  if (type == VK_DESCRIPTOR_TYPE_MUTABLE_EXT) return 12;
  return kNoDescriptorTypeSlot;
}

// VK_EXT_mutable_descriptor_type: a MUTABLE binding holds, element by
// element, a descriptor of any type a write gives it (each Descriptor record
// keeps its own type); dynamic buffers and inline blocks cannot be mutable.
inline bool CanBeMutable(VkDescriptorType type) {
  return type != VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC && type != VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC &&
         type != VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK && type != VK_DESCRIPTOR_TYPE_MUTABLE_EXT &&
         DescriptorTypeSlot(type) != kNoDescriptorTypeSlot;
}

struct DescriptorSetLayout : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkDescriptorSetLayout, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT);

  explicit DescriptorSetLayout(const VkAllocationCallbacks* allocator)
      : NonDispatchableObject(kObjectType), memory(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT) {}

  HostMemoryResource memory;  // bindings
  VkDescriptorSetLayoutCreateFlags flags = 0;
  std::pmr::vector<DescriptorSetLayoutBinding> bindings{&memory};  // sorted by binding number
  uint32_t descriptor_count = 0;     // Descriptor records a set needs (a variable-count binding at its maximum)
  uint32_t inline_data_size = 0;     // bytes of inline uniform blocks (a variable one at its maximum)
  uint32_t dynamic_buffer_count = 0;
  uint32_t inline_block_count = 0;   // inline uniform block bindings (pools count them)

  // nullptr when the layout has no such binding number.
  const DescriptorSetLayoutBinding* Find(uint32_t binding) const;
  // The binding with VARIABLE_DESCRIPTOR_COUNT (always the last), else nullptr.
  const DescriptorSetLayoutBinding* VariableBinding() const;
};

struct DescriptorPool;

struct DescriptorSet : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkDescriptorSet, VK_OBJECT_TYPE_DESCRIPTOR_SET);

  // The arrays live in `memory`: the pool's (or, for pushed sets, the command pool's).
  explicit DescriptorSet(std::pmr::memory_resource* memory)
      : NonDispatchableObject(kObjectType), bindings(memory), descriptors(memory), inline_data(memory) {}

  DescriptorPool* pool = nullptr;
  const DescriptorSetLayout* layout = nullptr;  // the layout must outlive use; sets copy what they need
  std::pmr::vector<DescriptorSetLayoutBinding> bindings;  // copy of the layout's, so the layout may be destroyed
  std::pmr::vector<Descriptor> descriptors;
  std::pmr::vector<std::byte> inline_data;
  uint32_t variable_count = 0;      // variable-sized last binding's actual count
  size_t pool_index = 0;            // position in pool->sets, for O(1) removal

  const DescriptorSetLayoutBinding* Find(uint32_t binding) const;
};

// Sizes the set's records and bytes for its `bindings` and fills what exists
// before any write: immutable samplers and the inline blocks' records. May
// throw std::bad_alloc.
void InitializeSet(DescriptorSet* set);

// Capacity is counted per descriptor type, as the pool sizes give it; the
// sets are the pool's to destroy on reset and destruction.
struct DescriptorPool : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkDescriptorPool, VK_OBJECT_TYPE_DESCRIPTOR_POOL);

  explicit DescriptorPool(const VkAllocationCallbacks* allocator)
      : NonDispatchableObject(kObjectType), memory(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT) {}

  // Sets and their arrays are allocated with the pool's callbacks.
  HostMemoryResource memory;
  VkDescriptorPoolCreateFlags flags = 0;
  uint32_t max_sets = 0;
  std::array<uint64_t, kDescriptorTypeSlots> capacity{};  // descriptors (bytes for inline blocks)
  std::array<uint64_t, kDescriptorTypeSlots> used{};
  uint32_t max_inline_blocks = 0;   // VkDescriptorPoolInlineUniformBlockCreateInfo
  uint32_t used_inline_blocks = 0;
  std::pmr::vector<DescriptorSet*> sets{&memory};  // live sets, any order

  const VkAllocationCallbacks* Allocator() const { return memory.Callbacks(); }
};

// A recipe of writes whose descriptor infos are read from an application
// struct: entry i's element j is at pData + offset + j * stride.
struct DescriptorUpdateTemplate : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkDescriptorUpdateTemplate, VK_OBJECT_TYPE_DESCRIPTOR_UPDATE_TEMPLATE);

  explicit DescriptorUpdateTemplate(const VkAllocationCallbacks* allocator)
      : NonDispatchableObject(kObjectType), memory(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT) {}

  HostMemoryResource memory;  // entries
  VkDescriptorUpdateTemplateType type = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET;
  VkPipelineBindPoint bind_point = VK_PIPELINE_BIND_POINT_GRAPHICS;  // push-descriptor templates
  std::pmr::vector<VkDescriptorUpdateTemplateEntry> entries{&memory};
};

struct PipelineLayout : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkPipelineLayout, VK_OBJECT_TYPE_PIPELINE_LAYOUT);

  explicit PipelineLayout(const VkAllocationCallbacks* allocator)
      : NonDispatchableObject(kObjectType), memory(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT) {}

  HostMemoryResource memory;  // the arrays below
  // Copies of the set layouts' bindings (set layouts may be destroyed after use).
  std::pmr::vector<std::pmr::vector<DescriptorSetLayoutBinding>> set_bindings{&memory};
  std::pmr::vector<uint32_t> set_dynamic_offset_start{&memory};  // first dynamic offset index of each set
  uint32_t dynamic_offset_count = 0;                // dynamic offsets of all sets together
  std::pmr::vector<VkPushConstantRange> push_constant_ranges{&memory};
  uint32_t push_constant_size = 0;  // end of the highest range
};

}  // namespace duet
