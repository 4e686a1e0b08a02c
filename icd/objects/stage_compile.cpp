#include "objects/stage_compile.h"

#include <memory>
#include <string>
#include <vector>

#include "objects/device.h"
#include "objects/pipeline.h"
#include "pipeline_cache/cache_stats.h"
#include "pipeline_cache/disk_cache.h"
#include "pipeline_cache/stage_key.h"
#include "spirv_exec/ir_prepare.h"
#include "spirv_exec/program_codec.h"
#include "spirv_exec/shader_module.h"
#include "spirv_exec/spirv_ingest.h"
#include "util/log.h"

namespace duet {

VkResult MakeShaderStage(const Device& device, const VkPipelineShaderStageCreateInfo& stage,
                         spirv_exec::ShaderStage kind, PipelineCache* cache, VkPipelineCreateFlags flags,
                         const char* command, spirv_exec::Program* program, bool* app_hit) {
  *app_hit = false;
  pipeline_cache::CountStage();
  std::vector<uint32_t> inline_words;
  std::string error;
  const std::vector<uint32_t>* words = StageModuleWords(stage, &inline_words, &error);
  if (words == nullptr) {
    DUET_ERROR("%s: %s", command, error.c_str());
    return VK_ERROR_UNKNOWN;
  }
  const spirv_exec::ValidationRules rules = ShaderValidationRules(device);
  const uint32_t subgroup_size = StageSubgroupSize(stage);
  const pipeline_cache::StageKey key =
      pipeline_cache::KeyOfStage(*words, stage.pSpecializationInfo, rules, stage.pName, kind, subgroup_size);

  // A blob that does not decode (it passed its checksum: a bug, not bad
  // luck) is compiled again.
  bool found = false;
  if (cache != nullptr) {
    if (pipeline_cache::Blob blob = cache->store.Find(key); blob && spirv_exec::DecodeProgram(*blob, program)) {
      found = *app_hit = true;
      pipeline_cache::CountAppHit();
    }
  }
  std::vector<uint8_t> bytes;
  if (!found && device.disk_cache != nullptr && device.disk_cache->Load(key, &bytes) &&
      spirv_exec::DecodeProgram(bytes, program)) {
    found = true;
    pipeline_cache::CountDiskHit();
    if (cache != nullptr) cache->store.Insert(key, std::make_shared<const std::vector<uint8_t>>(std::move(bytes)));
  }
  if (!found) {
    if ((flags & VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT) != 0) return VK_PIPELINE_COMPILE_REQUIRED;
    std::vector<uint32_t> prepared;
    if (!spirv_exec::PrepareModule(*words, stage.pSpecializationInfo, rules, &prepared, &error) ||
        !spirv_exec::TranslateStage(prepared, stage.pName, kind, program, &error, subgroup_size)) {
      // A module the compiler cannot take (or invalid input): no core
      // result code names it, VK_ERROR_UNKNOWN is the spec's last resort.
      DUET_ERROR("%s: %s: %s", command, stage.pName, error.c_str());
      return VK_ERROR_UNKNOWN;
    }
    pipeline_cache::CountCompiled();
    if (cache != nullptr || device.disk_cache != nullptr) {
      auto encoded = std::make_shared<std::vector<uint8_t>>();
      spirv_exec::EncodeProgram(*program, encoded.get());
      if (device.disk_cache != nullptr) device.disk_cache->Store(key, encoded);
      if (cache != nullptr) cache->store.Insert(key, std::move(encoded));
    }
  }
  program->serial = spirv_exec::NewProgramSerial();
  spirv_exec::PrepareExecution(program);
  return VK_SUCCESS;
}

}  // namespace duet
