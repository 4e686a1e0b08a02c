// One shader stage of a pipeline, made ready to run: found in the
// application's pipeline cache or the on-disk cache, or compiled from
// SPIR-V and then kept in both.
#pragma once

#include <vulkan/vulkan_core.h>

#include <span>
#include <string>
#include <vector>

#include "pipeline_cache/stage_key.h"
#include "spirv_exec/ir.h"

namespace duet {

struct Device;
struct PipelineCache;

// Find first (cheap); Compile only what no cache holds. The steps of
// different stages may run on different threads at once.
class ShaderStageMaker {
 public:
  // `cache` may be null; `command` names the call in log lines.
  ShaderStageMaker(const Device& device, const VkPipelineShaderStageCreateInfo& stage, spirv_exec::ShaderStage kind,
                   PipelineCache* cache, const char* command, spirv_exec::Program* program);

  // Whether a cache holds the stage (then the program is ready), or an
  // error (no SPIR-V). *app_hit: found in the application's cache.
  VkResult Find(bool* found, bool* app_hit);
  // Compiles it and keeps it in the caches.
  VkResult Compile();

 private:
  void Finish();

  const Device& device_;
  const VkPipelineShaderStageCreateInfo& stage_;
  spirv_exec::ShaderStage kind_;
  PipelineCache* cache_;
  const char* command_;
  spirv_exec::Program* program_;
  std::vector<uint32_t> inline_words_;
  std::span<const uint32_t> words_;
  pipeline_cache::StageKey key_;
};

// Find, then Compile unless found: the whole of one stage. With
// FAIL_ON_PIPELINE_COMPILE_REQUIRED in `flags`, a stage in neither cache
// gives VK_PIPELINE_COMPILE_REQUIRED.
VkResult MakeShaderStage(const Device& device, const VkPipelineShaderStageCreateInfo& stage,
                         spirv_exec::ShaderStage kind, PipelineCache* cache, VkPipelineCreateFlags flags,
                         const char* command, spirv_exec::Program* program, bool* app_hit);

}  // namespace duet
