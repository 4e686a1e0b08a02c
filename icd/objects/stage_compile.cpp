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

ShaderStageMaker::ShaderStageMaker(const Device& device, const VkPipelineShaderStageCreateInfo& stage,
                                   spirv_exec::ShaderStage kind, PipelineCache* cache, const char* command,
                                   spirv_exec::Program* program)
    : device_(device), stage_(stage), kind_(kind), cache_(cache), command_(command), program_(program) {}

VkResult ShaderStageMaker::Find(bool* found, bool* app_hit) {
  *found = *app_hit = false;
  pipeline_cache::CountStage();
  std::string error;
  words_ = StageModuleWords(stage_, &inline_words_, &error);
  if (words_.empty()) {
    DUET_ERROR("%s: %s", command_, error.c_str());
    return VK_ERROR_UNKNOWN;
  }
  key_ = pipeline_cache::KeyOfStage(words_, stage_.pSpecializationInfo, ShaderValidationRules(device_), stage_.pName,
                                    kind_, StageSubgroupSize(stage_));
  // A blob that does not decode (it passed its checksum: a bug, not bad
  // luck) is compiled again.
  if (cache_ != nullptr) {
    if (pipeline_cache::Blob blob = cache_->store.Find(key_); blob && spirv_exec::DecodeProgram(*blob, program_)) {
      *found = *app_hit = true;
      pipeline_cache::CountAppHit();
    }
  }
  std::vector<uint8_t> bytes;
  if (!*found && device_.disk_cache != nullptr && device_.disk_cache->Load(key_, &bytes) &&
      spirv_exec::DecodeProgram(bytes, program_)) {
    *found = true;
    pipeline_cache::CountDiskHit();
    if (cache_ != nullptr) cache_->store.Insert(key_, std::make_shared<const std::vector<uint8_t>>(std::move(bytes)));
  }
  if (*found) Finish();
  return VK_SUCCESS;
}

VkResult ShaderStageMaker::Compile() {
  std::string error;
  std::vector<uint32_t> prepared;
  const spirv_exec::ValidationRules rules = ShaderValidationRules(device_);
  if (!spirv_exec::PrepareModule(words_, stage_.pSpecializationInfo, rules, &prepared, &error) ||
      !spirv_exec::TranslateStage(prepared, stage_.pName, kind_, program_, &error, StageSubgroupSize(stage_))) {
    // A module the compiler cannot take (or invalid input): no core
    // result code names it, VK_ERROR_UNKNOWN is the spec's last resort.
    DUET_ERROR("%s: %s: %s", command_, stage_.pName, error.c_str());
    return VK_ERROR_UNKNOWN;
  }
  pipeline_cache::CountCompiled();
  if (cache_ != nullptr || device_.disk_cache != nullptr) {
    auto encoded = std::make_shared<std::vector<uint8_t>>();
    spirv_exec::EncodeProgram(*program_, encoded.get());
    if (device_.disk_cache != nullptr) device_.disk_cache->Store(key_, encoded);
    if (cache_ != nullptr) cache_->store.Insert(key_, std::move(encoded));
  }
  Finish();
  return VK_SUCCESS;
}

void ShaderStageMaker::Finish() {
  program_->serial = spirv_exec::NewProgramSerial();
  spirv_exec::PrepareExecution(program_);
}

VkResult MakeShaderStage(const Device& device, const VkPipelineShaderStageCreateInfo& stage,
                         spirv_exec::ShaderStage kind, PipelineCache* cache, VkPipelineCreateFlags flags,
                         const char* command, spirv_exec::Program* program, bool* app_hit) {
  ShaderStageMaker maker(device, stage, kind, cache, command, program);
  bool found = false;
  const VkResult result = maker.Find(&found, app_hit);
  if (result != VK_SUCCESS || found) return result;
  if ((flags & VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT) != 0) return VK_PIPELINE_COMPILE_REQUIRED;
  return maker.Compile();
}

}  // namespace duet
