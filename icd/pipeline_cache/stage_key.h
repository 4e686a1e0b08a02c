// The key of one shader stage's compilation: everything the compiled
// program depends on (the SPIR-V, the specialization, the validation rules,
// the entry point, the stage and the subgroup size).
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "spirv_exec/ir.h"
#include "spirv_exec/spirv_ingest.h"

namespace duet::pipeline_cache {

struct StageKey {
  uint64_t low = 0, high = 0;
  bool operator==(const StageKey&) const = default;
  std::string Hex() const;  // 32 hex digits
};

struct StageKeyHash {
  size_t operator()(const StageKey& k) const { return size_t(k.low); }
};

StageKey KeyOfStage(std::span<const uint32_t> words, const VkSpecializationInfo* specialization,
                    const spirv_exec::ValidationRules& rules, const char* entry, spirv_exec::ShaderStage stage,
                    uint32_t subgroup_size);

}  // namespace duet::pipeline_cache
