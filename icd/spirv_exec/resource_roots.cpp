// Binds a program's memory roots to what the command buffer has bound.
#include "spirv_exec/resource_roots.h"

#include <algorithm>
#include <atomic>

#include "objects/descriptor_set.h"
#include "objects/live_objects.h"
#include "objects/pipeline.h"
#include "objects/sampler.h"
#include "spirv_exec/descriptor_tables.h"
#include "texel/sample.h"

namespace duet::spirv_exec {
namespace {

const DescriptorSet* BoundSet(const ShaderBindings& bindings, uint32_t set) {
  return set < kMaxBoundDescriptorSets ? bindings.sets[set] : nullptr;
}

// Every element of a binding as the bound set has it (a variable-count
// binding: the set's count). Nothing the records point to is read.
DescriptorRange BindingElements(const ShaderBindings& bindings, uint32_t set_index, uint32_t binding_number) {
  DescriptorRange range;
  const DescriptorSet* set = BoundSet(bindings, set_index);
  const DescriptorSetLayoutBinding* binding = set != nullptr ? set->Find(binding_number) : nullptr;
  if (binding == nullptr || binding->IsInlineBlock()) return range;
  range.records = set->descriptors.data() + binding->first_descriptor;
  range.count = binding->count;
  if (binding->type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC ||
      binding->type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC) {
    const std::vector<uint32_t>& offsets = bindings.dynamic_offsets[set_index];
    if (binding->dynamic_index + uint64_t(range.count) <= offsets.size())
      range.dynamic_offsets = offsets.data() + binding->dynamic_index;
  }
  return range;
}

// One element of an image root's binding: the whole binding for a
// per-lane index, else a range of one (or none past the binding's end).
DescriptorRange ImageElements(const ShaderBindings& bindings, const ImageRoot& root) {
  DescriptorRange range = BindingElements(bindings, root.set, root.binding);
  if (root.element == kDynamicElement) return range;
  if (root.element >= range.count) return {};
  return {range.records + root.element, 1, nullptr};
}

// Descriptor tables of one resolution are told apart by this number.
std::atomic<uint64_t> next_table_serial{1};

// The tables the kDescriptorArray / kImageArray roots point to.
std::shared_ptr<const DescriptorTables> ResolveTables(const Program& program, const ShaderBindings& bindings,
                                                      std::vector<RootMemory>& roots) {
  const bool any = std::any_of(program.roots.begin(), program.roots.end(), [](const MemoryRoot& root) {
    return root.kind == RootKind::kDescriptorArray || root.kind == RootKind::kImageArray;
  });
  if (!any) return nullptr;
  auto tables = std::make_shared<DescriptorTables>();
  for (const MemoryRoot& root : program.roots) {
    if (root.kind == RootKind::kDescriptorArray)
      tables->buffers.push_back(BindingElements(bindings, root.set, root.binding));
    if (root.kind != RootKind::kImageArray) continue;
    const ImageArrayUse& use = program.image_arrays[root.element];
    ImageArrayTable t;
    t.images = ImageElements(bindings, use.image);
    t.combined = use.combined;
    if (use.has_sampler) t.samplers = use.combined ? t.images : ImageElements(bindings, use.sampler);
    t.serial = next_table_serial.fetch_add(1, std::memory_order_relaxed);
    tables->images.push_back(t);
  }
  // The vectors are complete: their elements no longer move.
  size_t buffer = 0, image = 0;
  for (size_t i = 0; i < program.roots.size(); ++i) {
    const void* table = nullptr;
    if (program.roots[i].kind == RootKind::kDescriptorArray) table = &tables->buffers[buffer++];
    if (program.roots[i].kind == RootKind::kImageArray) table = &tables->images[image++];
    if (table != nullptr) roots[i].base = static_cast<std::byte*>(const_cast<void*>(table));
  }
  return tables;
}

}  // namespace

// Where each memory root of the program points for this dispatch.
ShaderResources ResolveResources(const Program& program, const ShaderBindings& bindings) {
  ShaderResources resources;
  std::vector<RootMemory>& roots = resources.roots;
  roots.resize(program.roots.size());
  for (size_t i = 0; i < program.roots.size(); ++i) {
    const MemoryRoot& root = program.roots[i];
    RootMemory& memory = roots[i];
    switch (root.kind) {
      case RootKind::kPushConstants:
        memory.base = const_cast<std::byte*>(bindings.push_constants.data());
        memory.range = kMaxPushConstantBytes;
        break;
      case RootKind::kDescriptorBuffer: {
        const DescriptorSet* set = BoundSet(bindings, root.set);
        const DescriptorSetLayoutBinding* binding = set != nullptr ? set->Find(root.binding) : nullptr;
        if (binding == nullptr) break;  // unbound: every access reads 0 and writes nothing
        if (binding->type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) {
          memory.base = const_cast<std::byte*>(set->inline_data.data()) + binding->inline_offset;
          memory.range = binding->count;
          break;
        }
        const DescriptorRange elements = BindingElements(bindings, root.set, root.binding);
        if (root.element >= elements.count) break;
        const Descriptor& d = elements.records[root.element];
        memory.base = d.data;
        memory.range = static_cast<uint32_t>(std::min<VkDeviceSize>(d.range, UINT32_MAX));
        if (elements.dynamic_offsets != nullptr && memory.base != nullptr)
          memory.base += elements.dynamic_offsets[root.element];
        if (memory.base == nullptr) memory.range = 0;
        break;
      }
      case RootKind::kWorkgroup:
      case RootKind::kPrivate:
      case RootKind::kPatch:
        break;  // per workgroup / per lane / per draw (the tessellation stages')
      case RootKind::kDescriptorArray:
      case RootKind::kImageArray:
        break;  // ResolveTables
    }
  }
  resources.tables = ResolveTables(program, bindings, roots);
  resources.images.resize(program.images.size());
  for (size_t i = 0; i < program.images.size(); ++i) {
    if (program.images[i].element == kDynamicElement) continue;  // an array indexed per lane: kImageArray
    const DescriptorRange element = ImageElements(bindings, program.images[i]);
    if (element.count == 0) continue;  // unbound
    const Descriptor& d = element.records[0];
    // Resolved before any invocation runs: a descriptor no invocation uses
    // may name a destroyed view or sampler, which then counts as unbound.
    resources.images[i] = {IsLive(d.image_view) ? d.image_view : nullptr, d.buffer_view,
                           IsLive(d.sampler) ? d.sampler : nullptr};
  }
  resources.sampled.resize(program.sampled_images.size());
  for (size_t i = 0; i < program.sampled_images.size(); ++i) {
    const ImageBinding& image = resources.images[program.sampled_images[i].first];
    const ImageBinding& sampler = resources.images[program.sampled_images[i].second];
    if (image.view == nullptr) continue;  // unbound: samples read the default state (zero)
    texel::ResolveSampledImage(*image.view, sampler.sampler != nullptr ? &sampler.sampler->sampling : nullptr,
                               &resources.sampled[i]);
  }
  return resources;
}

}  // namespace duet::spirv_exec
