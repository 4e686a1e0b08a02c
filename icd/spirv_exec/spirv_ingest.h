// From application SPIR-V to the module the compiler reads: validate,
// specialize, then let SPIRV-Tools simplify it (inline everything, SSA,
// constant folding, dead code and branch elimination, block merging), so
// the compiler sees straight-line SSA in structured blocks.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace duet::spirv_exec {

// The block layout rules a module is checked against: Vulkan's standard
// layouts, relaxed as the device's enabled features allow (the driver reads
// every offset from the module, so any layout the rules accept works).
struct ValidationRules {
  bool uniform_buffer_standard_layout = false;  // std430 uniform blocks (uniformBufferStandardLayout)
  bool scalar_block_layout = false;             // scalarBlockLayout
  bool workgroup_scalar_block_layout = false;   // workgroupMemoryExplicitLayoutScalarBlockLayout
};

// Whether `words` are a SPIR-V binary at all: the header, and instructions
// whose word counts tile the rest. A linear walk: vkCreateShaderModule
// checks no more, the whole validation (ValidateSpirv, in PrepareModule)
// runs when a pipeline compiles the module, which a cached stage skips.
bool CheckSpirvStructure(const uint32_t* words, size_t word_count, std::string* error);

// Vulkan 1.3 environment validation; false with a message on invalid input.
bool ValidateSpirv(const uint32_t* words, size_t word_count, const ValidationRules& rules, std::string* error);

// Validates, applies specialization constants and optimizes. On failure
// returns false and a message; `out` is then unspecified.
bool PrepareModule(std::span<const uint32_t> words, const VkSpecializationInfo* specialization,
                   const ValidationRules& rules, std::vector<uint32_t>* out, std::string* error);

}  // namespace duet::spirv_exec
