// libFuzzer target for shader ingestion: arbitrary bytes go through what
// vkCreateShaderModule and vkCreate*Pipelines do with SPIR-V (validation,
// specialization and optimization, then compilation of every entry point
// for its stage). Nothing may crash, hang or trip a sanitizer; rejecting
// the input is always fine.
//
// Build and run: scripts/fuzz.sh (or the ctest test fuzz_spirv_ingest_smoke).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "spirv_exec/ir.h"
#include "spirv_exec/spirv_ingest.h"
#include "spirv_exec/spirv_module.h"

namespace {

using duet::spirv_exec::ShaderStage;

bool StageOf(spv::ExecutionModel model, ShaderStage* stage) {
  switch (model) {
    case spv::ExecutionModel::GLCompute: *stage = ShaderStage::kCompute; return true;
    case spv::ExecutionModel::Vertex: *stage = ShaderStage::kVertex; return true;
    case spv::ExecutionModel::Fragment: *stage = ShaderStage::kFragment; return true;
    case spv::ExecutionModel::Geometry: *stage = ShaderStage::kGeometry; return true;
    case spv::ExecutionModel::TessellationControl: *stage = ShaderStage::kTessControl; return true;
    case spv::ExecutionModel::TessellationEvaluation: *stage = ShaderStage::kTessEvaluation; return true;
    default: return false;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // vkCreateShaderModule takes whole words only.
  std::vector<uint32_t> words(size / 4);
  if (!words.empty()) std::memcpy(words.data(), data, words.size() * 4);
  std::string error;
  if (!duet::spirv_exec::ValidateSpirv(words.data(), words.size(), {}, &error)) return 0;
  // Specialization constants 0..7 take values from the input's last bytes
  // (booleans, integers and floats all read 4 bytes).
  uint32_t spec_values[8] = {};
  VkSpecializationMapEntry entries[8];
  for (uint32_t i = 0; i < 8; ++i) entries[i] = {i, i * 4, 4};
  if (size >= sizeof spec_values) std::memcpy(spec_values, data + size - sizeof spec_values, sizeof spec_values);
  const VkSpecializationInfo specialization{8, entries, sizeof spec_values, spec_values};
  std::vector<uint32_t> prepared;
  error.clear();
  const bool specialize = size % 8 == 4;  // half the inputs, decided by the input itself
  if (!duet::spirv_exec::PrepareModule(words, specialize ? &specialization : nullptr, {}, &prepared, &error)) return 0;
  duet::spirv_exec::SpirvModule module;
  if (!duet::spirv_exec::ParseSpirvModule(prepared, &module, &error)) return 0;
  for (const duet::spirv_exec::SpirvEntryPoint& entry : module.entry_points) {
    ShaderStage stage;
    if (!StageOf(entry.model, &stage)) continue;
    duet::spirv_exec::Program program;
    error.clear();
    duet::spirv_exec::CompileStage(prepared, entry.name.c_str(), stage, &program, &error);
  }
  return 0;
}
