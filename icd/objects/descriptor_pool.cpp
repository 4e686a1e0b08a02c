// Descriptor pools and set allocation. A pool only counts: each set is its
// own host allocation (with the pool's callbacks), and the pool checks the
// per-type totals its sizes promised, so exhaustion is reported as the spec
// describes while freeing never fragments.
#include <algorithm>
#include <memory_resource>
#include <new>
#include <span>

#include "dispatch/entrypoints.h"
#include "objects/descriptor_set.h"
#include "objects/device.h"
#include "util/host_alloc.h"
#include "util/log.h"
#include "util/vk_util.h"

namespace duet {
namespace {

// What one set takes from its pool.
struct SetDemand {
  std::array<uint64_t, kDescriptorTypeSlots> descriptors{};  // bytes for inline blocks
  uint32_t inline_blocks = 0;

  void Add(const SetDemand& other) {
    for (size_t i = 0; i < kDescriptorTypeSlots; ++i) descriptors[i] += other.descriptors[i];
    inline_blocks += other.inline_blocks;
  }
};

SetDemand DemandOf(std::span<const DescriptorSetLayoutBinding> bindings) {
  SetDemand demand;
  for (const DescriptorSetLayoutBinding& b : bindings) {
    const size_t slot = DescriptorTypeSlot(b.type);
    if (slot == kNoDescriptorTypeSlot) continue;  // creation warned; nothing of it is ever stored
    demand.descriptors[slot] += b.count;
    if (b.IsInlineBlock() && b.count > 0) ++demand.inline_blocks;
  }
  return demand;
}

bool Fits(const DescriptorPool& pool, const SetDemand& demand) {
  for (size_t i = 0; i < kDescriptorTypeSlots; ++i)
    if (pool.used[i] + demand.descriptors[i] > pool.capacity[i]) return false;
  return pool.used_inline_blocks + demand.inline_blocks <= pool.max_inline_blocks;
}

void Take(DescriptorPool* pool, const SetDemand& demand) {
  for (size_t i = 0; i < kDescriptorTypeSlots; ++i) pool->used[i] += demand.descriptors[i];
  pool->used_inline_blocks += demand.inline_blocks;
}

void GiveBack(DescriptorPool* pool, const SetDemand& demand) {
  for (size_t i = 0; i < kDescriptorTypeSlots; ++i) pool->used[i] -= demand.descriptors[i];
  pool->used_inline_blocks -= demand.inline_blocks;
}

// The layout's bindings as a set of it has them: the variable-count binding
// (if any) holds `variable_count`, capped at the layout's maximum; in the
// pool's memory, where the set keeps them.
std::pmr::vector<DescriptorSetLayoutBinding> SetBindings(DescriptorPool* pool, const DescriptorSetLayout& layout,
                                                         uint32_t variable_count) {
  std::pmr::vector<DescriptorSetLayoutBinding> bindings(layout.bindings, &pool->memory);
  if (layout.VariableBinding() != nullptr) {
    DescriptorSetLayoutBinding& last = bindings.back();
    last.count = std::min(last.count, variable_count);
    if (last.immutable_samplers.size() > last.count) last.immutable_samplers.resize(last.count);
  }
  return bindings;
}

// Removes the set from its pool's books and destroys it.
void DestroySet(DescriptorPool* pool, DescriptorSet* set) {
  GiveBack(pool, DemandOf(set->bindings));
  DescriptorSet* moved = pool->sets.back();
  pool->sets[set->pool_index] = moved;
  moved->pool_index = set->pool_index;
  pool->sets.pop_back();
  HostDelete(pool->Allocator(), set);
}

void DestroyAllSets(DescriptorPool* pool) {
  for (DescriptorSet* set : pool->sets) HostDelete(pool->Allocator(), set);
  pool->sets.clear();
  pool->used.fill(0);
  pool->used_inline_blocks = 0;
}

// One planned set of an allocation, made only once every set is known to fit.
struct PlannedSet {
  const DescriptorSetLayout* layout;
  std::pmr::vector<DescriptorSetLayoutBinding> bindings;
  uint32_t variable_count;
};

DescriptorSet* MakeSet(DescriptorPool* pool, PlannedSet&& plan) {
  DescriptorSet* set = HostNew<DescriptorSet>(pool->Allocator(), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, &pool->memory);
  if (set == nullptr) return nullptr;
  try {
    set->pool = pool;
    set->layout = plan.layout;
    set->variable_count = plan.variable_count;
    set->bindings = std::move(plan.bindings);
    InitializeSet(set);
    set->pool_index = pool->sets.size();
    pool->sets.push_back(set);
  } catch (const std::bad_alloc&) {
    HostDelete(pool->Allocator(), set);
    return nullptr;
  }
  Take(pool, DemandOf(set->bindings));
  return set;
}

}  // namespace

void InitializeSet(DescriptorSet* set) {
  uint32_t records = 0, inline_bytes = 0;
  for (const DescriptorSetLayoutBinding& b : set->bindings) {
    records = std::max(records, b.first_descriptor + b.RecordCount());
    if (b.IsInlineBlock()) inline_bytes = std::max(inline_bytes, b.inline_offset + b.count);
  }
  set->descriptors.resize(records);
  set->inline_data.resize(inline_bytes);  // zeroed: reads of unwritten bytes see no stale data
  for (const DescriptorSetLayoutBinding& b : set->bindings) {
    if (b.IsInlineBlock()) {
      Descriptor& d = set->descriptors[b.first_descriptor];
      d.type = b.type;
      d.data = set->inline_data.data() + b.inline_offset;
      d.range = b.count;
      continue;
    }
    for (size_t i = 0; i < b.immutable_samplers.size(); ++i) {
      Descriptor& d = set->descriptors[b.first_descriptor + i];
      d.sampler = b.immutable_samplers[i];
      if (b.type == VK_DESCRIPTOR_TYPE_SAMPLER) d.type = b.type;  // complete without any write
    }
  }
}

}  // namespace duet

namespace duet::api {

VKAPI_ATTR VkResult VKAPI_CALL CreateDescriptorPool(VkDevice _device, const VkDescriptorPoolCreateInfo* pCreateInfo,
                                                    const VkAllocationCallbacks* pAllocator,
                                                    VkDescriptorPool* pDescriptorPool) {
  Device* device = FromHandle<Device>(_device);
  const VkAllocationCallbacks* allocator = ChooseAllocator(pAllocator, device->Allocator());
  DescriptorPool* pool = HostNew<DescriptorPool>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, allocator);
  if (pool == nullptr) return VK_ERROR_OUT_OF_HOST_MEMORY;
  pool->flags = pCreateInfo->flags;
  pool->max_sets = pCreateInfo->maxSets;
  for (uint32_t i = 0; i < pCreateInfo->poolSizeCount; ++i) {
    const VkDescriptorPoolSize& size = pCreateInfo->pPoolSizes[i];
    const size_t slot = DescriptorTypeSlot(size.type);
    if (slot == kNoDescriptorTypeSlot) {
      DUET_WARN("vkCreateDescriptorPool: descriptor type %d is not supported", size.type);
      continue;
    }
    pool->capacity[slot] += size.descriptorCount;  // a type may be listed more than once
  }
  if (const auto* inline_info = FindInChain<VkDescriptorPoolInlineUniformBlockCreateInfo>(
          pCreateInfo->pNext, VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_INLINE_UNIFORM_BLOCK_CREATE_INFO))
    pool->max_inline_blocks = inline_info->maxInlineUniformBlockBindings;
  *pDescriptorPool = ToHandle(pool);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyDescriptorPool(VkDevice _device, VkDescriptorPool descriptorPool,
                                                 const VkAllocationCallbacks* pAllocator) {
  Device* device = FromHandle<Device>(_device);
  DescriptorPool* pool = FromHandle<DescriptorPool>(descriptorPool);
  if (pool == nullptr) return;
  DestroyAllSets(pool);
  HostDelete(ChooseAllocator(pAllocator, device->Allocator()), pool);
}

VKAPI_ATTR VkResult VKAPI_CALL ResetDescriptorPool(VkDevice, VkDescriptorPool descriptorPool,
                                                   VkDescriptorPoolResetFlags) {
  DestroyAllSets(FromHandle<DescriptorPool>(descriptorPool));
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL AllocateDescriptorSets(VkDevice, const VkDescriptorSetAllocateInfo* pAllocateInfo,
                                                      VkDescriptorSet* pDescriptorSets) {
  DescriptorPool* pool = FromHandle<DescriptorPool>(pAllocateInfo->descriptorPool);
  const uint32_t count = pAllocateInfo->descriptorSetCount;
  std::fill_n(pDescriptorSets, count, VK_NULL_HANDLE);  // what the caller sees on any failure

  const auto* variable_info = FindInChain<VkDescriptorSetVariableDescriptorCountAllocateInfo>(
      pAllocateInfo->pNext, VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_ALLOCATE_INFO);
  // descriptorSetCount is 0 (every variable count is 0) or the allocation's count.
  const bool has_variable_counts = variable_info != nullptr && variable_info->descriptorSetCount == count &&
                                   variable_info->pDescriptorCounts != nullptr;

  if (pool->sets.size() + count > pool->max_sets) return VK_ERROR_OUT_OF_POOL_MEMORY;

  // Plan every set first: either all of them are made or none.
  HostMemoryResource command_memory(pool->Allocator(), VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
  std::pmr::vector<PlannedSet> plans(&command_memory);
  try {
    plans.reserve(count);
    SetDemand total;
    for (uint32_t i = 0; i < count; ++i) {
      const DescriptorSetLayout* layout = FromHandle<DescriptorSetLayout>(pAllocateInfo->pSetLayouts[i]);
      const uint32_t variable_count = has_variable_counts ? variable_info->pDescriptorCounts[i] : 0;
      plans.push_back({layout, SetBindings(pool, *layout, variable_count), variable_count});
      total.Add(DemandOf(plans.back().bindings));
    }
    if (!Fits(*pool, total)) return VK_ERROR_OUT_OF_POOL_MEMORY;
    pool->sets.reserve(pool->sets.size() + count);  // MakeSet's push_back then cannot throw
  } catch (const std::bad_alloc&) {
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }

  for (uint32_t i = 0; i < count; ++i) {
    DescriptorSet* set = MakeSet(pool, std::move(plans[i]));
    if (set == nullptr) {
      for (uint32_t j = 0; j < i; ++j) {
        DestroySet(pool, FromHandle<DescriptorSet>(pDescriptorSets[j]));
        pDescriptorSets[j] = VK_NULL_HANDLE;
      }
      return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    pDescriptorSets[i] = ToHandle(set);
  }
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL FreeDescriptorSets(VkDevice, VkDescriptorPool descriptorPool,
                                                  uint32_t descriptorSetCount, const VkDescriptorSet* pDescriptorSets) {
  DescriptorPool* pool = FromHandle<DescriptorPool>(descriptorPool);
  if ((pool->flags & VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT) == 0)
    DUET_WARN("vkFreeDescriptorSets: the pool was not created with FREE_DESCRIPTOR_SET_BIT; freeing anyway");
  for (uint32_t i = 0; i < descriptorSetCount; ++i) {
    DescriptorSet* set = FromHandle<DescriptorSet>(pDescriptorSets[i]);
    if (set != nullptr) DestroySet(pool, set);  // VK_NULL_HANDLE entries are ignored
  }
  return VK_SUCCESS;
}

}  // namespace duet::api
