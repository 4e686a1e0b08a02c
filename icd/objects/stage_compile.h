// One shader stage of a pipeline, made ready to run: found in the
// application's pipeline cache or the on-disk cache, or compiled from
// SPIR-V and then kept in both.
#pragma once

#include <vulkan/vulkan_core.h>

#include "spirv_exec/ir.h"

namespace duet {

struct Device;
struct PipelineCache;

// `cache` may be null; `flags` are the pipeline's create flags (with
// FAIL_ON_PIPELINE_COMPILE_REQUIRED a stage in neither cache gives
// VK_PIPELINE_COMPILE_REQUIRED). *app_hit: found in `cache`. `command`
// names the call in log lines.
VkResult MakeShaderStage(const Device& device, const VkPipelineShaderStageCreateInfo& stage,
                         spirv_exec::ShaderStage kind, PipelineCache* cache, VkPipelineCreateFlags flags,
                         const char* command, spirv_exec::Program* program, bool* app_hit);

}  // namespace duet
