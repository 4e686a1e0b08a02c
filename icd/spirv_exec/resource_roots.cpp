// Binds a program's memory roots to what the command buffer has bound.
#include "spirv_exec/resource_roots.h"

#include <algorithm>

#include "objects/descriptor_set.h"
#include "objects/pipeline.h"
#include "objects/sampler.h"
#include "texel/sample.h"

namespace duet::spirv_exec {

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
        const DescriptorSet* set = root.set < kMaxBoundDescriptorSets ? bindings.sets[root.set] : nullptr;
        const DescriptorSetLayoutBinding* binding = set != nullptr ? set->Find(root.binding) : nullptr;
        if (binding == nullptr) break;  // unbound: every access reads 0 and writes nothing
        if (binding->type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) {
          memory.base = const_cast<std::byte*>(set->inline_data.data()) + binding->inline_offset;
          memory.range = binding->count;
          break;
        }
        if (root.element >= binding->count) break;
        const Descriptor& d = set->descriptors[binding->first_descriptor + root.element];
        memory.base = d.data;
        memory.range = static_cast<uint32_t>(std::min<VkDeviceSize>(d.range, UINT32_MAX));
        if (d.type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC || d.type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC) {
          const std::vector<uint32_t>& offsets = bindings.dynamic_offsets[root.set];
          const uint32_t index = binding->dynamic_index + root.element;
          if (index < offsets.size() && memory.base != nullptr) memory.base += offsets[index];
        }
        if (memory.base == nullptr) memory.range = 0;
        break;
      }
      case RootKind::kWorkgroup:
      case RootKind::kPrivate:
        break;  // per workgroup / per lane
    }
  }
  resources.images.resize(program.images.size());
  for (size_t i = 0; i < program.images.size(); ++i) {
    const ImageRoot& root = program.images[i];
    const DescriptorSet* set = root.set < kMaxBoundDescriptorSets ? bindings.sets[root.set] : nullptr;
    const DescriptorSetLayoutBinding* binding = set != nullptr ? set->Find(root.binding) : nullptr;
    if (binding == nullptr || root.element >= binding->count) continue;
    const Descriptor& d = set->descriptors[binding->first_descriptor + root.element];
    resources.images[i] = {d.image_view, d.buffer_view, d.sampler};
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
